"""Symmetric shadowcasting, as published by Albert Ford (https://www.albertford.com/shadowcasting/).

The map is scanned in four quadrants (north, east, south, west), row by row outwards. A row has a
``depth`` and covers the columns between ``start_slope`` and ``end_slope``; it spans the tiles from
``round_ties_up(depth * start_slope)`` to ``round_ties_down(depth * end_slope)``. Walls in a row
are always revealed; a floor is revealed only when its centre lies within the row's slopes (the
``is_symmetric`` check), which is what makes floor-to-floor visibility symmetric. A floor after a
wall moves ``start_slope`` to the floor's left edge; a wall after a floor scans the next row with
``end_slope`` at the wall's left edge.

This is the reference algorithm, exactly, with two changes that do not alter any result:

- Slopes are kept as integer pairs (numerator, positive denominator) and compared by
  cross-multiplication, instead of ``Fraction``: every slope is ``(2*col - 1) / (2*depth)`` or ±1.
- The recursion is a work list: each ``scan(row)`` depends only on the row it is given.
- A row is handled as a whole: its tiles are one slice of the window, runs of floors and walls are
  found with ``bytes.index``, and the tiles revealed are a range (see the comments below).

Off-map tiles count as walls that are never revealed; they only cut light that would leave the
map. Rows deeper than the light's radius are not scanned, and the result is clipped to the radius.
"""

from __future__ import annotations

import functools

import numpy as np

from engine import hookimpl
from engine.kit import jit, limits
from engine.kit.fov import lit_cells, slope_rows, table_reach, window_disc


@functools.lru_cache(maxsize=limits.MAX_FOV_CACHE_ENTRIES)
def _tables(r: int, radius: int | None) -> tuple:
    """Per r-window and radius: each row's first and last tile for every slope, so that a row costs
    two lookups instead of two divisions, and runs of k lit tiles (built whole for a small window,
    slope by slope as scans meet them for a large one: ``slope_rows``).

    ``firsts[(sn + k) * m + sd][depth]`` is round_ties_up(depth * sn/sd) for start slope sn/sd;
    ``lasts[(en + k) * m + ed][depth]`` is round_ties_down(depth * en/ed) for end slope en/ed.
    A row wholly outside the light ends its scan, with everything beyond it (deeper rows of its cone
    start at least as far from the axis: round_ties_up(d'*s) >= lo for d' > d), so such a row's
    first tile is ``_FAR`` (or its last tile ``-_FAR``): an empty row. Slopes are ±1 or (2c-1)/(2d).
    """
    k, m = 2 * r + 2, 2 * r + 3
    r2 = radius * radius if radius is not None else 2 * r * r  # None: the whole window is lit
    depths = range(r + 1)

    def first(key: int) -> tuple:
        num, den = key // m - k, key % m
        lo = [(2 * d * num + den) // (2 * den) for d in depths]
        return tuple(_FAR if c > 0 and d * d + c * c > r2 else c for d, c in enumerate(lo))

    def last(key: int) -> tuple:
        num, den = key // m - k, key % m
        hi = [-((den - 2 * d * num) // (2 * den)) for d in depths]
        return tuple(-_FAR if c < 0 and d * d + c * c > r2 else c for d, c in enumerate(hi))

    def keys() -> list[int]:
        slopes = [(-1, 1), (1, 1)] + [(2 * c - 1, 2 * d) for d in range(1, r + 1) for c in range(-d, d + 2)]
        return [(num + k) * m + den for num, den in slopes]

    return (slope_rows(r, keys, first), slope_rows(r, keys, last), k, m,
            [bytearray(b"\x01" * n) for n in range(2 * r + 2)])


_FAR = 1 << 30


def _check(kernel) -> None:
    kernel.lit_map(np.ones((3, 3), dtype=bool), 1, 1, 1)


def symmetric_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Albert Ford's symmetric shadowcasting: the FOV contract's ``fn``. Compiled when numba is
    installed (``_symmetric_jit``), else :func:`symmetric_fov_python`; the two agree cell for cell."""
    kernel = jit.sibling(__name__, "_symmetric_jit", _check, cells=lit_cells(transparent.shape, radius))
    if kernel is None:
        return symmetric_fov_python(transparent, origin, radius)
    if transparent.dtype != bool or not transparent.flags.c_contiguous:
        transparent = np.ascontiguousarray(transparent, dtype=bool)  # one compiled layout, not several
    return kernel.lit_map(transparent, origin[0], origin[1], -1 if radius is None else radius)


def symmetric_fov_python(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """The pure-Python scan: the reference, and what runs without numba."""
    r = table_reach(transparent.shape, radius)
    h, w = transparent.shape
    ox, oy = origin
    # The light's square (origin ± r) clipped to the map, with a ring of walls around it, as one
    # byte a cell (1 floor, 0 wall): with no radius an unclipped square would be up to four times
    # the map. A row is cut at the ring, whose wall ends it as the off-map walls beyond would, and
    # no scan goes deeper than the ring (where the square is not clipped, no row reaches the ring).
    x0, x1, y0, y1 = max(0, ox - r), min(w, ox + r + 1), max(0, oy - r), min(h, oy + r + 1)
    side = x1 - x0 + 2
    padded = np.zeros((y1 - y0 + 2, side), dtype=bool)
    padded[1:-1, 1:-1] = transparent[y0:y1, x0:x1]
    flat = padded.tobytes()
    centre = (oy - y0 + 1) * side + ox - x0 + 1
    firsts, lasts, k, m, ones = _tables(r, radius)
    lit = bytearray(len(flat))  # the visible cells, written a row slice at a time
    # Quadrants as strides over the flat square: (one row deeper, one column further), the ring's
    # depth, and the ring's columns on either side.
    west, east, north, south = ox - x0 + 1, x1 - ox, oy - y0 + 1, y1 - oy
    for depth_step, col_step, border, col_min, col_max in (
            (-side, 1, north, -west, east), (1, side, east, -north, south),
            (side, 1, south, -west, east), (-1, side, west, -north, south)):
        deepest = min(r, border)
        # Each entry is a scan from one row: depth, start slope sn/sd, end slope en/ed. A scan goes
        # on to the next row itself through its last run of floors; other runs are queued.
        todo = [(1, -1, 1, 1, 1)] if r else []
        pop, push = todo.pop, todo.append
        while todo:
            depth, sn, sd, en, ed = pop()
            los, his = firsts[(sn + k) * m + sd], lasts[(en + k) * m + ed]
            while True:
                lo, hi = los[depth], his[depth]
                if lo > hi or lo > col_max or hi < col_min:
                    break  # an empty row, or one wholly beyond the border: all walls
                if lo < col_min:  # (comparisons, not min/max calls: this is the hot loop)
                    lo = col_min
                if hi > col_max:
                    hi = col_max
                base = centre + depth * depth_step
                first, last = base + lo * col_step, base + hi * col_step
                cells = flat[first:last + 1:col_step]
                if 0 not in cells:  # the common case, all floors: the scan goes on unchanged
                    if lo * sd < depth * sn:
                        first += col_step
                    if hi * ed > depth * en:
                        last -= col_step
                    if first <= last:
                        lit[first:last + 1:col_step] = ones[(last - first) // col_step + 1]
                    if depth == deepest:
                        break
                    depth += 1
                    continue
                n = len(cells)
                # Walls are revealed; floors only when is_symmetric (start <= col/depth <= end).
                # Only the row's end tiles can fail that check: round_ties_up(x) >= ceil(x) - 1, the
                # start slope only moves to a tile's left edge, and the end slope never moves within
                # a row.
                if cells[0] and lo * sd < depth * sn:
                    first += col_step
                if cells[-1] and hi * ed > depth * en:
                    last -= col_step
                if first <= last:
                    lit[first:last + 1:col_step] = ones[(last - first) // col_step + 1]
                if depth == deepest:
                    break  # deeper rows are beyond the light or the map
                # Walk the runs of floors (bytes.index finds each run's end at C speed). A floor
                # after a wall moves the start slope to its left edge; a wall after a floor scans
                # the next row up to that wall's left edge; a row ending on a floor scans the next
                # row whole.
                cells += b"\x01\x00"  # sentinels: every search below finds something
                pos = 0 if cells[0] else cells.index(1)
                if pos >= n:
                    break  # all walls
                twice = 2 * depth
                while True:
                    if pos:
                        sn, sd = 2 * (lo + pos) - 1, twice
                    end = cells.index(0, pos)
                    if end >= n:
                        break
                    push((depth + 1, sn, sd, 2 * (lo + end) - 1, twice))
                    pos = cells.index(1, end)
                    if pos >= n:
                        break
                if end < n:
                    break  # the row ends on a wall: every run is queued
                depth += 1  # the last run goes on with the end slope it has
                los = firsts[(sn + k) * m + sd]
    seen = np.zeros(transparent.shape, dtype=bool)
    square = np.frombuffer(lit, dtype=bool).reshape(-1, side)[1:-1, 1:-1]
    if radius is None:
        seen[y0:y1, x0:x1] = square
    else:  # the round light: the cached disc of the unclipped square, clipped the same way
        disc = window_disc(r, radius)[y0 - oy + r:y1 - oy + r, x0 - ox + r:x1 - ox + r]
        seen[y0:y1, x0:x1] = square & disc
    seen[oy, ox] = True  # the origin is always visible
    return seen


@hookimpl
def register_fov_algorithms(register):
    register(
        "symmetric",
        symmetric_fov,
        symmetric=True,
        summary="Albert Ford's symmetric shadowcasting (exact integer slopes); walls lit, no blind corners",
        python=symmetric_fov_python,
        tcod="FOV_SYMMETRIC_SHADOWCAST",
    )
