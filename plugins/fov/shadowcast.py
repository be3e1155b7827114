"""Classic recursive shadowcasting, after Björn Bergström (RogueBasin, 2001).

Each of the eight octants is scanned row by row outwards from the origin, right to left across a
row, between a start and an end slope (start >= end). A cell is lit when the light's cone reaches
any of it; an opaque cell is lit and starts a shadow: the part of the cone beyond it is scanned by
a new child scan with a narrower end slope, and the parent resumes after the run of opaque cells.

It is fast and permissive around pillars, but not symmetric: a floor cell can see one that does
not see it back. Walls are lit. The recursion is a work list (each scan depends only on its own
arguments, so the order scans run in does not matter).

Speed: in row j of an octant (j >= 1 rows out), the cell c columns off the axis spans the slopes
from r(c) = (2c-1)/(2j+1) to l(c) = (2c+1)/(2j-1). Both fall as c falls, so the cells a scan
lights in a row are one range, looked up in per-radius tables; within it only the boundaries of
runs of walls matter, found with ``bytes.find``/``rfind`` on the window's bytes (or its transpose's,
so that every scan row is contiguous), and the range is lit with one slice assignment. Slopes are
exact integer fractions (numerator, positive denominator), so no test depends on float rounding.

With numba installed the same scan runs compiled, a cell at a time (``_shadowcast_jit.py``); this
module's scan is the reference it is tested against, and what runs without numba.
"""

from __future__ import annotations

import functools

import numpy as np

from engine import hookimpl
from engine.kit import jit, limits
from engine.kit.fov import lit_cells, paste, slope_rows, table_reach, window, window_reach

# The eight octants as (xx, xy, yx, yy): the map cell is (x, y) = (dx*xx + dy*xy, dx*yx + dy*yy),
# for dy = -j (the row) and dx = -c (c = 0..j, scanned from c = j down to 0).
_OCTANTS = (
    (1, 0, 0, 1), (0, 1, 1, 0), (0, -1, 1, 0), (-1, 0, 0, 1),
    (-1, 0, 0, -1), (0, -1, -1, 0), (0, 1, -1, 0), (1, 0, 0, -1),
)


_BEYOND = 1 << 30  # a c_lo meaning "this row and every deeper one of the scan are beyond the light"


@functools.lru_cache(maxsize=limits.MAX_FOV_CACHE_ENTRIES)
def _tables(r: int, radius: int | None) -> tuple:
    """Per r-window and radius: for every slope, the range of cells each row of a scan lights, so
    that a row costs two lookups instead of two divisions (built whole for a small window, slope by
    slope as scans meet them for a large one: ``slope_rows``).

    A scan lights in row j the cells with r(c) <= start and l(c) >= end, c_lo <= c <= c_hi.
    ``starts[sn * m + sd][j]`` is c_hi for start slope sn/sd; ``ends[en * m + ed][j]`` is c_lo for
    end slope en/ed, or ``_BEYOND`` when c_lo and all the cells beyond it are out of the light: then
    so are the deeper rows of the scan and of its children (c_lo only grows with depth, end slopes
    being >= 0, and a child scans inside its parent's cone). Start slopes are 1 or (2c+1)/(2j+1);
    end slopes 0 or (2c+1)/(2j-1).
    """
    n, m = r + 1, 2 * r + 4
    r2 = radius * radius if radius is not None else 4 * r * r + 1
    rows = range(n)

    def start(key: int) -> tuple:
        num, den = divmod(key, m)
        return tuple(min(j, (num * (2 * j + 1) + den) // (2 * den)) for j in rows)

    def end(key: int) -> tuple:
        num, den = divmod(key, m)
        lows = [max(0, -((den - num * (2 * j - 1)) // (2 * den))) for j in rows]
        return tuple(_BEYOND if c * c + j * j > r2 else c for j, c in enumerate(lows))

    def starts() -> list[int]:
        return [m + 1] + [(2 * c + 1) * m + 2 * j + 1 for j in rows for c in range(j + 1)]  # 1/1, (2c+1)/(2j+1)

    def ends() -> list[int]:
        return [1] + [(2 * c + 1) * m + 2 * j - 1 for j in range(1, n) for c in range(j + 1)]  # 0/1, (2c+1)/(2j-1)

    return (slope_rows(r, starts, start),
            slope_rows(r, ends, end),
            m, [bytearray(b"\x01" * k) for k in range(n + 1)])


def _octant(cells: bytes, lit: bytearray, r: int, tables: tuple, centre: int, row_step: int, sign: int) -> None:
    """Scan one octant. ``cells`` is the window (or its transpose) as bytes, a scan row being one of
    its rows: cell c of row j is at ``centre + j * row_step + sign * c``. Runs are found with
    ``find`` (sign -1: c falls as the index grows) or ``rfind`` (sign +1)."""
    starts, ends, m, ones = tables
    seek = cells.find if sign < 0 else cells.rfind
    # A scan: (first row, start slope sn/sd, end slope en/ed), start >= end. Children whose cone is
    # empty (start < end) are never queued.
    todo = [(1, 1, 1, 0, 1)]
    pop, push = todo.pop, todo.append
    while todo:
        row, sn, sd, en, ed = pop()
        his, los = starts[sn * m + sd], ends[en * m + ed]
        for j in range(row, r + 1):
            c_hi, c_lo = his[j], los[j]
            if c_hi < c_lo:
                if c_lo == _BEYOND:
                    break
                continue
            zero = centre + j * row_step  # the index of c = 0
            if sign < 0:
                a, b = zero - c_hi, zero - c_lo + 1
            else:
                a, b = zero + c_lo, zero + c_hi + 1
            lit[a:b] = ones[b - a]
            wall = seek(0, a, b)
            if wall < 0:
                continue
            if j == r:  # the last row only lights
                break
            # Each run of walls starts a child scan beyond it (ending at the first wall's l slope);
            # a floor after it moves the start slope to the last wall's r slope. A row ending on a
            # wall ends the scan.
            while True:
                en = 2 * sign * (wall - zero) + 1  # the child ends at l(c) = (2c + 1)/(2j - 1)
                if sn * (2 * j - 1) >= en * sd:
                    push((j + 1, sn, sd, en, 2 * j - 1))
                floor = seek(1, wall, b) if sign < 0 else seek(1, a, wall)
                if floor < 0:
                    break
                sn, sd = 2 * sign * (floor - zero) + 1, 2 * j + 1  # r(c + 1) = (2c + 1)/(2j + 1)
                wall = seek(0, floor, b) if sign < 0 else seek(0, a, floor)
                if wall < 0:
                    break
            if floor < 0:
                break  # the row ends on a wall: so does the scan
            his = starts[sn * m + sd]


def _check(kernel) -> None:
    kernel.lit_window(np.ones((3, 3), dtype=bool), 1, 1, kernel.OCTANTS)


def shadowcast_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Bergström's recursive shadowcasting: the FOV contract's ``fn``. Compiled when numba is
    installed (``_shadowcast_jit``), else :func:`shadowcast_fov_python`; the two agree cell for cell."""
    kernel = jit.sibling(__name__, "_shadowcast_jit", _check, cells=lit_cells(transparent.shape, radius))
    if kernel is None:
        return shadowcast_fov_python(transparent, origin, radius)
    r = window_reach(transparent.shape, origin, radius)
    r2 = radius * radius if radius is not None else 4 * r * r + 1
    lit = kernel.lit_window(window(transparent, origin, r), r, r2, kernel.OCTANTS)
    return paste(lit, transparent.shape, origin, r, radius)


def shadowcast_fov_python(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """The pure-Python scan: the reference, and what runs without numba."""
    r = table_reach(transparent.shape, radius)
    win = window(transparent, origin, r)
    side = 2 * r + 1
    centre = r * side + r
    tables = _tables(r, radius)
    # Octants that scan along window rows read the window; those that scan along columns read its
    # transpose, so that every scan row is contiguous.
    views = (win.tobytes(), np.ascontiguousarray(win.T).tobytes())
    lits = (bytearray(side * side), bytearray(side * side))
    if r:
        for xx, xy, yx, yy in _OCTANTS:
            k = 0 if xy == 0 else 1  # the row (dy) moves along y: a window row is a scan row
            # dx = -c moves the cell by -xx (k = 0) or -yx (k = 1) along the scan row; dy = -j moves
            # by -yy (k = 0) or -xy (k = 1) rows.
            sign = -(xx if k == 0 else yx)
            row_step = -(yy if k == 0 else xy) * side
            _octant(views[k], lits[k], r, tables, centre, row_step, sign)
    lit = (np.frombuffer(lits[0], dtype=bool).reshape(side, side)
           | np.frombuffer(lits[1], dtype=bool).reshape(side, side).T)
    return paste(lit, transparent.shape, origin, r, radius)


@hookimpl
def register_fov_algorithms(register):
    register(
        "shadowcast",
        shadowcast_fov,
        symmetric=False,
        summary="Bergström's recursive shadowcasting in 8 octants; fast, walls lit, not symmetric",
        python=shadowcast_fov_python,
        tcod="FOV_SHADOW",
    )
