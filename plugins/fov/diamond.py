"""Diamond walls: walls are diamonds inscribed in their cells, floors are points.

A floor cell is visible when the segment from the origin's centre to the cell's centre does not
pass through the inside of any other wall's diamond (touching a diamond's tip or edge does not
block). A wall is visible when the segment to its centre, or to one of its diamond's four tips,
is clear in the same way: that is five sample points of the diamond, not every point of it, so a
wall seen only through a sliver between its tips stays dark.

Between floor cells this is symmetric (the segment is the same both ways) and it is unchanged by
rotating or mirroring the map. The blocking cells of every segment are worked out once per window
size with exact integer arithmetic (coordinates doubled so tips are lattice points) and kept as an
index table; a call is then one numpy gather over the window.
"""

from __future__ import annotations

import functools

import numpy as np

from engine import hookimpl
from engine.kit import jit, limits
from engine.kit.fov import limited_reach, paste, table_reach, window, window_disc

# Sample points of a cell, in doubled coordinates around its centre: centre first, then the tips.
_SAMPLES = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))


def _blockers(px: np.ndarray, py: np.ndarray, tx: np.ndarray, ty: np.ndarray, r: int) -> np.ndarray:
    """For segments (0,0)→(px,py) in doubled coordinates ending in cell (tx,ty): the cells whose
    open diamond |X - 2cx| + |Y - 2cy| < 1 the segment crosses, as (n, 3*(r+1), 2) offsets, with
    (0, 0) (the origin, never a blocker) where there is none."""
    swap = np.abs(py) > np.abs(px)  # march along the major axis
    ma, mi = np.where(swap, py, px), np.where(swap, px, py)
    tma = np.where(swap, ty, tx)
    sign = np.where(ma < 0, -1, 1)
    k = np.arange(r + 1)
    cma = sign[:, None] * k[None, :]  # (n, r+1) candidate major coordinates
    ama = np.abs(ma)[:, None]
    # Nearest cell on the minor axis to the segment at x = 2*cma: floor(y/2 + 1/2), exactly.
    cmi0 = (mi[:, None] * 2 * cma * sign[:, None] + ama) // (2 * ama)
    out = []
    for d in (-1, 0, 1):
        cmi = cmi0 + d
        hit = np.zeros(cmi.shape, dtype=bool)
        # The L1 distance along the segment is convex and piecewise linear: its minimum is where
        # the segment crosses the cell's centre line on either axis (t = a/b), clipped to [0, 1].
        for a, b in ((2 * cma, ma[:, None] + 0 * cma), (2 * cmi, mi[:, None] + 0 * cmi)):
            a, b = np.where(b < 0, -a, a), np.abs(b)
            ok = b > 0
            a = np.clip(a, 0, b)
            dist = np.abs(a * ma[:, None] - 2 * cma * b) + np.abs(a * mi[:, None] - 2 * cmi * b)
            hit |= ok & (dist < b)
        own = (cma == tma[:, None]) & (cmi == np.where(swap, tx, ty)[:, None])
        hit &= ~own & (k[None, :] <= np.abs(tma)[:, None])
        cx, cy = np.where(swap[:, None], cmi, cma), np.where(swap[:, None], cma, cmi)
        out.append(np.stack([np.where(hit, cx, 0), np.where(hit, cy, 0)], axis=-1))
    return np.concatenate(out, axis=1)


# The table holds every cell of the light times the cells on the way to it: it grows with the cube
# of the reach (at 64: 40 MB, built in 2.1 s with 600 MB at the peak). Without numba, farther lights
# are refused (``max_reach``); the compiled kernel has no table and no limit.
PYTHON_REACH = 64


@functools.lru_cache(maxsize=limits.MAX_FOV_LINE_TABLES)
def _table(r: int, radius: int | None) -> tuple[np.ndarray, ...]:
    """Target cells (flat window indices) in the light; the blockers' flat indices of the segment
    to each target's centre, shape (width, targets); and of those to its four tips: the nearest to
    the wall and the second nearest, (targets, 4) each, and the rest, (targets, 4, width - 2).
    The origin's index pads (the origin is transparent for this purpose: it never blocks)."""
    side = 2 * r + 1
    ys, xs = np.nonzero(window_disc(r, radius))
    dx, dy = xs - r, ys - r
    keep = (dx != 0) | (dy != 0)
    dx, dy = dx[keep], dy[keep]
    targets = (dy + r) * side + (dx + r)
    per_sample = []
    for sx, sy in _SAMPLES:
        cells = _blockers(2 * dx + sx, 2 * dy + sy, dx, dy, r)
        per_sample.append((cells[..., 1] + r) * side + (cells[..., 0] + r))
    idx = np.stack(per_sample, axis=1)  # (targets, 5, candidates)
    centre = r * side + r
    # Keep only columns that hold a blocker somewhere: pads (the centre) sorted to the end.
    idx = np.sort(np.where(idx == centre, np.iinfo(np.int32).max, idx), axis=-1)
    width = int((idx != np.iinfo(np.int32).max).sum(axis=-1).max(initial=0))
    idx = np.where(idx[..., :width] == np.iinfo(np.int32).max, centre, idx[..., :width]).astype(np.intp)
    targets = targets.astype(np.intp)
    # The centres' table is stored blockers-major: reducing over the first axis is the fast one.
    centres, tips = np.ascontiguousarray(idx[:, 0].T), idx[:, 1:]
    # A tip's blockers nearest the wall first (pads last). Most walls tried by their tips are deep
    # in rock, and their two nearest blockers rule them out; so those two are tried first on their
    # own (an elementwise ``&`` of two (targets, 4) lookups: no reduction over a tiny axis), and
    # only the few (wall, tip) pairs they leave open are tried against the rest.
    bx, by = tips % side - r, tips // side - r
    near = (bx - dx[:, None, None]) ** 2 + (by - dy[:, None, None]) ** 2 + np.where(tips == centre, 1 << 40, 0)
    tips = np.take_along_axis(tips, np.argsort(near, axis=-1, kind="stable"), axis=-1)
    if tips.shape[-1] < 2:  # a tiny window: pad to two blockers
        tips = np.concatenate([tips, np.full(tips.shape[:-1] + (2 - tips.shape[-1],), centre, np.intp)], axis=-1)
    tables = (targets.astype(np.intp), centres, np.ascontiguousarray(tips[..., 0]),
              np.ascontiguousarray(tips[..., 1]), np.ascontiguousarray(tips[..., 2:]))
    for a in tables:
        a.flags.writeable = False
    return tables


def _check(kernel) -> None:
    kernel.lit_map(np.ones((3, 3), dtype=bool), 1, 1, 1)


# Up to this reach the table (built in under 100 ms, a few MB) beats the kernel, which walks every
# segment per call: 90 against 160-350 µs at r20 on the bench's 80x50 cave. Beyond it the table
# grows with the cube of the reach (0.7 s and 40 MB at r50) and the kernel, with no table, wins.
TABLE_REACH = 24


def diamond_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Diamond walls: the FOV contract's ``fn``. Near lights use the table (:func:`diamond_fov_python`);
    far ones the compiled kernel when numba is installed (:func:`diamond_fov_compiled`); the two
    agree cell for cell."""
    if table_reach(transparent.shape, radius) <= TABLE_REACH:
        return diamond_fov_python(transparent, origin, radius)
    return diamond_fov_compiled(transparent, origin, radius)


def diamond_fov_compiled(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """The numba kernel at any reach (``_diamond_jit``); the pure-Python version without numba."""
    python_can = table_reach(transparent.shape, radius) <= PYTHON_REACH  # else it must compile
    kernel = jit.sibling(__name__, "_diamond_jit", _check, cells=transparent.size if python_can else None)
    if kernel is None:
        return diamond_fov_python(transparent, origin, radius)
    if transparent.dtype != bool or not transparent.flags.c_contiguous:
        transparent = np.ascontiguousarray(transparent, dtype=bool)
    return kernel.lit_map(transparent, origin[0], origin[1], -1 if radius is None else radius)


def diamond_fov_python(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """The table-driven numpy version: the reference, and what runs without numba."""
    r = limited_reach("diamond", PYTHON_REACH, transparent.shape, radius)
    win = window(transparent, origin, r).ravel()
    win[r * (2 * r + 1) + r] = True  # the origin's cell never blocks (window() returns a copy)
    targets, centres, nearest, second, tips_far = _table(r, radius)
    seen = np.logical_and.reduce(win[centres], axis=0)  # the segment to each target's centre is clear
    # Only walls not seen by their centre need their four tips tried.
    walls = np.flatnonzero(~seen & ~win[targets])
    pair_wall, pair_tip = np.nonzero(win[nearest[walls]] & win[second[walls]])
    walls = walls[pair_wall]
    seen[walls[win[tips_far[walls, pair_tip]].all(axis=-1)]] = True
    visible = np.zeros(win.shape, dtype=bool)
    visible[targets[seen]] = True
    return paste(visible, transparent.shape, origin, r, radius)


@hookimpl
def register_fov_algorithms(register):
    register(
        "diamond",
        diamond_fov,
        symmetric=True,
        summary="diamond walls, point floors: centre-to-centre segments; walls lit via centre or tips",
        python=diamond_fov_python,
        max_reach=None if jit.enabled() else PYTHON_REACH,
        tcod="FOV_DIAMOND",
    )
