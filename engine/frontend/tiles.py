"""Tilesets in the window: the registered sets (``register_tilesets``) turned into textures.

:func:`resolve` turns ``--tileset NAME`` or ``--tileset FILE.png`` into a (name, file) choice,
checking a file before any window opens (one line, :class:`engine.kit.tiles.TilesetError`).
:class:`Textures` holds the set in use: for a cell's (name id, code point) it gives the texture
and whether the cell's colour tints it, asking the set once per pair and falling back to the glyph
atlas (built at the set's cell size) for whatever the set does not map.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import arcade

from engine.core.isolation import described, players, safe_repr
from engine.frontend.atlas import GlyphAtlas
from engine.kit.limits import MAX_TILE_SIDE
from engine.kit.tiles import Tile, TileContext, TilesetError, TilesetInfo
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
    """The set in use, as textures by (name id, code point)."""

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
        self.atlas = GlyphAtlas(max(4, min(self.size)))  # the fallback glyphs, at this set's size
        self._cache: dict[tuple[int, int], tuple[arcade.Texture, bool]] = {}

    def get(self, name_id: int, code: int) -> tuple[arcade.Texture, bool]:
        """(texture, tinted) for a cell; blank cells (code point of a space, no name) are glyphs."""
        key = (name_id, code)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._make(name_id, code)
        return found

    def _make(self, name_id: int, code: int) -> tuple[arcade.Texture, bool]:
        ch = chr(code)
        tile = None
        if name_id:
            name = self.names.names[name_id]
            try:
                tile = self.tileset.tile(name, ch)
            except BaseException as e:  # noqa: BLE001 - a plugin's bug in one tile: draw the glyph, keep playing
                if players(e):
                    raise
                tile = self._refuse(name, ch, f"raised {described(e, 120)}")
            if tile is not None and not _usable(tile):
                tile = self._refuse(name, ch, f"returned {safe_repr(tile)}, not a Tile of an image of at most "
                                              f"{MAX_TILE_SIDE}x{MAX_TILE_SIDE} px")
        if tile is None:
            return self.atlas.texture(ch), True
        try:  # the plugin's image (a lazily read file may fail now) and its tinted flag
            image = tile.image.convert("RGBA")
            if image.size != self.size:
                image = image.resize(self.size)
            tinted = bool(tile.tinted)
        except BaseException as e:  # noqa: BLE001 - a plugin's bug in one tile: draw the glyph, keep playing
            if players(e):
                raise
            self._refuse(self.names.names[name_id], ch, f"gave a Tile that cannot be drawn ({described(e, 120)})")
            return self.atlas.texture(ch), True
        texture = arcade.Texture(image, hash=f"tile:{self.name}:{self.size}:{name_id}:{code}:{id(self)}",
                                 hit_box_algorithm=arcade.hitbox.algo_bounding_box)
        return texture, tinted

    def _refuse(self, name: str, glyph: str, what: str) -> None:
        """A tile the set could not give: said once per set, and the cell is drawn as its glyph."""
        warn_once(f"tileset {self.name}: tile({name!r}, {glyph!r}) {what}; such cells are drawn as glyphs",
                  key=f"tile:{self.name}")


def _usable(tile: object) -> bool:
    """Whether a set's answer is a Tile whose image the window can take (and not a huge one)."""
    from PIL import Image

    image = getattr(tile, "image", None)
    return (isinstance(tile, Tile) and isinstance(image, Image.Image)
            and 0 < image.width <= MAX_TILE_SIDE and 0 < image.height <= MAX_TILE_SIDE)
