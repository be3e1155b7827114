"""Tilesets in the window: the registered sets (``register_tilesets``) turned into textures.

:func:`resolve` turns ``--tileset NAME`` or ``--tileset FILE.png`` into a (name, file) choice,
checking a file before any window opens (one line, :class:`engine.kit.tiles.TilesetError`).
:class:`Textures` holds the set in use: for a cell's (name id, code point) it gives the texture
and whether the cell's colour tints it, asking the set once per pair (and again for the name's
parents: ``monster:rat``, then ``monster``) and falling back to the glyph atlas (built at the set's
cell size) for whatever the set does not map. A sprite set (``sprites = True``) draws a thing over
the picture of the terrain under it, and what it lacks as the glyph in a magenta frame.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

import arcade
from PIL import Image

from engine.core.plugin.isolation import described, players, safe_repr
from engine.frontend.atlas import GlyphAtlas
from engine.frontend.palette import FRIEND_BG
from engine.kit.limits import MAX_LAYERED_TILES, MAX_TILE_SIDE
from engine.kit.tiles import Tile, TileContext, TilesetError, TilesetInfo, attribute_problems, parents
from engine.persist.datadir import warn_once

if TYPE_CHECKING:
    from engine.frontend.compose import Names

DEFAULT_TILESET = "glyphs"
FILE_SET = "cp437"  # the set that reads a player's file


def resolve(tilesets: dict[str, TilesetInfo], spec: str | None) -> tuple[str, Path | None]:
    """``--tileset`` as (set name, file): a registered name, or a path for the file set. A path
    is read now, so a bad file is one line before the window opens."""
    if not spec:
        return DEFAULT_TILESET, None
    info = tilesets.get(spec)
    if info is not None and not info.needs_file:
        make(info, cell=16, file=None)  # a set that cannot be built is one line now, not a broken window
        return spec, None
    if FILE_SET not in tilesets:
        raise TilesetError(f"--tileset {spec}: no tileset named {spec!r} (valid: {', '.join(sorted(tilesets))})")
    looks_like_file = "/" in spec or "." in spec or Path(spec).exists()
    if not looks_like_file:
        valid = ", ".join(sorted(n for n, i in tilesets.items() if not i.needs_file))
        raise TilesetError(f"--tileset {spec}: no tileset named {spec!r} (valid: {valid}, or a PNG file)")
    path = Path(spec)
    make(tilesets[FILE_SET], cell=16, file=path)  # reads and checks the file: TilesetError on a bad one
    return FILE_SET, path


def make(info: TilesetInfo, *, cell: int, file: Path | None, glyph=None):
    """Call a set's ``fn``; a broken set (anything it raises but a TilesetError, SystemExit and
    its own KeyboardInterrupt included, or a cell size out of bounds) is reported as one line."""
    ctx = TileContext(cell=cell, file=file, glyph=glyph or (lambda ch: None),
                      resource=lambda name: Path(arcade.resources.resolve(name)))
    try:
        tileset = info.fn(ctx)
        width, height = (int(v) for v in tileset.size)
    except TilesetError:
        raise
    except BaseException as e:  # noqa: BLE001 - a plugin's bug: one line naming the set, never a traceback
        if players(e):
            raise
        raise TilesetError(f"tileset {info.name}: {described(e)}") from None
    if not (1 <= width <= MAX_TILE_SIDE and 1 <= height <= MAX_TILE_SIDE):
        raise TilesetError(f"tileset {info.name}: cell size {width}x{height} px is not a size "
                           f"(expected 1..{MAX_TILE_SIDE} px a side)")
    return tileset


class Textures:
    """The set in use, as textures by (name id, code point); for a sprite set, also by the
    terrain under a thing and, where the window colours a glyph itself, the colour."""

    def __init__(self, info: TilesetInfo, *, cell: int, file: Path | None, names: Names) -> None:
        self.name = info.name
        self.names = names
        glyphs: dict[int, GlyphAtlas] = {}

        def glyph(ch: str):
            if cell not in glyphs:  # one atlas for the set, not one a glyph
                glyphs[cell] = GlyphAtlas(cell)
            return glyphs[cell].render(ch)

        self.tileset = make(info, cell=cell, file=file, glyph=glyph)
        self.size: tuple[int, int] = tuple(int(v) for v in self.tileset.size)  # type: ignore[assignment]
        self.sprites = getattr(self.tileset, "sprites", False) is True
        for problem in attribute_problems(self.tileset):  # a plugin's slip: said once, the default used
            warn_once(f"tileset {self.name}: {problem}; the default is used", key=f"tileset-attr:{self.name}")
        self.atlas = GlyphAtlas(max(4, min(self.size)))  # the fallback glyphs, at this set's size
        self._cache: dict[tuple[int, int], tuple[arcade.Texture, bool]] = {}
        self._tiles: dict[tuple[int, int], tuple[Image.Image, bool] | None] = {}
        self._layered: OrderedDict[tuple, arcade.Texture] = OrderedDict()

    def get(self, name_id: int, code: int, under: int = 0, under_code: int = 0,
            fg: tuple[int, int, int] = (255, 255, 255), friend: bool = False) -> tuple[arcade.Texture, bool]:
        """(texture, tinted) for a cell; blank cells (code point of a space, no name) are glyphs.
        A sprite set draws a thing over the picture of the terrain under it (``under``, its name
        id, and ``under_code``, its glyph; 0: nothing under), and a thing it has no picture for
        as its glyph in ``fg``, framed: such textures carry their colours (not tinted). Under a
        ``friend`` (a creature on the player's side) the terrain's picture is tinted the friend's
        green, as the glyphs' ground is."""
        if self.sprites and (under or friend or self.tile(name_id, code) is None):
            return self._over(name_id, code, under, under_code, fg, friend)
        key = (name_id, code)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._make(name_id, code)
        return found

    def tile(self, name_id: int, code: int) -> tuple[Image.Image, bool] | None:
        """The set's picture for a cell as (RGBA image of the set's size, tinted), asked once per
        (name, glyph) and again for the name's parents (``monster:rat``, then ``monster``); None
        when the set has none (or a broken one: said once)."""
        key = (name_id, code)
        if key not in self._tiles:
            self._tiles[key] = self._ask(name_id, chr(code))
        return self._tiles[key]

    def _ask(self, name_id: int, ch: str) -> tuple[Image.Image, bool] | None:
        if not name_id:
            return None
        whole = self.names.names[name_id]
        for name in parents(whole):
            try:
                tile = self.tileset.tile(name, ch)
            except BaseException as e:  # noqa: BLE001 - a plugin's bug in one tile: draw the glyph, keep playing
                if players(e):
                    raise
                return self._refuse(name, ch, f"raised {described(e, 120)}")
            if tile is None:
                continue
            if not _usable(tile):
                return self._refuse(name, ch, f"returned {safe_repr(tile)}, not a Tile of an image of at most "
                                              f"{MAX_TILE_SIDE}x{MAX_TILE_SIDE} px")
            try:  # the plugin's image (a lazily read file may fail now) and its tinted flag
                image = tile.image.convert("RGBA")
                if image.size != self.size:
                    image = image.resize(self.size)
                return image, bool(tile.tinted)
            except BaseException as e:  # noqa: BLE001 - a plugin's bug in one tile: draw the glyph, keep playing
                if players(e):
                    raise
                return self._refuse(name, ch, f"gave a Tile that cannot be drawn ({described(e, 120)})")
        return None

    def _make(self, name_id: int, code: int) -> tuple[arcade.Texture, bool]:
        found = self.tile(name_id, code)
        if found is None:
            return self.atlas.texture(chr(code)), True
        image, tinted = found
        texture = arcade.Texture(image, hash=f"tile:{self.name}:{self.size}:{name_id}:{code}:{id(self)}",
                                 hit_box_algorithm=arcade.hitbox.algo_bounding_box)
        return texture, tinted

    def _over(self, name_id: int, code: int, under: int, under_code: int,
              fg: tuple[int, int, int], friend: bool = False) -> tuple[arcade.Texture, bool]:
        """A sprite set's cell drawn in its own colours: the terrain's picture under the thing's
        (an untinted picture; a tinted one is coloured ``fg``), or its glyph framed in magenta;
        under a ``friend``, the picture (or the bare ground) tinted the friend's green."""
        thing = self.tile(name_id, code)
        base = self.tile(under, under_code) if under else None
        if base is not None and base[1]:
            base = None  # a tinted terrain tile has no colours of its own to stand on
        coloured = thing is None or thing[1]
        key = (name_id, code, under if base is not None else 0, under_code if base is not None else 0,
               tuple(fg) if coloured else None, friend)
        texture = self._layered.get(key)
        if texture is not None:
            self._layered.move_to_end(key)
            return texture, False
        if base is None and not coloured and not friend:
            return self._make(name_id, code)  # art alone: its own texture
        canvas = base[0].copy() if base is not None else Image.new("RGBA", self.size, (0, 0, 0, 0))
        if friend:
            canvas.alpha_composite(Image.new("RGBA", self.size, (*FRIEND_BG, FRIEND_TINT)))
        if thing is None:
            if chr(code) != " ":
                canvas.alpha_composite(_framed(self.atlas.render(chr(code)), self.size, fg))
        else:
            image, tinted = thing
            canvas.alpha_composite(_coloured(image, fg) if tinted else image)
        texture = arcade.Texture(canvas, hash=f"over:{self.name}:{self.size}:{key}:{id(self)}",
                                 hit_box_algorithm=arcade.hitbox.algo_bounding_box)
        self._layered[key] = texture
        if len(self._layered) > MAX_LAYERED_TILES:
            self._layered.popitem(last=False)
        return texture, False

    def _refuse(self, name: str, glyph: str, what: str) -> None:
        """A tile the set could not give: said once per set, and the cell is drawn as its glyph."""
        warn_once(f"tileset {self.name}: tile({name!r}, {glyph!r}) {what}; such cells are drawn as glyphs",
                  key=f"tile:{self.name}")


MISSING = (255, 0, 255, 255)  # the frame of a thing a sprite set has no picture for
FRIEND_TINT = 170  # how much of the friend's green covers the terrain's picture under a friend (of 255)


def _coloured(image: Image.Image, fg: tuple[int, int, int]) -> Image.Image:
    """A white-on-transparent image multiplied by ``fg``, as the window tints a glyph."""
    r, g, b = (int(c) for c in fg)
    solid = Image.new("RGBA", image.size, (r, g, b, 255))
    solid.putalpha(image.getchannel("A"))
    return solid


def _framed(glyph: Image.Image, size: tuple[int, int], fg: tuple[int, int, int]) -> Image.Image:
    """A glyph a sprite set lacks: coloured ``fg``, centred in a cell of ``size`` inside a
    one-pixel magenta frame, so the gap is seen (and still reads as what it is)."""
    from PIL import ImageDraw

    cell = Image.new("RGBA", size, (0, 0, 0, 0))
    cell.paste(_coloured(glyph, fg), ((size[0] - glyph.width) // 2, (size[1] - glyph.height) // 2))
    width = max(1, min(size) // 16)
    ImageDraw.Draw(cell).rectangle((0, 0, size[0] - 1, size[1] - 1), outline=MISSING, width=width)
    return cell


def _usable(tile: object) -> bool:
    """Whether a set's answer is a Tile whose image the window can take (and not a huge one)."""
    image = getattr(tile, "image", None)
    return (isinstance(tile, Tile) and isinstance(image, Image.Image)
            and 0 < image.width <= MAX_TILE_SIDE and 0 < image.height <= MAX_TILE_SIDE)
