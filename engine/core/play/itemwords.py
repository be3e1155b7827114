"""What an item is and does, in words: the pack, the menus and look say it the same way.

An item kind says what it is in its one-line ``description`` (content data). A thing to wear also
says what it adds, and how that compares with what the player wears in its slot now::

    long sword: attack +4 (your dagger: +2)
    chain mail: defense +3 (none worn)

The engine knows no item by name: the words come from the kind's fields (``attack``, ``defense``,
``slot``) and what is equipped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.model.components import Equipped
from engine.core.turn import inventory, naming

if TYPE_CHECKING:
    from engine.core.kinds.content import ItemKind
    from engine.core.turn.run import Run

STATS = ("attack", "defense")


def adds(kind: ItemKind) -> dict[str, int]:
    """What wearing ``kind`` adds, by stat (only the stats it changes)."""
    return {stat: getattr(kind, stat) for stat in STATS if getattr(kind, stat)}


def stat_words(values: dict[str, int], only: str | None = None) -> str:
    """``{"attack": 4}`` as "attack +4" ("+4" alone when ``only`` names that one stat); "nothing"
    when it adds none."""
    if only is not None and set(values) <= {only}:
        return f"{values.get(only, 0):+d}"
    return ", ".join(f"{stat} {value:+d}" for stat, value in values.items()) or "nothing"


def compared(game: Run, item: int | None, kind: ItemKind) -> str:
    """What a thing to wear adds, and what the player wears in its slot now: "attack +4 (your
    dagger: +2)", "defense +3 (none worn)": none in its slot; the item worn itself says what it
    adds. A thing to throw: what it hits for. Other items: ""."""
    if kind.use == "throw":  # the built-in throw (engine.core.turn.item_actions.Throw): it hits for its attack
        return f"thrown, hits for {kind.attack}"
    if not kind.equipment:
        return ""
    mine = adds(kind)
    words = stat_words(mine)
    if item is not None and game.world.has(item, Equipped):
        return words
    worn = inventory.worn(game, kind.slot)
    if not worn:
        return f"{words} (none worn)"
    theirs = inventory.kind(game, worn[0])
    only = next(iter(mine)) if len(mine) == 1 and set(adds(theirs)) <= set(mine) else None
    return f"{words} (your {naming.item_name(game, worn[0], theirs)}: {stat_words(adds(theirs), only)})"


def summary(game: Run, item: int | None, kind: ItemKind) -> str:
    """The whole of it in one line, as look says it: "long sword: attack +4 (your dagger: +2). A
    knight's blade, long and true." (a kind with no description says its stats once). Named and
    described as the player knows it (:mod:`engine.core.turn.naming`)."""
    stats = compared(game, item, kind)
    description = naming.item_description(game, item, kind)
    said = [naming.item_name(game, item, kind) + (f": {stats}." if stats else ":" if description else "")]
    if description:
        said.append(description)
    return " ".join(said)
