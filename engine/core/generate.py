"""Running a registered generator: params checked, size checked, the result checked."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.kit import limits
from engine.kit.mapgen import WALL, GenContext, GenerationError, GeneratorInfo, Level
from engine.kit.regions import flood


def _kind_of(value: Any) -> str:
    """A param's JSON kind: what a value given for it must also be (an int passes for a number)."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "any value"


def check(info: GeneratorInfo, width: int, height: int, params: dict[str, Any] | None = None) -> None:
    """Raise a one-line GenerationError for params ``info`` does not take, params of another kind
    than their default (``fill = "x"`` where the default is 0.45), or a size below its minimum."""
    unknown = sorted(set(params or {}) - set(info.params))
    if unknown:
        valid = ", ".join(sorted(info.params)) or "none"
        raise GenerationError(f"generator {info.name!r}: unknown param {unknown[0]!r} (valid: {valid})")
    for key, value in (params or {}).items():
        default = info.params[key]
        if default is not None and _kind_of(value) != _kind_of(default):
            raise GenerationError(f"generator {info.name!r}: param {key!r}: expected {_kind_of(default)} "
                                  f"(like {default!r}), got {value!r}")
    min_w, min_h = info.min_size
    if width < min_w or height < min_h:
        raise GenerationError(
            f"generator {info.name!r}: {width}x{height} is too small (minimum {min_w}x{min_h})"
        )


def run_generator(
    info: GeneratorInfo, width: int, height: int, depth: int, rng: Any, params: dict[str, Any] | None = None
) -> Level:
    """Build one level with ``info``; bad params or sizes raise a one-line GenerationError."""
    params = dict(params or {})
    check(info, width, height, params)
    merged = {**info.params, **params}
    level = info.fn(GenContext(width, height, depth, rng, merged))
    level.generator = info.name
    check_level(level, info.name)
    return level




def check_level(level: Level, name: str) -> None:
    """What the engine checks on every generated level: no bigger than a save can hold, start and
    goal on floor, all connected."""
    h, w = level.terrain.shape
    if not (1 <= w <= limits.MAX_MAP_SIDE and 1 <= h <= limits.MAX_MAP_SIDE):
        raise GenerationError(f"generator {name!r} made a {w}x{h} level: each side must be 1..{limits.MAX_MAP_SIDE}")
    for what, things, most in (("spawns", level.spawns, limits.MAX_ENTITIES), ("rooms", level.rooms, limits.MAX_ROOMS)):
        if len(things) > most:
            raise GenerationError(f"generator {name!r} made a level with {len(things)} {what} (at most {most})")
    for label, p in (("start", level.start), ("stairs", level.stairs), ("exit", level.exit)):
        if p is None:
            continue
        x, y = p
        if not (0 <= x < w and 0 <= y < h) or level.terrain[y, x] == WALL:
            raise GenerationError(f"generator {name!r} put the {label} at {p}, which is not floor")
    problem = unreachable(level)
    if problem:
        raise GenerationError(f"generator {name!r} made a level that is not connected: {problem}")


def unreachable(level: Level) -> str | None:
    """Which walkable cell of ``level`` cannot be reached from its start by 4-way steps (the first
    in [y, x] order, and how many more), or None when the level is connected. "Connected" is
    4-way, the stricter kind: a level connected so is connected whatever a preset's movement (4
    or 8 ways) and whether or not a diagonal step may cut a wall's corner."""
    walkable = level.walkable
    lost = walkable & ~flood(walkable, level.start)
    if not lost.any():
        return None
    y, x = (int(v) for v in np.argwhere(lost)[0])
    more = int(lost.sum()) - 1
    return (f"({x}, {y}) cannot be reached from the start {tuple(level.start)} by 4-way steps"
            + (f" (nor {more} more cell{'s' if more != 1 else ''})" if more else ""))
