"""The dungeon-generator contract and the helpers generators share.

A generator is ``fn(ctx) -> Level``. ``ctx`` is a :class:`GenContext`: the size, the depth, a
``random.Random`` for this level only, and the preset's params for this generator. Generators are
registered by plugins through ``register_generators(register)`` with
``register(name, fn, *, summary="", params=None, min_size=(w, h))``.

Terrain is a numpy uint8 array of shape (height, width), indexed ``[y, x]``, holding the tile codes
below. Every generated level is connected: :func:`ensure_connected` is the last pass of every
generator, and :func:`check_level` is what the engine runs on whatever a generator returns.
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
    None. ``spawns`` are fixed placements ``(kind name, x, y)`` for generators that place things.
    """

    terrain: np.ndarray
    start: tuple[int, int]
    stairs: tuple[int, int] | None = None
    exit: tuple[int, int] | None = None
    rooms: list[Rect] = field(default_factory=list)
    spawns: list[tuple[str, int, int]] = field(default_factory=list)
    generator: str = ""

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


def flood(walkable: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """Cells reachable from ``start`` by 4-neighbour steps over walkable cells.

    4-connectivity is the stricter one: a level connected this way is connected for 8-way and
    4-way movement alike.
    """
    h, w = walkable.shape
    reached = np.zeros((h, w), dtype=bool)
    sx, sy = start
    if not walkable[sy, sx]:
        return reached
    open_ = walkable.ravel().tolist()
    seen = bytearray(h * w)
    s = sy * w + sx
    seen[s] = 1
    stack = [s]
    pop, push = stack.pop, stack.append
    while stack:
        i = pop()
        x = i % w
        for j, ok in ((i - w, i >= w), (i + w, i < (h - 1) * w), (i - 1, x > 0), (i + 1, x < w - 1)):
            if ok and not seen[j] and open_[j]:
                seen[j] = 1
                push(j)
    reached.ravel()[:] = np.frombuffer(bytes(seen), dtype=np.uint8).astype(bool)
    return reached


def carve_line(terrain: np.ndarray, a: tuple[int, int], b: tuple[int, int], horizontal_first: bool) -> None:
    """Carve an L-shaped corridor of floor from ``a`` to ``b`` (keeping stairs as they are)."""
    (x1, y1), (x2, y2) = a, b
    corner = (x2, y1) if horizontal_first else (x1, y2)
    for (ax, ay), (bx, by) in ((a, corner), (corner, b)):
        xs = slice(min(ax, bx), max(ax, bx) + 1)
        ys = slice(min(ay, by), max(ay, by) + 1)
        region = terrain[ys, xs]
        region[region == WALL] = FLOOR


def ensure_connected(terrain: np.ndarray, start: tuple[int, int], rng: random.Random) -> None:
    """Join every walkable region to the one holding ``start`` with L corridors, in place.

    Each unreached region is joined from its cell nearest (Manhattan) to the reached area.
    """
    walkable = terrain != WALL
    reached = flood(walkable, start)
    while True:
        rest = walkable & ~reached
        if not rest.any():
            return
        ry, rx = np.nonzero(rest)
        ty, tx = np.nonzero(reached)
        # the first unreached cell in scan order, and its nearest reached cell
        px, py = int(rx[0]), int(ry[0])
        k = int(np.argmin(np.abs(tx - px) + np.abs(ty - py)))
        carve_line(terrain, (px, py), (int(tx[k]), int(ty[k])), rng.random() < 0.5)
        walkable = terrain != WALL
        reached = flood(walkable, start)


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
