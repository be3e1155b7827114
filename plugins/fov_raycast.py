"""Raycasting: a Bresenham line from the origin to every cell in the light.

A cell is visible when no opaque cell lies strictly between the origin and it on that line; the
walls at either end never block, so a wall is lit when its line is clear. Lines are drawn in the
first octant (0 <= dy <= dx, rounding half-way points away from the axis) and mirrored into the
others, so rotating or mirroring the map rotates or mirrors the result. It is not symmetric: the
line from A to B is not always the line from B to A reversed, and corners can hide cells.

The lines depend only on the window size, so they are built once as a (cells, steps) table of
flat window indices; a call is one numpy gather and an ``all`` over each line.
"""

from __future__ import annotations

import functools

import numpy as np

from engine import hookimpl
from engine.kit.fov import limited_reach, paste, window, window_disc


def _between(dx: int, dy: int) -> list[tuple[int, int]]:
    """Cells strictly between (0, 0) and (dx, dy) on the octant-mirrored Bresenham line."""
    ax, ay = abs(dx), abs(dy)
    steep = ay > ax
    major, minor = (ay, ax) if steep else (ax, ay)
    sx, sy = (1 if dx >= 0 else -1), (1 if dy >= 0 else -1)
    cells = []
    for i in range(1, major):
        j = (2 * minor * i + major) // (2 * major)  # round(i * minor / major), halves away from the axis
        x, y = (j, i) if steep else (i, j)
        cells.append((sx * x, sy * y))
    return cells


# The table holds every cell of the light times the cells on the way to it: it grows with the cube
# of the reach (at 128: 64 MB, built in 1.6 s). Farther lights are refused (``max_reach``).
MAX_REACH = 128


@functools.lru_cache(maxsize=4)
def _table(r: int, radius: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Target flat indices in the light, and per target its line's flat indices padded with the
    origin's (which never blocks); shape (r - 1, targets)."""
    side = 2 * r + 1
    centre = r * side + r
    ys, xs = np.nonzero(window_disc(r, radius))
    targets = (ys * side + xs).astype(np.intp)
    lines = np.full((len(targets), max(r - 1, 1)), centre, dtype=np.intp)
    for row, (x, y) in enumerate(zip(xs.tolist(), ys.tolist(), strict=True)):
        for col, (cx, cy) in enumerate(_between(x - r, y - r)):
            lines[row, col] = centre + cy * side + cx
    lines = np.ascontiguousarray(lines.T)  # steps-major: reducing over the first axis is the fast one
    targets.flags.writeable = lines.flags.writeable = False
    return targets, lines


def raycast_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Bresenham raycasting to every cell in range: the FOV contract's ``fn``."""
    r = limited_reach("raycast", MAX_REACH, transparent.shape, radius)
    win = window(transparent, origin, r).ravel()
    win[r * (2 * r + 1) + r] = True  # the origin never blocks its own lines
    targets, lines = _table(r, radius)
    visible = np.zeros(win.shape, dtype=bool)
    visible[targets[np.logical_and.reduce(win[lines], axis=0)]] = True
    return paste(visible, transparent.shape, origin, r, radius)


@hookimpl
def register_fov_algorithms(register):
    register("raycast", raycast_fov, symmetric=False,
             summary="Bresenham line to every cell in range; walls lit; not symmetric, may hide corners",
             max_reach=MAX_REACH)
