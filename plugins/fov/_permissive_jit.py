"""Numba-compiled kernel for the precise permissive FOV of ``fov_permissive.py`` (optional: extra ``fast``).

``quadrants(flat, side, r, last)`` runs the four quadrants of ``permissive_fov`` on one window and
returns its lit cells. It is a line-by-line port of ``_quadrant`` in ``fov_permissive.py``, which is
the reference: the output must match the four ``_quadrant`` calls bit for bit (same fields, bumps,
splits, ``_closed`` test, band order and ``last`` cut-off, same integer arithmetic). Change the
algorithm there first, then mirror it here.

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

Both arrays grow by doubling when full.

Only ``quadrants`` is called from Python and cached on disk (``cache=True``); the helpers are
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
def _grow_rows(a, n):
    """``a`` with room for at least ``n`` rows (the first rows copied)."""
    if n <= a.shape[0]:
        return a
    b = np.empty((max(n, 2 * a.shape[0]), a.shape[1]), dtype=a.dtype)
    for m in range(a.shape[0]):  # a loop, not a slice assignment, which takes seconds more to compile
        for c in range(a.shape[1]):
            b[m, c] = a[m, c]
    return b


@numba.njit
def _grow(a, n):
    """``a`` with room for at least ``n`` items (the first items copied)."""
    if n <= a.shape[0]:
        return a
    b = np.empty(max(n, 2 * a.shape[0]), dtype=a.dtype)
    for m in range(a.shape[0]):
        b[m] = a[m]
    return b


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
def _quadrant(flat, lit, centre, sx, sy, r, last, fields, bx, by, bp):
    """``_quadrant`` of ``fov_permissive.py``, on the scratch arrays ``fields`` and ``bx, by, bp``
    (which may be replaced by bigger ones: they are returned, to be reused by the next quadrant)."""
    step = sy - sx
    nb = 0  # the next free bump node
    fields[0, _SNX], fields[0, _SNY], fields[0, _SFX], fields[0, _SFY] = 1, 0, 0, r
    fields[0, _HNX], fields[0, _HNY], fields[0, _HFX], fields[0, _HFY] = 0, 1, r, 0
    fields[0, _SBUMPS] = fields[0, _HBUMPS] = -1
    nf = 1
    for i in range(1, last + 1):
        if nf == 0:
            break
        base = centre + i * sx
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
            at = base + first * step
            for jj in range(first, end):
                lit[at] = 1
                if flat[at] == 0:
                    wall = jj
                    break
                at += step
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
                bx, by, bp = _grow(bx, nb + 2), _grow(by, nb + 2), _grow(bp, nb + 2)
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
                fields = _grow_rows(fields, nf + 1)
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
    return fields, bx, by, bp


@numba.njit(cache=True)
def quadrants(flat, side, r, last):
    """The window's lit cells (uint8, 1 = lit, length ``side * side``) from the four quadrants of
    ``permissive_fov``: ``flat`` is the flat window (nonzero = transparent, centre ``r * side + r``),
    ``last`` the farthest band to visit. The origin itself is left to ``paste``."""
    lit = np.zeros(side * side, dtype=np.uint8)
    if r <= 0:
        return lit
    centre = r * side + r
    fields = np.empty((2 * r + 4, _NCOLS), dtype=np.int64)
    n = 4 * (r + 1)
    bx = np.empty(n, dtype=np.int64)
    by = np.empty(n, dtype=np.int64)
    bp = np.empty(n, dtype=np.int64)
    for q in range(4):
        sx = 1 if q % 2 == 0 else -1
        sy = side if q < 2 else -side
        fields, bx, by, bp = _quadrant(flat, lit, centre, sx, sy, r, last, fields, bx, by, bp)
    return lit
