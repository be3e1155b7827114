"""The compiled kernel of ``fov_shadowcast``, for when numba is installed (``pip install .[fast]``).

It scans the eight octants exactly as ``fov_shadowcast._octant`` does, one cell at a time instead
of with ``bytes.find``: the same start and end slopes as exact integer fractions, the same light
ranges per row (``c_hi``, ``c_lo``, and the radius cut-off), the same child scans. The pure-Python
scan is the reference; ``tests/test_fov_jit.py`` checks the two agree cell for cell.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own.
"""

from __future__ import annotations

import numba
import numpy as np

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 2

# (xx, xy, yx, yy) as in fov_shadowcast.OCTANTS: cell (c, j) of an octant is map offset
# (x, y) = (-c*xx - j*xy, -c*yx - j*yy).
OCTANTS = np.array([
    (1, 0, 0, 1), (0, 1, 1, 0), (0, -1, 1, 0), (-1, 0, 0, 1),
    (-1, 0, 0, -1), (0, -1, -1, 0), (0, 1, -1, 0), (1, 0, 0, -1),
], dtype=np.int64)


@numba.njit
def _octant(win: np.ndarray, lit: np.ndarray, r: int, r2: int, xx: int, xy: int, yx: int, yy: int,
            stack: np.ndarray) -> bool:
    """Light one octant of the window into ``lit``, with ``stack`` for the pending scans: False when
    it was too small (the caller gives a bigger one and lights the octant again: lighting a cell
    twice does no harm). A stack made again here, in the loop, would cost an atomic reference count
    at every turn of it."""
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3], stack[0, 4] = 1, 1, 1, 0, 1
    top = 1
    while top > 0:
        top -= 1
        row, sn, sd, en, ed = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4]
        for j in range(row, r + 1):
            c_hi = min(j, (sn * (2 * j + 1) + sd) // (2 * sd))
            c_lo = max(0, -((ed - en * (2 * j - 1)) // (2 * ed)))
            if c_lo * c_lo + j * j > r2:
                break  # this row and every deeper one are beyond the light
            if c_hi < c_lo:
                continue
            wall = -1
            for c in range(c_hi, c_lo - 1, -1):
                y, x = r - c * yx - j * yy, r - c * xx - j * xy
                lit[y, x] = True
                if wall < 0 and not win[y, x]:
                    wall = c
            if wall < 0:
                continue
            if j == r:  # the last row only lights
                break
            ended = False
            while True:
                child = 2 * wall + 1  # the child ends at l(c) = (2c + 1)/(2j - 1)
                if sn * (2 * j - 1) >= child * sd:
                    if top == stack.shape[0]:
                        return False
                    stack[top, 0], stack[top, 1], stack[top, 2] = j + 1, sn, sd
                    stack[top, 3], stack[top, 4] = child, 2 * j - 1
                    top += 1
                floor = -1
                for c in range(wall - 1, c_lo - 1, -1):
                    if win[r - c * yx - j * yy, r - c * xx - j * xy]:
                        floor = c
                        break
                if floor < 0:
                    ended = True
                    break
                sn, sd = 2 * floor + 1, 2 * j + 1  # r(c + 1) = (2c + 1)/(2j + 1)
                wall = -1
                for c in range(floor - 1, c_lo - 1, -1):
                    if not win[r - c * yx - j * yy, r - c * xx - j * xy]:
                        wall = c
                        break
                if wall < 0:
                    break
            if ended:
                break  # the row ends on a wall: so does the scan
    return True


@numba.njit(cache=True, nogil=True)
def lit_window(win: np.ndarray, r: int, r2: int, octants: np.ndarray) -> np.ndarray:
    """The lit cells of a (2r+1, 2r+1) window (True where transparent), origin at [r, r].

    ``r2`` is the squared radius (or anything above 2*r*r for an unlimited light).
    """
    side = 2 * r + 1
    lit = np.zeros((side, side), dtype=np.bool_)
    stack = np.empty((64, 5), dtype=np.int64)  # pending scans: (row, sn, sd, en, ed)
    for o in range(8):
        xx, xy, yx, yy = octants[o, 0], octants[o, 1], octants[o, 2], octants[o, 3]
        while not _octant(win, lit, r, r2, xx, xy, yx, yy, stack):
            stack = np.empty((2 * stack.shape[0], 5), dtype=np.int64)
    return lit
