"""The compiled kernel of ``fov_diamond``, for when numba is installed (``pip install .[fast]``).

It lights the same cells as ``fov_diamond``'s table (the reference), by another way: a scan of the
light's open directions, outwards row by row in each of the eight octants, like shadowcasting. An
opaque cell's open diamond hides an open interval of directions; what is left lit is a list of
closed intervals of slopes, exact fractions compared by cross-multiplication. No table is built,
and a call costs what the light reaches, not the map or the reach cubed.

Why a row's sample points are decided by the rows before it alone. In an octant, cell (t, m) is t
rows out along its major axis and m >= 0 along the minor one, m <= t; in doubled coordinates (so
that tips are lattice points) its centre is (2t, 2m) and its diamond the open square
|X - 2t| + |Y - 2m| < 1. Its sample points, the centre and the four tips (2t +- 1, 2m),
(2t, 2m +- 1), have slopes Y / X in [0, 1] or are another octant's (which has the same cell). Then:

- a diamond of a nearer row lies wholly at X < 2t - 1 <= the point's X, so the segment from the
  origin crosses it exactly when the ray's slope is inside the diamond's open interval of slopes,
  from its lowest vertex (2m - 1)/(2t) to its highest, (2m + 1)/(2t) (for m < t; beyond 1 at m = t);
- no diamond of the same row other than the cell's own is crossed (the segment's slope is at most
  1, and it reaches a neighbour's diamond only at a tip, which does not block), nor any farther one;
- cells outside the octant (m < 0 or m > t) have every vertex's slope outside [0, 1].

Neighbouring diamonds of a row touch at a tip, so a row of walls leaves single directions open
between them: the lit intervals may be points, and a ray through such a gap goes on until a
diamond's inside stops it. Two lit intervals are always more than 1/t apart (each gap holds a whole
diamond's interval), so at most t + 1 of them remain after row t: their table is made once, at the
map's size, and never grows. Such directions need no pruning: in rock one ends within two rows. A
direction p/q (lowest terms) passes row T between two diamonds only where 2Tp/q is an odd integer
(a tip); in two rows running that needs q = 2, and then the second row's 2Tp/q is even, a centre.
Measured on the bench's maps: 1.05-1.56 intervals a row, 1.0-1.5 cells visited a cell lit, and with
no radius an octant ends at most one row past its last lit cell. Cells off the map count as walls,
as in the reference's window, which only ends light that would leave the map anyway.

A floor is lit when its centre's slope is in a lit interval; a wall when its centre's or one of its
tips' is. The origin is always lit. ``tests/test_fov_jit.py`` checks this against the table
cell for cell.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own. Only
``lit_map`` is called from Python and cached on disk (``cache=True``); the helper is compiled into it.
"""

from __future__ import annotations

import numba
import numpy as np

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 3

# The eight octants as (major x, major y, minor x, minor y): cell (t, m) of an octant is the map cell
# (ox + t*mx + m*nx, oy + t*my + m*ny).
_OCTANTS = ((1, 0, 0, 1), (1, 0, 0, -1), (-1, 0, 0, 1), (-1, 0, 0, -1),
            (0, 1, 1, 0), (0, 1, -1, 0), (0, -1, 1, 0), (0, -1, -1, 0))


@numba.njit
def _within(p: int, q: int, an: int, ad: int, bn: int, bd: int) -> bool:
    """an/ad <= p/q <= bn/bd (every denominator positive)."""
    return an * q <= p * ad and p * bd <= bn * q


@numba.njit(cache=True, nogil=True)
def lit_map(transparent: np.ndarray, ox: int, oy: int, radius: int) -> np.ndarray:
    """The visible cells of ``transparent`` (a (height, width) bool array) from (ox, oy), within the
    round light of ``radius`` (negative: no radius)."""
    h, w = transparent.shape
    lit = np.zeros((h, w), dtype=np.bool_)
    lit[oy, ox] = True
    r2 = radius * radius
    # The lit intervals [an/ad, bn/bd], in increasing order: rows[c] this row's, rows[1 - c] the
    # next's being made. (One array for both, flipped by index: an array variable assigned again in
    # the loop would cost an atomic reference count at every turn.)
    rows = np.empty((2, max(w, h) + 2, 4), dtype=np.int64)
    for q in range(8):
        mx, my, nx, ny = _OCTANTS[q]
        edge = (w - 1 - ox if mx > 0 else ox) if mx else (h - 1 - oy if my > 0 else oy)
        side = (w - 1 - ox if nx > 0 else ox) if nx else (h - 1 - oy if ny > 0 else oy)
        deepest = edge if radius < 0 else min(edge, radius)
        c = 0
        rows[c, 0, 0], rows[c, 0, 1], rows[c, 0, 2], rows[c, 0, 3] = 0, 1, 1, 1  # the whole octant
        count = 1
        for t in range(1, deepest + 1):
            if count == 0:
                break
            bx, by = ox + t * mx, oy + t * my
            last = min(t, side)  # the row's last cell on the map
            made = 0
            for k in range(count):
                an, ad, bn, bd = rows[c, k, 0], rows[c, k, 1], rows[c, k, 2], rows[c, k, 3]
                # The cells with a sample point in [a, b]: ceil(t*a - 1/2) <= m <= floor(t*b + 1/2).
                m0 = -((ad - 2 * t * an) // (2 * ad))
                m1 = (2 * t * bn + bd) // (2 * bd)
                for m in range(max(m0, 0), min(m1, last) + 1):
                    if radius >= 0 and t * t + m * m > r2:
                        continue
                    x, y = bx + m * nx, by + m * ny
                    if lit[y, x]:
                        continue
                    if _within(m, t, an, ad, bn, bd):
                        lit[y, x] = True  # the centre
                    elif not transparent[y, x] and (
                            _within(2 * m, 2 * t + 1, an, ad, bn, bd) or _within(2 * m, 2 * t - 1, an, ad, bn, bd)
                            or _within(2 * m + 1, 2 * t, an, ad, bn, bd) or _within(2 * m - 1, 2 * t, an, ad, bn, bd)):
                        lit[y, x] = True  # a wall by a tip
                # What is left of [a, b] past the row's walls, in pieces: a wall hides the open
                # interval ((2m - 1)/2t, (2m + 1)/2t), which meets [a, b] when t*a - 1/2 < m < t*b + 1/2.
                c0 = (2 * t * an - ad) // (2 * ad) + 1
                c1 = -((-(2 * t * bn + bd)) // (2 * bd)) - 1
                sn, sd = an, ad  # where the next piece starts
                ended = False
                for m in range(max(c0, 0), c1 + 1):
                    if m <= last and transparent[by + m * ny, bx + m * nx]:
                        continue
                    d = 2 * t
                    if sn * d <= (2 * m - 1) * sd:  # a piece (maybe a single direction) before the wall
                        rows[1 - c, made, 0], rows[1 - c, made, 1] = sn, sd
                        rows[1 - c, made, 2], rows[1 - c, made, 3] = 2 * m - 1, d
                        made += 1
                    sn, sd = 2 * m + 1, d
                    if sn * bd > bn * sd:  # the wall hides the rest of [a, b]
                        ended = True
                        break
                if not ended:
                    rows[1 - c, made, 0], rows[1 - c, made, 1] = sn, sd
                    rows[1 - c, made, 2], rows[1 - c, made, 3] = bn, bd
                    made += 1
            c = 1 - c
            count = made
    return lit
