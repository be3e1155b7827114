"""One distance map read for many walkers' single steps: :func:`engine.kit.path.downhill`'s answer,
read through a flat memoryview instead of numpy.

A crowd of hunters chasing one goal shares one distance map and takes one step each on it per turn:
a step reads a cell's neighbours, and eight numpy reads (or a 3x3 slice made a list) per walker were
most of a crowd's step. :class:`Slope` copies the map once, walls and the map's edge folded in as
``inf`` (a padding of one cell all round: no bounds to check), and reads it through a flat
``memoryview``: a read is a Python float at about twice a list's cost, with nothing to convert (a
list of a 250x250 map took longer to make than the crowd's steps saved). Its answers are
:func:`~engine.kit.path.downhill`'s, for every map, cost and moves (tests/test_slope.py holds it
to that).
"""

from __future__ import annotations

import math
from collections.abc import Container

import numpy as np

from engine.kit.path import Cell, Moves

INF = math.inf

class Slope:
    """``dist`` (a map made with ``cost`` and ``moves``) of the box whose corner is (``x0``, ``y0``)
    on the level, ready for :meth:`step`. Cells are the level's: (x, y) is ``dist[y - y0, x - x0]``."""

    __slots__ = ("x0", "y0", "width", "height", "_flat", "_odd", "_enter", "_steps", "_stride")

    def __init__(self, dist: np.ndarray, cost: np.ndarray, moves: Moves, x0: int = 0, y0: int = 0) -> None:
        h, w = dist.shape
        self.x0, self.y0, self.width, self.height = x0, y0, w, h
        self._stride = stride = w + 2
        enter = np.zeros((h + 2, w + 2), dtype=bool)
        enter[1:-1, 1:-1] = cost > 0
        padded = np.full((h + 2, w + 2), INF)
        padded[1:-1, 1:-1] = dist
        # a cell that cannot be entered is never stepped onto: its value reads inf; a goal's keeps
        # its own value where a walker stands on it (a goal may be such a cell), in _odd
        odd = ~enter & np.isfinite(padded)
        self._odd = {int(i): float(v) for i, v in zip(np.flatnonzero(odd), padded[odd], strict=True)}
        padded[~enter] = INF
        self._flat = memoryview(padded.reshape(-1))
        self._enter = None if moves.cut_corners else memoryview(enter.reshape(-1))
        self._steps = tuple((dx, dy, dy * stride + dx) for dx, dy in moves.steps)

    @property
    def cells(self) -> int:
        """What the slope holds, counted in cells of 8 bytes, its map included."""
        return 2 * (self.width + 2) * (self.height + 2)

    def value(self, x: int, y: int) -> float:
        """The map's value at (x, y) on the level; ``inf`` off the box."""
        if not (0 <= x - self.x0 < self.width and 0 <= y - self.y0 < self.height):
            return INF
        i = (y - self.y0 + 1) * self._stride + x - self.x0 + 1
        here = self._flat[i]
        return self._odd.get(i, INF) if here == INF else here

    def step(self, x: int, y: int, blocked: Container[Cell] = (), free: Cell | None = None) -> Cell | None:
        """The step (dx, dy) downhill from (x, y), a cell of the box: to the lowest neighbour strictly
        below (x, y) that can be entered, is not in ``blocked`` (``free`` excepted: the goal, where the
        player stands) and, unless the moves cut corners, does not pass a wall's corner; ties go to
        the first in ``engine.kit.path.STEPS``. None when there is none."""
        flat, enter = self._flat, self._enter
        i = (y - self.y0 + 1) * self._stride + x - self.x0 + 1
        here = flat[i]
        if here == INF:
            here = self._odd.get(i, INF)
        best = None
        for dx, dy, off in self._steps:
            v = flat[i + off]
            if v < here:  # the cheap test first: most neighbours are not below the walker
                cell = (x + dx, y + dy)
                if (cell in blocked and cell != free) or (
                        enter is not None and dx and dy and not (enter[i + dx] and enter[i + dy * self._stride])):
                    continue
                best, here = (dx, dy), v
        return best
