"""Numba-compiled kernel for the precise permissive FOV of ``fov_permissive.py`` (optional: extra ``fast``).

``lit_map(transparent, ox, oy, radius)`` runs the four quadrants of ``permissive_fov`` and returns
the map's lit cells. It is a line-by-line port of ``_quadrant`` in ``fov_permissive.py``, which is
the reference: the output must match the four ``_quadrant`` calls bit for bit (same fields, bumps,
splits, ``_closed`` test, band order and ``last`` cut-off, same integer arithmetic). Change the
algorithm there first, then mirror it here. It reads the map itself rather than a window around the
origin (a square off the map is a wall, as in the window) and keeps the lit squares to the map and
the light's disc as it goes, where the reference pastes its window back.

Imported by ``engine.kit.jit.sibling`` when numba is installed (not a plugin of its own); it
imports only numpy and numba.

Array layout, per quadrant:

- ``fields`` is an int64 array of rows; rows ``0 .. nf-1`` are the live fields, shallow to steep
  (the Python list of fields). A row is the Python field list with the bump lists as pool indices::

      [steep near x, y, steep far x, y, shallow near x, y, shallow far x, y, steep bumps, shallow bumps]

  Inserting or deleting a field shifts the rows after it.
- Bumps are immutable linked lists shared between fields after a split (the Python tuples
  ``(x, y, parent)``): node ``n`` is ``(bx[n], by[n], bp[n])``, ``-1`` stands for ``None``. Nodes
  are only ever appended (``nb`` is the next free one), so sharing tails is safe.

When either is full, the quadrant is visited again with both twice as big: an array made again
inside the visit's loop would cost numba an atomic reference count at every turn.

Only ``lit_map`` is called from Python and cached on disk (``cache=True``); the helpers are
compiled into it. Numba's cached code re-imports this module by the ``__name__`` it had when the
cache was written: a normal import (``engine.plugins.fov._permissive_jit``) always gives it that name.
"""

from __future__ import annotations

import numba
import numpy as np

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 5

# Columns of a field row.
_SNX, _SNY, _SFX, _SFY, _HNX, _HNY, _HFX, _HFY, _SBUMPS, _HBUMPS = range(10)
_NCOLS = 10


@numba.njit
def _rel(nx, ny, fx, fy, px, py):
    """> 0 when the point is above (steeper than) the line near→far, < 0 below, 0 on it."""
    return (fy - ny) * (fx - px) - (fy - py) * (fx - nx)


@numba.njit
def _shallow_bump(fields, k, x, y, bx, by, bp, nb):
    """``_shallow_bump`` on row ``k``; pushes node ``nb`` (the pool has room) and returns the next free node."""
    fields[k, _HFX] = x
    fields[k, _HFY] = y
    bx[nb] = x
    by[nb] = y
    bp[nb] = fields[k, _HBUMPS]
    fields[k, _HBUMPS] = nb
    bump = fields[k, _SBUMPS]
    while bump >= 0:
        if _rel(fields[k, _HNX], fields[k, _HNY], fields[k, _HFX], fields[k, _HFY], bx[bump], by[bump]) < 0:
            fields[k, _HNX] = bx[bump]
            fields[k, _HNY] = by[bump]
        bump = bp[bump]
    return nb + 1


@numba.njit
def _steep_bump(fields, k, x, y, bx, by, bp, nb):
    """``_steep_bump`` on row ``k``; pushes node ``nb`` (the pool has room) and returns the next free node."""
    fields[k, _SFX] = x
    fields[k, _SFY] = y
    bx[nb] = x
    by[nb] = y
    bp[nb] = fields[k, _SBUMPS]
    fields[k, _SBUMPS] = nb
    bump = fields[k, _HBUMPS]
    while bump >= 0:
        if _rel(fields[k, _SNX], fields[k, _SNY], fields[k, _SFX], fields[k, _SFY], bx[bump], by[bump]) > 0:
            fields[k, _SNX] = bx[bump]
            fields[k, _SNY] = by[bump]
        bump = bp[bump]
    return nb + 1


@numba.njit
def _closed(fields, k):
    """Both lines of row ``k`` are the same line through a corner of the viewer."""
    nx, ny, fx, fy = fields[k, _HNX], fields[k, _HNY], fields[k, _HFX], fields[k, _HFY]
    return (_rel(nx, ny, fx, fy, fields[k, _SNX], fields[k, _SNY]) == 0
            and _rel(nx, ny, fx, fy, fields[k, _SFX], fields[k, _SFY]) == 0
            and (_rel(nx, ny, fx, fy, 0, 1) == 0 or _rel(nx, ny, fx, fy, 1, 0) == 0))


@numba.njit
def _delete(fields, nf, k):
    """Remove row ``k`` of the ``nf`` live rows; returns the new count."""
    for m in range(k, nf - 1):
        for c in range(_NCOLS):
            fields[m, c] = fields[m + 1, c]
    return nf - 1


@numba.njit
def _quadrant(transparent, lit, ox, oy, dx, dy, r, last, r2, fields, bx, by, bp):
    """``_quadrant`` of ``fov_permissive.py`` on the map itself: square (x, y) of the quadrant is the
    map cell (ox + dx * x, oy + dy * y); squares off the map are walls that are never lit, as in the
    reference's window of half-side ``r``, and lit squares are kept to the light's disc (``r2``, the
    squared radius; negative: none) as the reference's ``paste`` does. ``fields`` and the bump pool
    ``bx, by, bp`` are scratch: False when one of them was too small (the caller gives bigger ones
    and visits the quadrant again: lighting a square twice does no harm). Arrays made again here, in
    the loop, would cost an atomic reference count at every turn of it."""
    h, w = transparent.shape
    xedge = w - 1 - ox if dx > 0 else ox  # the last square on the map along each axis
    yedge = h - 1 - oy if dy > 0 else oy
    last = min(last, xedge + yedge)  # farther bands have no square on the map to light
    nb = 0  # the next free bump node
    fields[0, _SNX], fields[0, _SNY], fields[0, _SFX], fields[0, _SFY] = 1, 0, 0, r
    fields[0, _HNX], fields[0, _HNY], fields[0, _HFX], fields[0, _HFY] = 0, 1, r, 0
    fields[0, _SBUMPS] = fields[0, _HBUMPS] = -1
    nf = 1
    for i in range(1, last + 1):
        if nf == 0:
            break
        j, top = max(0, i - r), min(i, r)
        k = 0
        while j <= top and k < nf:
            # The field stops owning squares at the first j whose bottom-right corner (i - j + 1, j)
            # is on or below its steep line.
            nx, ny, fx, fy = fields[k, _SNX], fields[k, _SNY], fields[k, _SFX], fields[k, _SFY]
            slope = (fy - ny) + (fx - nx)
            at = (fy - ny) * (fx - i - 1) - fy * (fx - nx)
            if slope:
                stop = -(at // slope)
            else:
                stop = j if at >= 0 else top + 1
            if stop <= j:
                k += 1
                continue
            # It sees a square from the first j whose top-left corner (i - j, j + 1) is above its
            # shallow line.
            nx, ny, fx, fy = fields[k, _HNX], fields[k, _HNY], fields[k, _HFX], fields[k, _HFY]
            slope = (fy - ny) + (fx - nx)
            at = (fy - ny) * (fx - i) - (fy - 1) * (fx - nx)
            if slope:
                first = at // -slope + 1
            else:
                first = j if at > 0 else top + 1
            if first < j:
                first = j
            end = stop if stop <= top else top + 1
            if first >= end:
                j = end
                continue
            # Light the run first .. end - 1 up to and including its first wall, if any.
            wall = -1
            for jj in range(first, end):
                x, y = i - jj, jj
                if x > xedge or y > yedge:  # off the map: a wall, not lit
                    wall = jj
                    break
                mx, my = ox + dx * x, oy + dy * y
                if r2 < 0 or x * x + y * y <= r2:
                    lit[my, mx] = True
                if not transparent[my, mx]:
                    wall = jj
                    break
            if wall < 0:
                j = end
                continue
            j = wall
            x, y = i - j, j
            j += 1
            below_shallow = (fy - ny) * (fx - x - 1) - (fy - y) * (fx - nx) < 0
            nx, ny, fx, fy = fields[k, _SNX], fields[k, _SNY], fields[k, _SFX], fields[k, _SFY]
            above_steep = (fy - ny) * (fx - x) - (fy - y - 1) * (fx - nx) > 0
            if nb + 2 > bx.shape[0]:  # room for this square's bumps (a split makes two)
                return False
            if below_shallow and above_steep:
                nf = _delete(fields, nf, k)  # the square blocks the whole field
            elif below_shallow:
                nb = _shallow_bump(fields, k, x, y + 1, bx, by, bp, nb)
                if _closed(fields, k):
                    nf = _delete(fields, nf, k)
            elif above_steep:
                nb = _steep_bump(fields, k, x + 1, y, bx, by, bp, nb)
                if _closed(fields, k):
                    nf = _delete(fields, nf, k)
            else:  # the square sits inside the field: split it around the square
                # Insert a copy of row k at k (the shallower half); the field itself moves to k + 1.
                if nf + 1 > fields.shape[0]:
                    return False
                for m in range(nf, k, -1):
                    for c in range(_NCOLS):
                        fields[m, c] = fields[m - 1, c]
                nf += 1
                nb = _steep_bump(fields, k, x + 1, y, bx, by, bp, nb)
                k += 1
                if _closed(fields, k - 1):
                    nf = _delete(fields, nf, k - 1)
                    k -= 1
                nb = _shallow_bump(fields, k, x, y + 1, bx, by, bp, nb)
                if _closed(fields, k):
                    nf = _delete(fields, nf, k)
    return True


@numba.njit
def _isqrt(v):
    """floor(sqrt(v)) for an integer v >= 0."""
    s = int(np.sqrt(v))
    while s * s > v:
        s -= 1
    while (s + 1) * (s + 1) <= v:
        s += 1
    return s


@numba.njit(cache=True, nogil=True)
def lit_map(transparent, ox, oy, radius, room=0):
    """The visible cells of ``transparent`` (a (height, width) bool array) from (ox, oy) within the
    round light of ``radius`` (negative: none): the four quadrants of ``permissive_fov``, on the
    window of ``window_reach``'s half-side r, visited up to ``_last_band``, then clipped to the map
    and the disc as ``paste`` does; done here on the map itself, with no window made. ``room``: the
    fields to make room for at first (0: 2r + 4, which no map has been seen to need; a test asks
    for 1, so that the quadrants are visited again and again with more)."""
    h, w = transparent.shape
    lit = np.zeros((h, w), dtype=np.bool_)
    lit[oy, ox] = True
    r = max(ox, w - 1 - ox, oy, h - 1 - oy)  # window_reach
    if radius >= 0:
        r = max(0, min(radius, r))
    if r <= 0:
        return lit
    if radius < 0:  # _last_band: the farthest band x + y with a square in the light
        last, r2 = 2 * r, -1
    else:
        r2 = radius * radius
        last = 0
        for x in range(min(r, radius) + 1):
            last = max(last, x + min(r, _isqrt(r2 - x * x)))
    fields = np.empty((room if room > 0 else 2 * r + 4, _NCOLS), dtype=np.int64)
    n = 2 * room if room > 0 else 4 * (r + 1)
    bx = np.empty(n, dtype=np.int64)
    by = np.empty(n, dtype=np.int64)
    bp = np.empty(n, dtype=np.int64)
    for q in range(4):
        dx = 1 if q % 2 == 0 else -1
        dy = 1 if q < 2 else -1
        while not _quadrant(transparent, lit, ox, oy, dx, dy, r, last, r2, fields, bx, by, bp):
            fields = np.empty((2 * fields.shape[0], _NCOLS), dtype=np.int64)
            n = 2 * bx.shape[0]
            bx, by, bp = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    return lit
