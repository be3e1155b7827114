"""Hostile tilesets: a set whose constructor raises anything (SystemExit and KeyboardInterrupt
included), one whose ``tile()`` returns what is not a tile, one with huge cells or huge tiles.
Chosen with ``--tileset``, each is one line and exit 2 before any window opens; reached with F2,
each is skipped (or its cells drawn as glyphs) in one line, and the window plays on."""

from __future__ import annotations

import pytest

from engine import testing
from engine.cli.main import main
from engine.kit.limits import MAX_TILE_SIDE
from engine.kit.tiles import Tile, TilesetInfo

Image = pytest.importorskip("PIL.Image")
pytest.importorskip("arcade")

from engine.frontend.launch import open_window  # noqa: E402


class Sized:
    def __init__(self, size, answer=None):
        self.size, self.answer = size, answer

    def tile(self, name, glyph):
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


def raising(error):
    def fn(ctx):
        raise error
    return fn


HOSTILE = {
    "exits": (raising(SystemExit(3)), "SystemExit: 3"),
    "interrupts": (raising(KeyboardInterrupt()), "KeyboardInterrupt"),
    "huge": (lambda ctx: Sized((4096, 4096)), f"cell size 4096x4096 px is not a size (expected 1..{MAX_TILE_SIDE}"),
    "nosize": (lambda ctx: Sized("big"), "ValueError"),
}
class Unbool:
    def __bool__(self):
        raise KeyboardInterrupt


class Unshowable:
    def __repr__(self):
        raise RuntimeError("no repr")


BAD_TILES = {
    "words": ("a string", "returned 'a string', not a Tile"),
    "notimage": (Tile(image="pixels"), "not a Tile of an image"),
    "hugetile": (Tile(image=Image.new("RGBA", (MAX_TILE_SIDE + 1, 1))), "not a Tile of an image of at most"),
    "tileexits": (SystemExit(1), "raised SystemExit"),
    "untellable": (Tile(image=Image.new("RGBA", (16, 16)), tinted=Unbool()), "gave a Tile that cannot be drawn"),
    "unshowable": (Unshowable(), "returned a Unshowable (its repr raised"),
}


def plugin_source() -> str:
    return '''
from engine import hookimpl
import tests_hostile_tiles as t

@hookimpl
def register_tilesets(register):
    for name, (fn, _) in t.HOSTILE.items():
        register(name, fn)
'''


@pytest.fixture
def tilesets(registry):
    sets = dict(registry.tilesets)
    sets.update({name: TilesetInfo(name, fn) for name, (fn, _) in HOSTILE.items()})
    sets.update({name: TilesetInfo(name, lambda ctx, a=answer: Sized((16, 16), a))
                 for name, (answer, _) in BAD_TILES.items()})
    return sets


ROOM = """
    ########
    #@.$.r.#
    ########
"""


def test_f2_skips_or_survives_every_hostile_set_in_one_line_each(registry, tilesets, capsys):
    window = open_window(testing.game_from_map(registry, ROOM), headless=True, tilesets=tilesets)
    try:
        window.frames.draw()
        reached = []
        for _ in range(len(tilesets) + 2):
            reached.append(window.next_tileset())
            window.frames.draw()  # asks the set for every cell in view
        assert not window.closed and window.game.playing
        assert window.press("l") is not None and window.game.turn == 1  # still plays
    finally:
        window.close()
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert not set(HOSTILE) & set(reached) and set(BAD_TILES) <= set(reached)
    for name, (_, words) in {**HOSTILE, **BAD_TILES}.items():
        lines = [line for line in err.splitlines() if f"tileset {name}:" in line]
        assert len(lines) == 1 and words in lines[0], (name, err)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_chosen_hostile_set_is_one_line_and_exit_2(tmp_path, name, capsys, monkeypatch):
    import sys
    import types

    module = types.ModuleType("tests_hostile_tiles")
    module.HOSTILE = HOSTILE
    monkeypatch.setitem(sys.modules, "tests_hostile_tiles", module)
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "hostile_tiles.py").write_text(plugin_source())
    shot = tmp_path / "s.png"
    status = main(["--headless", "--new", "--seed", "1", "--plugins-dir", str(tmp_path / "plugins"),
                   "--tileset", name, "--shot", str(shot)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and f"tileset {name}" in err and HOSTILE[name][1] in err, err
    assert not shot.exists()


NON_IMAGES = '''
from engine import hookimpl
from engine.kit.tiles import Tile


class Words:
    size = (16, 16)

    def tile(self, name, glyph):
        return Tile(image="pixels") if name == "wall" else "a floor"


@hookimpl
def register_tilesets(register):
    register("nonimages", lambda ctx: Words())
'''


def test_a_chosen_set_of_non_images_draws_glyphs_in_one_line(tmp_path, capsys):
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "words.py").write_text(NON_IMAGES)
    shot = tmp_path / "s.png"
    status = main(["--headless", "--new", "--seed", "1", "--plugins-dir", str(tmp_path / "plugins"),
                   "--tileset", "nonimages", "--shot", str(shot)])
    err = capsys.readouterr().err
    assert status == 0 and shot.exists(), err
    assert err.count("\n") == 1 and "tileset nonimages: tile(" in err and "drawn as glyphs" in err, err


@pytest.mark.parametrize("fmt", ["tiff", "ico", "png", "gif"])
def test_a_damaged_sheet_is_one_tileset_error_and_nothing_else(tmp_path, fmt):
    """Bytes flipped in the header of a sheet: load_sheet raises TilesetError or reads it, and lets
    no decoder's exception or warning through (a warning would be a second line)."""
    import io
    import random
    import warnings

    from engine.kit.tiles import TilesetError, load_sheet

    rng = random.Random(5)
    image = Image.new("RGB", (128, 128))
    for _ in range(200):
        image.putpixel((rng.randrange(128), rng.randrange(128)), (255, 255, 255))
    out = io.BytesIO()
    image.save(out, format=fmt)
    raw = out.getvalue()
    path = tmp_path / f"sheet.{fmt}"
    for _ in range(60):
        damaged = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            damaged[rng.randrange(min(len(damaged), 200))] = rng.randrange(256)
        path.write_bytes(bytes(damaged))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                load_sheet(path)
            except TilesetError as e:
                assert "\n" not in str(e)
        assert not caught, [str(w.message) for w in caught]
