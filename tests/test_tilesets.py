"""Tilesets: the registered sets, a CP437 sheet a player has, the hostile ones, switching with F2."""

from __future__ import annotations

import struct
import zlib

import pytest

from engine import testing
from engine.cli.main import main
from engine.kit.tiles import CP437, CP437_INDEX, TilesetError, load_sheet

Image = pytest.importorskip("PIL.Image")


def sheet(path, cell=(8, 8), grey=True):
    """A 16x16 sheet whose glyph i has i+1 lit pixels in its top row (so each cell is told apart)."""
    w, h = cell
    image = Image.new("RGB", (16 * w, 16 * h), (255, 0, 255) if not grey else (0, 0, 0))
    for i in range(256):
        x0, y0 = (i % 16) * w, (i // 16) * h
        for k in range(min(w, i + 1)):
            image.putpixel((x0 + k, y0), (255, 255, 255) if grey else (200, 30, 30))
    image.save(path)
    return path


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares a size and carries no pixels: enough for the header checks."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def test_the_code_page_is_complete_and_maps_roguelike_glyphs():
    assert len(CP437) == 256 and len(set(CP437)) == 256
    assert CP437_INDEX["@"] == 64 and CP437_INDEX["#"] == 35 and CP437_INDEX["☺"] == 1
    assert CP437_INDEX["░"] == 176 and CP437_INDEX["·"] == 250


def test_a_sheet_is_cut_into_256_glyphs_of_the_size_the_image_says(tmp_path):
    images, size = load_sheet(sheet(tmp_path / "t.png", cell=(10, 12)))
    assert size == (10, 12) and len(images) == 256
    at = images[CP437_INDEX["@"]]
    assert at.size == (10, 12)
    lit = [x for x in range(10) if at.getpixel((x, 0))[3] > 0]
    assert lit == list(range(10))  # glyph 64: its top row (capped at the cell's width)
    # black became transparent; white stays, ready to tint
    assert at.getpixel((0, 5))[3] == 0 and at.getpixel((0, 0)) == (255, 255, 255, 255)


def test_a_coloured_sheet_keys_magenta_out_and_keeps_its_colours(tmp_path):
    images, _ = load_sheet(sheet(tmp_path / "c.png", grey=False))
    glyph = images[3]
    assert glyph.getpixel((0, 0)) == (200, 30, 30, 255) and glyph.getpixel((0, 4))[3] == 0


HOSTILE = {
    "wrong size": (lambda d: _save(d / "odd.png", (100, 100)), "not divisible into 16x16 cells"),
    "not an image": (lambda d: _write(d / "notes.png", b"just some text\n"), "not an image"),
    "0x0": (lambda d: _write(d / "empty.png", png_header_only(0, 0)), "0x0 px, empty"),
    "huge": (lambda d: _write(d / "huge.png", png_header_only(65536, 65536)), "too large"),
    "a folder": (lambda d: _mkdir(d / "tiles.png"), "is a folder"),
    "missing": (lambda d: d / "nowhere.png", "no such file"),
    "cells too small": (lambda d: _save(d / "tiny.png", (32, 32)), "too small"),
    "no pixels": (lambda d: _write(d / "cut.png", png_header_only(128, 128)), "cannot be read"),
}


def _save(path, size):
    Image.new("RGB", size).save(path)
    return path


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def _mkdir(path):
    path.mkdir()
    return path


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_tilesheet_is_one_line_and_exit_2(case, tmp_path, capsys):
    make, words = HOSTILE[case]
    path = make(tmp_path)
    with pytest.raises(TilesetError, match=words):
        load_sheet(path)
    assert main(["--headless", "--seed", "1", "--tileset", str(path), "--shot", str(tmp_path / "s.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and str(path) in err and words in err, err
    assert not (tmp_path / "s.png").exists()  # refused before any window opened


def test_an_unknown_tileset_name_lists_the_valid_ones(tmp_path, capsys):
    assert main(["--headless", "--seed", "1", "--tileset", "marble", "--shot", str(tmp_path / "s.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "glyphs" in err and "kenney" in err


def test_the_builtin_sets_are_registered(registry):
    assert {"glyphs", "kenney", "cp437"} <= set(registry.tilesets)
    assert registry.tilesets["cp437"].needs_file and not registry.tilesets["kenney"].needs_file


def test_every_set_keeps_the_kits_contract(registry, tmp_path):
    """``engine.testing.check_tileset``, as a plugin's own test calls it."""
    from engine import testing

    for _, info in sorted(registry.tilesets.items()):
        testing.check_tileset(info, registry=registry, file=sheet(tmp_path / "t.png") if info.needs_file else None)


# -- in the window ---------------------------------------------------------------------------
arcade = pytest.importorskip("arcade")

from engine.frontend.launch import open_window  # noqa: E402
from engine.frontend.tiles import make  # noqa: E402

ROOM = """
    ########
    #@.$.r.#
    ########
"""


def test_kenney_maps_terrain_monsters_and_items_and_leaves_the_rest_to_glyphs(registry):
    kenney = make(registry.tilesets["kenney"], cell=16, file=None)
    assert kenney.size == (32, 32)
    for name in ("wall", "floor", "stairs", "player", "monster:rat", "item:gold"):
        tile = kenney.tile(name, "?")
        assert tile is not None and tile.image.size == (32, 32) and not tile.tinted
    assert kenney.tile("monster:dragon", "D") is None


def test_f2_switches_tilesets_at_run_time_and_remembers_the_choice(tmp_path, registry):
    path = sheet(tmp_path / "t.png", cell=(12, 12))
    window = open_window(testing.game_from_map(registry, ROOM), headless=True, tilesets=registry.tilesets,
                         tileset_file=path)
    try:
        window.frames.draw()
        assert window.tileset == "glyphs" and window.map_view.cell == (16, 16)
        seen = []
        for _ in range(4):
            seen.append(window.next_tileset())
            window.frames.draw()
            assert window.map_view.cell == window.textures.size
        assert seen == ["kenney", "squares", "cp437", "glyphs"]
        assert window.settings["tileset"] == "glyphs"
        window.next_tileset()
        assert window.settings["tileset"] == "kenney"
        # a Kenney sprite is drawn in its own colours: the rat's cell is not a tinted glyph
        texture, tinted = window.textures.get(window.names.id("monster:rat"), ord("r"))
        assert not tinted and texture.width == 32
    finally:
        window.close()


def test_a_cp437_sheet_draws_its_own_glyph_pixels(tmp_path, registry):
    path = sheet(tmp_path / "t.png", cell=(8, 8))
    window = open_window(testing.game_from_map(registry, ROOM), headless=True, tilesets=registry.tilesets,
                         tileset="cp437", tileset_file=path)
    try:
        images = []
        window.frames.after_draw.append(lambda: images.append(arcade.get_image()))
        window.frames.draw()
        image = images[0].convert("RGB")
        left, bottom, width, height = window.map_view.cell_rect(*window.game.position(window.game.player))
        top = image.height - (bottom + height)
        row0 = [image.getpixel((left + i, top)) for i in range(width)]
        row1 = [image.getpixel((left + i, top + 1)) for i in range(width)]
        assert (width, height) == (8, 8)
        assert all(sum(p) > 300 for p in row0)  # the sheet's '@' (glyph 64) fills its top row, in white
        assert all(sum(p) < 120 for p in row1)  # and nothing below: it is the sheet's glyph, not the font's
    finally:
        window.close()


def test_a_kenney_shot_from_the_command_line(tmp_path):
    shot = tmp_path / "k.png"
    assert main(["--headless", "--seed", "2", "--new", "--tileset", "kenney", "--shot", str(shot)]) == 0
    with Image.open(shot) as image:
        colours = len(set(image.convert("RGB").getdata()))
    assert colours > 200  # art, not a handful of glyph colours


PLUGIN = '''
from engine import hookimpl
from engine.kit.tiles import Tile


class Red:
    def __init__(self, ctx):
        from PIL import Image

        self.size = (ctx.cell, ctx.cell)
        self.red = Tile(Image.new("RGBA", self.size, (250, 0, 0, 255)), tinted=False)

    def tile(self, name, glyph):
        return self.red if name == "wall" else None


def broken(ctx):
    raise RuntimeError("no tiles today")


@hookimpl
def register_tilesets(register):
    register("redwalls", Red, summary="walls in red")
    register("broken", broken)
'''


def test_a_third_party_tileset_from_a_plugins_dir(tmp_path, capsys):
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "redwalls.py").write_text(PLUGIN)
    shot = tmp_path / "red.png"
    args = ["--headless", "--seed", "4", "--new", "--plugins-dir", str(tmp_path / "plugins"), "--shot", str(shot)]
    assert main([*args, "--tileset", "redwalls"]) == 0
    with Image.open(shot) as image:
        assert (250, 0, 0) in set(image.convert("RGB").getdata())  # the walls, in the plugin's red
    assert main([*args, "--tileset", "broken"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tileset broken" in err and "no tiles today" in err
    assert "cannot open a window" not in err  # said before any window, as what it is


def test_kenneys_ways_down_and_up_differ_at_a_glance(registry):
    """The two stairs were two ladders alike but for their tops: the way down is now a ladder in a
    dark shaft, the way up a bright ladder on the floor (their pictures far apart in brightness)."""
    import numpy as np

    kenney = make(registry.tilesets["kenney"], cell=16, file=None)
    down, up = (np.asarray(kenney.tile(name, ">").image.convert("L"), dtype=float) for name in ("stairs", "upstairs"))
    assert up.mean() - down.mean() > 20  # of 255
