"""The dungeon-generator contract and the helpers generators share.

A generator is ``fn(ctx) -> Level``. ``ctx`` is a :class:`GenContext`: the size, the depth, a
``random.Random`` for this level only, and the preset's params for this generator. Generators are
registered by plugins through ``register_generators(register)`` with
``register(name, fn, *, summary="", params=None, min_size=(w, h), natural_size=None)``.

Terrain is a numpy uint8 array of shape (height, width), indexed ``[y, x]``, holding the tile codes
below. Every generated level is connected: a generator either builds it connected (a walk, a
largest region kept) or ends with ``engine.kit.regions.ensure_connected``, and
``engine.core.turn.generate.check_level`` is what the engine runs on whatever a generator returns. This
module holds the contract and the carving helpers; ``engine.kit.regions`` the connectivity ones.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

WALL, FLOOR, STAIRS = 0, 1, 2
# stairs up: put by the engine (never a generator) where a game that keeps its levels wants them
UPSTAIRS = 3
TILE_CHARS = {WALL: "#", FLOOR: ".", STAIRS: ">", UPSTAIRS: "<"}
GENERATED = (WALL, FLOOR, STAIRS)  # the codes a generator may use
# The terrain kinds the codes above name: every level's table of kinds starts with these, in this
# order, so an array of the codes 0..3 is a level of them (the built-in plugin ``terrain`` registers
# them). A plugin's kinds follow, each named once in the level's ``kinds``.
BUILTIN_KINDS = ("wall", "floor", "stairs", "upstairs")
# the characters ``Level.rows`` writes for each code: the built-in four, then one per kind of a plugin
CODE_CHARS = "#.><" + "0123456789" + "abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "!$%&*+-=?@^_~"
MAX_LEVEL_KINDS = len(CODE_CHARS)  # kinds of terrain one level may hold (79)


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

    ``terrain`` holds, per cell, an index into ``kinds``, the level's table of terrain kind names:
    by default the built-in four (``BUILTIN_KINDS``: the codes ``WALL``, ``FLOOR``, ``STAIRS`` and
    ``UPSTAIRS`` of this module), and a plugin's kinds after them, added with :meth:`code` or
    :meth:`paint` (``level.paint(x, y, "water")``). A generator may also return ``terrain`` as an
    array of kind names (``numpy.full((h, w), "floor")``): the engine turns it into the table.

    ``start`` is where the player enters;
    ``stairs`` leads deeper, ``exit`` ends the level another way (a preset's goal); either may be
    None. ``spawns`` are fixed placements ``(kind name, x, y)`` for generators that place things;
    with ``populate`` False they are all there is (the preset's spawn tables are not rolled).
    ``features`` names the set pieces plugins built into the level (``"vault 34,12"``: what
    ``GameAPI.note_feature`` notes and ``undercroft catalog`` lists).
    """

    terrain: np.ndarray
    start: tuple[int, int]
    stairs: tuple[int, int] | None = None
    exit: tuple[int, int] | None = None
    rooms: list[Rect] = field(default_factory=list)
    spawns: list[tuple[str, int, int]] = field(default_factory=list)
    generator: str = ""
    populate: bool = True  # False: the level is complete as drawn (no spawn-table monsters or items)
    upstairs: tuple[int, int] | None = None  # where stairs lead up, when the game keeps its levels
    kinds: list[str] = field(default_factory=lambda: list(BUILTIN_KINDS))
    features: list[str] = field(default_factory=list)

    def code(self, name: str) -> int:
        """The code of terrain kind ``name`` on this level, added to its table when new (at most
        ``MAX_LEVEL_KINDS`` kinds: a ValueError beyond)."""
        try:
            return self.kinds.index(name)
        except ValueError:
            if len(self.kinds) >= MAX_LEVEL_KINDS:
                raise ValueError(f"level: {name!r} would be its kind number {len(self.kinds) + 1} of terrain; "
                                 f"a level holds at most {MAX_LEVEL_KINDS}") from None
            self.kinds.append(name)
            return len(self.kinds) - 1

    def kind_at(self, x: int, y: int) -> str:
        """The name of the terrain kind on cell (x, y)."""
        return self.kinds[int(self.terrain[y, x])]

    def paint(self, x: int, y: int, name: str) -> None:
        """Make cell (x, y) terrain kind ``name`` (a generator's tool; in play,
        ``GameAPI.set_terrain`` does it and keeps sight and paths up to date)."""
        self.terrain[y, x] = self.code(name)

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
    def goal(self) -> tuple[int, int] | None:
        return self.stairs if self.stairs is not None else self.exit

    def rows(self) -> list[str]:
        """The terrain as text, one string per row: ``#`` wall, ``.`` floor, ``>`` stairs, ``<``
        stairs up, then a plugin's kinds by their place in ``kinds`` (:data:`CODE_CHARS`)."""
        lut = np.frombuffer(CODE_CHARS.encode("ascii"), dtype=np.uint8)
        chars = lut[self.terrain]
        return [row.tobytes().decode("ascii") for row in chars]


def by_names(names: np.ndarray, kinds: list[str] | None = None) -> tuple[np.ndarray, list[str]]:
    """An array of terrain kind names as (codes, kinds): the built-in four first, then the others
    in the order of first appearance (row by row). ValueError past ``MAX_LEVEL_KINDS`` kinds."""
    kinds = list(kinds or BUILTIN_KINDS)
    found, inverse = np.unique(names.astype(str), return_inverse=True)
    firsts = {str(name): int(np.flatnonzero(inverse == i)[0]) for i, name in enumerate(found.tolist())}
    for name in sorted((n for n in firsts if n not in kinds), key=firsts.__getitem__):
        kinds.append(name)
    if len(kinds) > MAX_LEVEL_KINDS:
        raise ValueError(f"level: {len(kinds)} kinds of terrain; a level holds at most {MAX_LEVEL_KINDS}")
    codes = np.array([kinds.index(str(n)) for n in found.tolist()], dtype=np.uint8)
    return codes[inverse].reshape(names.shape), kinds


def builtin_first(level: Level) -> None:
    """Put the level's table in the engine's order (the built-in four first, as codes 0..3), its
    cells renumbered to match: a generator may have named its own table in another order."""
    kinds = [str(k) for k in level.kinds]
    if tuple(kinds[:len(BUILTIN_KINDS)]) == BUILTIN_KINDS:
        return
    order = list(BUILTIN_KINDS) + [k for k in dict.fromkeys(kinds) if k not in BUILTIN_KINDS]
    lut = np.array([order.index(k) for k in kinds] or [0], dtype=np.uint8)
    level.terrain = lut[level.terrain]
    level.kinds = order


Generator = Callable[[GenContext], Level]


@dataclass(frozen=True)
class GeneratorInfo:
    """A registered generator: its function, a summary, its params and their defaults, the
    smallest (width, height) it can build, whether it reads ``--map`` files (``reads_maps``: it takes
    a ``path`` param and a ``legend`` of glyph to kind name, and, when its params name ``tiles``, the
    glyphs the preset draws its terrain with, glyph to ``wall``/``floor``/``stairs``/``upstairs``, and the
    plugins' kinds of terrain by their glyphs, glyph to the kind's name),
    the size it is meant for when that is not a dungeon's (a small board), which ``compare
    generators`` uses, whether its levels
    have an all-wall outer ring (``outer_wall``; False for a board open to the map's edge), and
    whether its walls are rock faces (``natural_walls``: caves), which the window draws each as
    its glyph rather than joined into lines like a built wall's."""

    name: str
    fn: Generator
    summary: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    min_size: tuple[int, int] = (3, 3)
    reads_maps: bool = False
    natural_size: tuple[int, int] | None = None
    outer_wall: bool = True
    natural_walls: bool = False


# --- Carving helpers ------------------------------------------------------------------------------


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


def farthest_room(rooms: list[Rect], start: tuple[int, int],
                  center: Callable[[Rect], tuple[int, int]] | np.ndarray) -> tuple[int, int]:
    """Where the stairs go: the centre of the room farthest (Manhattan) from ``start``, the first
    such room on a tie; with a single room, its far corner.

    ``center`` gives a room's centre: a function of the room, or the rooms' centres already made,
    an ``(n, 2)`` integer array of ``(x, y)`` rows in the order of ``rooms`` (the same choice
    without a Python tuple per room: thousands of rooms on a big map)."""
    if isinstance(center, np.ndarray):
        reach = np.abs(center[:, 0] - start[0]) + np.abs(center[:, 1] - start[1])
        x, y = center[int(np.argmax(reach))].tolist()  # argmax: the first on a tie, as max()
        best = (x, y)
    else:
        best = max((center(r) for r in rooms), key=lambda c: abs(c[0] - start[0]) + abs(c[1] - start[1]))
    return best if best != start else (rooms[0].x2, rooms[0].y2)


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
