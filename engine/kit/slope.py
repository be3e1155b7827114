"""One distance map read for many walkers' single steps: :func:`engine.kit.path.downhill`'s answer,
read through a flat memoryview instead of numpy.

A crowd of hunters chasing one goal shares one distance map and takes one step each on it per turn:
a step reads a cell's neighbours, and eight numpy reads (or a 3x3 slice made a list) per walker were
most of a crowd's step. :class:`Slope` copies the map once, and where a walker may step, with a
padding of one cell all round (``inf``, not to be entered: no bounds to check), and reads them
through flat memoryviews: a read is a Python float at about twice a list's cost, with nothing
to convert (a list of a 250x250 map took longer to make than the crowd's steps saved). Its answers
are :func:`~engine.kit.path.downhill`'s, for every map, cost and moves (tests/test_slope.py holds
it to that).

A cell asked from a second time keeps its ways down (the neighbours below it, best first): they
depend on the map alone, and a crowd queued in a corridor, or a mob around a player who stands and
fights, asks from the same cells turn after turn; its step is then the first way not blocked. A
step so read costs half of one that looks at every neighbour (0.46 against 1.07 µs, a 500-hunter
crowd's own steps).
"""

from __future__ import annotations

import math
from collections.abc import Container

import numpy as np

from engine.kit.limits import MAX_SLOPE_WAYS
from engine.kit.path import Cell, Moves

INF = math.inf
UNREACHED = object()  # Slope.toward's answer for a walker its map does not reach
WAY_BYTES = 1600  # a kept cell's ways down at most: its entry, and a tuple of up to 8 (cell, step) pairs


class Slope:
    """``dist`` (a map made with ``cost`` and ``moves``) of the box whose corner is (``x0``, ``y0``)
    on the level, ready for :meth:`step`. Cells are the level's: (x, y) is ``dist[y - y0, x - x0]``."""

    __slots__ = ("x0", "y0", "width", "height", "_flat", "_enter", "_cut", "_steps", "_stride", "_ways", "_asked",
                 "_most")

    def __init__(self, dist: np.ndarray, cost: np.ndarray, moves: Moves, x0: int = 0, y0: int = 0) -> None:
        h, w = dist.shape
        self.x0, self.y0, self.width, self.height = x0, y0, w, h
        self._stride = stride = w + 2
        # plain copies (numpy's masked copies and where() took ten times as long: a 250x250 map is
        # made each time the player moves): the map, and whether each cell can be entered
        padded = np.full((h + 2, w + 2), INF)
        padded[1:-1, 1:-1] = dist
        enter = np.zeros((h + 2, w + 2), dtype=bool)
        np.greater(cost, 0, out=enter[1:-1, 1:-1])
        self._flat, self._enter = memoryview(padded.reshape(-1).data), memoryview(enter.reshape(-1).data)
        self._cut = moves.cut_corners
        self._steps = tuple((step[0], step[1], step[1] * stride + step[0], step) for step in moves.steps)
        # by a cell's index: whether a walker asked from it, and its ways down once asked again
        # (_ways_from), for at most a quarter of its cells and MAX_SLOPE_WAYS
        self._asked = bytearray(len(self._flat))
        self._ways: dict[int, tuple[tuple[Cell, Cell], ...]] = {}
        self._most = min(MAX_SLOPE_WAYS, w * h // 4)

    @property
    def cells(self) -> int:
        """What the slope holds at most, counted in cells of 8 bytes: its padded copy of the map, a
        byte a cell for where it can step and one for whether it was asked from, and the ways down
        it keeps (under WAY_BYTES each)."""
        return (self.width + 2) * (self.height + 2) * 10 // 8 + self._most * WAY_BYTES // 8

    def value(self, x: int, y: int) -> float:
        """The map's value at (x, y) on the level; ``inf`` off the box."""
        if not (0 <= x - self.x0 < self.width and 0 <= y - self.y0 < self.height):
            return INF
        return self._flat[(y - self.y0 + 1) * self._stride + x - self.x0 + 1]

    def step(self, x: int, y: int, blocked: Container[Cell] = (), free: Cell | None = None) -> Cell | None:
        """The step (dx, dy) downhill from (x, y), a cell of the box: to the lowest neighbour strictly
        below (x, y) that can be entered, is not in ``blocked`` (``free`` excepted: the goal, where the
        player stands) and, unless the moves cut corners, does not pass a wall's corner; ties go to
        the first in ``engine.kit.path.STEPS``. None when there is none."""
        return self.toward(x, y, blocked, free, unreached=True)  # type: ignore[return-value]  # never UNREACHED

    def toward(self, x: int, y: int, blocked: Container[Cell] = (), free: Cell | None = None,
               unreached: bool = False) -> Cell | None | object:
        """:meth:`step`, for a walker the map reaches: :data:`UNREACHED` when (x, y) is off the box or
        its value is ``inf`` (a map kept for another walker, made too small for this one). One call
        where a walker's kept map is asked whether it reaches it, then stepped on (a crowd's every
        step). ``unreached``: step from an unreached cell of the box all the same, as :meth:`step`."""
        flat, enter, stride = self._flat, self._enter, self._stride
        if not unreached and not (0 <= x - self.x0 < self.width and 0 <= y - self.y0 < self.height):
            return UNREACHED
        i = (y - self.y0 + 1) * stride + x - self.x0 + 1
        ways = self._ways.get(i)
        if ways is None:
            here = flat[i]
            if here == INF and not unreached:
                return UNREACHED
            if self._asked[i] and here < INF and len(self._ways) < self._most:
                ways = self._ways[i] = self._ways_from(x, y, i, here)  # asked again: its ways down kept
            else:  # not kept (its first ask, a walker passing by; or the slope keeps no more): looked at
                self._asked[i] = 1
                best = None
                for dx, dy, off, _ in self._steps:
                    v = flat[i + off]
                    if v < here and enter[i + off]:  # the cheap test first: most neighbours are not below
                        cell = (x + dx, y + dy)
                        if (cell in blocked and cell != free) or (
                                dx and dy and not self._cut and not (enter[i + dx] and enter[i + dy * stride])):
                            continue
                        best, here = (dx, dy), v
                return best
        for cell, step in ways:  # its ways down, best first: the first free one
            if cell not in blocked or cell == free:
                return step
        return None

    def _ways_from(self, x: int, y: int, i: int, here: float) -> tuple[tuple[Cell, Cell], ...]:
        """The ways down from (x, y) (index ``i``, value ``here``): (the cell, the step) of each
        neighbour strictly below it that can be entered without passing a wall's corner, lowest
        first, ties in the order of the steps. The step is the first of them not blocked: what
        :meth:`toward` finds looking at every neighbour. They depend on the map alone, so a cell
        asked from again reads its own (a crowd queued in a corridor, or around a player who
        stands and fights, asks from the same cells turn after turn)."""
        flat, enter, stride = self._flat, self._enter, self._stride
        ways: list[tuple[float, int, Cell, Cell]] = []
        for dx, dy, off, step in self._steps:
            v = flat[i + off]
            if v < here and enter[i + off] and (
                    not (dx and dy) or self._cut or (enter[i + dx] and enter[i + dy * stride])):
                ways.append((v, len(ways), (x + dx, y + dy), step))
        ways.sort()
        return tuple((cell, step) for _, _, cell, step in ways)
