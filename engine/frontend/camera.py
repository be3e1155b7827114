"""The camera: which map cells the window shows, and where, in framebuffer pixels.

The map area is a rectangle of the window (framebuffer pixels: on a HiDPI screen there are more of
them than window units). It shows ``cols`` x ``rows`` whole cells of ``cell`` x ``zoom`` pixels:
the whole map, centred, when it fits; otherwise a viewport whose top-left map cell is ``origin``.

The viewport follows the player with a dead zone: it stays put while the player walks in its
middle, and recentres on the player when the player comes within a quarter of its width (or
height) of an edge that has more map beyond it. A turn then usually moves no cell of the view; a
recentring moves them all (the sprite pool is re-pointed: see :mod:`engine.frontend.grid`). At the
map's edges the viewport is clamped: it never shows outside the map.

Everything here is plain arithmetic, so tests can put a camera on any map without a window.
"""

from __future__ import annotations

from dataclasses import dataclass

Rect = tuple[int, int, int, int]  # left, bottom, width, height (pixels, y up)


@dataclass
class Camera:
    """The viewport over a ``map_size`` (width, height in cells) map, in an ``area`` of the
    framebuffer, with cells of ``cell`` (width, height) px drawn at integer ``zoom``."""

    map_size: tuple[int, int]
    area: Rect
    cell: tuple[int, int]
    zoom: int = 1
    origin: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        self.zoom = max(1, int(self.zoom))

    # -- shape -----------------------------------------------------------------------------
    @property
    def cell_px(self) -> tuple[int, int]:
        """One cell on screen, in framebuffer pixels."""
        return self.cell[0] * self.zoom, self.cell[1] * self.zoom

    @property
    def shape(self) -> tuple[int, int]:
        """(cols, rows): the whole cells shown, at least one each way (a tiny window still shows one)."""
        cw, ch = self.cell_px
        width, height = self.map_size
        return max(1, min(width, self.area[2] // cw)), max(1, min(height, self.area[3] // ch))

    @property
    def rect(self) -> Rect:
        """Where the shown cells land: the area, less a margin (under one cell, or the room left
        around a map that fits) split evenly on both sides, in whole pixels."""
        left, bottom, width, height = self.area
        cols, rows = self.shape
        cw, ch = self.cell_px
        return (left + max(0, width - cols * cw) // 2, bottom + max(0, height - rows * ch) // 2,
                cols * cw, rows * ch)

    def _clamp(self, x0: int, y0: int) -> tuple[int, int]:
        cols, rows = self.shape
        width, height = self.map_size
        return max(0, min(width - cols, x0)), max(0, min(height - rows, y0))

    # -- following ----------------------------------------------------------------------------
    def centre_on(self, x: int, y: int) -> None:
        cols, rows = self.shape
        self.origin = self._clamp(x - cols // 2, y - rows // 2)

    def follow(self, x: int, y: int) -> bool:
        """Keep cell (x, y) out of the view's outer quarters; returns whether the view moved."""
        cols, rows = self.shape
        x0, y0 = self._clamp(*self.origin)
        width, height = self.map_size

        def axis(at: int, start: int, span: int, size: int) -> int:
            edge = max(1, span // 4)
            near_low = at < start + edge and start > 0
            near_high = at >= start + span - edge and start + span < size
            outside = not start <= at < start + span
            return at - span // 2 if (near_low or near_high or outside) else start

        moved = self._clamp(axis(x, x0, cols, width), axis(y, y0, rows, height))
        changed = moved != self.origin
        self.origin = moved
        return changed

    # -- mapping ------------------------------------------------------------------------------
    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The map cell under framebuffer pixel (px, py) (y up), or None outside the shown cells."""
        left, bottom, width, height = self.rect
        if not (left <= px < left + width and bottom <= py < bottom + height):
            return None
        cw, ch = self.cell_px
        col = int((px - left) // cw)
        row_from_top = int((bottom + height - 1 - py) // ch)
        return self.origin[0] + col, self.origin[1] + row_from_top

    def cell_rect(self, x: int, y: int) -> Rect | None:
        """Where map cell (x, y) is drawn (framebuffer pixels), or None when it is not shown."""
        cols, rows = self.shape
        col, row = x - self.origin[0], y - self.origin[1]
        if not (0 <= col < cols and 0 <= row < rows):
            return None
        left, bottom, _, height = self.rect
        cw, ch = self.cell_px
        return left + col * cw, bottom + height - (row + 1) * ch, cw, ch

    def window(self) -> tuple[slice, slice]:
        """The (rows, cols) slices of the map's [y, x] arrays that the view shows."""
        cols, rows = self.shape
        x0, y0 = self.origin
        return slice(y0, y0 + rows), slice(x0, x0 + cols)
