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
def _layers(cost: np.ndarray, dist: np.ndarray, w: int, h: int, ways: int, diagonal: float,
            cut: bool, limit: float) -> bool:
    """The Dijkstra map of :func:`dijkstra` by layers from a queue, when every step costs 1 (each
    enterable cell costs 1 and a diagonal no more) and every goal has one value: each cell is then
    its layer's number, the same sums the heap makes (``d + 1``), in a third of the time (a crowd
    chasing the player needs a new map each time the player steps). False, with ``dist``
    untouched, when the map is not so."""
    n = w * h
    if ways == 8 and diagonal != 1.0:
        return False
    start = np.inf
    for i in range(n):
        if cost[i] > 0 and cost[i] != 1.0:
            return False
        if dist[i] < np.inf:
            if start < np.inf and dist[i] != start:
                return False
            start = dist[i]
    queue = np.empty(max(1, n), dtype=np.int64)
    head, tail = 0, 0
    for i in range(n):
        if dist[i] < np.inf:
            queue[tail] = i
            tail += 1
    while head < tail:
        i = queue[head]
        head += 1
        d = dist[i]
        if d > limit:
            break
        y = i // w
        x = i - y * w
        for s in range(ways):
            nx, ny = x + DX[s], y + DY[s]
            if nx < 0 or nx >= w or ny < 0 or ny >= h:
                continue
            j = ny * w + nx
            if cost[j] <= 0:
                continue
            if s >= 4 and not cut and (cost[y * w + nx] <= 0 or cost[ny * w + x] <= 0):
                continue
            if d + 1.0 < dist[j]:
                dist[j] = d + 1.0
                queue[tail] = j
                tail += 1
    if limit < np.inf:
        for i in range(n):
            if dist[i] > limit:
                dist[i] = np.inf
    return True


@numba.njit(cache=True, nogil=True)
def _merged(cost: np.ndarray, dist: np.ndarray, w: int, h: int, ways: int, diagonal: float,
            cut: bool, limit: float) -> bool:
    """The Dijkstra map of :func:`dijkstra` when every step costs 1 but the goals have values of
    their own (a safety map's rescan: every cell a goal): the goals sorted by value once, and what
    they reach in a queue. Each entry the queue gets is the value taken from it (or from the
    goals) plus 1, and those come in order, so the queue stays sorted: taking the lower of the
    two heads takes the entries in the heap's order of values, with the same sums (``d + 1``)
    and the same stale-entry rule, hence the same map, without a heap (a rescan with a heap was
    the dearest search of a turn with monsters fleeing). False, with ``dist`` untouched, when the
    steps do not all cost 1."""
    n = w * h
    if ways == 8 and diagonal != 1.0:
        return False
    goals = 0
    for i in range(n):
        if cost[i] > 0 and cost[i] != 1.0:
            return False
        if dist[i] < np.inf:
            goals += 1
    cells = np.empty(max(1, goals), dtype=np.int64)
    values = np.empty(max(1, goals), dtype=np.float64)
    k = 0
    for i in range(n):
        if dist[i] < np.inf:
            cells[k], values[k] = i, dist[i]
            k += 1
    order = np.argsort(values[:goals])
    # each cell leaves the queue fresh at most once, and then adds at most `ways` entries
    qcell = np.empty(max(1, ways * n), dtype=np.int64)
    qval = np.empty(max(1, ways * n), dtype=np.float64)
    head, tail, g = 0, 0, 0
    while g < goals or head < tail:
        if head < tail and (g >= goals or qval[head] <= values[order[g]]):
            d, i = qval[head], qcell[head]
            head += 1
        else:
            d, i = values[order[g]], cells[order[g]]
            g += 1
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
            if cost[j] <= 0:
                continue
            if s >= 4 and not cut and (cost[y * w + nx] <= 0 or cost[ny * w + x] <= 0):
                continue
            nd = d + 1.0
            if nd < dist[j]:
                dist[j] = nd
                qcell[tail], qval[tail] = j, nd
                tail += 1
    if limit < np.inf:
        for i in range(n):
            if dist[i] > limit:
                dist[i] = np.inf
    return True


@numba.njit(cache=True, nogil=True)
def dijkstra(cost: np.ndarray, dist: np.ndarray, w: int, h: int, ways: int, diagonal: float,
             cut: bool, limit: float) -> None:
    """Relax ``dist`` (flat, the goals' values, inf elsewhere) into the Dijkstra map, in place."""
    if _layers(cost, dist, w, h, ways, diagonal, cut, limit):
        return
    if _merged(cost, dist, w, h, ways, diagonal, cut, limit):
        return
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
def astar(cost: np.ndarray, seen: np.ndarray, w: int, h: int, sx: int, sy: int, gx: int, gy: int, ways: int,
          diagonal: float, cut: bool) -> np.ndarray:
    """The flat indices of a cheapest path's cells after the start, up to the goal; empty if none.

    ``seen`` is a zeroed bool array of the map's size (from numpy, which gets zeroed memory from the
    system without writing it): a cell's g and parent are valid only once it is seen, so a short
    search on a big map touches only the memory of the cells it reaches.

    An entry is numbered by the count of entries pushed before it; its g and cell live in arrays
    indexed by that number. The heap holds (f, number) pairs, ordered by f, then number."""
    n = w * h
    cheapest = np.inf
    for i in range(n):  # branch-free, so that it vectorises
        c = cost[i]
        cheapest = min(cheapest, c if c > 0 else np.inf)
    scale = cheapest * MARGIN
    g = np.empty(n)  # numba's empty does not write the memory either
    parent = np.empty(n, dtype=np.int64)
    cap = 64
    eg, ecell = np.empty(cap), np.empty(cap, dtype=np.int64)  # per entry
    hf, hk = np.empty(cap), np.empty(cap, dtype=np.int64)  # the heap: f and entry number
    start, goal = sy * w + sx, gy * w + gx
    g[start], seen[start] = 0.0, True
    hf[0], hk[0] = _estimate(gx - sx, gy - sy, ways, diagonal, scale), 0
    eg[0], ecell[0] = 0.0, start
    pushes, size = 1, 1
    while size > 0:
        top = hk[0]
        size -= 1
        if size > 0:  # sift the last entry down from the root
            lf, lk, pos = hf[size], hk[size], 0
            while True:
                child = 2 * pos + 1
                if child >= size:
                    break
                other = child + 1
                if other < size and (hf[other] < hf[child] or (hf[other] == hf[child] and hk[other] < hk[child])):
                    child = other
                if hf[child] > lf or (hf[child] == lf and hk[child] > lk):
                    break
                hf[pos], hk[pos] = hf[child], hk[child]
                pos = child
            hf[pos], hk[pos] = lf, lk
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
            if not seen[j] or nd < g[j]:
                g[j], seen[j] = nd, True
                parent[j] = i
                if pushes == eg.size:
                    eg, ecell = _grow_f(eg), _grow_i(ecell)
                if size == hf.size:
                    hf, hk = _grow_f(hf), _grow_i(hk)
                k = pushes
                f = nd + _estimate(gx - nx, gy - ny, ways, diagonal, scale)
                eg[k], ecell[k] = nd, j
                pushes += 1
                pos = size  # sift up; k is the newest entry, so it goes after any equal f
                size += 1
                while pos > 0:
                    up = (pos - 1) >> 1
                    if hf[up] <= f:
                        break
                    hf[pos], hk[pos] = hf[up], hk[up]
                    pos = up
                hf[pos], hk[pos] = f, k
    return np.empty(0, dtype=np.int64)
