"""A level as plain data, for run saves and replays: terrain as text rows, its cells and rooms, the
generator's fixed placements, the set pieces plugins noted in it (``features``, kept only when there
are some). :data:`LEVEL` validates one read back (shape and characters; whether its cells are floor,
and its spawns known kinds, is for the run's invariants and the loader).

Terrain is saved by kind: each row's characters are codes (``#.><`` the built-in four, then
``engine.kit.mapgen.CODE_CHARS`` in order), and ``kinds`` names a plugin's kinds after the built-in
four. A level of the built-in kinds alone has no ``kinds`` key, as before there were others: its
data is what it always was (a replay's sealed source level, an older engine's save)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.core.kinds.schema import Bool, Check, Int, List, Obj, Optional, SchemaError, Str, Tuple
from engine.kit import limits
from engine.kit.mapgen import BUILTIN_KINDS, CODE_CHARS, MAX_LEVEL_KINDS, Level, Rect

CHARS_TILE = {c: t for t, c in enumerate(CODE_CHARS)}
_ROW = Str(limits.MAX_MAP_SIDE, 1, "[" + "".join("\\" + c if c in "^-]\\" else c for c in CODE_CHARS) + "]+",
           expected=f"a row of only {CODE_CHARS}")
_KIND = Str(limits.MAX_LABEL_CHARS, 1)
_KINDS = Check(List(_KIND, lo=len(BUILTIN_KINDS), most=MAX_LEVEL_KINDS),
               lambda kinds: tuple(kinds[:len(BUILTIN_KINDS)]) == BUILTIN_KINDS and len(set(kinds)) == len(kinds),
               f"terrain kind names, first {', '.join(BUILTIN_KINDS)}, each once")
_CELL = Tuple(Int(0, limits.MAX_MAP_SIDE - 1), Int(0, limits.MAX_MAP_SIDE - 1), expected="[x, y] on the map")
_COORD = Int(0, limits.MAX_MAP_SIDE - 1)

LEVEL = Obj({
    "rows": Check(List(_ROW, lo=1, most=limits.MAX_MAP_SIDE), lambda rows: all(len(r) == len(rows[0]) for r in rows),
                  "rows of one width"),
    "start": _CELL,
    "stairs": Optional(_CELL),
    "exit": Optional(_CELL),
    "rooms": List(Tuple(_COORD, _COORD, Int(1, limits.MAX_MAP_SIDE), Int(1, limits.MAX_MAP_SIDE),
                        expected="[x, y, w, h] on the map"), most=10_000),
    "generator": Str(100),
    "spawns": List(Tuple(Str(100, 1), _COORD, _COORD, expected='["kind", x, y]'), most=limits.MAX_ENTITIES),
    "populate": Bool(),
    "upstairs": Optional(_CELL),
    "kinds": _KINDS,
    "features": List(Str(limits.MAX_LABEL_CHARS, 1), most=100),
}, defaults={"upstairs": True, "kinds": True, "features": True})


def dump(level: Level) -> dict[str, Any]:
    extra = {"kinds": list(level.kinds)} if tuple(level.kinds) != BUILTIN_KINDS else {}
    if level.features:  # a level without set pieces keeps the data it always had
        extra["features"] = list(level.features)
    return {**extra,
        "rows": level.rows(), "start": list(level.start),
        "stairs": list(level.stairs) if level.stairs else None, "exit": list(level.exit) if level.exit else None,
        "rooms": [[r.x, r.y, r.w, r.h] for r in level.rooms], "generator": level.generator,
        "spawns": [[k, x, y] for k, x, y in level.spawns], "populate": level.populate,
        "upstairs": list(level.upstairs) if level.upstairs else None,
    }


def load(data: Any, where: str) -> Level:
    """A Level from data that may be hostile: validated first (SchemaError, one line)."""
    d = LEVEL.check(data, where)
    lut = np.zeros(128, dtype=np.uint8)
    for char, tile in CHARS_TILE.items():
        lut[ord(char)] = tile
    rows = d["rows"]
    kinds = list(d.get("kinds") or BUILTIN_KINDS)
    terrain = lut[np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8)].reshape(len(rows), len(rows[0]))
    if terrain.size and int(terrain.max()) >= len(kinds):
        y, x = (int(v) for v in np.argwhere(terrain >= len(kinds))[0])
        raise SchemaError(f"{where}.rows[{y}]: {rows[y][x]!r} at column {x} names terrain kind number "
                          f"{int(terrain[y, x]) + 1}, but the level has {len(kinds)} ({', '.join(kinds)})")
    return Level(terrain, d["start"], d["stairs"], d["exit"], [Rect(*r) for r in d["rooms"]],
                 [tuple(s) for s in d["spawns"]], d["generator"], populate=d["populate"],
                 upstairs=tuple(d["upstairs"]) if d.get("upstairs") is not None else None, kinds=kinds,
                 features=list(d.get("features") or []))
