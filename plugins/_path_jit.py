"""The compiled kernels of ``path_heap``, for when numba is installed (``pip install .[fast]``).

The same searches as ``path_heap.dijkstra_python`` and ``path_heap.astar_python``, on flat arrays
(cell (x, y) at index ``y * w + x``) with hand-written binary heaps instead of ``heapq``: the same
steps in the same order, the same sums (``d + cost`` straight, ``d + cost * diagonal`` diagonal),
the same stale-entry rule, and for A* the same total order of entries (f, then push number),
so the same path. ``tests/test_path_jit.py`` checks they agree with the Python references exactly.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own.
"""

from __future__ import annotations

import numba
import numpy as np

from engine.kit.path import HEURISTIC_MARGIN, STEPS

DX = np.array([dx for dx, _ in STEPS], dtype=np.int64)
DY = np.array([dy for _, dy in STEPS], dtype=np.int64)
MARGIN = HEURISTIC_MARGIN


@numba.njit(cache=True, nogil=True)
def _grow_f(a: np.ndarray) -> np.ndarray:
    out = np.empty(2 * a.size, dtype=a.dtype)
    for i in range(a.size):  # a loop, not a slice assignment: faster to compile
        out[i] = a[i]
    return out


@numba.njit(cache=True, nogil=True)
def _grow_i(a: np.ndarray) -> np.ndarray:
    out = np.empty(2 * a.size, dtype=a.dtype)
    for i in range(a.size):
        out[i] = a[i]
    return out


@numba.njit(cache=True, nogil=True)
def _sift_down(keys: np.ndarray, vals: np.ndarray, size: int, pos: int) -> None:
    """Move the entry at ``pos`` down to its place in the min-heap keys[:size]."""
    key, val = keys[pos], vals[pos]
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= key:
            break
        keys[pos], vals[pos] = keys[child], vals[child]
        pos = child
    keys[pos], vals[pos] = key, val


@numba.njit(cache=True, nogil=True)
def _sift_up(keys: np.ndarray, vals: np.ndarray, pos: int) -> None:
    key, val = keys[pos], vals[pos]
    while pos > 0:
        up = (pos - 1) >> 1
        if keys[up] <= key:
            break
        keys[pos], vals[pos] = keys[up], vals[up]
        pos = up
    keys[pos], vals[pos] = key, val


@numba.njit(cache=True, nogil=True)
def dijkstra(cost: np.ndarray, dist: np.ndarray, w: int, h: int, ways: int, diagonal: float,
             cut: bool, limit: float) -> None:
    """Relax ``dist`` (flat, the goals' values, inf elsewhere) into the Dijkstra map, in place."""
    n = w * h
    keys = np.empty(max(16, n), dtype=np.float64)
    vals = np.empty(max(16, n), dtype=np.int64)
    size = 0
    for i in range(n):
        if dist[i] < np.inf:
            keys[size], vals[size] = dist[i], i
            size += 1
    for i in range(size // 2 - 1, -1, -1):
        _sift_down(keys, vals, size, i)
    while size > 0:
        d, i = keys[0], vals[0]
        size -= 1
        if size > 0:
            keys[0], vals[0] = keys[size], vals[size]
            _sift_down(keys, vals, size, 0)
        if d > dist[i]:
            continue  # stale
        if d > limit:
            break
        y = i // w
        x = i - y * w
        for s in range(ways):
            nx, ny = x + DX[s], y + DY[s]
            if nx < 0 or nx >= w or ny < 0 or ny >= h:
                continue
            j = ny * w + nx
            step = cost[j]
            if step <= 0:
                continue
            if s >= 4:
                if not cut and (cost[y * w + nx] <= 0 or cost[ny * w + x] <= 0):
                    continue
                step = step * diagonal
            nd = d + step
            if nd < dist[j]:
                dist[j] = nd
                if size == keys.size:
                    keys, vals = _grow_f(keys), _grow_i(vals)
                keys[size], vals[size] = nd, j
                _sift_up(keys, vals, size)
                size += 1
    if limit < np.inf:
        for i in range(n):
            if dist[i] > limit:
                dist[i] = np.inf


@numba.njit(cache=True, nogil=True)
def _before(f: np.ndarray, a: int, b: int) -> bool:
    """Entry a leaves the A* heap before entry b: by f, then push number (an entry's number is its
    index in the entry arrays)."""
    return f[a] < f[b] or (f[a] == f[b] and a < b)


@numba.njit(cache=True, nogil=True)
def _estimate(dx: int, dy: int, ways: int, diagonal: float, scale: float) -> float:
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    if ways == 4:
        return scale * (dx + dy)
    lo, hi = min(dx, dy), max(dx, dy)
    return scale * ((hi - lo) + min(diagonal, 2.0) * lo)


@numba.njit(cache=True, nogil=True)
def astar(cost: np.ndarray, w: int, h: int, sx: int, sy: int, gx: int, gy: int, ways: int,
          diagonal: float, cut: bool) -> np.ndarray:
    """The flat indices of a cheapest path's cells after the start, up to the goal; empty if none.

    The heap is an array of entry numbers ordered by ``_before``; an entry's f, g and cell
    live in parallel arrays indexed by its number, the count of entries pushed before it."""
    n = w * h
    cheapest = np.inf
    for i in range(n):
        if 0 < cost[i] < cheapest:
            cheapest = cost[i]
    scale = cheapest * MARGIN
    g = np.full(n, np.inf)
    parent = np.full(n, -1, dtype=np.int64)
    cap = 64
    ef, eg = np.empty(cap), np.empty(cap)
    ecell = np.empty(cap, dtype=np.int64)
    heap = np.empty(cap, dtype=np.int64)  # entry numbers
    start, goal = sy * w + sx, gy * w + gx
    g[start] = 0.0
    e0 = _estimate(gx - sx, gy - sy, ways, diagonal, scale)
    ef[0], eg[0], ecell[0], heap[0] = e0, 0.0, start, 0
    pushes, size = 1, 1
    while size > 0:
        top = heap[0]
        size -= 1
        if size > 0:  # sift the last entry down from the root
            last, pos = heap[size], 0
            while True:
                child = 2 * pos + 1
                if child >= size:
                    break
                if child + 1 < size and _before(ef, heap[child + 1], heap[child]):
                    child += 1
                if not _before(ef, heap[child], last):
                    break
                heap[pos] = heap[child]
                pos = child
            heap[pos] = last
        i, d = ecell[top], eg[top]
        if d > g[i]:
            continue  # stale
        if i == goal:
            length = 0
            k = i
            while k != start:
                length += 1
                k = parent[k]
            path = np.empty(length, dtype=np.int64)
            k = i
            for m in range(length - 1, -1, -1):
                path[m] = k
                k = parent[k]
            return path
        y = i // w
        x = i - y * w
        for s in range(ways):
            nx, ny = x + DX[s], y + DY[s]
            if nx < 0 or nx >= w or ny < 0 or ny >= h:
                continue
            j = ny * w + nx
            step = cost[j]
            if step <= 0:
                continue
            if s >= 4:
                if not cut and (cost[y * w + nx] <= 0 or cost[ny * w + x] <= 0):
                    continue
                step = step * diagonal
            nd = d + step
            if nd < g[j]:
                g[j] = nd
                parent[j] = i
                if pushes == ef.size:
                    ef, eg = _grow_f(ef), _grow_f(eg)
                    ecell = _grow_i(ecell)
                if size == heap.size:
                    heap = _grow_i(heap)
                e = _estimate(gx - nx, gy - ny, ways, diagonal, scale)
                k = pushes
                ef[k], eg[k], ecell[k] = nd + e, nd, j
                pushes += 1
                pos = size  # sift up
                size += 1
                while pos > 0:
                    up = (pos - 1) >> 1
                    if not _before(ef, k, heap[up]):
                        break
                    heap[pos] = heap[up]
                    pos = up
                heap[pos] = k
    return np.empty(0, dtype=np.int64)
