"""The ``params`` of a monster kind that the built-in plugins read, each with the spec its value
must meet. A kind's params are otherwise free JSON (a plugin's own behaviour reads its own), but
one of these names with a value its reader cannot take (``regen = "x"``) failed in play, inside
the reader: the built-in plugin was switched off for the run (every monster's hunting with it),
for another plugin's kind. Checked where the kind loads instead (a content row, or a plugin's
``MonsterKind``): the kind is refused in one line naming the param, and nothing else. A name a
built-in behaviour reads is checked only on a kind that acts by that behaviour: another
behaviour's kind may mean something else by ``range`` or ``count``.
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


# name -> (spec, the behaviours whose kinds it is checked on (None: every kind), what reads it and
# what it is): the reference renders the list (MONSTER_FIELDS' params)
BUILTIN: dict[str, tuple[Spec, frozenset[str] | None, str]] = {
    "xp": (STAT, None, "growth: what a kill is worth"),
    "drops": (NAME, None, "loot: the loot table rolled on its death (default `drop`)"),
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


def check(table: dict[str, Any], behaviour: str, where: str) -> None:
    """Hold the names of a kind's ``table`` of params that the built-in plugins read on a kind of
    ``behaviour`` to their specs (SchemaError, one line)."""
    for name, value in table.items():
        found = BUILTIN.get(name)
        if found is not None and (found[1] is None or behaviour in found[1]):
            found[0].check(value, sub(where, name))


def described() -> str:
    """The list, as the reference says it."""
    return "; ".join(f"`{name}` ({what})" for name, (_, _, what) in BUILTIN.items())
