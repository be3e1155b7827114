"""Wall joining: which way each wall cell runs, read from its neighbours, so that walls can be
drawn as joined lines (box drawing, as Brogue, DCSS's console and Cogmind join theirs) and walls
deep in rock apart from the walls that face a floor.

:func:`joins` takes two boolean maps of the same shape, the walls and the open cells a player
knows, and gives each wall cell a mask of :data:`NORTH`, :data:`EAST`, :data:`SOUTH` and
:data:`WEST`: a wall joins its wall neighbour on one side when the edge they share faces a known
open cell (one of the four cells beside the pair), so a room's outline joins all round, a wall
between two corridors runs along them, and two walls back to back (a thick wall between two
rooms) do not join across the rock between them. :func:`facing` says which walls touch a known
open cell (8 ways); the others are deep in rock. Only what is known is read: a joint never
tells of a corridor the player has not seen.

:data:`LINES` and :data:`DOUBLE` are the box-drawing glyph for each mask (a wall that joins
nothing, a pillar, is a small square); both sets are in code page 437, so a CP437 sheet draws
them too.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.kit.regions import grown

NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8
# how a window may draw walls (engine.frontend.walls): each its glyph; those facing a floor drawn
# and those deep in rock dark; and, as those, joined with light or double box-drawing lines
RULES = ("plain", "facing", "lines", "double")

# mask -> glyph: N=1, E=2, S=4, W=8
LINES = "■│─└││┌├─┘─┴┐┤┬┼"
DOUBLE = "■║═╚║║╔╠═╝═╩╗╣╦╬"
STYLES = {"lines": LINES, "double": DOUBLE}


def _views(a: np.ndarray) -> Callable[[int, int], np.ndarray]:
    """``at(dy, dx)``: a view of ``a`` moved so that at(dy, dx)[y, x] = a[y + dy, x + dx] (one
    cell at most), beyond the edge False: slices of one padded copy, no array per direction."""
    h, w = a.shape
    padded = np.zeros((h + 2, w + 2), dtype=a.dtype)  # np.pad costs ten times as much
    padded[1:-1, 1:-1] = a

    def at(dy: int, dx: int) -> np.ndarray:
        return padded[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]

    return at


def facing(wall: np.ndarray, open_: np.ndarray, known: np.ndarray | None = None) -> np.ndarray:
    """The walls with a known open cell beside them (8 ways), or (given ``known``, the cells the
    player knows) an unknown one: only a wall known to be walled in on all sides (the map's edge
    counts as rock) is deep in rock."""
    near = open_.astype(bool) if known is None else (open_.astype(bool) | ~known.astype(bool))
    return wall & grown(near)


def joins(wall: np.ndarray, open_: np.ndarray) -> np.ndarray:
    """Each cell's mask (uint8) of the sides it joins a wall on: 0 where there is no wall."""
    wall = wall.astype(bool)
    w, o = _views(wall), _views(open_.astype(bool))
    # east: the wall to the east, and an open cell above or below this cell or that one
    east = wall & w(0, 1) & (o(-1, 0) | o(-1, 1) | o(1, 0) | o(1, 1))
    south = wall & w(1, 0) & (o(0, -1) | o(1, -1) | o(0, 1) | o(1, 1))
    e, s = _views(east), _views(south)
    mask = east.astype(np.uint8) * EAST
    mask |= south.astype(np.uint8) * SOUTH
    mask |= e(0, -1).astype(np.uint8) * WEST  # the cell east of a joint eastward joins it from the west
    mask |= s(-1, 0).astype(np.uint8) * NORTH
    return mask


def glyphs(mask: np.ndarray, style: str = "lines") -> np.ndarray:
    """The code point (int32) of each mask's glyph in ``style`` (:data:`STYLES`)."""
    table = np.array([ord(ch) for ch in STYLES[style]], dtype=np.int32)
    return table[mask]
