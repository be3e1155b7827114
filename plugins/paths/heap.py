"""Dijkstra maps and A* with a binary heap: the built-in pathfinder (``--plugin path=heap``).

Both searches keep a heap of (value, cell) entries and never decrease a key: a cell whose value
improves is pushed again, and an entry whose value is above the cell's current one is stale and
skipped when popped. A step to a neighbour costs the neighbour's cost (times ``diagonal_cost`` for
a diagonal); a diagonal past a wall is refused unless ``moves.cut_corners`` (see engine.kit.path).

- Dijkstra: every goal is a seed with its starting value; cells are settled in increasing order.
  Goal values may be anything, negative included, so the same search rescans a safety map.
- A*: one search from ``start``, ordered by f = g + estimate, ties by push order. The estimate
  (``engine.kit.path.estimate``) never exceeds the truth, and a cell is reopened whenever a cheaper
  way to it turns up, so the path is always a cheapest one: its cost equals the Dijkstra distance.
  The estimate is scaled down by ``HEURISTIC_MARGIN`` (1 - 2**-30), which also breaks ties of
  g + true estimate toward the entry nearer the goal (larger g), as A* implementations usually do
  by hand: on open floor that saves expanding every cell of equal f.

The order entries leave the heap is a total order (f, push number) for A*, so the compiled
kernel (``_path_jit.py``, numba) and these pure-Python functions find the very same path; for a
Dijkstra map the values are the same whatever the order. These functions are the reference and
what runs without numba; ``tests/test_path_jit.py`` checks the two agree. The compiled A* keeps
its work arrays between searches (:class:`Scratch`): a search on a big map then costs what it
reaches, not the map's size (a scan of the costs for the estimate's scale aside).
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from engine import hookimpl
from engine.kit import jit, limits
from engine.kit.caches import SPARE_FROM, Spares
from engine.kit.path import Cell, Moves, estimate, heuristic_scale

INF = math.inf


def dijkstra_python(cost: np.ndarray, seeds: np.ndarray, moves: Moves, limit: float) -> np.ndarray:
    """The Dijkstra map (pure Python): the definition the compiled kernel is checked against."""
    h, w = cost.shape
    c = cost.tolist()
    dist = seeds.tolist()
    steps = moves.steps
    diagonal, cut = moves.diagonal_cost, moves.cut_corners
    heap = [(d, y, x) for y, row in enumerate(dist) for x, d in enumerate(row) if d != INF]
    heapq.heapify(heap)
    while heap:
        d, y, x = heapq.heappop(heap)
        if d > dist[y][x]:
            continue  # stale: the cell was reached more cheaply since this entry was pushed
        if d > limit:
            break  # every entry left is farther still
        for dx, dy in steps:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h):
                continue
            step = c[ny][nx]
            if step <= 0:
                continue
            if dx and dy:
                if not cut and (c[y][nx] <= 0 or c[ny][x] <= 0):
                    continue
                step = step * diagonal
            nd = d + step
            if nd < dist[ny][nx]:
                dist[ny][nx] = nd
                heapq.heappush(heap, (nd, ny, nx))
    out = np.array(dist, dtype=np.float64)
    if limit != INF:
        out[out > limit] = INF
    return out


def astar_python(cost: np.ndarray, start: Cell, goal: Cell, moves: Moves) -> list[Cell] | None:
    """A cheapest path from ``start`` to ``goal`` (pure Python): the cells after ``start``, or None."""
    h, w = cost.shape
    c = cost.tolist()
    steps = moves.steps
    diagonal, cut = moves.diagonal_cost, moves.cut_corners
    scale = heuristic_scale(cost)
    (sx, sy), (gx, gy) = start, goal
    g = [[INF] * w for _ in range(h)]
    parent = [[-1] * w for _ in range(h)]  # flat index y * w + x of the cell a cell was reached from
    g[sy][sx] = 0.0
    e = estimate(abs(gx - sx), abs(gy - sy), moves, scale)
    heap = [(e, 0, 0.0, sx, sy)]  # (f, push number, g, x, y)
    pushes = 1
    while heap:
        _, _, d, x, y = heapq.heappop(heap)
        if d > g[y][x]:
            continue  # stale
        if x == gx and y == gy:
            path = []
            while (x, y) != (sx, sy):
                path.append((x, y))
                y, x = divmod(parent[y][x], w)
            return path[::-1]
        for dx, dy in steps:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h):
                continue
            step = c[ny][nx]
            if step <= 0:
                continue
            if dx and dy:
                if not cut and (c[y][nx] <= 0 or c[ny][x] <= 0):
                    continue
                step = step * diagonal
            nd = d + step
            if nd < g[ny][nx]:
                g[ny][nx] = nd
                parent[ny][nx] = y * w + x
                e = estimate(abs(gx - nx), abs(gy - ny), moves, scale)
                heapq.heappush(heap, (nd + e, pushes, nd, nx, ny))
                pushes += 1
    return None


def _check(kernel) -> None:
    cost = np.ones(4, dtype=np.float64)
    kernel.dijkstra(cost, np.array([0.0, INF, INF, INF]), 2, 2, 8, 1.0, False, INF)
    _search(kernel, cost, 2, 2, (0, 0), (1, 1), Moves(8))


def _kernel(cells: int | None = None):
    return jit.sibling(__name__, "_path_jit", _check, cells)


def dijkstra(cost: np.ndarray, seeds: np.ndarray, moves: Moves, limit: float) -> np.ndarray:
    """The Dijkstra map: compiled when numba is installed (``_path_jit``), else :func:`dijkstra_python`."""
    kernel = _kernel(cost.size)
    if kernel is None:
        return dijkstra_python(cost, seeds, moves, limit)
    h, w = cost.shape
    kernel.dijkstra(cost.ravel(), seeds.ravel(), w, h, moves.movement, moves.diagonal_cost,
                    moves.cut_corners, float(limit))
    return seeds  # written in place (the contract lets the pathfinder have it)


def astar(cost: np.ndarray, start: Cell, goal: Cell, moves: Moves) -> list[Cell] | None:
    """A cheapest path: compiled when numba is installed (``_path_jit``), else :func:`astar_python`."""
    kernel = _kernel(cost.size)
    if kernel is None:
        return astar_python(cost, start, goal, moves)
    h, w = cost.shape
    flat = _search(kernel, cost.ravel(), w, h, start, goal, moves)
    if flat.size == 0:
        return None
    return [(i % w, i // w) for i in flat.tolist()]


class Scratch:
    """The compiled A*'s arrays for maps of up to ``cells`` cells, kept from one search to the next
    (see ``_path_jit.astar``): each search takes a new generation number, and a cell's entries are
    that search's only where its stamp holds it. Made once, so a search neither allocates nor
    zeroes whole-map arrays. About 40 bytes a cell, of which only the pages of cells that searches
    reached are ever resident."""

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.stamp = np.zeros(cells, dtype=np.int32)  # the generation that last reached a cell
        self.g = np.empty(cells)
        self.parent = np.empty(cells, dtype=np.int32)
        self.where = np.empty(cells, dtype=np.int32)
        self.hf, self.hk, self.hc = np.empty(cells), np.empty(cells, dtype=np.int64), np.empty(cells, dtype=np.int32)
        self.gen = 0

    def next_generation(self) -> int:
        """A number no search on these arrays has had (stamps wiped when int32 would overflow)."""
        self.gen += 1
        if self.gen >= 2**31 - 1:
            self.stamp[:] = 0
            self.gen = 1
        return self.gen


# Scratch arrays not in use (engine.kit.caches.Spares: taken out while a search runs, so threads
# never share one): two, as the bench and a tool may alternate two map sizes.
_spares = Spares(2, limits.MAX_PATH_SCRATCH_CELLS, Scratch, lambda s: s.cells)
_NONE = Scratch(0)  # empty: the kernel makes its own arrays (only ever read, so shared safely)


def _search(kernel, flat: np.ndarray, w: int, h: int, start: Cell, goal: Cell, moves: Moves) -> np.ndarray:
    """The compiled A* on ``flat`` (the cost, raveled): with scratch arrays taken and given back, or
    on a map of at most ``SPARE_FROM`` cells with arrays of its own."""
    if w * h <= SPARE_FROM:
        s = _NONE
        return kernel.astar(flat, s.stamp, s.g, s.parent, s.where, s.hf, s.hk, s.hc, 1, w, h, start[0], start[1],
                            goal[0], goal[1], moves.movement, moves.diagonal_cost, moves.cut_corners)
    if w * h > 2**31 - 1:
        raise ValueError(f"pathfinding: A* on a map of {w * h} cells: at most 2**31 - 1 (int32 indices)")
    s = _spares.take(w * h)
    try:
        return kernel.astar(flat, s.stamp, s.g, s.parent, s.where, s.hf, s.hk, s.hc, s.next_generation(), w, h,
                            start[0], start[1], goal[0], goal[1], moves.movement, moves.diagonal_cost,
                            moves.cut_corners)
    finally:
        _spares.give(s)


@hookimpl
def register_pathfinders(register):
    register(
        "heap",
        dijkstra=dijkstra,
        astar=astar,
        summary="Dijkstra maps and A* on a binary heap; weighted costs, 4 or 8 ways, corner rule",
        python_dijkstra=dijkstra_python,
        python_astar=astar_python,
    )
