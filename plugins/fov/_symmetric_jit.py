"""The compiled kernel of ``fov_symmetric``, for when numba is installed (``pip install .[fast]``).

It runs Albert Ford's symmetric shadowcasting exactly as ``fov_symmetric.symmetric_fov_python``
does, one tile at a time instead of a run at a time: the same rows (first tile
round_ties_up(depth * start), last round_ties_down(depth * end)), the same exact integer slopes
(numerator, positive denominator), the same radius cut-off of a row wholly outside the light, the
same ``is_symmetric`` test for floors. The pure-Python scan is the reference;
``tests/test_fov_jit.py`` checks the two agree cell for cell.

It reads the map itself, not a window around the origin: a tile off the map is a wall that is never
revealed (it can only cut light that would leave the map), and no scan goes deeper than the map's
edge in its quadrant (a row beyond it is all such walls, which ends the scan). So a light with no
radius costs what the map holds, not a square of twice the map's side.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own. Only
``lit_map`` is called from Python and cached on disk (``cache=True``); the helper is compiled into it.
"""

from __future__ import annotations

import numba
import numpy as np

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 2

# Quadrants as (x, y) steps: one row deeper, one column further. North, east, south, west.
_QUADRANTS = ((0, -1, 1, 0), (1, 0, 0, 1), (0, 1, 1, 0), (-1, 0, 0, 1))

_NONE = 1 << 62  # the squared radius of a light with no radius: every tile is in it


@numba.njit
def _quadrant(transparent: np.ndarray, lit: np.ndarray, ox: int, oy: int, radius: int, q: int,
              stack: np.ndarray) -> bool:
    """Light quadrant ``q`` into ``lit``, with ``stack`` for the pending scans: False when it was too
    small (the caller gives a bigger one and lights the quadrant again: lighting a cell twice does
    no harm). A stack made again here, in the loop, would cost an atomic reference count at every
    turn of it."""
    h, w = transparent.shape
    r2 = _NONE if radius < 0 else radius * radius
    ddx, ddy, cdx, cdy = _QUADRANTS[q]
    # The deepest row on the map, and the columns on it (tiles beyond are unrevealed walls).
    edge = oy if ddy < 0 else h - 1 - oy if ddy > 0 else ox if ddx < 0 else w - 1 - ox
    deepest = edge if radius < 0 else min(edge, radius)
    if cdx:
        col_min, col_max = -ox, w - 1 - ox
    else:
        col_min, col_max = -oy, h - 1 - oy
    if deepest < 1:
        return True
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3], stack[0, 4] = 1, -1, 1, 1, 1  # (depth, sn, sd, en, ed)
    top = 1
    while top > 0:
        top -= 1
        depth, sn, sd, en, ed = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4]
        while True:
            lo = (2 * depth * sn + sd) // (2 * sd)  # round_ties_up(depth * start)
            hi = -((ed - 2 * depth * en) // (2 * ed))  # round_ties_down(depth * end)
            d2 = depth * depth
            # A row whose tile nearest the axis is outside the light ends the scan: every deeper
            # row of its cone is farther out.
            if (lo > 0 and d2 + lo * lo > r2) or (hi < 0 and d2 + hi * hi > r2) or lo > hi:
                break
            bx, by = ox + depth * ddx, oy + depth * ddy
            prev = -1  # the previous tile: -1 none, 0 wall, 1 floor
            for col in range(lo, hi + 1):
                on_map = col_min <= col <= col_max
                x, y = bx + col * cdx, by + col * cdy
                floor = on_map and transparent[y, x]
                if on_map and d2 + col * col <= r2:
                    if not floor:
                        lit[y, x] = True  # walls are always revealed
                    elif col * sd >= depth * sn and col * ed <= depth * en:
                        lit[y, x] = True  # floors when is_symmetric
                if floor:
                    if prev == 0:
                        sn, sd = 2 * col - 1, 2 * depth  # the start slope moves to this left edge
                    prev = 1
                else:
                    if prev == 1 and depth < deepest:  # the next row, up to this wall's left edge
                        if top == stack.shape[0]:
                            return False
                        stack[top, 0], stack[top, 1], stack[top, 2] = depth + 1, sn, sd
                        stack[top, 3], stack[top, 4] = 2 * col - 1, 2 * depth
                        top += 1
                    prev = 0
            if prev != 1 or depth == deepest:
                break  # the row ends on a wall (or is the last): so does the scan
            depth += 1  # the row ends on a floor: the scan goes on into the next row
    return True


@numba.njit(cache=True, nogil=True)
def lit_map(transparent: np.ndarray, ox: int, oy: int, radius: int) -> np.ndarray:
    """The visible cells of ``transparent`` (a (height, width) bool array) from (ox, oy), with the
    round light of ``radius`` (a negative radius: no radius)."""
    h, w = transparent.shape
    lit = np.zeros((h, w), dtype=np.bool_)
    lit[oy, ox] = True
    stack = np.empty((64, 5), dtype=np.int64)  # pending scans: (depth, sn, sd, en, ed)
    for q in range(4):
        while not _quadrant(transparent, lit, ox, oy, radius, q, stack):
            stack = np.empty((2 * stack.shape[0], 5), dtype=np.int64)
    return lit
