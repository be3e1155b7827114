"""A level as plain data, for run saves and replays: terrain as text rows, its cells and rooms, the
generator's fixed placements. :data:`LEVEL` validates one read back (shape and characters; whether
its cells are floor, and its spawns known kinds, is for the run's invariants and the loader)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.core.kinds.schema import Bool, Check, Int, List, Obj, Optional, Str, Tuple
from engine.kit import limits
from engine.kit.mapgen import TILE_CHARS, Level, Rect

CHARS_TILE = {c: t for t, c in TILE_CHARS.items()}
_CHARS = "".join(sorted(CHARS_TILE))
_ROW = Str(limits.MAX_MAP_SIDE, 1, f"[{_CHARS}]+", expected=f"a row of only {_CHARS}")
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
}, defaults={"upstairs": True})


def dump(level: Level) -> dict[str, Any]:
    return {
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
    terrain = lut[np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8)].reshape(len(rows), len(rows[0]))
    return Level(terrain, d["start"], d["stairs"], d["exit"], [Rect(*r) for r in d["rooms"]],
                 [tuple(s) for s in d["spawns"]], d["generator"], populate=d["populate"],
                 upstairs=tuple(d["upstairs"]) if d.get("upstairs") is not None else None)
