"""The player's pack: items carried under letters, stacked, worn; and what equipment adds.

An item is an entity. On the map it has a ``Position``; in the pack it has a ``Carried(letter)``
instead (and no position), and worn or wielded also an ``Equipped(slot)``. A letter stays with its
item until the item leaves the pack, as in the classic games; a new item takes the first free
letter. Potions and scrolls of one kind stack under one letter (their ``Item.amount`` counts
them); equipment and wands do not (:func:`stack_size`: the kind's ``stack``, else its verb's rule).
The pack holds :data:`engine.kit.limits.MAX_PACK` letters.

The player's attack and defense are the fighter's own plus every equipped item's bonuses
(:func:`attack_of`, :func:`defense_of`); nothing is added to the ``Fighter`` itself, so taking an
item off is exact.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, Protocol

from engine.core.model.components import Carried, Equipped, Fighter, Item, Player
from engine.kit import limits

if TYPE_CHECKING:
    from engine.core.kinds.content import ItemKind
    from engine.core.model.world import World
    from engine.core.plugin.registry import Registry


class PackOwner(Protocol):
    """What the pack needs of a run (a :class:`engine.core.turn.run.Run` is one): its world and kinds."""

    @property
    def world(self) -> World: ...  # read-only: a Run's is a property

    registry: Registry

LETTERS = string.ascii_lowercase[: limits.MAX_PACK]


def pack(run: PackOwner) -> list[int]:
    """The items carried, by letter."""
    return [e for e, _ in sorted(run.world.query(Carried), key=lambda pair: pair[1].letter)]


def letter_of(run: PackOwner, item: int) -> str:
    return run.world.get(item, Carried).letter


def kind(run: PackOwner, item: int) -> ItemKind:
    return run.registry.items[run.world.get(item, Item).kind]


def of_use(run: PackOwner, use: str) -> list[int]:
    """The carried items of one use ("quaff", "read", "wear"), by letter."""
    return [e for e in pack(run) if kind(run, e).use == use]


def stack_size(run: PackOwner, kind: ItemKind) -> int:
    """The most of ``kind`` one letter holds: 1 for an item with charges (each has its own); its
    ``stack`` when it says; else ``MAX_STAT`` when its verb stacks (or it applies when picked up),
    1 when not (equipment, a quest item, a use no plugin registers)."""
    if kind.charges:
        return 1
    if kind.stack:
        return kind.stack
    verb = run.registry.verbs.get(kind.use)
    return limits.MAX_STAT if (verb.stacks if verb is not None else kind.use == "pickup") else 1


def count(run: PackOwner, item: int) -> int:
    return run.world.get(item, Item).amount


def room_for(run: PackOwner, item: int) -> bool:
    """Whether the pack can take ``item``: it stacks onto one carried, or a letter is free."""
    if _stack_with(run, item) is not None:
        return True
    return len(pack(run)) < len(LETTERS)


def _stack_with(run: PackOwner, item: int) -> int | None:
    # a stack of its kind that takes it: any, when a stack holds MAX_STAT (what is past it is lost);
    # else one with room for all of it (the rest of a kind's own stack size never spills over)
    most = stack_size(run, kind(run, item))
    if most <= 1:
        return None
    it = run.world.get(item, Item)
    return next((e for e in pack(run) if (held := run.world.get(e, Item)).kind == it.kind
                 and (most >= limits.MAX_STAT or held.amount + it.amount <= most)), None)


def add(run: PackOwner, item: int) -> int | None:
    """Put an item that is off the map (taken off it already) into the pack: onto a stack of its
    kind (the item entity is then deleted), else under the first free letter. Returns the carried
    entity, or None when the pack is full (the item is left as it was). A stack holds at most
    ``MAX_STAT`` (what a run save holds): past it, the rest is lost."""
    stack = _stack_with(run, item)
    if stack is not None:
        held = run.world.get(stack, Item)
        held.amount = min(limits.MAX_STAT, held.amount + run.world.get(item, Item).amount)
        run.world.delete(item)
        return stack
    used = {c.letter for _, c in run.world.query(Carried)}
    free = next((letter for letter in LETTERS if letter not in used), None)
    if free is None:
        return None
    run.world.add(item, Carried(free))
    return item


def take_one(run: PackOwner, item: int) -> None:
    """Use up one of a carried item (a potion drunk): the last one leaves the pack and the world."""
    it = run.world.get(item, Item)
    if it.amount > 1:
        it.amount -= 1
    else:
        run.world.delete(item)


def release(run: PackOwner, item: int) -> None:
    """Take an item out of the pack (to drop it): no letter, not worn."""
    run.world.remove(item, Carried)
    run.world.remove(item, Equipped)


def worn(run: PackOwner, slot: str | None = None) -> list[int]:
    """The equipped items (in ``slot``, when given), by letter."""
    return [e for e in pack(run) if run.world.has(e, Equipped)
            and (slot is None or run.world.get(e, Equipped).slot == slot)]


def bonus(run: PackOwner, entity: int, stat: str) -> int:
    """What equipment adds to a stat ("attack", "defense") of ``entity`` (only the player wears):
    the worn items' (carried and equipped: :func:`worn`'s, summed in any order), read from the
    world's table of equipped items rather than the pack sorted by letter (every blow asks)."""
    world = run.world
    if not world.has(entity, Player):
        return 0
    return sum(getattr(kind(run, e), stat) for e, _ in world.query(Equipped) if world.has(e, Carried))


def stats(run: PackOwner, entity: int) -> tuple[int, int]:
    """(:func:`attack_of`, :func:`defense_of`) in one look at what is worn (a bot asks every key)."""
    world = run.world
    fighter = world.get(entity, Fighter)
    attack = defense = 0
    if world.has(entity, Player):
        for e, _ in world.query(Equipped):
            if world.has(e, Carried):
                worn = kind(run, e)
                attack, defense = attack + worn.attack, defense + worn.defense
    return max(0, fighter.attack + attack), max(0, fighter.defense + defense)


def attack_of(run: PackOwner, entity: int) -> int:
    return max(0, run.world.get(entity, Fighter).attack + bonus(run, entity, "attack"))


def defense_of(run: PackOwner, entity: int) -> int:
    return max(0, run.world.get(entity, Fighter).defense + bonus(run, entity, "defense"))
