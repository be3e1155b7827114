"""A turn you can see: a key's shots, bolts, blasts, hits and deaths animated for a moment, from
the key's typed events, while the loop stays on demand (frames only while one plays)."""

from __future__ import annotations

import pytest

from engine import Monster, testing
from engine.core.model.events import Blast, Bolt, Hurt, LevelEntered, Shot
from engine.core.play.session import Outcome, Session

pyglet = pytest.importorskip("pyglet")
arcade = pytest.importorskip("arcade")

from pyglet.window import key  # noqa: E402
from test_frontend import brightest, cell_pixels, screenshot  # noqa: E402

from engine.frontend import loop  # noqa: E402
from engine.frontend.animations import (  # noqa: E402
    DEATH_FRAMES,
    FRAME_SECONDS,
    HIT_FRAMES,
    KEY_FRAMES,
    LIT_FRAMES,
    SHOT_FRAMES,
    frames_for,
)
from engine.frontend.launch import open_window  # noqa: E402
from engine.frontend.settings import Settings  # noqa: E402
from engine.kit.lines import line  # noqa: E402

ROOM = """
    ############
    #@.........#
    #..........#
    ############
"""


def everywhere(x, y):
    return True


def test_a_shot_flies_a_cell_a_frame_then_what_it_hit_flashes():
    frames = frames_for([Shot((1, 1), (5, 1)), Hurt(2, 3, by=7, at=(5, 1))], everywhere)
    assert [[s.cell for s in f] for f in frames[:4]] == [[(2, 1)], [(3, 1)], [(4, 1)], [(5, 1)]]
    assert all(s.size < 1 for f in frames[:4] for s in f)  # the missile: a small square
    assert len(frames) == 4 + HIT_FRAMES and all([s.cell for s in f] == [(5, 1)] for f in frames[4:])
    alphas = [f[0].color[3] for f in frames[4:]]
    assert alphas == sorted(alphas, reverse=True) and alphas[0] > 0  # the flash fades


def test_a_long_flight_skips_cells_and_still_ends_on_its_target():
    frames = frames_for([Shot((0, 0), (40, 7))], everywhere)
    assert len(frames) == SHOT_FRAMES and frames[-1][0].cell == (40, 7)
    assert line((0, 0), (3, -2)) == [(0, 0), (1, -1), (2, -1), (3, -2)]


def test_a_blast_lights_its_cells_then_its_hits_flash_together_and_a_death_fades_longer():
    blast = Blast(((3, 3), (3, 4), (4, 3)), color=(255, 140, 40))
    frames = frames_for([blast, Hurt(5, 4, at=(3, 4)), Hurt(6, 9, at=(4, 3), killed=True)], everywhere)
    assert {s.cell for s in frames[0]} == {(3, 3), (3, 4), (4, 3)} and frames[0][0].color[:3] == (255, 140, 40)
    assert {s.cell for s in frames[LIT_FRAMES]} == {(3, 4), (4, 3)}  # both hits start together
    assert len(frames) == LIT_FRAMES + DEATH_FRAMES and {s.cell for s in frames[-1]} == {(4, 3)}


def test_unseen_cells_are_never_drawn_and_a_key_never_plays_long():
    seen = frames_for([Bolt((1, 1), (9, 1))], lambda x, y: x < 5)
    assert {s.cell for f in seen for s in f} == {(2, 1), (3, 1), (4, 1)}
    assert frames_for([Hurt(2, 3, at=(9, 9))], lambda x, y: False) == []  # nothing seen: nothing plays
    many = [Shot((0, 0), (8, 0)), Hurt(1, 1, at=(8, 0))] * 10
    assert len(frames_for(many, everywhere)) == KEY_FRAMES
    # what came before a level was entered happened on the level left
    assert frames_for([Hurt(1, 1, at=(2, 2)), LevelEntered(2)], everywhere) == []


def test_the_archers_arrow_and_the_scrolls_are_announced_and_change_nothing(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@...a...#
        ##########

        a: goblin archer
    """)
    archer = next(e for e in game.api.monsters())
    game.world.get(archer, Monster).awake = True
    outcome = Session.of(game).press(".")
    shots = [e for e in outcome.events if isinstance(e, Shot)]
    assert shots and shots[0].end == (1, 1)
    hurt = [e for e in outcome.events if isinstance(e, Hurt)]
    assert hurt and hurt[0].at == (1, 1) and outcome.events.index(shots[0]) < outcome.events.index(hurt[0])
    heard = []
    game.listeners.append(lambda event, g: heard.append(event))
    fireball, lightning = game.api.item_kind("scroll of fireball"), game.api.item_kind("scroll of lightning")
    target = game.api.position(archer)
    game.registry.effects["lightning"](game.api, game.player, lightning, 1, target=target)
    assert isinstance(heard[0], Bolt) and (heard[0].start, heard[0].end) == ((1, 1), target)
    game.registry.effects["fireball"](game.api, game.player, fireball, 1, target=target)
    blasts = [e for e in heard if isinstance(e, Blast)]
    assert blasts and target in blasts[0].cells and set(blasts[0].cells) == set(game.api.area(target, fireball.radius))


@pytest.fixture
def window(tmp_path):
    game = testing.game_from_map(testing.load_plugin(), ROOM)
    w = open_window(game, headless=True, settings=Settings({"window_size": [640, 400]}))
    yield w
    if not w.closed:
        w.close()


def burst(window):
    """A blast around the player's right-hand cells, with a hit and a death: as a fireball's key."""
    cells = ((3, 1), (4, 1), (3, 2), (4, 2))
    return Outcome(changed=True, events=(Blast(cells, color=(255, 140, 40)), Hurt(2, 3, at=(3, 1)),
                                         Hurt(3, 9, at=(4, 2), killed=True)))


def test_a_chosen_animation_frame_draws_headless_over_the_map(window):
    plain = screenshot(window)
    window.animations.show(frames_for(burst(window).events, window.game.api.sees), at=0)
    image = screenshot(window)
    r, g, b = brightest(cell_pixels(window, image, 3, 2))
    assert r > 150 and 60 < g < 160 and b < 80  # the blast's orange over the floor
    window.animations.show(frames_for(burst(window).events, window.game.api.sees), at=LIT_FRAMES)
    image = screenshot(window)
    assert min(brightest(cell_pixels(window, image, 3, 1))) > 120  # the hit's white flash
    assert max(cell_pixels(window, image, 4, 2))[0] > 100  # the death's red
    assert cell_pixels(window, image, 3, 2) == cell_pixels(window, plain, 3, 2)  # the blast is over there
    window.animations.skip()
    assert screenshot(window) == plain


def test_an_animation_draws_a_bounded_run_of_frames_then_the_loop_sleeps(window):
    loop.run(0.2)  # the window's own first frames
    start = window.frames.frames
    window.heard_outcome(burst(window))
    loop.run((LIT_FRAMES + DEATH_FRAMES) * FRAME_SECONDS + 0.5)
    drawn = window.frames.frames - start
    assert not window.animations.playing
    assert 2 <= drawn <= LIT_FRAMES + DEATH_FRAMES + 1  # its frames (a late one skipped), then one clean
    idle = window.frames.frames
    loop.run(0.5)
    assert window.frames.frames == idle, "the idle window drew frames after an animation"


def test_any_key_skips_what_plays_and_the_setting_turns_them_off(window):
    window.heard_outcome(burst(window))
    assert window.animations.playing
    window.on_key_press(key.LSHIFT, 0)  # any key, even one that means nothing
    assert not window.animations.playing
    window.settings["animations"] = False
    window.heard_outcome(burst(window))
    assert not window.animations.playing
    window.settings["animations"] = True
    # --keys and replays press without animating: presentation, never state
    window.press(".")
    assert not window.animations.playing
