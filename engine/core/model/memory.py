"""What the player remembers lying on a level: the item last seen on each cell (as Brogue and DCSS
remember them), kept in the run's state so that it lives as long as the run does: through a walk
(each step is a turn), a level left and found again, and a save and resume.

The memory (:attr:`engine.core.model.state.View.items`, and each kept level's) maps a cell to the kind
of the item on top there: the newest (the highest entity id, which a save keeps in order), as the
window draws a pile. Every turn (the view system), and when a level is left, the cells in view
forget what they held and remember what lies there now; when the view changes, so do the cells
that were in view until then. So what changed while the player watched is remembered as it was
last seen, and an item that moves, is picked up by a monster or is destroyed while unseen stays
remembered where it was seen until the player sees that cell again. Only those cells are looked
at (the light's square around the player, or the piles of items when there are fewer of them):
never the whole map.

A run remembers at most ``MAX_REMEMBERED`` item cells, its kept levels' included: past that, the
kept level farthest from the player's depth forgets first, its oldest memories first, then the
current level's oldest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.core.model.components import Item
from engine.kit import limits
from engine.kit.words import article

if TYPE_CHECKING:
    from collections.abc import Mapping

    from engine.core.kinds.content import ItemKind
    from engine.core.model.state import RunState

Cell = tuple[int, int]
# a view to look at: what was (or is) visible, and the player's cell it was computed from
Looked = tuple[np.ndarray, Cell]


def remember(state: RunState, looked: list[Looked], radius: int | None) -> None:
    """Refresh the memory of every cell visible in one of ``looked`` (see the module doc);
    ``radius`` is the light's (None: unlimited), which bounds where a view's cells can be."""
    memory, piles = state.view.items, state.spatial.piles()
    looked = [(mask, origin) for mask, origin in looked if mask.shape == state.view.seen.shape]
    if radius is not None and len(looked) * (2 * radius + 1) ** 2 < len(piles) + len(memory):
        cells: set[Cell] = set()
        for mask, (ox, oy) in looked:
            x0, y0 = max(0, ox - radius), max(0, oy - radius)
            ys, xs = mask[y0:oy + radius + 1, x0:ox + radius + 1].nonzero()
            cells.update(zip((xs + x0).tolist(), (ys + y0).tolist(), strict=True))
        for cell in cells:
            memory.pop(cell, None)
        found = [cell for cell in cells if cell in piles]
    else:
        for cell in in_view(list(memory), looked, radius):
            del memory[cell]
        found = in_view(list(piles), looked, radius)
    # in the map's reading order, whichever way they were found: a resumed run remembers in the
    # same order as one never saved, so both forget the same things at the limit
    for cell in sorted(found, key=lambda c: (c[1], c[0])):
        memory[cell] = state.world.get(max(piles[cell]), Item).kind
    if found:
        forget_past_limit(state)


def in_view(cells: list[Cell], looked: list[Looked], radius: int | None = None) -> list[Cell]:
    """The cells visible in one of ``looked``, in their order. Many at once are read from the masks
    in one go: a level's remembered items and piles are looked at every turn. With the light's
    ``radius``, only the cells in the square it lights around the views' origins are looked up in
    the masks (most of a level's cells are not, and comparing two ints is cheaper than reading a
    mask)."""
    if radius is not None and looked:
        xs, ys = [ox for _, (ox, _) in looked], [oy for _, (_, oy) in looked]
        x0, x1, y0, y1 = min(xs) - radius, max(xs) + radius, min(ys) - radius, max(ys) + radius
        cells = [cell for cell in cells if x0 <= cell[0] <= x1 and y0 <= cell[1] <= y1]
    if len(cells) < 8:  # a loop, not any() of a generator per cell: twice as quick
        masks, found = [mask for mask, _ in looked], []
        for cell in cells:
            x, y = cell
            for mask in masks:
                if mask[y, x]:
                    found.append(cell)
                    break
        return found
    xs = np.fromiter((cell[0] for cell in cells), dtype=np.intp, count=len(cells))
    ys = np.fromiter((cell[1] for cell in cells), dtype=np.intp, count=len(cells))
    seen = np.zeros(len(cells), dtype=bool)
    for mask, _ in looked:
        seen |= mask[ys, xs]
    return [cell for cell, yes in zip(cells, seen.tolist(), strict=True) if yes]


def remembered_total(state: RunState) -> int:
    """Item cells the run remembers, on its current level and its kept ones."""
    return len(state.view.items) + sum(len(kept.items) for kept in state.kept.values())


def forget_past_limit(state: RunState) -> None:
    """Forget while past ``MAX_REMEMBERED``: the farthest kept level first, the oldest first."""
    over = remembered_total(state) - limits.MAX_REMEMBERED
    if over <= 0:
        return
    farthest = sorted(state.kept, key=lambda d: (abs(d - state.depth), d), reverse=True)
    for memory in [*(state.kept[d].items for d in farthest), state.view.items]:
        for cell in list(memory)[:over]:
            del memory[cell]
            over -= 1
        if over <= 0:
            return



def with_article(kinds: Mapping[str, ItemKind], kind: str, shown: str | None = None) -> str:
    """A remembered kind as look names it: "a potion", "an amulet", "some gold" (found in heaps);
    ``shown``: the name the player knows it by, when not its kind's."""
    found = kinds.get(kind)
    name = shown or kind
    if found is not None and found.amount[1] > 1:
        return f"some {name}"
    return f"{article(name)} {name}"
