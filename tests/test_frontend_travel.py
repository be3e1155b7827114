"""Travel in the window: the player's o, > or click walks one drawn step per tick, and any key or
click stops it (recorded with its steps, so a replay stops there too); --keys play it at once."""

from __future__ import annotations

import pytest

from engine import testing
from engine.core.model.events import KeyPlayed
from engine.core.play.session import Session

arcade = pytest.importorskip("arcade")

from test_frontend import window_for  # noqa: E402, F401
from test_travel import ROOMS  # noqa: E402


def heard_keys(game) -> list[str]:
    heard: list[str] = []
    game.listeners.append(lambda event, g: isinstance(event, KeyPlayed) and heard.append(event.token))
    return heard


def test_the_players_travel_walks_a_step_a_tick_and_a_key_stops_it(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, ROOMS)
    heard = heard_keys(game)
    window = window_for(game)
    window.press("o", animate=True)
    assert Session.of(game).travel is not None and game.turn == 0 and heard == []
    for _ in range(4):
        window.controls.travel_tick(0.04)
    assert game.turn == 4 and window.frames.pending  # each step asks for a frame
    window.on_key_press(arcade.key.ESCAPE, 0)  # any key stops it first
    assert Session.of(game).travel is None and heard[0] == "o:4"


def test_a_travel_that_stops_by_itself_records_the_plain_key(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, ROOMS)
    heard = heard_keys(game)
    window = window_for(game)
    window.press("travel:3,2", animate=True)
    for _ in range(10):
        window.controls.travel_tick(0.04)
    assert game.api.position(game.player) == (3, 2) and Session.of(game).travel is None and heard == ["travel:3,2"]


def test_a_click_on_a_known_cell_travels_there(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, ROOMS)
    window = window_for(game)
    window.frames.draw()
    left, bottom, width, height = window.map_view.cell_rect(3, 2)
    ratio = window.ratio
    window.on_mouse_press((left + width / 2) / ratio, (bottom + height / 2) / ratio, arcade.MOUSE_BUTTON_LEFT, 0)
    for _ in range(10):
        window.controls.travel_tick(0.04)
    assert game.api.position(game.player) == (3, 2)


def test_keys_given_on_the_command_line_travel_at_once(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, ROOMS)
    window = window_for(game)
    window.press("o")  # as --keys and replays do
    assert Session.of(game).travel is None and game.messages[-1] == "Explored all you can reach."


def test_the_windows_rest_plays_many_turns_a_tick(registry, window_for):  # noqa: F811
    """A rest draws nothing that moves: the window plays REST_TURNS_PER_STEP turns a tick, and a
    key stops it as it stops a walk."""
    game = testing.game_from_map(registry, ROOMS)
    heard = heard_keys(game)
    game.api.damage(game.player, 5)
    window = window_for(game)
    window.press("Z", animate=True)
    window.controls.travel_tick(0.04)
    window.controls.travel_tick(0.04)
    assert game.turn == 2 * window.controls.REST_TURNS_PER_STEP > 2
    window.on_key_press(arcade.key.ESCAPE, 0)
    assert Session.of(game).travel is None and heard[0] == f"Z:{game.turn}"
