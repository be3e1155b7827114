"""The tileset contract, as a check on a registered :class:`engine.kit.tiles.TilesetInfo`, and
what a set lacks (:func:`tileset_gaps`)."""

from __future__ import annotations

from pathlib import Path

from engine.core.kinds.rulespecs import DEFAULT_TILES
from engine.core.plugin.registry import Registry
from engine.kit.tiles import Tile, TilesetInfo, attribute_problems, parents
from engine.testing.errors import fail

# what the window asks a set for besides the kinds: terrain (with a wall deep in rock), the player
CELLS: tuple[tuple[str, str], ...] = (*((name, str(tile["glyph"])) for name, tile in DEFAULT_TILES.items()),
                                      ("wall:deep", " "), ("exit", ">"), ("player", "@"))


def wanted(registry: Registry | None = None) -> list[tuple[str, str]]:
    """The (name, glyph) pairs a window may ask a set for: the terrain and the player and, with
    ``registry``, every plugin's kind of terrain (by its name: ``door``), monster kind (the
    presets' own too) and item kind, by their glyphs."""
    found = list(CELLS)
    if registry is not None:
        monsters = dict(registry.monsters)
        for rules in registry.games.values():
            monsters.update(rules.monster_kinds)
        found += [(f"monster:{k.name}", k.glyph[:1]) for k in monsters.values()]
        found += [(f"item:{k.name}", k.glyph[:1]) for k in registry.items.values()]
        found += [(k.name, k.glyph) for k in registry.terrain.values() if k.name not in DEFAULT_TILES]
    return found


def tileset_gaps(info: TilesetInfo, *, registry: Registry | None = None, file: Path | None = None,
                 cell: int = 16) -> list[str]:
    """What set ``info`` has no picture for, as the window asks (a name, then its parents:
    ``monster:rat``, then ``monster``), one ``"NAME 'GLYPH'"`` each: the terrain, the player and,
    with ``registry``, every plugin's kind of terrain and every monster and item kind. A sprite set
    draws each of these as its glyph in a magenta frame; a glyph set leaves to the glyph whatever it
    does not map, by design."""
    from engine.frontend.tiles import make  # the window's own way to build a set (imports the window library)

    tileset = make(info, cell=cell, file=file)
    return [f"{name} {glyph!r}" for name, glyph in wanted(registry)
            if all(tileset.tile(key, glyph) is None for key in parents(name))]


def check_tileset(info: TilesetInfo, *, registry: Registry | None = None, file: Path | None = None,
                  cells: tuple[int, ...] = (8, 16, 24), whole: bool | None = None) -> None:
    """A tileset, built as the window builds it (``fn(ctx)``, the window library's resources at
    hand) for each cell size of ``cells``: it has a ``size`` of two whole numbers of at least one
    pixel; its optional ``sprites`` is True or False and ``walls`` a wall rule; and
    ``tile(name, glyph)`` for the terrain, the player and (with ``registry``) every monster and
    item kind (``monster:NAME``, ``item:NAME``) returns None or an ``engine.kit.tiles.Tile`` whose
    image is an RGBA picture of that size and whose ``tinted`` is True or False. A set that
    ``needs_file`` is built from ``file``.

    ``whole`` (by default: whether the set is a sprite set) also asks that the set lacks nothing
    of those (:func:`tileset_gaps`), and says what it lacks."""
    from engine.frontend.tiles import make  # the window's own way to build a set (imports the window library)

    subject = f"tileset {info.name!r}"
    if info.needs_file and file is None:
        raise fail(subject, "needs a file: pass file=PATH to check it")
    names = wanted(registry)
    for cell in cells:
        tileset = make(info, cell=cell, file=file)
        size = tuple(tileset.size)
        if len(size) != 2 or not all(isinstance(v, int) and v >= 1 for v in size):
            raise fail(subject, f"has a size of two whole numbers >= 1 px, got {tileset.size!r}", f"cell {cell}")
        for problem in attribute_problems(tileset):
            raise fail(subject, problem, f"cell {cell}")
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
        if whole is None:
            whole = getattr(tileset, "sprites", False) is True
    if whole:
        gaps = tileset_gaps(info, registry=registry, file=file, cell=cells[0] if cells else 16)
        if gaps:
            raise fail(subject, f"has a picture for everything a window asks for: it lacks {len(gaps)}: "
                       f"{', '.join(gaps[:12])}{' ...' if len(gaps) > 12 else ''}")
