"""The compiled kernel of ``fov_raycast``, for when numba is installed (``pip install .[fast]``).

It lights the same cells as the reference's table of Bresenham lines (``fov_raycast._between``:
drawn in the first octant, half-way points rounded away from the axis, mirrored into the others),
by another way: a scan of the lit slopes, outwards row by row in each of the eight octants, like
shadowcasting. No line is walked, no table is built, and a call costs what the light reaches.

In an octant, cell (t, m) is t rows out along the major axis and m along the minor one. The line to
a cell of slope s = m / t steps on (i, floor(i * s + 1/2)) for 0 < i < t, so an opaque cell (i, j)
is on the lines to every farther cell whose slope is in the half-open [(2j - 1)/2i, (2j + 1)/2i),
and on no other's. A cell is lit (a wall too: the walls at either end never block) when its slope is
in none of the intervals of the opaque cells of the rows before it: the lit slopes are kept as a
list of pieces, closed on the left and closed or open on the right, exact fractions compared by
cross-multiplication. Two pieces are more than 1/t apart (each gap holds a whole interval), so at
most t + 1 remain after row t: their table is made once, at the map's size. Octants whose lines go
along y (|dy| > |dx|) hold the slopes below 1, the others those up to 1. A line between two cells
of the map stays on it; cells off the map count as walls, which only ends the scan sooner.

The table-driven pure-Python version is the reference; ``tests/test_fov_jit.py`` checks the two
agree cell for cell, and each cell's own line beyond the table's reach.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own.
"""

from __future__ import annotations

import numba
import numpy as np

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 2


# The eight octants as (major x, major y, minor x, minor y, steep): cell (t, m) of an octant is the
# map cell (ox + t*mx + m*nx, oy + t*my + m*ny). A line is drawn along y (steep) when |dy| > |dx|, so
# the steep octants hold the slopes m / t < 1 and the others those up to 1, the diagonals included.
_OCTANTS = ((1, 0, 0, 1, 0), (1, 0, 0, -1, 0), (-1, 0, 0, 1, 0), (-1, 0, 0, -1, 0),
            (0, 1, 1, 0, 1), (0, 1, -1, 0, 1), (0, -1, 1, 0, 1), (0, -1, -1, 0, 1))


@numba.njit(cache=True, nogil=True)
def lit_map(transparent: np.ndarray, ox: int, oy: int, radius: int) -> np.ndarray:
    """The visible cells of ``transparent`` from (ox, oy) within the round light of ``radius``
    (negative: no radius)."""
    h, w = transparent.shape
    lit = np.zeros((h, w), dtype=np.bool_)
    lit[oy, ox] = True
    r2 = radius * radius
    # The lit slopes as pieces [an/ad, bn/bd] (bc = 1) or [an/ad, bn/bd) (bc = 0), in increasing
    # order: rows[c] this row's, rows[1 - c] the next's being made. (One array for both, flipped by
    # index: an array variable assigned again in the loop would cost an atomic reference count at
    # every turn.)
    rows = np.empty((2, max(w, h) + 2, 5), dtype=np.int64)
    for q in range(8):
        mx, my, nx, ny, steep = _OCTANTS[q]
        edge = (w - 1 - ox if mx > 0 else ox) if mx else (h - 1 - oy if my > 0 else oy)
        side = (w - 1 - ox if nx > 0 else ox) if nx else (h - 1 - oy if ny > 0 else oy)
        deepest = edge if radius < 0 else min(edge, radius)
        c = 0
        rows[c, 0, 0], rows[c, 0, 1], rows[c, 0, 2], rows[c, 0, 3], rows[c, 0, 4] = 0, 1, 1, 1, 1 - steep
        count = 1
        for t in range(1, deepest + 1):
            if count == 0:
                break
            bx, by = ox + t * mx, oy + t * my
            last = min(t, side)  # the row's last cell on the map
            made = 0
            for k in range(count):
                an, ad, bn, bd, bc = rows[c, k, 0], rows[c, k, 1], rows[c, k, 2], rows[c, k, 3], rows[c, k, 4]
                # The cells whose line's slope m / t is in the piece: ceil(t*a) <= m <= floor(t*b),
                # and m < t*b when b is not in it.
                m0 = -((-t * an) // ad)
                m1 = (t * bn) // bd
                if bc == 0 and m1 * bd == t * bn:
                    m1 -= 1
                for m in range(max(m0, 0), min(m1, last) + 1):
                    if radius < 0 or t * t + m * m <= r2:
                        lit[by + m * ny, bx + m * nx] = True
                # What is left of the piece past the row's walls: wall m is on the line to every
                # farther cell of slope in [(2m - 1)/2t, (2m + 1)/2t). Cells off the map count as walls.
                c0 = (2 * t * an - ad) // (2 * ad) + 1  # m > t*a - 1/2
                c1 = (2 * t * bn + bd) // (2 * bd)  # m <= t*b + 1/2 ...
                if bc == 0 and (2 * c1 - 1) * bd == 2 * t * bn:
                    c1 -= 1  # ... and m < t*b + 1/2 when b is not in the piece
                sn, sd = an, ad  # where the next piece starts (in it)
                ended = False
                for m in range(max(c0, 0), c1 + 1):
                    if m <= last and transparent[by + m * ny, bx + m * nx]:
                        continue
                    d = 2 * t
                    if sn * d < (2 * m - 1) * sd:  # [start, (2m - 1)/2t) is still lit
                        rows[1 - c, made, 0], rows[1 - c, made, 1] = sn, sd
                        rows[1 - c, made, 2], rows[1 - c, made, 3], rows[1 - c, made, 4] = 2 * m - 1, d, 0
                        made += 1
                    sn, sd = 2 * m + 1, d
                    if sn * bd > bn * sd or (bc == 0 and sn * bd == bn * sd):  # the rest is hidden
                        ended = True
                        break
                if not ended:
                    rows[1 - c, made, 0], rows[1 - c, made, 1] = sn, sd
                    rows[1 - c, made, 2], rows[1 - c, made, 3], rows[1 - c, made, 4] = bn, bd, bc
                    made += 1
            c = 1 - c
            count = made
    return lit
