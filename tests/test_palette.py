"""The default game's colours: every kind a player must tell apart stays apart, lit and remembered.

Distances are CIEDE2000 (about 1: barely noticed side by side; 10+: another colour), computed on
the colours the window really draws (engine.frontend.compose.Tables, engine.frontend.palette).
"""

from __future__ import annotations

import dataclasses
import types

import pytest

from engine import MonsterKind, hookimpl, testing
from engine.frontend import palette
from engine.frontend.compose import TILE_CODES
from engine.kit.mapgen import WALL


def test_the_default_game_keeps_the_palette_rule(registry):
    """The kit's rule (engine.testing.check_palette): lit, remembered and on their backgrounds."""
    colours = testing.palette_colours(registry)
    assert {"player", "monster rat", "monster goblin", "monster orc", "item gold", "item potion", "wall",
            "stairs"} <= set(colours)
    assert testing.palette_problems(registry) == []
    testing.check_palette(registry, "undercroft")
    # the lit background differs from the remembered one: light reads even on bare floor
    assert palette.delta_e(palette.LIGHT_BG, palette.MEMORY_BG) >= 5


def test_the_check_catches_the_old_colours(registry):
    """The colours before this palette: rats like walls, gold like stairs. The check must say so,
    and a plugin's monster joining the default game is held to it."""
    old = types.SimpleNamespace(register_monsters=hookimpl(lambda register: register(MonsterKind(
        name="dust-rat", glyph="d", color=(150, 140, 130), hp=1, attack=1))))
    joined = testing.load_plugin(old)
    with pytest.raises(testing.ContractError, match=r"^game 'undercroft': its colours are apart: [0-9]+ "
                                                    r"problems: lit: .*dust-rat \(150, 140, 130\) are [0-9.]+ apart "
                                                    r"\(at least 1[68]\)"):
        testing.check_palette(joined)
    found = testing.palette_problems(joined)
    assert any("dust-rat" in p and "wall" in p for p in found)


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    # Sharma, Wu and Dalal (2005), the CIEDE2000 test data: pairs 1, 7, 17, 25
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_delta_e_matches_the_published_pairs(lab1, lab2, expected):
    assert palette.delta_e_lab(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_memory_is_dimmer_and_greyer():
    for rgb in [(240, 200, 40), (90, 200, 80), (165, 160, 175)]:
        r, g, b = palette.remembered(rgb)
        assert r + g + b < sum(rgb) * 0.6
        assert max(r, g, b) - min(r, g, b) < (max(rgb) - min(rgb)) * 0.5
    assert palette.wall_bg((100, 100, 100)) == (30, 30, 30)
    assert WALL in TILE_CODES.values()


def test_the_check_lists_every_problem_in_one_line(registry):
    dusty = testing.load_plugin(types.SimpleNamespace(register_monsters=hookimpl(lambda register: [register(
        MonsterKind(name=f"dust-{n}", glyph=g, color=(150, 140, 130), hp=1, attack=1)) for n, g in (("rat", "d"),
                                                                                                 ("mouse", "m"))])))
    found = testing.palette_problems(dusty)
    assert len(found) >= 3
    with pytest.raises(testing.ContractError) as e:
        testing.check_palette(dusty)
    message = str(e.value)
    assert message.startswith(f"game 'undercroft': its colours are apart: {len(found)} problems: {found[0]}; ")
    assert all(problem in message for problem in found) and "more)" not in message and "\n" not in message


def test_colour_distance_is_the_distance_the_rule_measures():
    wall, rat = (165, 160, 175), (150, 140, 130)
    assert testing.colour_distance(wall, wall) == 0
    assert testing.colour_distance(wall, rat) == testing.colour_distance(rat, wall) == palette.delta_e(wall, rat)
    assert 10 < testing.colour_distance(wall, rat) < 20  # another colour, but too close lit (see the rule)


def test_a_remembered_colour_the_window_would_change_is_reported(registry):
    """The lit look makes remembered colours from the lit ones: a preset's own is not drawn, and
    the check says so rather than the window changing it silently."""
    upstairs = {"glyph": "<", "color": (140, 255, 255), "remembered": (56, 100, 100)}
    mine = dataclasses.replace(registry.games["undercroft"], name="dim", default=False,
                               tiles={**registry.games["undercroft"].tiles, "upstairs": upstairs})
    classic = dataclasses.replace(mine, name="dim-classic", messages={**mine.messages, "status": "HP {hp}"})
    registry = testing.load_plugin(types.SimpleNamespace(register_games=hookimpl(
        lambda register: [register(mine), register(classic)])))
    with pytest.raises(testing.ContractError, match=r"^game 'dim': its colours are apart: upstairs: its remembered "
                                                    r"colour \(56, 100, 100\) is drawn as \(92, 118, 118\) \(the lit "
                                                    r"look dims and greys the lit \(140, 255, 255\)\): write "
                                                    r"\[92, 118, 118\], or leave it out"):
        testing.check_palette(registry, "dim")
    assert not any("its remembered colour" in p for p in testing.palette_problems(registry, "dim-classic"))


def test_a_creature_must_read_on_the_green_under_a_friend(registry):
    """Any monster may be a captive, then an ally, drawn on the friend's background: a monster of
    that very green is a breach of the palette rule, named in one line."""
    from engine.frontend import palette

    green = types.SimpleNamespace(register_monsters=hookimpl(lambda register: register(MonsterKind(
        name="moss-lurker", glyph="M", color=palette.FRIEND_BG, hp=1, attack=1))))
    problems = testing.palette_problems(testing.load_plugin(green))
    assert any(p.startswith("lit: monster moss-lurker") and "background of a friend" in p for p in problems)
    assert palette.delta_e(palette.FRIEND_BG, palette.LIGHT_BG) >= 10  # the green reads on the lit floor
