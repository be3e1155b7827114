"""The dungeon-generator contract and the helpers generators share.

A generator is ``fn(ctx) -> Level``. ``ctx`` is a :class:`GenContext`: the size, the depth, a
``random.Random`` for this level only, and the preset's params for this generator. Generators are
registered by plugins through ``register_generators(register)`` with
``register(name, fn, *, summary="", params=None, min_size=(w, h))``.

Terrain is a numpy uint8 array of shape (height, width), indexed ``[y, x]``, holding the tile codes
below. Every generated level is connected: a generator either builds it connected (a walk, a
largest region kept) or ends with :func:`ensure_connected`, and :func:`check_level` is what the
engine runs on whatever a generator returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

WALL, FLOOR, STAIRS = 0, 1, 2
TILE_CHARS = {WALL: "#", FLOOR: ".", STAIRS: ">"}


class GenerationError(ValueError):
    """A generator was asked for something it cannot make (bad params, a map too small)."""


@dataclass(frozen=True)
class Rect:
    """A room: x, y of its top-left floor cell, and its size in cells."""

    x: int
    y: int
    w: int
    h: int

    @property
    def x2(self) -> int:
        return self.x + self.w - 1

    @property
    def y2(self) -> int:
        return self.y + self.h - 1

    @property
    def center(self) -> tuple[int, int]:
        return (self.x + (self.w - 1) // 2, self.y + (self.h - 1) // 2)

    def intersects(self, other: Rect, margin: int = 0) -> bool:
        return (
            self.x - margin <= other.x2
            and other.x <= self.x2 + margin
            and self.y - margin <= other.y2
            and other.y <= self.y2 + margin
        )

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x <= self.x2 and self.y <= y <= self.y2


@dataclass
class GenContext:
    """What a generator is given: size, depth, its own random stream, and its params."""

    width: int
    height: int
    depth: int = 1
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Level:
    """One generated level.

    ``terrain`` uses the tile codes of this module. ``start`` is where the player enters;
    ``stairs`` leads deeper, ``exit`` ends the level another way (a preset's goal); either may be
    None. ``spawns`` are fixed placements ``(kind name, x, y)`` for generators that place things;
    with ``populate`` False they are all there is (the preset's spawn tables are not rolled).
    """

    terrain: np.ndarray
    start: tuple[int, int]
    stairs: tuple[int, int] | None = None
    exit: tuple[int, int] | None = None
    rooms: list[Rect] = field(default_factory=list)
    spawns: list[tuple[str, int, int]] = field(default_factory=list)
    generator: str = ""
    populate: bool = True  # False: the level is complete as drawn (no spawn-table monsters or items)

    @property
    def width(self) -> int:
        return int(self.terrain.shape[1])

    @property
    def height(self) -> int:
        return int(self.terrain.shape[0])

    @property
    def walkable(self) -> np.ndarray:
        return self.terrain != WALL

    @property
    def transparent(self) -> np.ndarray:
        return self.terrain != WALL

    @property
    def goal(self) -> tuple[int, int] | None:
        return self.stairs if self.stairs is not None else self.exit

    def rows(self) -> list[str]:
        """The terrain as text, one string per row: ``#`` wall, ``.`` floor, ``>`` stairs."""
        lut = np.array([ord(TILE_CHARS[c]) for c in sorted(TILE_CHARS)], dtype=np.uint8)
        chars = lut[self.terrain]
        return [row.tobytes().decode("ascii") for row in chars]


Generator = Callable[[GenContext], Level]


@dataclass(frozen=True)
class GeneratorInfo:
    """A registered generator: its function, a summary, its params and their defaults, and the
    smallest (width, height) it can build."""

    name: str
    fn: Generator
    summary: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    min_size: tuple[int, int] = (3, 3)


# --- Shared helpers -------------------------------------------------------------------------------
# Everything below is vectorised or linear in the map size: the generators must build a 500x500
# level in under a second, and check_level runs on every level the game makes.


def label_regions(walkable: np.ndarray) -> tuple[np.ndarray, int]:
    """Label the 4-connected regions of ``walkable``: int32 labels 1..n (0 for wall), and n.

    Labels are numbered in scan order of each region's first cell, so they are deterministic.
    Row runs are found with numpy, then runs touching vertically are merged by min-label hooking
    with pointer jumping: a few array passes instead of a Python loop per cell.
    """
    h, w = walkable.shape
    flat = np.ascontiguousarray(walkable, dtype=bool).ravel()
    starts = flat.copy()
    starts[1:] &= ~flat[:-1]
    starts[::w] = flat[::w]  # a row's first cell never continues the previous row's run
    run = np.cumsum(starts, dtype=np.int64) - 1
    n = int(run[-1]) + 1 if flat.size else 0
    labels = np.zeros(h * w, dtype=np.int32)
    if n == 0:
        return labels.reshape(h, w), 0
    both = (flat[:-w] & flat[w:]) if h > 1 else np.zeros(0, dtype=bool)
    a, b = run[:-w][both], run[w:][both]
    if a.size:
        pairs = np.unique(a * n + b)
        a, b = pairs // n, pairs % n
    root = np.arange(n, dtype=np.int64)
    while a.size:
        ra, rb = root[a], root[b]
        differ = ra != rb
        if not differ.any():
            break
        ra, rb = ra[differ], rb[differ]
        low = np.minimum(ra, rb)
        # hook the larger root under the smaller; roots only ever decrease, so no cycles form
        np.minimum.at(root, np.maximum(ra, rb), low)
        while True:
            jumped = root[root]
            if np.array_equal(jumped, root):
                break
            root = jumped
    # every root is the smallest run of its region, so sorted roots are in scan order
    _, dense = np.unique(root, return_inverse=True)
    labels[flat] = dense[run[flat]].astype(np.int32) + 1
    return labels.reshape(h, w), int(dense.max()) + 1


def flood(walkable: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """Cells reachable from ``start`` by 4-neighbour steps over walkable cells.

    4-connectivity is the stricter one: a level connected this way is connected for 8-way and
    4-way movement alike.
    """
    sx, sy = start
    if not walkable[sy, sx]:
        return np.zeros(walkable.shape, dtype=bool)
    labels, _ = label_regions(walkable)
    return labels == labels[sy, sx]


def largest_region(walkable: np.ndarray) -> np.ndarray:
    """The biggest 4-connected region of ``walkable`` as a mask (ties: the first in scan order)."""
    labels, n = label_regions(walkable)
    if n == 0:
        return np.zeros(walkable.shape, dtype=bool)
    sizes = np.bincount(labels.ravel(), minlength=n + 1)
    sizes[0] = 0
    return labels == int(np.argmax(sizes))


def distances(walkable: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """Breadth-first step counts (4-neighbour) from ``start``; -1 where it cannot be reached.

    The frontier is a numpy index array, so the cost is the cells visited plus a small constant
    per step of the longest path.
    """
    h, w = walkable.shape
    pw = w + 2  # a wall border saves the bounds checks
    open_ = np.zeros((h + 2, pw), dtype=bool)
    open_[1:-1, 1:-1] = walkable
    open_ = open_.ravel()
    dist = np.full(open_.size, -1, dtype=np.int32)
    sx, sy = start
    s = (sy + 1) * pw + sx + 1
    if open_[s]:
        dist[s] = 0
        frontier = np.array([s], dtype=np.int64)
        step = 0
        while frontier.size:
            step += 1
            nb = np.concatenate((frontier - 1, frontier + 1, frontier - pw, frontier + pw))
            nb = np.unique(nb[open_[nb] & (dist[nb] < 0)])
            dist[nb] = step
            frontier = nb
    return dist.reshape(h + 2, pw)[1:-1, 1:-1].copy()


def farthest(walkable: np.ndarray, start: tuple[int, int]) -> tuple[int, int]:
    """The reachable cell farthest from ``start`` in steps (ties: the first in scan order)."""
    d = distances(walkable, start)
    y, x = np.unravel_index(int(np.argmax(d)), d.shape)
    return int(x), int(y)


def dead_ends(walkable: np.ndarray) -> np.ndarray:
    """Walkable cells with exactly one walkable 4-neighbour."""
    p = np.pad(walkable, 1).astype(np.int8)
    n = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
    return walkable & (n == 1)


def random_unit(rng: random.Random, shape: tuple[int, ...]) -> np.ndarray:
    """Uniform floats in [0, 1) drawn from ``rng`` (16 bits each), for vectorised dice.

    Built from ``rng.getrandbits`` with an explicit byte order, so the same seed gives the same
    array on every machine and numpy version.
    """
    count = int(np.prod(shape))
    if count == 0:
        return np.zeros(shape)
    raw = rng.getrandbits(16 * count).to_bytes(2 * count, "little")
    return (np.frombuffer(raw, dtype="<u2").astype(np.float64) / 65536.0).reshape(shape)


def carve_rect(terrain: np.ndarray, room: Rect) -> None:
    """Carve ``room`` as floor (keeping stairs as they are)."""
    region = terrain[room.y : room.y2 + 1, room.x : room.x2 + 1]
    region[region == WALL] = FLOOR


def carve_line(
    terrain: np.ndarray, a: tuple[int, int], b: tuple[int, int], horizontal_first: bool
) -> list[tuple[slice, slice]]:
    """Carve an L-shaped corridor of floor from ``a`` to ``b`` (keeping stairs as they are).

    ``horizontal_first`` turns the corner at ``(b.x, a.y)``, else at ``(a.x, b.y)``. Returns the
    two legs as (rows, columns) slices, for callers that need to know what was touched.
    """
    (x1, y1), (x2, y2) = a, b
    corner = (x2, y1) if horizontal_first else (x1, y2)
    legs = []
    for (ax, ay), (bx, by) in ((a, corner), (corner, b)):
        ys = slice(min(ay, by), max(ay, by) + 1)
        xs = slice(min(ax, bx), max(ax, bx) + 1)
        region = terrain[ys, xs]
        region[region == WALL] = FLOOR
        legs.append((ys, xs))
    return legs


def _nearest_source(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Manhattan distance to the nearest ``mask`` cell and that cell's flat index, per cell.

    The L1 transform is separable: a forward and a backward scan along rows, then along columns,
    each a numpy step over a whole column (or row) at a time.
    """
    h, w = mask.shape
    big = h + w + 1
    dist = np.where(mask, 0, big).astype(np.int64)
    src = np.where(mask, np.arange(h * w).reshape(h, w), -1)
    for axis_len, get in ((w, lambda a, i: a[:, i]), (h, lambda a, i: a[i])):
        for order in (range(1, axis_len), range(axis_len - 2, -1, -1)):
            step = 1 if order.step == 1 else -1
            for i in order:
                prev_d, cur_d = get(dist, i - step), get(dist, i)
                better = prev_d + 1 < cur_d
                cur_d[better] = prev_d[better] + 1
                get(src, i)[better] = get(src, i - step)[better]
    return dist, src


def ensure_connected(terrain: np.ndarray, start: tuple[int, int], rng: random.Random) -> None:
    """Join every walkable region to the one holding ``start`` with L corridors, in place.

    Each round finds, for every unreached region, its cell nearest (Manhattan) to the reached
    area, and carves from there to that nearest reached cell. With a few regions left only the
    nearest one is joined per round (the rest may then join it more cheaply); with many, all of
    them are joined at once so a noisy map costs a few rounds, not one per pocket.
    """
    h, w = terrain.shape
    while True:
        labels, _ = label_regions(terrain != WALL)
        home = labels[start[1], start[0]]
        rest = (labels != 0) & (labels != home)
        if not rest.any():
            return
        dist, src = _nearest_source(labels == home)
        cells = np.flatnonzero(rest)
        lab, d = labels.ravel()[cells], dist.ravel()[cells]
        order = np.lexsort((cells, d, lab))  # per region: nearest first, then scan order
        first = order[np.r_[True, lab[order][1:] != lab[order][:-1]]]
        if first.size <= 16:
            first = first[np.argsort(d[first], kind="stable")[:1]]
        for k in first:
            p, t = int(cells[k]), int(src.ravel()[cells[k]])
            carve_line(terrain, (p % w, p // w), (t % w, t // w), rng.random() < 0.5)


def check_level(level: Level, name: str) -> None:
    """What the engine checks on every generated level: start and goal on floor, all connected."""
    h, w = level.terrain.shape
    for label, p in (("start", level.start), ("stairs", level.stairs), ("exit", level.exit)):
        if p is None:
            continue
        x, y = p
        if not (0 <= x < w and 0 <= y < h) or level.terrain[y, x] == WALL:
            raise GenerationError(f"generator {name!r} put the {label} at {p}, which is not floor")
    walkable = level.walkable
    if (walkable & ~flood(walkable, level.start)).any():
        raise GenerationError(f"generator {name!r} made a level that is not connected")
