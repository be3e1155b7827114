"""The generator contract, as checks on a registered :class:`engine.kit.mapgen.GeneratorInfo`.

``fn(ctx) -> Level``; ``ctx`` has ``width``, ``height``, ``depth``, ``rng`` (this level's own
``random.Random``) and ``params``. Levels here are built the way a run builds them (the params and
size checked, the level seeded like a run's depth), with :func:`make_level`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from engine.core.errors import valid_names
from engine.core.model.rng import stream
from engine.core.turn.generate import run_generator, unreachable, walkable_of
from engine.kit.mapgen import STAIRS, UPSTAIRS, GenerationError, GeneratorInfo, Level, Rect
from engine.testing.errors import ContractError, fail

# the registered kinds of terrain, by name (``registry.terrain``): what a level's kinds are checked against
TerrainKinds = Mapping[str, Any]

DEFAULT_SIZE = (60, 40)


def make_level(info: GeneratorInfo, width: int, height: int, *, seed: int = 0, depth: int = 1,
               terrain_kinds: TerrainKinds | None = None, **params: Any) -> Level:
    """One level of ``info``, seeded like a run's level ``depth`` for ``seed`` (the same level as
    ``engine.generate_level`` makes for a built-in). ``terrain_kinds`` (``registry.terrain``): a
    kind of terrain the level names that is not among them is refused, as a run refuses it."""
    return run_generator(info, width, height, depth, stream(seed, f"level:{depth}"), params, terrain=terrain_kinds)


def level_problems(level: Level, size: tuple[int, int], *, outer_wall: bool = True,
                   needs_goal: bool = True, terrain_kinds: TerrainKinds | None = None) -> list[str]:
    """Everything wrong with one level of ``size`` (width, height), as readable lines; none when
    it keeps the contract: terrain a (height, width) uint8 array of tile codes 0 wall, 1 floor,
    2 stairs; a goal (stairs or exit; ``needs_goal`` False: a preset's params may leave it out, as
    a one-level game does) on ``STAIRS`` terrain; start and goal on the map, not wall,
    and not the same cell; connected: every walkable cell reachable from the start by 4-way steps
    (up, down, left, right; a diagonal step does not count, whatever the preset's movement, so
    the level is connected for 4-way and 8-way movers alike); an all-wall outer ring
    (unless ``outer_wall`` is False: a board open to the map's edge); every room on the map.

    A plugin's kinds of terrain (after the built-in four in the level's ``kinds``) are codes too;
    with ``terrain_kinds`` (``registry.terrain``) each must be registered, and walkable means what
    the kinds say (a closed door is walkable, a chasm is not); without, whatever is not wall is."""
    w, h = size
    if level.terrain.shape != (h, w) or level.terrain.dtype != np.uint8:
        return [f"terrain is {level.terrain.shape} {level.terrain.dtype}, expected ({h}, {w}) uint8"]
    out = []
    codes = set(np.unique(level.terrain).tolist())
    up = level.upstairs
    if any(c >= len(level.kinds) for c in codes):
        out.append("unknown tile codes")
    elif UPSTAIRS in codes and not (up is not None and int((level.terrain == UPSTAIRS).sum()) == 1
                                    and level.terrain[up[1], up[0]] == UPSTAIRS):
        out.append("unknown tile codes")  # 3 is the engine's stairs up (a game that keeps levels), never a generator's
    elif terrain_kinds is not None:
        for name in sorted({level.kinds[c] for c in codes} - set(terrain_kinds)):
            out.append(f"terrain kind {name!r} is registered by no plugin {valid_names(name, terrain_kinds)}")
    if out:
        return out
    walkable = walkable_of(level, terrain_kinds)
    goal = level.goal
    if goal is None and needs_goal:
        out.append("no stairs and no exit")
    for label, p in (("start", level.start), ("goal", goal)):
        if p is not None and not (0 <= p[0] < w and 0 <= p[1] < h and walkable[p[1], p[0]]):
            out.append(f"{label} {p} is not a floor cell")
    if out:
        return out
    if goal is not None and goal == level.start:
        out.append("start and goal are the same cell")
    if goal is not None and level.terrain[goal[1], goal[0]] != STAIRS:
        out.append(f"goal {goal} is not STAIRS terrain")
    lost = unreachable(level, walkable)
    if lost:
        out.append(f"not connected: {lost}")
    t = level.terrain
    if outer_wall and (t[0].any() or t[-1].any() or t[:, 0].any() or t[:, -1].any()):
        out.append("outer ring is not all wall")
    for r in level.rooms:
        if r.x < 0 or r.y < 0 or r.x2 >= w or r.y2 >= h:
            out.append(f"room {r} leaves the map")
    return out


def _holds_all(room: Rect, walkable: np.ndarray) -> bool:
    inside = np.zeros_like(walkable)
    inside[room.y:room.y2 + 1, room.x:room.x2 + 1] = True
    return not (walkable & ~inside).any()


def check_generator_rooms(info: GeneratorInfo, size: tuple[int, int] | None = None, seeds: int = 10) -> None:
    """At ``size`` (default 60x40, or the ``min_size`` when larger), the room that holds the start
    never holds every floor cell: no monster is placed in the start's room, so a level whose only
    room is the whole map gets no monster at all. A cave or an open map returns ``rooms=[]`` (then
    monsters keep the preset's ``start_clearance`` from the start). (A tiny map may be one room:
    this is checked at a dungeon's size only.)"""
    w, h = _sized(info, size)
    for seed in range(seeds):
        level = _build(info, w, h, seed)
        room = next((r for r in level.rooms if r.contains(*level.start)), None)
        if room is not None and level.populate and _holds_all(room, level.walkable):
            raise fail(_subject(info), f"the start's room {room} leaves floor for monsters: it holds every floor "
                       "cell, and no monster is placed in the start's room (a level without rooms returns rooms=[])",
                       f"{w}x{h}, seed {seed}")


def _subject(info: GeneratorInfo) -> str:
    return f"generator {info.name!r}"


def check_level(info: GeneratorInfo, level: Level, size: tuple[int, int], case: str = "",
                terrain_kinds: TerrainKinds | None = None) -> None:
    """:func:`level_problems` for a level of ``info`` (held to an outer ring as it claims; its kinds
    of terrain to ``terrain_kinds``, ``registry.terrain``, when given)."""
    found = level_problems(level, size, outer_wall=info.outer_wall, terrain_kinds=terrain_kinds)
    if found:
        raise fail(_subject(info), f"makes valid levels: {'; '.join(found)}", case or f"{size[0]}x{size[1]}")


def _sized(info: GeneratorInfo, size: tuple[int, int] | None) -> tuple[int, int]:
    w, h = size or DEFAULT_SIZE
    return max(w, info.min_size[0]), max(h, info.min_size[1])


def _build(info: GeneratorInfo, w: int, h: int, seed: int, depth: int = 1,
           terrain_kinds: TerrainKinds | None = None) -> Level:
    try:
        return make_level(info, w, h, seed=seed, depth=depth, terrain_kinds=terrain_kinds)
    except GenerationError as e:
        raise fail(_subject(info), f"builds a level at {w}x{h} with its defaults: {e}", f"seed {seed}") from None


def check_generator_seeds(info: GeneratorInfo, size: tuple[int, int] | None = None, seeds: int = 100,
                          terrain_kinds: TerrainKinds | None = None) -> None:
    """Seeds 0..``seeds``-1 at ``size`` (default 60x40, or the ``min_size`` when larger) all give
    valid levels (:func:`level_problems`, of ``terrain_kinds`` when given)."""
    w, h = _sized(info, size)
    for seed in range(seeds):
        check_level(info, _build(info, w, h, seed, terrain_kinds=terrain_kinds), (w, h), f"{w}x{h}, seed {seed}",
                    terrain_kinds)


def check_generator_determinism(info: GeneratorInfo, seeds: int = 10, size: tuple[int, int] = (80, 50)) -> None:
    """The same seed gives the same level, twice over (terrain, start, stairs, exit, rooms): the
    generator draws its randomness from ``ctx.rng`` only."""
    w, h = _sized(info, size)
    for seed in range(seeds):
        a, b = _build(info, w, h, seed), _build(info, w, h, seed)
        if not np.array_equal(a.terrain, b.terrain) or (a.start, a.stairs, a.exit, a.rooms) != \
                (b.start, b.stairs, b.exit, b.rooms):
            raise fail(_subject(info), "the same seed gives the same level (use ctx.rng, never the global random)",
                       f"{w}x{h}, seed {seed}")


def check_generator_variety(info: GeneratorInfo, size: tuple[int, int] = (80, 50)) -> None:
    """Seeds and depths make different levels: of ten seeds at depth 1 and seed 1 at depths 2-5,
    at least 12 of the 14 levels differ."""
    w, h = _sized(info, size)
    levels = {_build(info, w, h, s).terrain.tobytes() for s in range(10)}
    levels |= {_build(info, w, h, 1, depth=d).terrain.tobytes() for d in range(2, 6)}
    if len(levels) < 12:
        raise fail(_subject(info), "seeds and depths make different levels", f"{len(levels)} different of 14")


def check_generator_sizes(info: GeneratorInfo, seeds: int = 10, terrain_kinds: TerrainKinds | None = None) -> None:
    """Its ``min_size`` really works, and odd and thin sizes above it: at the minimum, a little
    above it, wide and thin, tall and thin, and 101x77, ``seeds`` seeds each give valid levels."""
    min_w, min_h = info.min_size
    for w, h in ((min_w, min_h), (min_w + 1, min_h + 3), (min_w + 31, min_h), (min_w, min_h + 40), (101, 77)):
        for seed in range(seeds):
            check_level(info, _build(info, w, h, seed, terrain_kinds=terrain_kinds), (w, h),
                        f"{w}x{h}, seed {seed} (min_size {min_w}x{min_h})", terrain_kinds)


def check_generator_errors(info: GeneratorInfo) -> None:
    """A param it does not take is refused in one line naming it and the ones it takes; a size
    below its ``min_size`` is refused in one line naming the minimum."""
    try:
        make_level(info, 80, 50, bogus_param=1)
    except GenerationError as e:
        message = str(e)
        if "bogus_param" not in message or any(p not in message for p in info.params) or "\n" in message:
            raise fail(_subject(info), "an unknown param's error names it and the valid ones", message) from None
    else:
        raise fail(_subject(info), "an unknown param is refused", "bogus_param=1")
    min_w, min_h = info.min_size
    for w, h in ((min_w - 1, min_h), (min_w, min_h - 1)):
        if w < 0 or h < 0:
            continue
        try:
            make_level(info, w, h)
        except GenerationError as e:
            if f"minimum {min_w}x{min_h}" not in str(e):
                raise fail(_subject(info), "a size below min_size is refused naming the minimum", str(e)) from None
        else:
            raise fail(_subject(info), "a size below min_size is refused", f"{w}x{h}")


def golden_text(info: GeneratorInfo, seeds: tuple[int, ...] = (1, 2, 3), size: tuple[int, int] = (80, 50)) -> str:
    """Levels of ``seeds`` at ``size`` as text, to pin in a golden file and compare after a change:
    a line ``seed N: start ... stairs ... exit ... rooms N`` and the map's rows for each."""
    parts = []
    for seed in seeds:
        level = make_level(info, *size, seed=seed)
        goals = f"stairs {level.stairs} exit {level.exit}"
        parts.append(f"seed {seed}: start {level.start} {goals} rooms {len(level.rooms)}")
        parts.extend(level.rows())
    return "\n".join(parts) + "\n"


def check_generator(info: GeneratorInfo, *, size: tuple[int, int] | None = None, seeds: int = 40,
                    terrain_kinds: TerrainKinds | None = None) -> None:
    """Every generator contract at once: :func:`check_generator_seeds` (``seeds`` seeds at ``size``),
    :func:`check_generator_rooms`, :func:`check_generator_determinism`, :func:`check_generator_variety`,
    :func:`check_generator_sizes` and :func:`check_generator_errors`. A generator that reads map
    files (``reads_maps``) needs a map: check the levels it reads with :func:`check_level`. A
    generator that makes a plugin's kinds of terrain passes ``terrain_kinds=registry.terrain``: a
    kind no plugin registers is then refused, and walkable means what the kinds say."""
    if info.reads_maps:
        raise ContractError(f"{_subject(info)} reads map files: check the levels it reads with check_level")
    check_generator_seeds(info, size, seeds, terrain_kinds)
    check_generator_rooms(info, size)
    check_generator_determinism(info, size=size or (80, 50))
    check_generator_variety(info, size=size or (80, 50))
    check_generator_sizes(info, seeds=max(1, seeds // 8), terrain_kinds=terrain_kinds)
    check_generator_errors(info)
