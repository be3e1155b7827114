"""Precise permissive field of view, after Jonathon Duerig's algorithm (permissive-fov, 2007).

A cell is visible when some line from some point of the viewer's square reaches some point of the
cell's square without crossing the inside of an opaque square. Each quadrant keeps a list of
*fields* (ordered shallow to steep), each bounded by a steep and a shallow line between lattice
points; squares are visited in diagonal bands of equal x + y. An opaque square inside a field
bends a line around it (a *bump*), splits the field in two, or closes it. Lines are integer point
pairs, so every test is exact integer arithmetic.

Square (x, y) of a quadrant spans [x, x+1] x [y, y+1]; the viewer's square is [0, 1] x [0, 1].
"""

from __future__ import annotations

import numpy as np

from engine import hookimpl
from engine.fov import paste, window, window_reach

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


def _quadrant(flat: bytes, centre: int, sx: int, sy: int, r: int, lit: bytearray) -> None:
    fields = [[1, 0, 0, r, 0, 1, r, 0, None, None]]
    for i in range(1, 2 * r + 1):
        if not fields:
            return
        k = 0
        for j in range(max(0, i - r), min(i, r) + 1):
            if k >= len(fields):
                break
            x, y = i - j, j
            # Skip the fields whose steep line passes below this square's bottom-right corner.
            while k < len(fields):
                f = fields[k]
                if _rel(f[0], f[1], f[2], f[3], x + 1, y) >= 0:
                    k += 1
                else:
                    break
            else:
                break
            f = fields[k]
            if _rel(f[4], f[5], f[6], f[7], x, y + 1) <= 0:
                continue  # the square is below the field's shallow line
            index = centre + x * sx + y * sy
            lit[index] = 1
            if flat[index]:
                continue
            below_shallow = _rel(f[4], f[5], f[6], f[7], x + 1, y) < 0
            above_steep = _rel(f[0], f[1], f[2], f[3], x, y + 1) > 0
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


def permissive_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Precise permissive FOV: the FOV contract's ``fn``."""
    r = window_reach(transparent.shape, origin, radius)
    side = 2 * r + 1
    flat = window(transparent, origin, r).tobytes()  # one byte per cell: 1 transparent
    centre = r * side + r
    lit = bytearray(side * side)  # the window's lit cells
    if r > 0:
        for sx, sy in ((1, side), (-1, side), (1, -side), (-1, -side)):
            _quadrant(flat, centre, sx, sy, r, lit)
    return paste(np.frombuffer(lit, dtype=bool), transparent.shape, origin, r, radius)


@hookimpl
def register_fov_algorithms(register):
    register(
        "permissive",
        permissive_fov,
        symmetric=True,
        summary="precise permissive FOV (Duerig): any point of the viewer's square to any point of a cell's",
    )
