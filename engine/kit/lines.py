"""Straight lines on the grid: the cells a thrown thing crosses, and the cells the window's shot
flies over, are one line (Bresenham's: the same cells every time, one cell a step)."""

from __future__ import annotations

Cell = tuple[int, int]


def line(start: Cell, end: Cell) -> list[Cell]:
    """The cells from ``start`` to ``end``, both included: one a step, 8-connected."""
    (x, y), (x1, y1) = start, end
    dx, dy = abs(x1 - x), -abs(y1 - y)
    sx, sy = (1 if x1 > x else -1), (1 if y1 > y else -1)
    err, cells = dx + dy, [(x, y)]
    while (x, y) != (x1, y1):
        twice = 2 * err
        if twice >= dy:
            err, x = err + dy, x + sx
        if twice <= dx:
            err, y = err + dx, y + sy
        cells.append((x, y))
    return cells
