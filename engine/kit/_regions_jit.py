"""Compiled connectivity helpers for ``engine.kit.regions``, for when numba is installed.

``label_regions`` and ``distances`` here give exactly what the numpy versions in ``regions.py``
give (4-connected regions labelled 1..n in scan order of each region's first cell; breadth-first
4-neighbour step counts, -1 where unreachable), by a plain breadth-first search: on a 1000x1000
map a few milliseconds instead of tens to hundreds (the numpy versions pay per row run and per
step of the longest path). ``tests/test_mapgen.py`` checks the two agree.

Imported by ``engine.kit.jit.sibling`` when numba is installed.
"""

from __future__ import annotations

import numba
import numpy as np

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 1


@numba.njit(cache=True, nogil=True)
def label_regions(walkable: np.ndarray) -> tuple[np.ndarray, int]:
    """Labels 1..n of the 4-connected regions of ``walkable`` (bool, (h, w)), 0 for wall, and n."""
    h, w = walkable.shape
    labels = np.zeros((h, w), dtype=np.int32)
    queue = np.empty(h * w, dtype=np.int64)
    n = 0
    for sy in range(h):
        for sx in range(w):
            if not walkable[sy, sx] or labels[sy, sx]:
                continue
            n += 1
            labels[sy, sx] = n
            queue[0] = sy * w + sx
            head, tail = 0, 1
            while head < tail:
                i = queue[head]
                head += 1
                y, x = i // w, i % w
                if x > 0 and walkable[y, x - 1] and not labels[y, x - 1]:
                    labels[y, x - 1] = n
                    queue[tail] = i - 1
                    tail += 1
                if x < w - 1 and walkable[y, x + 1] and not labels[y, x + 1]:
                    labels[y, x + 1] = n
                    queue[tail] = i + 1
                    tail += 1
                if y > 0 and walkable[y - 1, x] and not labels[y - 1, x]:
                    labels[y - 1, x] = n
                    queue[tail] = i - w
                    tail += 1
                if y < h - 1 and walkable[y + 1, x] and not labels[y + 1, x]:
                    labels[y + 1, x] = n
                    queue[tail] = i + w
                    tail += 1
    return labels, n


@numba.njit(cache=True, nogil=True)
def distances(walkable: np.ndarray, sx: int, sy: int) -> np.ndarray:
    """Breadth-first 4-neighbour step counts from (sx, sy) over ``walkable``; -1 where unreachable."""
    h, w = walkable.shape
    dist = np.full((h, w), -1, dtype=np.int32)
    if not walkable[sy, sx]:
        return dist
    queue = np.empty(h * w, dtype=np.int64)
    dist[sy, sx] = 0
    queue[0] = sy * w + sx
    head, tail = 0, 1
    while head < tail:
        i = queue[head]
        head += 1
        y, x = i // w, i % w
        d = dist[y, x] + 1
        if x > 0 and walkable[y, x - 1] and dist[y, x - 1] < 0:
            dist[y, x - 1] = d
            queue[tail] = i - 1
            tail += 1
        if x < w - 1 and walkable[y, x + 1] and dist[y, x + 1] < 0:
            dist[y, x + 1] = d
            queue[tail] = i + 1
            tail += 1
        if y > 0 and walkable[y - 1, x] and dist[y - 1, x] < 0:
            dist[y - 1, x] = d
            queue[tail] = i - w
            tail += 1
        if y < h - 1 and walkable[y + 1, x] and dist[y + 1, x] < 0:
            dist[y + 1, x] = d
            queue[tail] = i + w
            tail += 1
    return dist
