"""Component dataclasses: small, plain data, one idea each.

Components are the one source of truth for what an entity is and where it stands. Systems live in
:mod:`engine.core.turn.systems`, actions in :mod:`engine.core.turn.actions`. Every component below except
:class:`Renderable` (rebuilt from the kinds) is saved with the run by its class name; a plugin's
own components are saved the same way once registered (``register_components``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Position:
    x: int
    y: int


@dataclass
class Renderable:
    glyph: str
    color: tuple[int, int, int]
    layer: int = 1  # 0 items, 1 monsters, 2 the player: the higher one is drawn on a shared cell


@dataclass
class Actor:
    """Takes turns. ``speed`` is energy gained per tick (100 = normal); an action costs 100.
    The energy itself lives in the scheduler, which is the only thing that spends it."""

    speed: int = 100


@dataclass
class Fighter:
    hp: int
    max_hp: int
    attack: int
    defense: int = 0


@dataclass
class Monster:
    kind: str
    behaviour: str
    sight: int
    awake: bool = False  # has noticed the player: only awake monsters are scheduled


@dataclass
class Player:
    pass


@dataclass
class Item:
    kind: str
    amount: int = 1


@dataclass
class Charges:
    """The charges an item has left (a wand's): each use spends one (its kind's ``charges`` when
    made). Only items whose kind has charges carry it, so a save of a game without any holds none."""

    left: int = 0


@dataclass
class Inventory:
    """What the player owns that is not an item of the pack: gold. (The pack's items are entities
    of their own, each with :class:`Carried`.)"""

    gold: int = 0


@dataclass
class Carried:
    """An item in the player's pack, under a letter (``a``..``z``) it keeps until it leaves."""

    letter: str


@dataclass
class Equipped:
    """A carried item worn or wielded, in its kind's ``slot``: its bonuses count."""

    slot: str


@dataclass
class Status:
    """One status on an entity: ``turns`` left (None: until removed) and its ``params``."""

    turns: int | None = None
    params: dict = field(default_factory=dict)


@dataclass
class Statuses:
    """The named statuses on an entity ("frozen", "poisoned", "hasted"), each with its turns left.
    The statuses system ticks them down at the end of every turn and removes the expired."""

    active: dict[str, Status] = field(default_factory=dict)


@dataclass
class Sighted:
    """A monster the player has been told they see ("You see a goblin.", the preset's ``in_view``):
    it is not said again when it comes back into view (a monster at the edge of the view stepping
    in and out said so every turn), though it stops a walk each time."""


@dataclass
class LeftBehind:
    """An item on the floor that the player has had underfoot and left there: put down with ``d``
    (``dropped``), or stood on and stepped off without picking it up (a full pack, or not wanted).
    Explore (``o``) walks to the items it knows of to pick them up, but not to these: the player
    has had their chance. Picking it up takes the mark off; a thrown item lands without one, so
    explore fetches a thrown dart as DCSS does."""

    dropped: bool = False


@dataclass
class Dead:
    """Died this turn: off the map and out of the scheduler; the reap system deletes it."""


# The engine's own components that a run save keeps, by name (Renderable is rebuilt from kinds).
SAVED = {cls.__name__: cls for cls in (Position, Actor, Fighter, Monster, Player, Item, Inventory, Statuses,
                                       Carried, Equipped, Charges, LeftBehind, Sighted)}
