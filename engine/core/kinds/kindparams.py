"""The ``params`` of monster and item kinds that the built-in plugins read, each with the spec its
value must meet. A kind's params are otherwise free JSON (a plugin's own behaviour or effect reads
its own), but one of these names with a value its reader cannot take (``regen = "x"``) failed in
play, inside the reader: the built-in plugin was switched off for the run (every monster's hunting
with it, or every item's effect), for another plugin's kind. Checked where the kind loads instead (a
content row, or a plugin's ``MonsterKind`` or ``ItemKind``): the kind is refused in one line naming
the param, and nothing else. A name a built-in behaviour (or effect) reads is checked only on a
kind that acts by it (that applies it): another's kind may mean something else by ``range``.
"""

from __future__ import annotations

from typing import Any

from engine.core.kinds.schema import Check, Int, List, Spec, Str, Tuple, sub
from engine.kit import limits

STAT = Int(0, limits.MAX_STAT)
NAME = Str(100, 1)
NAMES = List(NAME, lo=1, most=100)
HUNTERS = frozenset({"hunt", "coward", "archer", "thrower", "venomous", "thief", "summoner", "warden"})  # hunt's


def _said(line: str) -> bool:
    """Whether a line fills with ``{monster}`` alone (``str.format``, as its reader fills it)."""
    try:
        line.format(monster="it")
    except (KeyError, IndexError, ValueError, AttributeError):
        return False
    return True


Table = dict[str, tuple[Spec, frozenset[str] | None, str]]

# name -> (spec, the behaviours whose kinds it is checked on (None: every kind), what reads it and
# what it is): the reference renders the list (MONSTER_FIELDS' params)
MONSTERS: Table = {
    "xp": (STAT, None, "growth: what a kill is worth"),
    "drops": (NAME, None, "loot: the loot table rolled on its death (default `drop`), one a game has"),
    "regen": (Tuple(STAT, Int(1, limits.MAX_STAT), expected="[hp, turns] (turns at least 1)"), None,
              "monster_ai: HP regained every so many turns"),
    "flee": (Int(0, 100), HUNTERS, "hunt and those that hunt: the percent of its HP below which it runs"),
    "search": (STAT, HUNTERS, "hunt and those that hunt: the turns it searches where it last saw the player"),
    "range": (Int(1, limits.MAX_MAP_SIDE), frozenset({"archer", "thrower"}), "archer, thrower: how far it shoots"),
    "shoot": (Check(Str(200), _said, "a line whose only field is {monster}"), frozenset({"archer"}),
              "archer: said before each shot"),
    "venom": (Int(1, limits.MAX_STAT), frozenset({"venomous"}), "venomous: the turns its bite envenoms"),
    "missile": (NAME, frozenset({"thrower"}), "thrower: the item kind it throws"),
    "missiles": (STAT, frozenset({"thrower"}), "thrower: how many it throws in all"),
    "calls": (NAMES, frozenset({"summoner"}), "summoner: the kinds it calls"),
    "count": (Check(Tuple(STAT, STAT, expected="[least, most]"), lambda v: v[0] <= v[1],
                    "[least, most] with least <= most"), frozenset({"summoner"}), "summoner: how many come at a call"),
    "every": (STAT, frozenset({"summoner"}), "summoner: turns between calls"),
    "most": (STAT, frozenset({"summoner"}), "summoner: calls in all"),
    "summons": (STAT, frozenset({"summoner"}), "summoner: the most of its callers alive at once"),
    "guards": (NAMES, frozenset({"warden"}), "warden: the kinds it calls at half HP"),
}


TURNS = Int(1, limits.MAX_STAT)
REACH = Int(1, limits.MAX_MAP_SIDE)
SAID = Str(200)
# the same for an item kind's params, by the effect it applies (ITEM_FIELDS' params)
ITEMS: Table = {
    "breaks": (Int(0, 100), None, "throw: the percent chance a thrown one breaks"),
    "amount": (STAT, frozenset({"heal", "heal_dazed"}), "heal, heal_dazed: the HP it gives back"),
    "turns": (TURNS, frozenset({"haste", "heal_dazed", "confuse", "slow_bolt"}),
              "haste, heal_dazed, confuse, slow_bolt: how long its status lasts"),
    "damage": (STAT, frozenset({"lightning", "fireball", "lightning_bolt"}),
               "lightning, fireball, lightning_bolt: the damage it deals"),
    "reach": (REACH, frozenset({"slow_bolt", "lightning_bolt", "dig_bolt"}), "the bolts: how far a bolt flies"),
    "message": (SAID, frozenset({"haste", "heal_dazed", "teleport", "magic_mapping"}), "what is said when it is used"),
}


def check(table: dict[str, Any], by: str, where: str, names: Table) -> None:
    """Hold the names of a kind's ``table`` of params that the built-in plugins read on a kind of
    behaviour (or effect) ``by`` to their specs in ``names`` (:data:`MONSTERS`, :data:`ITEMS`):
    SchemaError, one line."""
    for name, value in table.items():
        found = names.get(name)
        if found is not None and (found[1] is None or by in found[1]):
            found[0].check(value, sub(where, name))


def described(names: Table) -> str:
    """The list, as the reference says it."""
    return "; ".join(f"`{name}` ({what})" for name, (_, _, what) in names.items())
