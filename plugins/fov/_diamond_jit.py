"""The compiled kernel of ``fov_diamond``, for when numba is installed (``pip install .[fast]``).

The same segments and the same blocking test as ``fov_diamond._blockers`` (doubled coordinates,
a cell blocks when the segment passes through the inside of its diamond, exact integer arithmetic),
tried one segment at a time from the target back to the origin, stopping at the first opaque
blocker: no table, so
nothing is built ahead and memory does not grow with the reach. A floor is seen through the segment
to its centre; a wall not seen that way through the segment to its centre or to one of its four
tips. It reads the map itself: a cell off the map blocks (as in the reference's window), and only
cells on the map are lit. The table-driven numpy version is the reference; ``tests/test_fov_jit.py``
checks the two agree cell for cell.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own. Only
``lit_map`` is called from Python and cached on disk (``cache=True``); the helper is compiled into it.
"""

from __future__ import annotations

import numba
import numpy as np

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 3

# Sample points of a cell in doubled coordinates around its centre, as in fov_diamond._SAMPLES.
_TIPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@numba.njit
def _clear(transparent: np.ndarray, ox: int, oy: int, px: int, py: int, tx: int, ty: int) -> bool:
    """No opaque cell's open diamond is crossed by the segment from the origin's centre to (px, py)
    (doubled coordinates, relative to the origin) ending in the cell (tx, ty): ``_blockers``, one
    segment at a time. The origin and the target cell never block."""
    h, w = transparent.shape
    swap = abs(py) > abs(px)  # march along the major axis
    ma, mi = (py, px) if swap else (px, py)
    tma, tmi = (ty, tx) if swap else (tx, ty)
    sign = -1 if ma < 0 else 1
    ama = abs(ma)
    for k in range(abs(tma), -1, -1):  # nearest the target first: in rock, the first wall found
        cma = sign * k
        # Nearest cell on the minor axis to the segment at x = 2*cma: floor(y/2 + 1/2), exactly.
        cmi0 = (mi * 2 * cma * sign + ama) // (2 * ama)
        for d in range(-1, 2):
            cmi = cmi0 + d
            if cma == tma and cmi == tmi:
                continue  # the target's own cell
            cx, cy = (cmi, cma) if swap else (cma, cmi)
            if cx == 0 and cy == 0:
                continue  # the origin
            bx, by = ox + cx, oy + cy
            if 0 <= bx < w and 0 <= by < h and transparent[by, bx]:
                continue  # a floor does not block, whether the segment crosses it or not
            # The L1 distance along the segment is convex and piecewise linear: its minimum is
            # where the segment crosses the cell's centre line on either axis (t = a/b), in [0, 1].
            hit = False
            for axis in range(2):
                a, b = (2 * cma, ma) if axis == 0 else (2 * cmi, mi)
                if b < 0:
                    a, b = -a, -b
                if b > 0:
                    a = min(max(a, 0), b)
                    if abs(a * ma - 2 * cma * b) + abs(a * mi - 2 * cmi * b) < b:
                        hit = True
            if hit:
                return False
    return True


@numba.njit(cache=True, nogil=True)
def lit_map(transparent: np.ndarray, ox: int, oy: int, radius: int) -> np.ndarray:
    """The visible cells of ``transparent`` from (ox, oy) within the round light of ``radius``
    (negative: no radius)."""
    h, w = transparent.shape
    lit = np.zeros((h, w), dtype=np.bool_)
    lit[oy, ox] = True
    y0, y1 = (0, h) if radius < 0 else (max(0, oy - radius), min(h, oy + radius + 1))
    x0, x1 = (0, w) if radius < 0 else (max(0, ox - radius), min(w, ox + radius + 1))
    for y in range(y0, y1):
        dy = y - oy
        for x in range(x0, x1):
            dx = x - ox
            if (dx == 0 and dy == 0) or (radius >= 0 and dx * dx + dy * dy > radius * radius):
                continue
            if _clear(transparent, ox, oy, 2 * dx, 2 * dy, dx, dy):
                lit[y, x] = True
            elif not transparent[y, x]:  # a wall not seen by its centre: try its four tips
                for sx, sy in _TIPS:
                    if _clear(transparent, ox, oy, 2 * dx + sx, 2 * dy + sy, dx, dy):
                        lit[y, x] = True
                        break
    return lit
