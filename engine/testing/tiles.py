"""The tileset contract, as a check on a registered :class:`engine.kit.tiles.TilesetInfo`."""

from __future__ import annotations

from pathlib import Path

from engine.core.plugin.registry import Registry
from engine.kit.tiles import Tile, TilesetInfo
from engine.testing.errors import fail

TERRAIN = ("wall", "floor", "stairs", "exit", "player")


def check_tileset(info: TilesetInfo, *, registry: Registry | None = None, file: Path | None = None,
                  cells: tuple[int, ...] = (8, 16, 24)) -> None:
    """A tileset, built as the window builds it (``fn(ctx)``, the window library's resources at
    hand) for each cell size of ``cells``: it has a ``size`` of two whole numbers of at least one
    pixel, and ``tile(name, glyph)`` for the terrain, the player and (with ``registry``) every
    monster and item kind (``monster:NAME``, ``item:NAME``) returns None or an
    ``engine.kit.tiles.Tile`` whose image is an RGBA picture of that size and whose ``tinted`` is
    True or False. A set that ``needs_file`` is built from ``file``."""
    from engine.frontend.tiles import make  # the window's own way to build a set (imports the window library)

    subject = f"tileset {info.name!r}"
    if info.needs_file and file is None:
        raise fail(subject, "needs a file: pass file=PATH to check it")
    names = [(name, name[0]) for name in TERRAIN]
    if registry is not None:
        names += [(f"monster:{k.name}", k.glyph) for k in registry.monsters.values()]
        names += [(f"item:{k.name}", k.glyph) for k in registry.items.values()]
    for cell in cells:
        tileset = make(info, cell=cell, file=file)
        size = tuple(tileset.size)
        if len(size) != 2 or not all(isinstance(v, int) and v >= 1 for v in size):
            raise fail(subject, f"has a size of two whole numbers >= 1 px, got {tileset.size!r}", f"cell {cell}")
        for name, glyph in names:
            tile = tileset.tile(name, glyph)
            if tile is None:
                continue
            where = f"cell {cell}, tile {name!r}"
            if not isinstance(tile, Tile):
                raise fail(subject, f"tile() returns an engine.kit.tiles.Tile or None, got {tile!r}", where)
            image = tile.image
            if getattr(image, "mode", None) != "RGBA" or tuple(getattr(image, "size", ())) != size:
                raise fail(subject, f"a tile is an RGBA image of the set's size {size}, got "
                           f"{getattr(image, 'mode', type(image).__name__)} {getattr(image, 'size', '')}", where)
            if not isinstance(tile.tinted, bool):
                raise fail(subject, f"a tile's tinted is True or False, got {tile.tinted!r}", where)
