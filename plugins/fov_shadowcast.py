"""Classic recursive shadowcasting, after Björn Bergström (RogueBasin, 2001).

Each of the eight octants is scanned row by row outwards from the origin, right to left across a
row, between a start and an end slope (start >= end). A cell is lit when the light's cone reaches
any of it; an opaque cell is lit and starts a shadow: the part of the cone beyond it is scanned by
a new child scan with a narrower end slope, and the parent resumes after the run of opaque cells.

It is fast and permissive around pillars, but not symmetric: a floor cell can see one that does
not see it back. Walls are lit. The recursion is a work list (each scan depends only on its own
arguments); slopes are floats, which is exact here: every slope is a quotient of half-integers,
and IEEE division rounds correctly, so equal slopes compare equal and order is kept.
"""

from __future__ import annotations

import functools

import numpy as np

from engine import hookimpl
from engine.fov import paste, window, window_reach

# The eight octants as (xx, xy, yx, yy): the map cell is (x, y) = (dx*xx + dy*xy, dx*yx + dy*yy).
_OCTANTS = (
    (1, 0, 0, 1), (0, 1, 1, 0), (0, -1, 1, 0), (-1, 0, 0, 1),
    (-1, 0, 0, -1), (0, -1, -1, 0), (0, 1, -1, 0), (1, 0, 0, -1),
)


@functools.cache
def _slopes(r: int) -> tuple[tuple[tuple[int, float, float], ...], ...]:
    """Per row j (1..r): the cells dx = -j..0 with their left and right slopes (dy = -j)."""
    rows: list[tuple[tuple[int, float, float], ...]] = [()]
    for j in range(1, r + 1):
        dy = -j
        rows.append(tuple((dx, (dx - 0.5) / (dy + 0.5), (dx + 0.5) / (dy - 0.5)) for dx in range(-j, 1)))
    return tuple(rows)


def shadowcast_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Bergström's recursive shadowcasting: the FOV contract's ``fn``."""
    r = window_reach(transparent.shape, origin, radius)
    side = 2 * r + 1
    flat = window(transparent, origin, r).tobytes()  # one byte per cell: 1 transparent
    centre = r * side + r
    table = _slopes(r)
    lit = bytearray(side * side)  # the window's lit cells
    for xx, xy, yx, yy in _OCTANTS:
        step_dx = xx + yx * side  # flat-index step for one dx
        step_dy = xy + yy * side  # and for one dy
        todo = [(1, 1.0, 0.0)]
        while todo:
            row, start, end = todo.pop()
            if start < end:
                continue
            new_start = start
            for j in range(row, r + 1):
                base = centre - j * step_dy
                blocked = False
                for dx, l_slope, r_slope in table[j]:
                    if start < r_slope:
                        continue
                    if end > l_slope:
                        break
                    index = base + dx * step_dx
                    lit[index] = 1
                    if blocked:
                        if flat[index]:
                            blocked = False
                            start = new_start
                        else:
                            new_start = r_slope
                    elif not flat[index] and j < r:
                        blocked = True
                        todo.append((j + 1, start, l_slope))
                        new_start = r_slope
                if blocked:
                    break
    return paste(np.frombuffer(lit, dtype=bool), transparent.shape, origin, r, radius)


@hookimpl
def register_fov_algorithms(register):
    register(
        "shadowcast",
        shadowcast_fov,
        symmetric=False,
        summary="Bergström's recursive shadowcasting in 8 octants; fast, walls lit, not symmetric",
    )
