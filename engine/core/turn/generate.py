"""Running a registered generator: params checked, size checked, the result checked."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, TypeGuard

import numpy as np

from engine.core.errors import valid_names
from engine.core.kinds.specs import json_kind, same_kind, shown
from engine.kit import limits
from engine.kit.mapgen import GenContext, GenerationError, GeneratorInfo, Level
from engine.kit.regions import flood


def check(info: GeneratorInfo, width: int, height: int, params: dict[str, Any] | None = None) -> None:
    """Raise a one-line GenerationError for params ``info`` does not take, params of another kind
    than their default (``fill = "x"`` where the default is 0.45), or a size below its minimum."""
    unknown = sorted(set(params or {}) - set(info.params))
    if unknown:
        valid = ", ".join(sorted(info.params)) or "none"
        raise GenerationError(f"generator {info.name!r}: unknown param {unknown[0]!r} (valid: {valid})")
    for key, value in (params or {}).items():
        default = info.params[key]
        if not same_kind(value, default):
            raise GenerationError(f"generator {info.name!r}: param {key!r}: expected {json_kind(default)} "
                                  f"(like {default!r}), got {value!r}")
    min_w, min_h = info.min_size
    if width < min_w or height < min_h:
        raise GenerationError(
            f"generator {info.name!r}: {width}x{height} is too small (minimum {min_w}x{min_h})"
        )


def run_generator(
    info: GeneratorInfo, width: int, height: int, depth: int, rng: Any, params: dict[str, Any] | None = None,
    kinds: Collection[str] | None = None, terrain: Mapping[str, Any] | None = None,
) -> Level:
    """Build one level with ``info``; bad params or sizes raise a one-line GenerationError, and so
    does a level :func:`check_level` refuses (``kinds``: the monster and item kinds its spawns may name;
    ``terrain``: the registered terrain kinds, by name)."""
    params = dict(params or {})
    check(info, width, height, params)
    merged = {**info.params, **params}
    level = info.fn(GenContext(width, height, depth, rng, merged))
    if not isinstance(level, Level):
        raise GenerationError(f"generator {info.name!r} returned {shown(level)}, not an engine.Level")
    level.generator = info.name
    check_level(level, info.name, kinds, terrain)
    return level


def _cell(value: Any) -> TypeGuard[tuple[int, int]]:
    """Whether ``value`` is an (x, y) of whole numbers (a tuple, a list, numpy's ints too)."""
    if isinstance(value, str | bytes | dict):
        return False
    try:
        x, y = value
    except (TypeError, ValueError):
        return False
    return all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in (x, y))


def walkable_of(level: Level, terrain: Mapping[str, Any] | None) -> np.ndarray:
    """Where a creature may step on ``level``, by its kinds of terrain (``terrain``: the registered
    ones, by name; a kind not among them counts as wall); without them, wherever is not wall."""
    if terrain is None:
        return level.walkable
    lut = np.array([bool(getattr(terrain.get(k), "walkable", False)) for k in level.kinds], dtype=bool)
    walkable: np.ndarray = lut[level.terrain]
    return walkable


def check_level(level: Level, name: str, kinds: Collection[str] | None = None,
                terrain_kinds: Mapping[str, Any] | None = None) -> None:
    """What the engine checks on every generated level: terrain of its kinds' codes (of the
    registered kinds, ``terrain_kinds``, when given), no bigger than a save can hold, start and goal
    walkable, rooms ``Rect``s on the map, spawns ``(kind, x, y)`` on walkable cells apart from the
    start and from each other (of ``kinds``, when given), all connected over the walkable kinds."""
    terrain = level.terrain
    if not isinstance(terrain, np.ndarray) or terrain.ndim != 2 or terrain.dtype.kind not in "iu":
        raise GenerationError(f"generator {name!r} made terrain that is not a 2-D array of tile codes "
                              f"(got {shown(terrain)})")
    h, w = terrain.shape
    if not (1 <= w <= limits.MAX_MAP_SIDE and 1 <= h <= limits.MAX_MAP_SIDE):
        raise GenerationError(f"generator {name!r} made a {w}x{h} level: each side must be 1..{limits.MAX_MAP_SIDE}")
    if terrain.size and not 0 <= int(terrain.min()) <= int(terrain.max()) < len(level.kinds):
        raise GenerationError(f"generator {name!r} made terrain with codes other than its kinds' "
                              f"0..{len(level.kinds) - 1} ({', '.join(map(str, level.kinds))})")
    if terrain_kinds is not None:
        # the codes are 0..len(kinds)-1 (checked above): counted, not np.unique'd (which imports
        # numpy.ma, 15-30 ms of a short run's start)
        counts = np.bincount(terrain.ravel().astype(np.intp, copy=False), minlength=len(level.kinds))
        used = {level.kinds[c] for c in np.flatnonzero(counts).tolist()}
        for kind in sorted(used - set(terrain_kinds)):
            raise GenerationError(f"generator {name!r} made terrain of kind {kind!r}, which no plugin registers "
                                  f"{valid_names(kind, terrain_kinds)}")
    walkable = walkable_of(level, terrain_kinds)
    for what, things, most in (("spawns", level.spawns, limits.MAX_ENTITIES), ("rooms", level.rooms, limits.MAX_ROOMS)):
        if not isinstance(things, list | tuple) or len(things) > most:
            raise GenerationError(f"generator {name!r} made a level with {shown(things)} as {what} "
                                  f"(expected a list of at most {most})")
    for label, p in (("start", level.start), ("stairs", level.stairs), ("exit", level.exit)):
        if p is None and label != "start":
            continue
        if not _cell(p) or not (0 <= p[0] < w and 0 <= p[1] < h) or not walkable[p[1], p[0]]:
            raise GenerationError(f"generator {name!r} put the {label} at {shown(p)}, which is not floor")
    for room in level.rooms:
        # a Rect, or what reads as one (x, y, w, h and contains): the placement and the save use no more
        x: Any  # what the plugin gave, checked below
        y: Any
        rw: Any
        rh: Any
        x, y, rw, rh = (getattr(room, a, None) for a in ("x", "y", "w", "h"))
        if not (callable(getattr(room, "contains", None)) and _cell((x, y)) and _cell((rw, rh))
                and 0 <= x and 0 <= y and rw >= 1 and rh >= 1 and x + rw <= w and y + rh <= h):
            raise GenerationError(f"generator {name!r} made a room {shown(room)}: expected an engine.kit.mapgen.Rect "
                                  f"(x, y, w, h) inside the {w}x{h} map")
    taken = {tuple(level.start)}
    for spawn in level.spawns:
        if not (isinstance(spawn, tuple | list) and len(spawn) == 3 and isinstance(spawn[0], str)
                and _cell(tuple(spawn[1:]))):
            raise GenerationError(f"generator {name!r} made a spawn {shown(spawn)}: expected (kind name, x, y)")
        kind, x, y = spawn
        if kinds is not None and kind not in kinds:
            raise GenerationError(f"generator {name!r} spawns {kind!r}, which is no monster or item kind here "
                                  f"{valid_names(kind, kinds)}")
        if not (0 <= x < w and 0 <= y < h) or not walkable[y, x] or (x, y) in taken:
            where = "the start" if (x, y) == tuple(level.start) else "taken" if (x, y) in taken else "not floor"
            raise GenerationError(f"generator {name!r} spawns {kind!r} at ({x}, {y}), which is {where} "
                                  "(expected a floor cell of its own)")
        taken.add((x, y))
    problem = unreachable(level, walkable)
    if problem:
        raise GenerationError(f"generator {name!r} made a level that is not connected: {problem}")


def unreachable(level: Level, walkable: np.ndarray | None = None) -> str | None:
    """Which walkable cell of ``level`` cannot be reached from its start by 4-way steps (the first
    in [y, x] order, and how many more), or None when the level is connected. "Connected" is
    4-way, the stricter kind: a level connected so is connected whatever a preset's movement (4
    or 8 ways) and whether or not a diagonal step may cut a wall's corner. ``walkable``: where a
    creature may step (default: wherever is not wall)."""
    walkable = level.walkable if walkable is None else walkable
    lost = walkable & ~flood(walkable, level.start)
    if not lost.any():
        return None
    y, x = (int(v) for v in np.argwhere(lost)[0])
    more = int(lost.sum()) - 1
    return (f"({x}, {y}) cannot be reached from the start {tuple(level.start)} by 4-way steps"
            + (f" (nor {more} more cell{'s' if more != 1 else ''})" if more else ""))
