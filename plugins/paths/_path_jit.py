"""The compiled kernels of ``path_heap``, for when numba is installed (``pip install .[fast]``).

The same searches as ``path_heap.dijkstra_python`` and ``path_heap.astar_python``, on flat arrays
(cell (x, y) at index ``y * w + x``) with hand-written binary heaps instead of ``heapq``: the same
steps in the same order, the same sums (``d + cost`` straight, ``d + cost * diagonal`` diagonal),
and for A* the same total order of entries (f, then push number), so the same path.
``tests/test_path_jit.py`` checks they agree with the Python references exactly.

The heaps hold each cell at most once (a cell reached more cheaply takes its new key in place,
where the references push it again and skip the old entry when it comes up), so they never hold
more than the map's cells and their arrays are made at that size, before the search. An array
made again inside a loop (a heap grown by doubling) costs far more than the copy: numba then counts
references to it with an atomic instruction at every turn of the loop, which was half of an A*
search's time. A*'s arrays are not even made per search: ``path_heap.Scratch`` keeps them from one
search to the next, told apart by a generation stamp (see :func:`astar`).

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own.
"""

from __future__ import annotations

import numba
import numpy as np

from engine.kit.limits import MAX_PATH_QUEUE_COSTS, MAX_PATH_QUEUE_ENTRIES
from engine.kit.path import HEURISTIC_MARGIN, STEPS

DX = np.array([dx for dx, _ in STEPS], dtype=np.int64)
DY = np.array([dy for _, dy in STEPS], dtype=np.int64)
MARGIN = HEURISTIC_MARGIN
MAX_QUEUE_COSTS = MAX_PATH_QUEUE_COSTS
MAX_QUEUED = MAX_PATH_QUEUE_ENTRIES


@numba.njit(cache=True, nogil=True)
def _sift_up(keys: np.ndarray, cells: np.ndarray, where: np.ndarray, pos: int, key: float, cell: int) -> None:
    """Put ``cell`` with ``key`` at ``pos`` of the min-heap (``keys``, ``cells``) and move it up to its
    place, keeping ``where[c]`` the place of every cell ``c`` it moves."""
    while pos > 0:
        up = (pos - 1) >> 1
        if keys[up] <= key:
            break
        keys[pos], cells[pos] = keys[up], cells[up]
        where[cells[pos]] = pos
        pos = up
    keys[pos], cells[pos] = key, cell
    where[cell] = pos


@numba.njit(cache=True, nogil=True)
def _sift_down(keys: np.ndarray, cells: np.ndarray, where: np.ndarray, size: int, pos: int, key: float,
               cell: int) -> None:
    """Put ``cell`` with ``key`` at ``pos`` of the min-heap keys[:size] and move it down to its place."""
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= key:
            break
        keys[pos], cells[pos] = keys[child], cells[child]
        where[cells[pos]] = pos
        pos = child
    keys[pos], cells[pos] = key, cell
    where[cell] = pos


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
def _queues(cost: np.ndarray, dist: np.ndarray, w: int, h: int, ways: int, diagonal: float,
            cut: bool, limit: float) -> bool:
    """The Dijkstra map of :func:`dijkstra` when its steps cost a few values (a level's floor 1,
    its doors 2, its water 8: at most ``MAX_PATH_QUEUE_COSTS``), from goals of any values (a
    safety map's rescan: every cell a goal): the goals sorted by value once, and what they reach
    in a first-in first-out queue per step cost, not a heap.

    The entries a queue gets are the values taken out (in order) plus its one step cost, so each
    queue stays sorted, and taking the lowest of the queues' heads and the next goal takes the
    entries in the heap's order of values, with the same sums (``d + step``, ``step`` the entered
    cell's cost, times ``diagonal`` on a diagonal) and the same stale-entry rule: the same map. A
    cell's value only ever goes down, while a queue's entries only go up, so a queue holds each
    cell once at most: its arrays are the map's size. False, with ``dist`` untouched, when the
    costs take more values than that or the queues would pass ``MAX_PATH_QUEUE_ENTRIES``."""
    n = w * h
    costs = np.empty(MAX_QUEUE_COSTS, dtype=np.float64)
    kinds = 0
    straight = np.empty(max(1, n), dtype=np.int8)  # the queue of a step into each cell
    slanted = np.empty(max(1, n), dtype=np.int8)  # and of a diagonal step into it
    last, last_q = -1.0, -1
    goals = 0
    for i in range(n):
        if dist[i] < np.inf:
            goals += 1
        c = cost[i]
        if c <= 0:
            continue
        for t in range(2 if ways == 8 else 1):
            v = c if t == 0 else c * diagonal
            if v == last:  # most cells cost what the one before did
                q = last_q
            else:
                q = -1
                for k in range(kinds):
                    if costs[k] == v:
                        q = k
                        break
                if q < 0:
                    if kinds == MAX_QUEUE_COSTS:
                        return False
                    q = kinds
                    costs[q] = v
                    kinds += 1
                last, last_q = v, q
            if t == 0:
                straight[i] = q
            else:
                slanted[i] = q
    if kinds * n > MAX_QUEUED:
        return False
    cells = np.empty(max(1, goals), dtype=np.int64)
    values = np.empty(max(1, goals), dtype=np.float64)
    g = 0
    for i in range(n):
        if dist[i] < np.inf:
            cells[g], values[g] = i, dist[i]
            g += 1
    order = np.argsort(values[:goals])
    qcell = np.empty((max(1, kinds), max(1, n)), dtype=np.int32)
    qval = np.empty((max(1, kinds), max(1, n)), dtype=np.float64)
    head = np.zeros(max(1, kinds), dtype=np.int64)
    tail = np.zeros(max(1, kinds), dtype=np.int64)
    g = 0
    while True:
        best, d = -1, np.inf
        if g < goals:
            best, d = kinds, values[order[g]]  # the goals: kinds stands for them
        for q in range(kinds):
            if head[q] < tail[q] and (best < 0 or qval[q, head[q]] < d):
                best, d = q, qval[q, head[q]]
        if best < 0:
            break
        if best == kinds:
            i = cells[order[g]]
            g += 1
        else:
            i = qcell[best, head[best]]
            head[best] += 1
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
                q = slanted[j]
            else:
                q = straight[j]
            nd = d + step
            if nd < dist[j]:
                dist[j] = nd
                qcell[q, tail[q]] = j
                qval[q, tail[q]] = nd
                tail[q] += 1
    if limit < np.inf:
        for i in range(n):
            if dist[i] > limit:
                dist[i] = np.inf
    return True


@numba.njit(cache=True, nogil=True)
def dijkstra(cost: np.ndarray, dist: np.ndarray, w: int, h: int, ways: int, diagonal: float,
             cut: bool, limit: float) -> None:
    """Relax ``dist`` (flat, the goals' values, inf elsewhere) into the Dijkstra map, in place.

    The heap holds each cell once (a cell whose value improves moves up in place), so it never
    outgrows the map: its arrays are made once, whole (see the module docstring)."""
    if _layers(cost, dist, w, h, ways, diagonal, cut, limit):
        return
    if _queues(cost, dist, w, h, ways, diagonal, cut, limit):
        return
    n = w * h
    keys = np.empty(max(1, n), dtype=np.float64)
    cells = np.empty(max(1, n), dtype=np.int64)
    where = np.empty(max(1, n), dtype=np.int64)  # a cell's place in the heap; -1 when not in it
    size = 0
    for i in range(n):
        where[i] = -1
        if dist[i] < np.inf:
            keys[size], cells[size] = dist[i], i
            where[i] = size
            size += 1
    for i in range(size // 2 - 1, -1, -1):
        _sift_down(keys, cells, where, size, i, keys[i], cells[i])
    while size > 0:
        d, i = keys[0], cells[0]
        where[i] = -1
        size -= 1
        if size > 0:
            _sift_down(keys, cells, where, size, 0, keys[size], cells[size])
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
                pos = where[j]
                if pos < 0:
                    pos = size
                    size += 1
                _sift_up(keys, cells, where, pos, nd, j)  # a lower value only ever moves up
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


NONE_POSITIVE = np.int64(0x7FFFFFFFFFFFFFFF)


@numba.njit(cache=True, nogil=True)
def cheapest(cost: np.ndarray) -> float:
    """The least positive cost of ``cost`` (flat, finite), inf when none: what scales the A* estimate.

    Read as the floats' bits: a positive float's bits, as an int64, are positive and ordered as the
    floats are, and zero's and a negative float's are not positive. A minimum of integers
    vectorises where one of floats (NaN-aware) does not: 6x faster, a sixth of a search on a
    500x500 map of rooms before."""
    bits = cost.view(np.int64)
    least = NONE_POSITIVE
    for i in range(bits.size):
        b = bits[i]
        least = min(least, b if b > 0 else NONE_POSITIVE)
    if least == NONE_POSITIVE:
        return np.inf
    out = np.empty(1, dtype=np.int64)
    out[0] = least
    return out.view(np.float64)[0]


@numba.njit(cache=True, nogil=True)
def astar(cost: np.ndarray, stamp: np.ndarray, g: np.ndarray, parent: np.ndarray, where: np.ndarray,
          hf: np.ndarray, hk: np.ndarray, hc: np.ndarray, gen: int, w: int, h: int, sx: int, sy: int,
          gx: int, gy: int, ways: int, diagonal: float, cut: bool) -> np.ndarray:
    """The flat indices of a cheapest path's cells after the start, up to the goal; empty if none.

    The scratch arrays (at least the map's cells each; ``path_heap.Scratch``) are kept between
    searches: a cell's g, parent and place in the heap (``where``, -1 when not in it) are this
    search's only where ``stamp`` holds ``gen``, a number no earlier search on these arrays had. So
    a search touches only the memory of the cells it reaches, and that memory is already mapped:
    arrays made afresh for each search (numpy's or numba's) come from the system untouched, and the
    first write to each page of them faulted (with the scan for the scale, 88% of a search's time
    on the bench's 500x500 map of rooms, 25-35% on its cave and bsp maps).
    Empty ones (a small map) ask for arrays made here. The heap (``hf``: f, ``hk``: push number,
    ``hc``: cell) never holds a cell twice, so the map's cells are room enough.

    Every push is numbered; the heap holds each cell once, keyed by (f, number of its latest push),
    and a cell reached more cheaply takes its new key in place. The reference's heap keeps the old
    entry and skips it as stale when it comes up: both take the cells out in the same order, so
    they find the same path."""
    n = w * h
    if stamp.size < n:  # none given (a small map, ``path_heap.SPARE_FROM``): arrays of its own, as
        # cheap as the allocator's memory already mapped is; made before the loop, not in it
        stamp, g, parent, where = np.zeros(n, dtype=np.int32), np.empty(n), np.empty(n, np.int32), np.empty(n, np.int32)
        hf, hk, hc = np.empty(n), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int32)
        gen = 1
    scale = cheapest(cost) * MARGIN
    start, goal = sy * w + sx, gy * w + gx
    stamp[start], g[start] = gen, 0.0
    hf[0], hk[0], hc[0] = _estimate(gx - sx, gy - sy, ways, diagonal, scale), 0, start
    where[start] = 0
    pushes, size = 1, 1
    while size > 0:
        i = hc[0]
        where[i] = -1
        size -= 1
        if size > 0:  # sift the last entry down from the root
            lf, lk, lc, pos = hf[size], hk[size], hc[size], 0
            while True:
                child = 2 * pos + 1
                if child >= size:
                    break
                other = child + 1
                if other < size and (hf[other] < hf[child] or (hf[other] == hf[child] and hk[other] < hk[child])):
                    child = other
                if hf[child] > lf or (hf[child] == lf and hk[child] > lk):
                    break
                hf[pos], hk[pos], hc[pos] = hf[child], hk[child], hc[child]
                where[hc[pos]] = pos
                pos = child
            hf[pos], hk[pos], hc[pos] = lf, lk, lc
            where[lc] = pos
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
        d = g[i]
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
            if stamp[j] == gen:
                if nd >= g[j]:
                    continue
                pos = where[j]
            else:  # first reached in this search
                stamp[j] = gen
                pos = -1
            g[j], parent[j] = nd, i
            f = nd + _estimate(gx - nx, gy - ny, ways, diagonal, scale)
            k = pushes
            pushes += 1
            if pos < 0:  # not in the heap (never yet, or taken out and now reached more cheaply)
                pos = size
                size += 1
            else:  # f is at most its old f; when equal, the newer number may move it down
                while True:
                    child = 2 * pos + 1
                    if child >= size:
                        break
                    other = child + 1
                    if other < size and (hf[other] < hf[child] or (hf[other] == hf[child] and hk[other] < hk[child])):
                        child = other
                    if hf[child] > f or (hf[child] == f and hk[child] > k):
                        break
                    hf[pos], hk[pos], hc[pos] = hf[child], hk[child], hc[child]
                    where[hc[pos]] = pos
                    pos = child
            while pos > 0:  # sift up; k is the newest number, so it goes after any equal f
                up = (pos - 1) >> 1
                if hf[up] <= f:
                    break
                hf[pos], hk[pos], hc[pos] = hf[up], hk[up], hc[up]
                where[hc[pos]] = pos
                pos = up
            hf[pos], hk[pos], hc[pos] = f, k, j
            where[j] = pos
    return np.empty(0, dtype=np.int64)

