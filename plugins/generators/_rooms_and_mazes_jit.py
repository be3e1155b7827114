"""The compiled kernels of ``gen_rooms_and_mazes``, for when numba is installed (``pip install .[fast]``).

Each is a line-by-line port of the step of the same name in ``gen_rooms_and_mazes.py``, which is
the reference: the same dice in the same order (``_random_jit`` runs CPython's Mersenne Twister
on the ``random.Random``'s state, so ``randint``, ``randrange`` and ``choice`` draw the very same
numbers), the same scan orders, the same union-find and the same dead-end stack. So the same seed
builds the same level; ``tests/test_generators.py`` checks the two agree, and the golden files pin
both. Change the algorithm there first, then mirror it here.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own.
"""

from __future__ import annotations

import numba
import numpy as np

from engine.plugins.generators._random_jit import randbelow

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 10

_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@numba.njit(cache=True, nogil=True)
def place_rooms(st: np.ndarray, w: int, h: int, tries: int, extra: int, region: np.ndarray) -> np.ndarray:
    """``_place_rooms``: the rooms kept, as (x, y, w, h) rows; ``region`` numbers their cells 1..n."""
    rooms = np.empty((max(tries, 1), 4), dtype=np.int64)
    n = 0
    for _ in range(tries):
        size = (1 + randbelow(st, 2 + extra)) * 2 + 1  # randint(1, 2 + extra) * 2 + 1
        rect = randbelow(st, size // 2 + 1) * 2  # randint(0, size // 2) * 2
        rw = rh = size
        if randbelow(st, 2) == 0:
            rw += rect
        else:
            rh += rect
        if rw > w - 2 or rh > h - 2:
            continue
        x = randbelow(st, (w - rw) // 2) * 2 + 1
        y = randbelow(st, (h - rh) // 2) * 2 + 1
        taken = False
        for yy in range(y, y + rh):
            for xx in range(x, x + rw):
                if region[yy, xx]:
                    taken = True
                    break
            if taken:
                break
        if taken:
            continue
        n += 1
        rooms[n - 1, 0], rooms[n - 1, 1], rooms[n - 1, 2], rooms[n - 1, 3] = x, y, rw, rh
        region[y:y + rh, x:x + rw] = n
    return rooms[:n].copy()


@numba.njit(cache=True, nogil=True)
def grow_mazes(st: np.ndarray, w: int, h: int, winding: int, region: np.ndarray, next_region: int) -> int:
    """``_grow_mazes``: growing-tree mazes in every solid odd cell; returns the next free region id."""
    xmax, ymax = w - 2, h - 2
    stack = np.empty((w * h // 4 + 2, 2), dtype=np.int64)
    unmade = np.empty(4, dtype=np.int64)
    for sy in range(1, h - 1, 2):
        for sx in range(1, w - 1, 2):
            if region[sy, sx]:
                continue
            rid = next_region
            next_region += 1
            region[sy, sx] = rid
            stack[0, 0], stack[0, 1] = sx, sy
            top = 1
            last = -1  # None
            while top:
                x, y = stack[top - 1, 0], stack[top - 1, 1]
                k = 0
                has_last = False
                for d in range(4):
                    dx, dy = _DIRS[d]
                    if 1 <= x + 2 * dx <= xmax and 1 <= y + 2 * dy <= ymax and not region[y + 2 * dy, x + 2 * dx]:
                        unmade[k] = d
                        k += 1
                        if d == last:
                            has_last = True
                if k == 0:
                    top -= 1
                    last = -1
                    continue
                # last if last in unmade and randrange(100) >= winding else choice(unmade)
                if has_last and randbelow(st, 100) >= winding:
                    d = last
                else:
                    d = unmade[randbelow(st, k)]
                dx, dy = _DIRS[d]
                region[y + dy, x + dx] = rid
                region[y + 2 * dy, x + 2 * dx] = rid
                stack[top, 0], stack[top, 1] = x + 2 * dx, y + 2 * dy
                top += 1
                last = d
    return next_region


@numba.njit
def _around(region: np.ndarray, y: int, x: int, out: np.ndarray) -> int:
    """The distinct regions 4-around (x, y) into ``out``, largest first; returns how many."""
    h, w = region.shape
    k = 0
    for j in range(4):
        if j == 0:
            v = region[y - 1, x] if y > 0 else 0
        elif j == 1:
            v = region[y + 1, x] if y < h - 1 else 0
        elif j == 2:
            v = region[y, x - 1] if x > 0 else 0
        else:
            v = region[y, x + 1] if x < w - 1 else 0
        if v == 0:
            continue
        q = 0
        while q < k and out[q] > v:
            q += 1
        if q < k and out[q] == v:
            continue  # already there
        for m in range(k, q, -1):  # insert, keeping the largest first
            out[m] = out[m - 1]
        out[q] = v
        k += 1
    return k


@numba.njit(cache=True, nogil=True)
def candidates(region: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_connect``'s connectors: wall cells touching two or more regions, in scan order, and the
    distinct regions around each, largest first, 0 where there are fewer than four."""
    h, w = region.shape
    out = np.zeros(4, dtype=np.int64)
    n = 0
    for y in range(h):  # count first: the arrays are then made at their size
        for x in range(w):
            if not region[y, x] and _around(region, y, x, out) >= 2:
                n += 1
    cells = np.empty(n, dtype=np.int64)
    around = np.zeros((n, 4), dtype=np.int64)
    n = 0
    for y in range(h):
        for x in range(w):
            if not region[y, x]:
                k = _around(region, y, x, out)
                if k >= 2:
                    cells[n] = y * w + x
                    for q in range(k):
                        around[n, q] = out[q]
                    n += 1
    return cells, around


@numba.njit
def _find(parent: np.ndarray, r: int) -> int:
    while parent[r] != r:
        parent[r] = parent[parent[r]]
        r = parent[r]
    return r


@numba.njit(cache=True, nogil=True)
def connect(cells: np.ndarray, regions: np.ndarray, lucky: np.ndarray, flat: np.ndarray, w: int, nregions: int) -> int:
    """``_connect``'s walk over the connectors in their shuffled order (``lucky[k]`` for the k-th);
    opens them in ``flat`` (the region array, flat) and returns how many separate groups of regions
    are left (1: everything is joined)."""
    parent = np.arange(nregions + 1)
    opened = np.zeros(flat.size, dtype=np.bool_)
    near = (1, -1, w, -w, w + 1, w - 1, -w + 1, -w - 1)  # a loop never opens beside another opening
    roots = np.empty(4, dtype=np.int64)
    for k in range(cells.size):
        i = cells[k]
        m = 0
        for j in range(4):
            r = regions[k, j]
            if r:
                root = _find(parent, r)
                seen = False
                for q in range(m):
                    if roots[q] == root:
                        seen = True
                if not seen:
                    roots[m] = root
                    m += 1
        if m > 1:
            low = roots[0]
            for q in range(1, m):
                low = min(low, roots[q])
            for q in range(m):
                if roots[q] != low:
                    parent[roots[q]] = low
        else:
            if not lucky[k]:
                continue
            beside = False
            for d in near:
                if 0 <= i + d < flat.size and opened[i + d]:
                    beside = True
            if beside:
                continue
        opened[i] = True
        flat[i] = regions[k, 0]
    groups = 0
    for r in range(1, nregions + 1):
        if _find(parent, r) == r:
            groups += 1
    return groups


@numba.njit(cache=True, nogil=True)
def fill_dead_ends(cells: np.ndarray, w: int, stack0: np.ndarray) -> None:
    """``_fill_dead_ends`` on the flat terrain ``cells``, from the dead ends ``stack0`` (ascending)."""
    stack = np.empty(cells.size + 4 * stack0.size + 4, dtype=np.int64)
    top = stack0.size
    stack[:top] = stack0
    nbrs = np.empty(4, dtype=np.int64)
    while top:
        top -= 1
        i = stack[top]
        if not cells[i]:
            continue
        k = 0
        for j in (i - 1, i + 1, i - w, i + w):
            if cells[j]:
                nbrs[k] = j
                k += 1
        if k <= 1:
            cells[i] = 0
            if top + k > stack.size:
                bigger = np.empty(2 * stack.size, dtype=np.int64)
                bigger[:top] = stack[:top]
                stack = bigger
            for q in range(k):
                stack[top] = nbrs[q]
                top += 1
