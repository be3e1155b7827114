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
"""

from __future__ import annotations

import math
from collections.abc import Container

import numpy as np

from engine.kit.path import Cell, Moves

INF = math.inf
UNREACHED = object()  # Slope.toward's answer for a walker its map does not reach


class Slope:
    """``dist`` (a map made with ``cost`` and ``moves``) of the box whose corner is (``x0``, ``y0``)
    on the level, ready for :meth:`step`. Cells are the level's: (x, y) is ``dist[y - y0, x - x0]``."""

    __slots__ = ("x0", "y0", "width", "height", "_flat", "_enter", "_cut", "_steps", "_stride")

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
        self._steps = tuple((dx, dy, dy * stride + dx) for dx, dy in moves.steps)

    @property
    def cells(self) -> int:
        """What the slope holds, counted in cells of 8 bytes (its padded copy of the map, and a byte
        a cell for where it can step)."""
        return (self.width + 2) * (self.height + 2) * 9 // 8

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
        here, best = flat[i], None
        if here == INF and not unreached:
            return UNREACHED
        for dx, dy, off in self._steps:
            v = flat[i + off]
            if v < here and enter[i + off]:  # the cheap test first: most neighbours are not below the walker
                cell = (x + dx, y + dy)
                if (cell in blocked and cell != free) or (
                        dx and dy and not self._cut and not (enter[i + dx] and enter[i + dy * stride])):
                    continue
                best, here = (dx, dy), v
        return best
