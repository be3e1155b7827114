"""The compiled kernel of ``fov_raycast``, for when numba is installed (``pip install .[fast]``).

The same Bresenham lines as ``fov_raycast._between`` (drawn in the first octant, half-way points
rounded away from the axis, mirrored into the others), walked one target at a time from the target
back to the origin, stopping at the first opaque cell: no table, so nothing is built ahead and memory does not
grow with the reach, and a line into rock costs a step or two. It reads the map itself: a
cell off the map is opaque (as in the reference's window), and only cells on the map are lit.
The table-driven pure-Python version is the reference; ``tests/test_fov_jit.py`` checks the two
agree cell for cell.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own.
"""

from __future__ import annotations

import numba
import numpy as np

# First compile on the 2-core development machine (numba 0.68), for the one-line notice.
COMPILE_SECONDS = 1


@numba.njit(cache=True, nogil=True)
def lit_map(transparent: np.ndarray, ox: int, oy: int, radius: int) -> np.ndarray:
    """The visible cells of ``transparent`` from (ox, oy) within the round light of ``radius``
    (negative: no radius)."""
    h, w = transparent.shape
    lit = np.zeros((h, w), dtype=np.bool_)
    lit[oy, ox] = True
    # The light's bounding box on the map.
    y0, y1 = (0, h) if radius < 0 else (max(0, oy - radius), min(h, oy + radius + 1))
    x0, x1 = (0, w) if radius < 0 else (max(0, ox - radius), min(w, ox + radius + 1))
    for y in range(y0, y1):
        dy = y - oy
        for x in range(x0, x1):
            dx = x - ox
            if radius >= 0 and dx * dx + dy * dy > radius * radius:
                continue
            ax, ay = abs(dx), abs(dy)
            steep = ay > ax
            major, minor = (ay, ax) if steep else (ax, ay)
            sx = 1 if dx >= 0 else -1
            sy = 1 if dy >= 0 else -1
            clear = True
            # The cells strictly between the origin and the target, nearest the target first: in
            # rock, that is the first wall found.
            for i in range(major - 1, 0, -1):
                j = (2 * minor * i + major) // (2 * major)
                cx, cy = (j, i) if steep else (i, j)
                bx, by = ox + sx * cx, oy + sy * cy
                if not (0 <= bx < w and 0 <= by < h and transparent[by, bx]):
                    clear = False
                    break
            if clear:
                lit[y, x] = True
    return lit
