"""What explore (``o``) picks up on the way, as DCSS's and Brogue's do: it walks to the items the
player remembers on the level, nearest first, before the unknown, and picks each up.

It does so in a game whose ruleset leaves some items on the floor when they are stepped on (the
ruleset's ``picks_up``; the default game picks up gold alone by walking): there explore fetches
every item it may, gold included (a step onto gold takes it; the rest takes a
:class:`~engine.core.turn.item_actions.PickUp`, a turn each, as ``g`` does). In the classic games
walking picks everything up already, and their explore walks past items as it always has.

It does not walk to

- an item :class:`~engine.core.model.components.LeftBehind`: the player dropped it (``d``), or
  stood on it and stepped off without it; they have had their chance. A thrown item lands without
  the mark, so explore fetches a thrown dart, as DCSS's does;
- an item the pack has no room for (no stack of its kind to join, no free letter): explore walks
  on, and says so once (the preset's ``pack_full``, naming the first such item);
- a cell where a monster the player sees stands (a sleeping one: explore walks past it, not into it).

The items are those of the player's memory of the level (``GameAPI.remembered``), the marks and
the pack the player's own doing: nothing the player does not know steers it (a remembered item
that is gone is walked to until its cell is seen again, and then forgotten).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.model.components import Item, LeftBehind
from engine.core.turn import inventory
from engine.core.turn.item_actions import PickUp

if TYPE_CHECKING:
    from engine.core.turn.api import GameAPI
    from engine.core.turn.run import Run


@dataclass
class Gathering:
    """What one explore (one key) has found out about picking up: whether it does in this game
    (None: not asked yet), and whether it has said the pack is full."""

    fetches: bool | None = None
    told_full: bool = False


def fetches(api: GameAPI, gathering: Gathering) -> bool:
    """Whether explore picks items up in this game: its ruleset leaves some kind of item on the
    floor when it is stepped on (asked once a travel)."""
    if gathering.fetches is None:
        run = _run(api)
        gathering.fetches = any(not run.ruleset.picks_up(api, kind) for kind in run.registry.items.values())
    return gathering.fetches


def _run(api: GameAPI) -> Run:
    return api._run  # the engine's own travel reads the ruleset and the pack behind the API


def _pile(run: Run, x: int, y: int) -> list[int]:
    """The items lying on (x, y) that the player has not left behind, oldest first."""
    return [e for e in run.state.spatial.items_at(x, y) if not run.world.has(e, LeftBehind)]


def _fits(run: Run, item: int) -> bool:
    """Whether picking ``item`` up would take it: gold and the like always, the rest when the
    pack has room (as :func:`engine.core.turn.entities.pick_up` decides)."""
    return run.registry.items[run.world.get(item, Item).kind].use == "pickup" or inventory.room_for(run, item)


def pick_here(api: GameAPI, gathering: Gathering) -> PickUp | None:
    """The pick-up of the first item lying where the player stands that explore takes, or None."""
    if not fetches(api, gathering):
        return None
    run = _run(api)
    here = api.position(api.player)
    return next((PickUp(item) for item in _pile(run, *here) if _fits(run, item)), None)


def goals(api: GameAPI, gathering: Gathering) -> list[tuple[int, int]]:
    """The cells of the items explore walks to (see the module doc), in reading order. The first
    time an explore passes one over for want of room in the pack, it says so."""
    if not fetches(api, gathering):
        return []
    run = _run(api)
    here = api.position(api.player)
    cells = []
    for (x, y), _kind in sorted(api.remembered().items(), key=lambda c: (c[0][1], c[0][0])):
        if (x, y) == here or (api.creature_at(x, y) is not None and api.sees(x, y)):
            continue
        lying = run.state.spatial.items_at(x, y)
        pile = _pile(run, x, y)
        if lying and not pile:
            continue  # everything there was left behind
        if not lying or any(_fits(run, item) for item in pile):  # gone unseen: as remembered
            cells.append((x, y))
        elif not gathering.told_full:
            gathering.told_full = True
            api.log(api.rules.message("pack_full", item=api.name_of(pile[-1])))
    return cells
