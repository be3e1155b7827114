"""What the ``delver`` bot knows of items: the pack and the kinds in it by the names the player
sees (an unknown potion is an :class:`Unknown`, of which only its use is read), what each kind is
to it (a drink that heals, a scroll that aims or takes it away, equipment's worth, the quest), and
the pack worked out again only when it changes (:func:`pack_key`). A helper of the plugin
``bot_delver``, beside :mod:`engine.plugins.bots._delver_look`, which reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from engine import Carried as CarriedLetter
from engine import Equipped, Item


def counts(game, items: list[int]) -> dict[str, int]:
    """How many of each item the pack holds, by the name the player knows it by
    (``game.item_name``: an unknown potion by its appearance; ``game.pack()`` is the carried item
    entities; a stack is one entity whose ``Item.amount`` counts it)."""
    out: dict[str, int] = {}
    for item in items:
        stack = game.component(item, Item)
        if stack is not None:
            name = game.item_name(item)
            out[name] = out.get(name, 0) + stack.amount
    return out


@dataclass(frozen=True)
class Unknown:
    """An item the player does not know (the default game's "murky potion"): its name and how it
    is used (the drink or read menu offers it), and nothing of what it does."""

    name: str
    use: str
    effect: str = ""
    params: dict = field(default_factory=dict)
    target: str = ""
    radius: int = 0
    slot: str = ""
    attack: int = 0
    defense: int = 0


def known_kind(game, item: int):
    """The kind of a carried item as the player knows it: the kind its shown name names
    (``game.item_name``), else an :class:`Unknown` (the true kind is never read for it beyond its
    use, which the drink and read menus show the player)."""
    name = game.item_name(item)
    kind = game.item_kind(name)
    if kind is not None:
        return kind
    true = game.kind_of(item)
    return Unknown(name, getattr(true, "use", ""))


def unknown(kind) -> bool:
    """An item the player does not know yet."""
    return isinstance(kind, Unknown)


def heal_per_potion(game, pack: dict[str, int]) -> int:
    """HP one of its drinks gives back: the least of the ``heal`` items it carries (0: none)."""
    heals = [int(kind.params.get("amount", 0)) for name in pack
             if (kind := game.item_kind(name)) is not None and kind.effect == "heal"]
    return min(heals, default=0)


def potions(game, pack: dict[str, int]) -> int:
    """How many healing drinks it carries."""
    return sum(n for name, n in pack.items()
               if (kind := game.item_kind(name)) is not None and kind.use == "quaff" and kind.effect == "heal")


def is_heal(kind) -> bool:
    """A drink that heals."""
    return kind.use == "quaff" and kind.effect == "heal"


def aims(kind) -> bool:
    """A scroll read at a monster or a cell (lightning, fireball, confusion: what hurts or stops
    the monster it is read at)."""
    return kind.use == "read" and kind.target in ("nearest", "monster", "cell")


def escapes(kind) -> bool:
    """A scroll that takes its reader away at once (the built-in teleport's effect)."""
    return kind.use == "read" and kind.effect == "teleport"


def worth(kind) -> int:
    """What a piece of equipment is worth to it: attack and defense count alike."""
    return kind.attack + kind.defense


def quest(kind) -> bool:
    """An item only carried (the Amulet): carrying it up and out wins. A key (``params.opens``:
    what it opens, a vault door) is carried for that, not to win."""
    return kind.use == "carry" and "opens" not in kind.params


@dataclass(frozen=True)
class Carried:
    """One letter of the pack."""

    item: int
    kind: Any
    count: int
    letter: str
    worn: bool


@dataclass(frozen=True)
class Pack:
    """The pack as it knows it: made again only when :func:`pack_key` changes (a new item, one
    gone, a count, a letter, what it wears), not at every key (every concern asks)."""

    key: tuple
    carried: list[Carried]  # item by item, by letter
    counts: dict[str, int]  # how many of each kind
    potions: int  # healing drinks
    heal: int  # HP one of them gives back (0: none)
    worked_out: dict = field(default_factory=dict)  # what the concerns work out of it, by function (of_pack)


def pack_key(game) -> tuple:
    """What :class:`Pack` is worked out from: the names the player knows items by
    (``game.names_version``: an item identified makes the pack again), what it wears, and each
    carried item with its count and letter, in entity order (the same pack, the same key: only
    :func:`make_pack` sorts by letter), in one query each; the names not read (half its time)."""
    rows = game.query(CarriedLetter, Item)
    # an entity carried without an Item is no item of the pack (make_pack skipped it): not queried
    return (game.names_version, tuple([item for item, _ in game.query(Equipped)]),
            tuple([(item, stack.amount, letter.letter) for item, (letter, stack) in rows]))


def make_pack(game, key: tuple) -> Pack:
    worn = set(key[1])
    # by letter, as ``game.pack()`` gives them (a stable sort of the entity order: as ever)
    items = [row[0] for row in sorted(key[2], key=lambda row: row[2])]
    carried = []
    for item in items:
        kind, stack = known_kind(game, item), game.component(item, Item)
        letter = game.component(item, engine.Carried)
        if kind is not None and stack is not None and letter is not None:
            carried.append(Carried(item, kind, stack.amount, letter.letter, item in worn))
    pack = counts(game, items)
    return Pack(key, carried, pack, potions(game, pack), heal_per_potion(game, pack))
