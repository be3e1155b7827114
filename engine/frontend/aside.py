"""Where a panel goes: over the map where it asks to be, or beside a small board.

A panel (a menu, a question, the history, help, a death or victory box) has a place it would
take over the map area (centred, or a band across it). On a large map that place hides part of
the view and no more. A small board (lesson28's 8x8, a small ``--size``) sits in the middle of
the map area with room around it, or fills a small map area whole: a panel placed over it would
hide all of it. So:

1. when the panel fits whole beside, below, left of or above the board, inside the map area, it
   goes there (the board stays whole in view);
2. else, when its own place would hide more than :data:`HIDDEN` of the board (a band across the
   map counts as a box of the panel's own size in the band's middle), it goes next to
   the board in the window (over the sidebar or the log if it must), on the side where it hides
   least of the board, if that hides at most half as much (a panel as wide as the map, the
   history, gains nothing by moving over the sidebar);
3. else it stays where it asked to be (over part of a large map, as usual).

Rectangles are ``(left, bottom, width, height)`` in framebuffer pixels, y up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.frontend.camera import Camera

Rect = tuple[int, int, int, int]

HIDDEN = 0.25  # the share of the board a panel may hide before it moves beside the board
GAP = 4  # pixels between the board and a panel beside it


def overlap(a: Rect, b: Rect) -> int:
    """The area (pixels) two rectangles share."""
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, width) * max(0, height)


def inside(rect: Rect, room: Rect) -> bool:
    return (room[0] <= rect[0] and room[1] <= rect[1] and rect[0] + rect[2] <= room[0] + room[2]
            and rect[1] + rect[3] <= room[1] + room[3])


def _clamped(left: int, bottom: int, width: int, height: int, room: Rect) -> Rect:
    left = max(room[0], min(room[0] + room[2] - width, left))
    bottom = max(room[1], min(room[1] + room[3] - height, bottom))
    return left, bottom, width, height


def around(size: tuple[int, int], board: Rect, room: Rect) -> list[Rect]:
    """A panel of ``size`` next to the board on each side (right, below, left, above: the order
    of preference), centred on the board along that side and kept inside ``room``."""
    width, height = min(size[0], room[2]), min(size[1], room[3])
    left, bottom, bw, bh = board
    mid_x, mid_y = left + (bw - width) // 2, bottom + (bh - height) // 2
    spots = [(left + bw + GAP, mid_y), (mid_x, bottom - GAP - height), (left - GAP - width, mid_y),
             (mid_x, bottom + bh + GAP)]
    return [_clamped(x, y, width, height, room) for x, y in spots]


def place(size: tuple[int, int], wanted: Rect, area: Rect, board: Rect, screen: Rect) -> Rect:
    """Where a panel of ``size`` goes (see the module's docstring): ``wanted`` is the place it
    asks for, ``area`` the map area, ``board`` the map cells drawn in it, ``screen`` the window."""
    board_area = board[2] * board[3]
    if board_area <= 0:
        return wanted
    # whole: around() cuts a panel to the room it is given, and a box cut shorter than its lines spilt them
    beside = [spot for spot in around(size, board, area)
              if spot[2:] == tuple(size) and overlap(spot, board) == 0 and inside(spot, area)]
    if beside:
        return beside[0]
    width, height = min(size[0], wanted[2]), min(size[1], wanted[3])
    core = (wanted[0] + (wanted[2] - width) // 2, wanted[1] + (wanted[3] - height) // 2, width, height)
    hidden = overlap(core, board)
    if hidden <= HIDDEN * board_area:
        return wanted
    least = min(around(size, board, screen), key=lambda spot: overlap(spot, board))  # first of equals
    return least if 2 * overlap(least, board) <= hidden else wanted


def place_by(size: tuple[int, int], wanted: Rect, area: Rect, view: Camera, screen: Rect | None = None) -> Rect:
    """:func:`place` for the board a camera draws (``screen``: the window; default the area)."""
    return place(size, wanted, area, view.rect, screen or area)
