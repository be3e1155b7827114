"""The default game's colours: every kind a player must tell apart stays apart, lit and remembered.

Distances are CIEDE2000 (about 1: barely noticed side by side; 10+: another colour), computed on
the colours the window really draws (engine.frontend.compose.Tables, engine.frontend.palette).
"""

from __future__ import annotations

import itertools

import pytest

from engine.core.looks import player_look
from engine.core.setup import default_game
from engine.frontend import palette
from engine.frontend.compose import LIT, TILE_CODES, Names, Tables
from engine.kit.mapgen import WALL

LIT_APART = 20.0  # lit: two kinds side by side in the light
REMEMBERED_APART = 10.0  # remembered terrain and items: dimmer, so a smaller bar
ON_BACKGROUND = 10.0  # a glyph against the background it is drawn on
LIT_FROM_REMEMBERED = 10.0  # a lit floor never looks like a remembered one


def kinds(registry) -> tuple[dict[str, tuple], dict[str, tuple], dict[str, tuple]]:
    """(lit colours, remembered colours, backgrounds lit/remembered) by kind, as the window draws them."""
    rules = default_game(registry)
    tables = Tables(rules, LIT, Names())
    lit: dict[str, tuple] = {"player": tuple(player_look(rules).color)}
    lit |= {f"monster {k}": tuple(m.color) for k, m in registry.monsters.items()}
    items = {f"item {k}": tuple(i.color) for k, i in registry.items.items() if k in rules.item_counts}
    terrain = {name: tuple(tables.color[code].tolist()) for name, code in TILE_CODES.items()}
    lit |= items | terrain
    remembered = {k: palette.remembered(c) for k, c in items.items()}
    remembered |= {name: tuple(tables.memory[code].tolist()) for name, code in TILE_CODES.items()}
    backgrounds = {}
    for name in lit:
        code = TILE_CODES.get(name, TILE_CODES["floor"])  # things stand on the floor
        backgrounds[name] = (tuple(tables.bg_lit[code].tolist()), tuple(tables.bg_memory[code].tolist()))
    return lit, remembered, backgrounds


def pairs_below(colours: dict[str, tuple], bar: float) -> list[str]:
    return [f"{a} {ca} vs {b} {cb}: {palette.delta_e(ca, cb):.1f}"
            for (a, ca), (b, cb) in itertools.combinations(colours.items(), 2) if palette.delta_e(ca, cb) < bar]


def test_every_pair_of_kinds_is_apart_when_lit(registry):
    lit, _, _ = kinds(registry)
    assert {"monster rat", "monster goblin", "monster orc", "item gold", "item potion", "wall", "stairs"} <= set(lit)
    assert pairs_below(lit, LIT_APART) == []


def test_every_pair_of_remembered_kinds_is_apart(registry):
    _, remembered, _ = kinds(registry)
    assert pairs_below(remembered, REMEMBERED_APART) == []


def test_every_glyph_reads_on_its_background_lit_and_remembered(registry):
    lit, remembered, backgrounds = kinds(registry)
    low = [f"{k} lit {c} on {backgrounds[k][0]}" for k, c in lit.items()
           if palette.delta_e(c, backgrounds[k][0]) < ON_BACKGROUND]
    low += [f"{k} remembered {c} on {backgrounds[k][1]}" for k, c in remembered.items()
            if palette.delta_e(c, backgrounds[k][1]) < ON_BACKGROUND]
    assert low == []
    same = [k for k, c in remembered.items() if palette.delta_e(c, lit[k]) < LIT_FROM_REMEMBERED]
    assert same == []
    # the lit background differs from the remembered one: light reads even on bare floor
    assert palette.delta_e(palette.LIGHT_BG, palette.MEMORY_BG) >= 5


def test_the_check_catches_the_old_colours():
    """The colours before this palette: rats like walls, gold like stairs. The check must say so."""
    old = {"monster rat": (170, 140, 110), "wall": (150, 140, 130), "item gold": (240, 200, 40),
           "stairs": (240, 220, 80)}
    found = pairs_below(old, LIT_APART)
    assert any("rat" in p and "wall" in p for p in found) and any("gold" in p and "stairs" in p for p in found)


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
