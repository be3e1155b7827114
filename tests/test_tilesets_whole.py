"""Sprite tilesets drawn whole: things stand on the terrain's picture (no black square behind a
creature), what a set lacks is drawn visibly (its glyph in a magenta frame) and
``engine.testing.check_tileset`` / ``tileset_gaps`` say what it lacks; names fall back to their
parents (``monster:rat`` to ``monster``); a set's wall rule is used by the window."""

from __future__ import annotations

import types

import pytest

from engine import hookimpl, testing
from engine.kit.tiles import Tile, parents, pick

arcade = pytest.importorskip("arcade")
Image = pytest.importorskip("PIL.Image")

from test_frontend import cell_pixels, screenshot, window_for  # noqa: E402, F401

ROOM = """
    ########
    #@.$.r.#
    ########
"""
FLOOR = (0, 90, 0, 255)  # the partial set's floor: a flat green, told apart from any glyph
MAGENTA = (255, 0, 255)
RAT = (200, 145, 90)  # content/monsters.toml


class Partial:
    """A sprite set that has a wall, a floor and a picture for any monster's family, and nothing else."""

    sprites = True

    def __init__(self, ctx, walls=None, family=False):
        self.size = (ctx.cell, ctx.cell)
        self.floor = Tile(Image.new("RGBA", self.size, FLOOR))
        self.wall = Tile(Image.new("RGBA", self.size, (120, 120, 120, 255)))
        self.monster = Tile(Image.new("RGBA", self.size, (0, 0, 250, 255))) if family else None
        if walls is not None:
            self.walls = walls

    def tile(self, name, glyph):
        return {"floor": self.floor, "wall": self.wall, "monster": self.monster}.get(name)


def registry_with(**sets):
    module = types.SimpleNamespace(register_tilesets=hookimpl(
        lambda register: [register(name, fn) for name, fn in sets.items()]))
    return testing.load_plugin(module)


def test_names_fall_back_to_their_parents_and_pick_tries_the_glyph_last():
    assert parents("monster:rat") == ["monster:rat", "monster"]
    assert parents("wall:deep") == ["wall:deep", "wall"] and parents("floor") == ["floor"]
    assert pick("door:open", "'", {"door": 1}, {"'": 2}) == 1
    assert pick("item:wand of frost", "/", {"item:gold": 1}, {"/": 2}) == 2
    assert pick("monster:rat", "r", {"item": 1}) is None


def test_kenney_draws_the_floor_under_a_monster_and_an_item(tmp_path, window_for, registry):  # noqa: F811
    game = testing.game_from_map(registry, ROOM)
    window = window_for(game, tilesets=registry.tilesets, tileset="kenney")
    image = screenshot(window)
    floor = cell_pixels(window, image, 2, 1)  # bare floor, lit
    for x in (3, 5):  # the gold, the rat
        cell = cell_pixels(window, image, x, 1)
        corner = cell[0]  # the sprites leave their top-left corner transparent
        assert sum(corner) > 60, f"a black square behind the thing at x={x}: {corner}"
        assert all(abs(a - b) <= 8 for a, b in zip(corner, floor[0], strict=True))  # the floor's own pixel
        assert sum(1 for p, q in zip(cell, floor, strict=True) if p != q) > len(cell) // 20  # and the sprite on it


def test_kenney_is_whole_for_the_built_in_games(registry):
    assert testing.tileset_gaps(registry.tilesets["kenney"], registry=registry) == []
    testing.check_tileset(registry.tilesets["kenney"], registry=registry, cells=(16,), whole=True)


def test_a_sprite_set_draws_what_it_lacks_as_its_glyph_in_a_magenta_frame(registry, window_for):  # noqa: F811
    registry = registry_with(partial=Partial)
    window = window_for(testing.game_from_map(registry, ROOM), tilesets=registry.tilesets, tileset="partial")
    image = screenshot(window)
    rat = cell_pixels(window, image, 5, 1)
    side = window.map_view.cell_rect(5, 1)[2]
    assert rat[0] == MAGENTA and rat[side - 1] == MAGENTA  # the frame's top corners
    assert FLOOR[:3] in rat  # on the floor
    assert any(all(abs(a - b) <= 12 for a, b in zip(p, RAT, strict=True)) for p in rat)  # the rat's 'r', its colour
    assert MAGENTA not in cell_pixels(window, image, 2, 1)  # a floor it has is not framed


def test_a_set_that_maps_a_family_draws_its_every_member(registry, window_for):  # noqa: F811
    registry = registry_with(family=lambda ctx: Partial(ctx, family=True))
    window = window_for(testing.game_from_map(registry, ROOM), tilesets=registry.tilesets, tileset="family")
    image = screenshot(window)
    assert set(cell_pixels(window, image, 5, 1)) == {(0, 0, 250)}  # "monster:rat" drawn as "monster"


def test_check_tileset_says_what_a_sprite_set_lacks(registry):
    partial = registry_with(partial=Partial).tilesets["partial"]
    gaps = testing.tileset_gaps(partial, registry=registry)
    assert "monster:rat 'r'" in gaps and "item:gold '$'" in gaps and "player '@'" in gaps
    assert not any(g.startswith(("floor ", "wall ", "wall:deep ")) for g in gaps)  # deep rock falls back to wall
    with pytest.raises(testing.ContractError, match=r"^tileset 'partial': has a picture for everything a window "
                                                    r"asks for: it lacks [0-9]+: .*player '@'"):
        testing.check_tileset(partial, registry=registry, cells=(16,))
    testing.check_tileset(partial, registry=registry, cells=(16,), whole=False)  # the contract itself holds
    testing.check_tileset(registry.tilesets["glyphs"], registry=registry, cells=(16,))  # a glyph set lacks by design


def test_a_wall_rule_that_is_none_is_one_line_and_the_default_is_drawn(registry, window_for, capsys):  # noqa: F811
    registry = registry_with(wavy=lambda ctx: Partial(ctx, walls="wavy"))
    with pytest.raises(testing.ContractError, match=r"walls is one of plain, facing, lines, double, got 'wavy'"):
        testing.check_tileset(registry.tilesets["wavy"], cells=(16,), whole=False)
    window = window_for(testing.game_from_map(registry, ROOM), tilesets=registry.tilesets, tileset="wavy")
    window.frames.draw()
    assert window.painter.wall_view().rule == "facing"
    err = capsys.readouterr().err
    assert err.count("tileset wavy: walls is one of") == 1 and "Traceback" not in err


def test_a_sets_wall_rule_is_the_windows(registry, window_for):  # noqa: F811
    registry = registry_with(joined=lambda ctx: Partial(ctx, walls="double"))
    window = window_for(testing.game_from_map(registry, ROOM), tilesets=registry.tilesets, tileset="joined")
    window.frames.draw()
    assert window.grid.shown(3, 0)[0] == "═" and window.grid.shown(0, 0)[0] == "╔"
