"""Connectivity helpers shared by generators and tools: regions, reachability, distances.

Everything here is vectorised or linear in the map size: the generators must build a 1000x1000
level in under 300 ms, and ``check_level`` (engine.core.turn.generate) runs on every level the game
makes. With numba installed, labelling and distances run compiled (``_regions_jit.py``); the numpy
versions are the reference and the fallback.
Regions are 4-connected, the stricter kind: a level connected this way is connected for 8-way and
4-way movement alike.
"""

from __future__ import annotations

import random
import types
from collections.abc import Callable

import numpy as np

from engine.kit import jit
from engine.kit.mapgen import WALL, carve_line


def _kernel(cells: int | None = None) -> types.ModuleType | None:
    """The compiled versions (``_regions_jit``), or None to run the numpy ones (see engine.kit.jit;
    ``cells``: the map's). The numpy ones are vectorised: a play session never imports numba for
    them (at 1000x1000 labelling takes 7 ms, distances 18 ms; the kernels 1 and 3 ms, and numba's
    import and loading 0.5-0.8 s and some 120 MB)."""
    return jit.sibling(__name__, "_regions_jit", _check, cells, vectorised=True)


def _check(kernel: types.ModuleType) -> None:
    kernel.label_regions(np.ones((2, 2), dtype=bool))
    kernel.distances(np.ones((2, 2), dtype=bool), 0, 0)


def label_regions(walkable: np.ndarray) -> tuple[np.ndarray, int]:
    """Label the 4-connected regions of ``walkable``: int32 labels 1..n (0 for wall), and n.

    Labels are numbered in scan order of each region's first cell, so they are deterministic.
    Compiled (a breadth-first search) when numba is installed, else :func:`label_regions_numpy`.
    """
    kernel = _kernel(walkable.size)
    if kernel is None:
        return label_regions_numpy(walkable)
    labels, n = kernel.label_regions(np.ascontiguousarray(walkable, dtype=bool))
    return labels, int(n)


def label_regions_numpy(walkable: np.ndarray) -> tuple[np.ndarray, int]:
    """``label_regions`` in numpy: the reference. Row runs are found with numpy, then runs touching
    vertically are merged by min-label hooking with pointer jumping: a few array passes instead of
    a Python loop per cell."""
    h, w = walkable.shape
    flat = np.ascontiguousarray(walkable, dtype=bool).ravel()
    starts = flat.copy()
    starts[1:] &= ~flat[:-1]
    starts[::w] = flat[::w]  # a row's first cell never continues the previous row's run
    run = np.cumsum(starts, dtype=np.int64) - 1
    n = int(run[-1]) + 1 if flat.size else 0
    labels = np.zeros(h * w, dtype=np.int32)
    if n == 0:
        return labels.reshape(h, w), 0
    both = (flat[:-w] & flat[w:]) if h > 1 else np.zeros(0, dtype=bool)
    a, b = run[:-w][both], run[w:][both]
    if a.size:
        pairs = np.sort(a * n + b)  # unique, sorted: np.unique would import numpy.ma (30-60 ms) in a short run
        pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
        a, b = pairs // n, pairs % n
    root = np.arange(n, dtype=np.int64)
    while a.size:
        ra, rb = root[a], root[b]
        differ = ra != rb
        if not differ.any():
            break
        ra, rb = ra[differ], rb[differ]
        low = np.minimum(ra, rb)
        # hook the larger root under the smaller; roots only ever decrease, so no cycles form
        np.minimum.at(root, np.maximum(ra, rb), low)
        while True:
            jumped = root[root]
            if np.array_equal(jumped, root):
                break
            root = jumped
    # every root is the smallest run of its region, so sorted roots are in scan order
    _, dense = np.unique(root, return_inverse=True)
    labels[flat] = dense[run[flat]].astype(np.int32) + 1
    return labels.reshape(h, w), int(dense.max()) + 1


def flood(walkable: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """Cells reachable from ``start`` by 4-neighbour steps over walkable cells.

    4-connectivity is the stricter one: a level connected this way is connected for 8-way and
    4-way movement alike.
    """
    sx, sy = start
    if not walkable[sy, sx]:
        return np.zeros(walkable.shape, dtype=bool)
    labels, _ = label_regions(walkable)
    return labels == labels[sy, sx]


def largest_region(walkable: np.ndarray) -> np.ndarray:
    """The biggest 4-connected region of ``walkable`` as a mask (ties: the first in scan order)."""
    labels, n = label_regions(walkable)
    if n == 0:
        return np.zeros(walkable.shape, dtype=bool)
    sizes = np.bincount(labels.ravel(), minlength=n + 1)
    sizes[0] = 0
    return labels == int(np.argmax(sizes))


def distances(walkable: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """Breadth-first step counts (4-neighbour) from ``start``; -1 where it cannot be reached.
    Compiled when numba is installed, else :func:`distances_numpy`."""
    kernel = _kernel(walkable.size)
    if kernel is None:
        return distances_numpy(walkable, start)
    return kernel.distances(np.ascontiguousarray(walkable, dtype=bool), int(start[0]), int(start[1]))


def distances_numpy(walkable: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """``distances`` in numpy: the reference. The frontier is a numpy index array, so the cost is
    the cells visited plus a small constant per step of the longest path."""
    h, w = walkable.shape
    pw = w + 2  # a wall border saves the bounds checks
    open_ = np.zeros((h + 2, pw), dtype=bool)
    open_[1:-1, 1:-1] = walkable
    open_ = open_.ravel()
    dist = np.full(open_.size, -1, dtype=np.int32)
    sx, sy = start
    s = (sy + 1) * pw + sx + 1
    if open_[s]:
        dist[s] = 0
        frontier = np.array([s], dtype=np.int64)
        slot = np.empty(open_.size, dtype=np.int64)  # scratch: which copy of a cell is kept
        step = 0
        while frontier.size:
            step += 1
            nb = np.concatenate((frontier - 1, frontier + 1, frontier - pw, frontier + pw))
            nb = nb[open_[nb] & (dist[nb] < 0)]
            dist[nb] = step
            # A cell reached from two sides appears twice: keep one copy (the last written), with
            # no sort (the frontier's order does not matter, only its cells).
            order = np.arange(nb.size)
            slot[nb] = order
            frontier = nb[slot[nb] == order]
    return dist.reshape(h + 2, pw)[1:-1, 1:-1].copy()


def farthest(walkable: np.ndarray, start: tuple[int, int]) -> tuple[int, int]:
    """The reachable cell farthest from ``start`` in steps (ties: the first in scan order)."""
    d = distances(walkable, start)
    y, x = np.unravel_index(int(np.argmax(d)), d.shape)
    return int(x), int(y)


def grown(mask: np.ndarray) -> np.ndarray:
    """``mask`` and every cell beside it (8 ways), beyond the array counting as not in it: the
    walls bounding a floor, the unknown cells at the edge of what is known."""
    near = mask.copy()
    near[1:] |= mask[:-1]
    near[:-1] |= mask[1:]
    near[:, 1:] |= near[:, :-1].copy()  # copies: each shift reads the rows as they were
    near[:, :-1] |= near[:, 1:].copy()
    return near


def dead_ends(walkable: np.ndarray) -> np.ndarray:
    """Walkable cells with exactly one walkable 4-neighbour."""
    p = np.pad(walkable, 1).astype(np.int8)
    n = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
    return walkable & (n == 1)


def _nearest_source(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Manhattan distance to the nearest ``mask`` cell and that cell's flat index, per cell.

    The L1 transform is separable: a forward and a backward scan along rows, then along columns,
    each a numpy step over a whole column (or row) at a time.
    """
    h, w = mask.shape
    big = h + w + 1
    dist = np.where(mask, 0, big).astype(np.int64)
    src = np.where(mask, np.arange(h * w).reshape(h, w), -1)
    along: tuple[tuple[int, Callable[[np.ndarray, int], np.ndarray]], ...] = (
        (w, lambda a, i: a[:, i]), (h, lambda a, i: a[i]))
    for axis_len, get in along:
        for order in (range(1, axis_len), range(axis_len - 2, -1, -1)):
            step = 1 if order.step == 1 else -1
            for i in order:
                prev_d, cur_d = get(dist, i - step), get(dist, i)
                better = prev_d + 1 < cur_d
                cur_d[better] = prev_d[better] + 1
                get(src, i)[better] = get(src, i - step)[better]
    return dist, src


def ensure_connected(terrain: np.ndarray, start: tuple[int, int], rng: random.Random) -> None:
    """Join every walkable region to the one holding ``start`` with L corridors, in place.

    Each round finds, for every unreached region, its cell nearest (Manhattan) to the reached
    area, and carves from there to that nearest reached cell. With a few regions left only the
    nearest one is joined per round (the rest may then join it more cheaply); with many, all of
    them are joined at once so a noisy map costs a few rounds, not one per pocket.
    """
    h, w = terrain.shape
    while True:
        labels, _ = label_regions(terrain != WALL)
        home = labels[start[1], start[0]]
        rest = (labels != 0) & (labels != home)
        if not rest.any():
            return
        dist, src = _nearest_source(labels == home)
        cells = np.flatnonzero(rest)
        lab, d = labels.ravel()[cells], dist.ravel()[cells]
        order = np.lexsort((cells, d, lab))  # per region: nearest first, then scan order
        first = order[np.r_[True, lab[order][1:] != lab[order][:-1]]]
        if first.size <= 16:
            first = first[np.argsort(d[first], kind="stable")[:1]]
        for k in first:
            p, t = int(cells[k]), int(src.ravel()[cells[k]])
            carve_line(terrain, (p % w, p // w), (t % w, t // w), rng.random() < 0.5)
