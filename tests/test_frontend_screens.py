"""The window's preset-driven parts: the title screen, terrain looks, the death screen, held keys."""

from __future__ import annotations

import pytest

from engine import testing
from engine.core.model.components import Fighter
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.persist import keeper

arcade = pytest.importorskip("arcade")

from test_frontend import cell_pixels, screenshot, window_for  # noqa: E402, F401


def brightest(pixels):
    return max(pixels, key=sum)


def test_title_screen_continue_resumes_the_saved_run(window_for):  # noqa: F811
    first = keeper.open_game(Setup(seed=11))
    for token in "l l j".split():
        Session.of(first).press(token)
    Session.of(first).press("esc")  # save and quit
    turn = first.turn
    saved = keeper.saved_run()
    assert saved["seed"] == 11 and saved["turn"] == turn
    window = window_for(new_game(Setup(seed=1)), title_screen=saved,
                        choose=lambda choice: keeper.open_game(Setup(), choice=choice))
    image = screenshot(window)
    assert window.title_screen is not None and max(image.getdata(), key=sum) != (0, 0, 0)
    assert window.press("x") is False and window.title_screen is not None  # not a title key
    assert window.press("c")
    assert window.title_screen is None and window.game.seed == 11 and window.game.turn == turn
    assert keeper.saved_run()["turn"] == turn  # kept while played: a crash resumes it


def test_title_screen_new_run(window_for):  # noqa: F811
    g = keeper.open_game(Setup(seed=12))
    Session.of(g).press("esc")
    window = window_for(new_game(Setup(seed=1)), title_screen=keeper.saved_run(),
                        choose=lambda choice: keeper.open_game(Setup(seed=99), choice=choice))
    window.press("n")
    assert window.game.seed == 99 and window.game.turn == 0


def test_preset_tiles_colour_the_terrain(registry, window_for):  # noqa: F811
    g = testing.game_from_map(registry, """
        ######
        #@...#
        ######
    """, game="rogue-sdl")
    window = window_for(g)
    image = screenshot(window)
    assert brightest(cell_pixels(window, image, 0, 0)) == (180, 160, 110)  # rogue-sdl's wall
    assert brightest(cell_pixels(window, image, 3, 1)) == (110, 110, 130)  # and floor


def test_bunyip_remembers_everything_in_one_grey(registry, window_for):  # noqa: F811
    g = testing.game_from_map(registry, """
        ##############################
        #@...........................#
        ##############################
    """, game="bunyip")
    window = window_for(g)
    for _ in range(12):
        Session.of(g).press("l")
    g.update_view()
    image = screenshot(window)
    assert not g.floor.visible[1, 1] and g.floor.seen[1, 1]
    assert brightest(cell_pixels(window, image, 1, 1)) == (70, 70, 90)
    assert brightest(cell_pixels(window, image, 0, 0)) == (70, 70, 90)


def test_rogue_sdl_death_turns_the_keys_line_red_without_an_overlay(registry, window_for):  # noqa: F811
    g = testing.game_from_map(registry, """
        #######
        #@o...#
        #######
    """, game="rogue-sdl")
    g.world.get(g.player, Fighter).hp = 1
    window = window_for(g)
    Session.of(g).press("d")
    assert not g.alive
    screenshot(window)
    lines = window.hud.lines()
    assert lines["keys"] == "You have died. Press R to play again, or Esc to quit."
    assert tuple(window.hud.keys.color)[:3] == (235, 60, 50)


def test_held_keys_do_not_repeat_in_lesson28(registry, window_for):  # noqa: F811
    g = testing.game_from_map(registry, """
        .......>
        ........
        @.......
    """, game="lesson28")
    window = window_for(g)
    assert window.press("right")
    assert window.press("right", repeat=True) is False
    assert g.position(g.player) == (1, 2)


def test_the_death_screen_shows_the_profile(tmp_path, registry, window_for, monkeypatch):  # noqa: F811
    monkeypatch.setenv("UNDERCROFT_HOME", str(tmp_path / "home"))  # a profile of this test's own
    g = testing.game_from_map(registry, """
        #####
        #@o.#
        #####
    """)
    g.world.get(g.player, Fighter).hp = 1
    window = window_for(g)
    Session.of(g).press(".")
    screenshot(window)
    assert window.painter.profile_lines == []  # no run of this preset recorded (a test's game): no zeros
    assert "Killed by an orc on depth 1" in window.end_screen.strings()
    from engine.persist import profile

    profile.run_started("undercroft")
    g = testing.game_from_map(registry, "#####\n#@o.#\n#####")
    g.world.get(g.player, Fighter).hp = 1
    window = window_for(g)
    Session.of(g).press(".")
    assert not g.alive
    screenshot(window)
    assert window.painter.profile_lines and window.painter.profile_lines[0].startswith("Runs 1 ")
    assert window.painter.profile_lines[0] in window.end_screen.strings()


def test_the_death_screen_names_the_monster_that_struck(registry, window_for):  # noqa: F811
    g = testing.game_from_map(registry, """
        #####
        #r@g#
        #####
    """)
    window = window_for(g)
    for _ in range(60):
        if not g.alive:
            break
        Session.of(g).press(".")
    assert not g.alive
    screenshot(window)
    last = next(m for m in reversed(g.messages) if "kills you" in m)
    killer = "goblin" if "goblin" in last else "rat"
    assert f"Killed by a {killer} on depth 1" in window.end_screen.strings()
