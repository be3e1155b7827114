"""The ``ascii`` generator: a level drawn as text.

``#`` wall, ``.`` floor, ``>`` stairs, ``@`` the player's start, ``<`` the player's start on the
stairs up (a map has one start, ``@`` or ``<``: in a preset that keeps its levels the start is
the stairs up either way); a monster or an item by its glyph (``legend`` maps glyphs to kind
names; the engine fills it from the registry: a glyph the items of one class share, ``!``,
reads as the class's first kind); and the glyphs the preset draws its terrain with
(``tiles`` maps glyphs to ``wall``, ``floor``, ``stairs`` or ``upstairs``; the engine fills it from
the preset), so a map drawn as the window draws it reads back. The fixed characters come first,
then the legend, then the preset's glyphs: a kind's glyph is never read as terrain. A plugin's
kind of terrain is read by its glyph too (``tiles`` maps it to the kind's name: ``~`` water). ``>`` is the
stairs, or the level's exit with ``goal="exit"`` (a preset's setting). The map's
size is the text's: ``ctx.width`` and ``ctx.height`` are ignored. Short rows are padded with wall.

A map gives any kind a character of its own in legend lines under the picture, after a blank
line, one ``X: kind name`` a line (``kinds``, the names they may use, the engine fills too)::

    #######
    #@!1?.#
    #######

    1: potion of haste
"""

import re

import numpy as np

from engine import FLOOR, MAX_MAP_BYTES, MAX_MAP_SIDE, STAIRS, WALL, GenerationError, Level, hookimpl
from engine.kit.mapgen import BUILTIN_KINDS
from engine.kit.textfile import TextFileError, read_text

TILES = {"#": WALL, ".": FLOOR, ">": STAIRS, "@": FLOOR, "<": FLOOR}
TERRAIN = {"wall": "#", "floor": ".", "stairs": ">", "upstairs": "<"}  # a preset's tile names, as read
LEGEND_LINE = re.compile(r"(\S): +(\S.*?)\s*")  # "1: potion of haste"


def own_legend(lines: list[str], source: str, kinds: list | None) -> tuple[list[str], dict]:
    """The picture and the map's own legend: the lines after its last blank line, when each is a
    legend line ("X: kind name"). A fixed character or an unknown kind is a GenerationError."""
    blank = max((i for i, line in enumerate(lines) if not line.strip()), default=None)
    tail = lines[blank + 1:] if blank is not None else []
    if not tail or not all(LEGEND_LINE.fullmatch(line) for line in tail):
        return lines, {}
    own = {}
    for n, line in enumerate(tail, blank + 2):
        ch, name = LEGEND_LINE.fullmatch(line).groups()
        if ch in TILES:
            raise GenerationError(f"{source}:{n}: {ch!r} is one of a map's own characters ({' '.join(TILES)}): give "
                                  f"{name!r} another character")
        if kinds is not None and name not in kinds:
            raise GenerationError(f"{source}:{n}: no kind named {name!r} (valid: {', '.join(sorted(kinds))})")
        own[ch] = name
    picture = lines[:blank]
    while picture and not picture[-1].strip():
        picture.pop()
    return picture, own


def parse(text: str, legend: dict, source: str = "map", goal: str = "stairs", tiles: dict | None = None,
          kinds: list | None = None) -> Level:
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    lines, own = own_legend(lines, source, kinds)
    legend = {**legend, **own}
    if not lines:
        raise GenerationError(f"{source}: the map is empty")
    width = max(len(line) for line in lines)
    if width > MAX_MAP_SIDE or len(lines) > MAX_MAP_SIDE:  # said of the file, not of a level made of it
        raise GenerationError(f"{source}: the map is {width}x{len(lines)} characters: each side must be "
                              f"1..{MAX_MAP_SIDE}")
    terrain = np.full((len(lines), width), WALL, dtype=np.uint8)
    readable = {glyph: name for glyph, name in (tiles or {}).items()
                if glyph not in TILES and glyph not in legend and glyph != " "}
    aliases = {glyph: TERRAIN[name] for glyph, name in readable.items() if name in TERRAIN}
    kinds = list(BUILTIN_KINDS)  # the level's table: a plugin's kinds after the built-in four
    painted = {glyph: name for glyph, name in readable.items() if name not in TERRAIN}
    start = stairs = None
    spawns = []
    for y, line in enumerate(lines):
        for x, raw in enumerate(line):
            ch = aliases.get(raw, raw)
            if ch in TILES:
                terrain[y, x] = TILES[ch]
            elif ch in painted:
                if painted[ch] not in kinds:
                    kinds.append(painted[ch])
                terrain[y, x] = kinds.index(painted[ch])
            elif ch in legend:
                terrain[y, x] = FLOOR
                spawns.append((legend[ch], x, y))
            elif ch == " ":
                continue  # outside the level: wall
            else:
                valid = " ".join(sorted([*TILES, *legend, *aliases, *painted]))
                raise GenerationError(f"{source}:{y + 1}:{x + 1}: unknown character {ch!r} (valid: {valid})")
            if ch in "@<":
                if start is not None:
                    raise GenerationError(f"{source}:{y + 1}:{x + 1}: a second start {raw!r} (the map has one: "
                                          "'@', or '<' on the stairs up)")
                start = (x, y)
            elif ch == ">" and stairs is None:
                stairs = (x, y)
    if start is None:
        raise GenerationError(f"{source}: no '@' (the player's start) in the map, nor '<' (a start on the stairs up)")
    if goal == "exit":
        return Level(terrain, start, None, exit=stairs, spawns=spawns, populate=False, kinds=kinds)
    return Level(terrain, start, stairs, spawns=spawns, populate=False, kinds=kinds)


def generate(ctx):
    path = ctx.params.get("path")
    text = ctx.params.get("text")
    if text is None:
        if not path:
            raise GenerationError("generator 'ascii': give it a map with --map FILE")
        try:  # a regular file only, read no further than the largest map (never /dev/zero or a FIFO)
            text = read_text(path, MAX_MAP_BYTES)
        except (OSError, TextFileError) as e:
            raise GenerationError(f"--map {path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    goal = ctx.params.get("goal", "stairs")
    if goal not in ("stairs", "exit"):
        raise GenerationError(f"generator 'ascii': goal must be 'stairs' or 'exit', got {goal!r}")
    kinds = ctx.params.get("kinds")
    return parse(text, dict(ctx.params.get("legend") or {}), str(path or "map"), goal,
                 dict(ctx.params.get("tiles") or {}), list(kinds) if kinds is not None else None)


@hookimpl
def register_generators(register):
    register(
        "ascii",
        generate,
        summary="A level read from a text file (--map FILE): # . > < @, monster/item glyphs, the preset's "
                "and the plugins' terrain glyphs, and the map's own legend lines (1: potion of haste).",
        params={"path": "", "text": None, "legend": {}, "goal": "stairs", "tiles": {}, "kinds": None},
        min_size=(0, 0),
        reads_maps=True,
    )
