"""Finding room for a set piece on a level already made, for :mod:`plugins.depths.vaults`.

A set piece's small room is carved into solid rock: a block of wall cells (the room's inside and
the ring of wall around it) beside a floor cell, where one cell of the ring becomes the room's
door. Only wall cells change, and the ring stays wall but for the door, so the rest of the level
keeps every path it had and the new room joins it through its door alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# the four sides a door may be on: (dx, dy) from the door to the cell outside it
SIDES = ((0, 1), (0, -1), (1, 0), (-1, 0))


@dataclass(frozen=True)
class Spot:
    """A room to carve: its inside (top-left ``x``, ``y``, size ``w`` x ``h``), its ``door`` in the
    ring, and the floor cell ``outside`` the door."""

    x: int
    y: int
    w: int
    h: int
    door: tuple[int, int]
    outside: tuple[int, int]

    def cells(self) -> list[tuple[int, int]]:
        """The inside's cells, row by row."""
        return [(x, y) for y in range(self.y, self.y + self.h) for x in range(self.x, self.x + self.w)]

    def back(self) -> list[tuple[int, int]]:
        """The inside's row or column farthest from the door (where the altars stand)."""
        dx, dy = self.outside[0] - self.door[0], self.outside[1] - self.door[1]
        if dy == 1:  # the door is below: the top row is the back
            return [(x, self.y) for x in range(self.x, self.x + self.w)]
        if dy == -1:
            return [(x, self.y + self.h - 1) for x in range(self.x, self.x + self.w)]
        if dx == 1:
            return [(self.x, y) for y in range(self.y, self.y + self.h)]
        return [(self.x + self.w - 1, y) for y in range(self.y, self.y + self.h)]


def spots(walls: np.ndarray, floor: np.ndarray, w: int, h: int) -> list[Spot]:
    """Every place a room of ``w`` x ``h`` inside fits: its block (the inside and its ring) all
    ``walls``, and the door in the middle of a side with a ``floor`` cell outside it. ``walls``
    and ``floor`` are bool arrays ``[y, x]``; the ring may lie on the map's edge, the inside not."""
    height, width = walls.shape
    # how many wall cells each block holds, by a summed-area table: a block is all wall when full
    table = np.zeros((height + 1, width + 1), dtype=np.int32)
    table[1:, 1:] = walls.astype(np.int32).cumsum(0).cumsum(1)
    bw, bh = w + 2, h + 2
    full = (table[bh:, bw:] - table[:-bh, bw:] - table[bh:, :-bw] + table[:-bh, :-bw]) == bw * bh
    found = []
    for by, bx in zip(*full.nonzero(), strict=True):
        x, y = int(bx) + 1, int(by) + 1
        for dx, dy in SIDES:
            if dy:
                door = (x + w // 2, y + h if dy == 1 else y - 1)
            else:
                door = (x + w if dx == 1 else x - 1, y + h // 2)
            out = (door[0] + dx, door[1] + dy)
            if 0 <= out[0] < width and 0 <= out[1] < height and floor[out[1], out[0]]:
                found.append(Spot(x, y, w, h, door, out))
    return found
