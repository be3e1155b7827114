"""Raycasting: a Bresenham line from the origin to every cell in the light.

A cell is visible when no opaque cell lies strictly between the origin and it on that line; the
walls at either end never block, so a wall is lit when its line is clear. Lines are drawn in the
first octant (0 <= dy <= dx, rounding half-way points away from the axis) and mirrored into the
others, so rotating or mirroring the map rotates or mirrors the result. It is not symmetric: the
line from A to B is not always the line from B to A reversed, and corners can hide cells.

With numba installed, the lit slopes are scanned row by row outwards, like shadowcasting: a wall
hides the slopes of the lines that step on it (``_raycast_jit.py``): no table, no limit on the
reach, and a call costs what the light reaches. Without it, the lines depend only on the
window size, so they are built once (vectorised, a step of every line at a time) as a (steps,
cells) table of flat window indices, and a call is one numpy gather and an ``all`` over each line;
that is the reference the kernel is tested against.
"""

from __future__ import annotations

import functools

import numpy as np

from engine import hookimpl
from engine.kit import jit, limits
from engine.kit.fov import limited_reach, lit_cells, paste, table_reach, window, window_disc


def _between(dx: int, dy: int) -> list[tuple[int, int]]:
    """Cells strictly between (0, 0) and (dx, dy) on the octant-mirrored Bresenham line."""
    ax, ay = abs(dx), abs(dy)
    steep = ay > ax
    major, minor = (ay, ax) if steep else (ax, ay)
    sx, sy = (1 if dx >= 0 else -1), (1 if dy >= 0 else -1)
    cells = []
    for i in range(1, major):
        j = (2 * minor * i + major) // (2 * major)  # round(i * minor / major), halves away from the axis
        x, y = (j, i) if steep else (i, j)
        cells.append((sx * x, sy * y))
    return cells


# Without numba, a call gathers every line's cells from a table: that work grows with the cube of
# the reach, so the pure-Python version lights at most this far (a call then takes about 30 ms).
# The compiled kernel has no table and no limit.
PYTHON_REACH = 128
# The table is kept only up to this size (a reach of about 100); beyond, each call works the lines
# out a step at a time, so memory grows with the square of the reach, not the cube.
TABLE_BYTES = 32 << 20


@functools.lru_cache(maxsize=limits.MAX_FOV_LINE_TABLES)
def _lines(r: int, radius: int | None) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """Target flat indices of an r-window in the light, and each target's line as (steep, major,
    minor, sx, sy) arrays: what ``_step`` needs to find the line's cells (see ``_between``)."""
    side = 2 * r + 1
    ys, xs = np.nonzero(window_disc(r, radius))
    targets = (ys * side + xs).astype(np.intp)
    dx, dy = xs - r, ys - r
    ax, ay = np.abs(dx), np.abs(dy)
    steep = ay > ax
    parts = (steep, np.where(steep, ay, ax), np.where(steep, ax, ay),
             np.where(dx >= 0, 1, -1), np.where(dy >= 0, 1, -1))
    for a in (targets, *parts):
        a.flags.writeable = False
    return targets, parts


def _step(parts: tuple[np.ndarray, ...], i: int, side: int, centre: int) -> np.ndarray:
    """The flat index of step ``i`` of every target's line, or the origin's (which never blocks)
    where the line is shorter: ``_between`` for all targets at once."""
    steep, major, minor, sx, sy = parts
    j = (2 * minor * i + major) // (2 * np.maximum(major, 1))  # round(i * minor / major), halves away
    x, y = np.where(steep, j, i), np.where(steep, i, j)
    return np.where(i < major, centre + sy * y * side + sx * x, centre)


@functools.lru_cache(maxsize=limits.MAX_FOV_LINE_TABLES)
def _table(r: int, radius: int | None) -> np.ndarray | None:
    """Every line's flat indices, shape (r - 1, targets) (steps-major: reducing over the first axis
    is the fast one); None when that is over ``TABLE_BYTES``."""
    targets, parts = _lines(r, radius)
    if r < 2 or (r - 1) * len(targets) * np.dtype(np.intp).itemsize > TABLE_BYTES:
        return None
    side = 2 * r + 1
    table = np.stack([_step(parts, i, side, r * side + r) for i in range(1, r)]).astype(np.intp)
    table.flags.writeable = False
    return table


def _check(kernel) -> None:
    kernel.lit_map(np.ones((3, 3), dtype=bool), 1, 1, 1)


def raycast_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Bresenham raycasting to every cell in range: the FOV contract's ``fn``. Compiled when numba
    is installed (``_raycast_jit``), else :func:`raycast_fov_python`; the two agree cell for cell."""
    python_can = table_reach(transparent.shape, radius) <= PYTHON_REACH  # else it must compile
    kernel = jit.sibling(__name__, "_raycast_jit", _check,
                         cells=lit_cells(transparent.shape, radius) if python_can else None)
    if kernel is None:
        return raycast_fov_python(transparent, origin, radius)
    if transparent.dtype != bool or not transparent.flags.c_contiguous:
        transparent = np.ascontiguousarray(transparent, dtype=bool)
    return kernel.lit_map(transparent, origin[0], origin[1], -1 if radius is None else radius)


def raycast_fov_python(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """The table-driven numpy version: the reference, and what runs without numba."""
    r = limited_reach("raycast", PYTHON_REACH, transparent.shape, radius)
    side = 2 * r + 1
    win = window(transparent, origin, r).ravel()
    win[r * side + r] = True  # the origin never blocks its own lines
    targets, parts = _lines(r, radius)
    table = _table(r, radius)
    if table is not None:
        clear = np.logical_and.reduce(win[table], axis=0)
    else:
        clear = np.ones(len(targets), dtype=bool)
        for i in range(1, r):
            clear &= win[_step(parts, i, side, r * side + r)]
    visible = np.zeros(win.shape, dtype=bool)
    visible[targets[clear]] = True
    return paste(visible, transparent.shape, origin, r, radius)


@hookimpl
def register_fov_algorithms(register):
    register("raycast", raycast_fov, symmetric=False,
             summary="Bresenham line to every cell in range; walls lit; not symmetric, may hide corners",
             python=raycast_fov_python, max_reach=None if jit.enabled() else PYTHON_REACH, tcod="FOV_BASIC")
