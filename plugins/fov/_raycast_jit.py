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

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 1


@numba.njit(cache=True, nogil=True)
def lit_map(transparent: np.ndarray, ox: int, oy: int, radius: int) -> np.ndarray:
    """The visible cells of ``transparent`` from (ox, oy) within the round light of ``radius``
    (negative: no radius)."""
    h, w = transparent.shape
    cells = transparent.ravel()
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
            if major < 2:
                lit[y, x] = True  # nothing lies between
                continue
            # Flat steps along the major and the minor axis, away from the origin.
            sx = 1 if dx >= 0 else -1
            sy = w if dy >= 0 else -w
            step_major, step_minor = (sy, sx) if steep else (sx, sy)
            # The cells strictly between, nearest the target first (in rock, that is the first wall
            # found): step i of the line is j = round(i * minor / major), halves away from the axis,
            # that is (2 * minor * i + major) // (2 * major), kept as a quotient and a remainder.
            i = major - 1
            num = 2 * minor * i + major
            j = num // (2 * major)
            rem = num - j * 2 * major
            at = oy * w + ox + i * step_major + j * step_minor
            clear = True
            while i >= 1:
                if not cells[at]:
                    clear = False
                    break
                i -= 1
                at -= step_major
                rem -= 2 * minor
                if rem < 0:
                    rem += 2 * major
                    at -= step_minor
            if clear:
                lit[y, x] = True
    return lit
