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
what runs without numba; ``tests/test_path_jit.py`` checks the two agree.
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from engine import hookimpl
from engine.kit import jit
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
    kernel.astar(cost, np.zeros(4, dtype=np.bool_), 2, 2, 0, 0, 1, 1, 8, 1.0, False)


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
    flat = kernel.astar(cost.ravel(), np.zeros(w * h, dtype=np.bool_), w, h, start[0], start[1], goal[0], goal[1],
                        moves.movement, moves.diagonal_cost, moves.cut_corners)
    if flat.size == 0:
        return None
    return [(i % w, i // w) for i in flat.tolist()]


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
