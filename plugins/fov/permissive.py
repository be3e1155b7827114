"""Precise permissive field of view, after Jonathon Duerig's algorithm (permissive-fov, 2007).

A cell is visible when some line from some point of the viewer's square reaches some point of the
cell's square without crossing the inside of an opaque square. Each quadrant keeps a list of
*fields* (ordered shallow to steep), each bounded by a steep and a shallow line between lattice
points; squares are visited in diagonal bands of equal x + y. An opaque square inside a field
bends a line around it (a *bump*), splits the field in two, or closes it. Lines are integer point
pairs, so every test is exact integer arithmetic.

Square (x, y) of a quadrant spans [x, x+1] x [y, y+1]; the viewer's square is [0, 1] x [0, 1].

With numba installed the same visit runs compiled (``_permissive_jit.py``); this module's visit is
the reference it is tested against, and what runs without numba.
"""

from __future__ import annotations

import functools

import numpy as np

from engine import hookimpl
from engine.kit import jit, limits
from engine.kit.fov import lit_cells, paste, window, window_reach

# A field is a list: [steep near x, y, steep far x, y, shallow near x, y, shallow far x, y,
#                     steep bumps, shallow bumps]; bumps are linked lists (x, y, parent) or None.


def _rel(nx: int, ny: int, fx: int, fy: int, px: int, py: int) -> int:
    """> 0 when the point is above (steeper than) the line near→far, < 0 below, 0 on it."""
    return (fy - ny) * (fx - px) - (fy - py) * (fx - nx)


def _shallow_bump(field: list, x: int, y: int) -> None:
    field[6], field[7] = x, y
    field[9] = (x, y, field[9])
    bump = field[8]
    while bump is not None:
        if _rel(field[4], field[5], field[6], field[7], bump[0], bump[1]) < 0:
            field[4], field[5] = bump[0], bump[1]
        bump = bump[2]


def _steep_bump(field: list, x: int, y: int) -> None:
    field[2], field[3] = x, y
    field[8] = (x, y, field[8])
    bump = field[9]
    while bump is not None:
        if _rel(field[0], field[1], field[2], field[3], bump[0], bump[1]) > 0:
            field[0], field[1] = bump[0], bump[1]
        bump = bump[2]


def _closed(field: list) -> bool:
    """Both lines are the same line through a corner of the viewer: nothing is left to see."""
    nx, ny, fx, fy = field[4], field[5], field[6], field[7]
    return (_rel(nx, ny, fx, fy, field[0], field[1]) == 0
            and _rel(nx, ny, fx, fy, field[2], field[3]) == 0
            and (_rel(nx, ny, fx, fy, 0, 1) == 0 or _rel(nx, ny, fx, fy, 1, 0) == 0))


def _quadrant(flat: bytes, lit: bytearray, centre: int, sx: int, sy: int, r: int, last: int) -> None:
    """Visit the quadrant's squares band by band (i = x + y), shallow end first, up to band ``last``.

    Square j of band i is (x, y) = (i - j, j), at ``centre + i * sx + j * step`` in ``flat``: a band
    is a strided slice. Both of a field's tests are linear in j with a slope >= 0, so the squares
    one field owns on a band form a run: a line's near point is never in a later band than its far
    point (the far point is the newest bump, the near one an older bump or the viewer's corner),
    hence rel(line, (i - j + a, j + b)) = A + B*j with B = (far x + far y) - (near x + near y) >= 0.
    A run is lit and searched for walls in one slice each; only walls take the per-square path.
    """
    step = sy - sx
    ones = [b"\x01" * n for n in range(r + 2)]
    fields = [[1, 0, 0, r, 0, 1, r, 0, None, None]]
    for i in range(1, last + 1):
        if not fields:
            return
        base = centre + i * sx
        j, top = max(0, i - r), min(i, r)
        k = 0
        while j <= top and k < len(fields):
            f = fields[k]
            # The field stops owning squares at the first j whose bottom-right corner (i - j + 1, j)
            # is on or below its steep line: A + B*j >= 0.
            nx, ny, fx, fy = f[0], f[1], f[2], f[3]
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
            # shallow line: A + B*j > 0.
            nx, ny, fx, fy = f[4], f[5], f[6], f[7]
            slope = (fy - ny) + (fx - nx)
            at = (fy - ny) * (fx - i) - (fy - 1) * (fx - nx)
            first = at // -slope + 1 if slope else (j if at > 0 else top + 1)
            if first < j:
                first = j
            end = stop if stop <= top else top + 1
            if first >= end:
                j = end
                continue
            a = base + first * step
            b = base + end * step
            if b < 0:
                b = None  # a slice stopping before index 0 (step < 0)
            wall = flat[a:b:step].find(0)
            if wall < 0:
                lit[a:b:step] = ones[end - first]
                j = end
                continue
            j = first + wall  # light up to the wall, which may change the field
            b = a + (wall + 1) * step
            lit[a:b if b >= 0 else None:step] = ones[wall + 1]
            x, y = i - j, j
            j += 1
            # _rel inlined: is the bottom-right corner below the shallow line, the top-left above
            # the steep one?
            below_shallow = (fy - ny) * (fx - x - 1) - (fy - y) * (fx - nx) < 0
            nx, ny, fx, fy = f[0], f[1], f[2], f[3]
            above_steep = (fy - ny) * (fx - x) - (fy - y - 1) * (fx - nx) > 0
            if below_shallow and above_steep:
                del fields[k]  # the square blocks the whole field
            elif below_shallow:
                _shallow_bump(f, x, y + 1)
                if _closed(f):
                    del fields[k]
            elif above_steep:
                _steep_bump(f, x + 1, y)
                if _closed(f):
                    del fields[k]
            else:  # the square sits inside the field: split it around the square
                shallower = list(f)
                fields.insert(k, shallower)
                _steep_bump(shallower, x + 1, y)
                k += 1
                if _closed(shallower):
                    del fields[k - 1]
                    k -= 1
                _shallow_bump(f, x, y + 1)
                if _closed(f):
                    del fields[k]


@functools.lru_cache(maxsize=limits.MAX_FOV_CACHE_ENTRIES)
def _last_band(r: int, radius: int | None) -> int:
    """The farthest band (x + y) of an r-window's quadrant with a square in the light: the bands
    beyond it are all clipped, and visiting stops there (a band only affects later bands)."""
    if radius is None:
        return 2 * r
    return max(x + y for x in range(r + 1) for y in range(r + 1) if x * x + y * y <= radius * radius)


def _check(kernel) -> None:
    kernel.lit_map(np.ones((3, 3), dtype=bool), 1, 1, 1)


def permissive_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Precise permissive FOV: the FOV contract's ``fn``. Compiled when numba is installed
    (``_permissive_jit``), else :func:`permissive_fov_python`; the two agree cell for cell."""
    kernel = jit.sibling(__name__, "_permissive_jit", _check, cells=lit_cells(transparent.shape, radius))
    if kernel is None:
        return permissive_fov_python(transparent, origin, radius)
    if transparent.dtype != bool or not transparent.flags.c_contiguous:
        transparent = np.ascontiguousarray(transparent, dtype=bool)  # one compiled layout, not several
    return kernel.lit_map(transparent, origin[0], origin[1], -1 if radius is None else radius)


def permissive_fov_python(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """The pure-Python visit: the reference, and what runs without numba."""
    r = window_reach(transparent.shape, origin, radius)
    side = 2 * r + 1
    flat = window(transparent, origin, r).tobytes()  # one byte per cell: 1 transparent
    centre = r * side + r
    lit = bytearray(side * side)  # the window's lit cells
    if r > 0:
        last = _last_band(r, radius)
        for sx, sy in ((1, side), (-1, side), (1, -side), (-1, -side)):
            _quadrant(flat, lit, centre, sx, sy, r, last)
    return paste(np.frombuffer(lit, dtype=bool), transparent.shape, origin, r, radius)


@hookimpl
def register_fov_algorithms(register):
    register(
        "permissive",
        permissive_fov,
        symmetric=True,
        summary="precise permissive FOV (Duerig): any point of the viewer's square to any point of a cell's",
        python=permissive_fov_python,
        tcod="FOV_PERMISSIVE_8",
    )
