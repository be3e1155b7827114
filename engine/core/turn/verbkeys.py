"""The item verbs a preset uses, and the keys they and the plugins' key commands bring.

A preset uses the verbs of the items it places: the kinds its ``item_counts`` names and the rows of
its loot tables (plugins' rows too, ``register_loot``). In a preset played with the default keys,
each such verb's key opens its pack menu, unless the default keys bind that key already (``q``,
``r`` and ``w`` are the built-in verbs' there). A preset that writes its own ``keys`` table says
every key it has, so verbs bring none there (``q`` in a preset that drinks with ``H`` means nothing,
as before). A verb no item of the preset uses has no key, so a key no kind's verb needs means what
it meant before. The help lists the verbs' keys, and a HUD keys line
may say them with ``{verbs}`` ("q quaff  r read  w wear").

A plugin's key command (``register_commands``: search, close) brings its key by the same rule, in
the presets it belongs to (:meth:`engine.core.kinds.commands.KeyCommand.belongs`), after the verbs.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

from engine.core.turn.keys import DEFAULT_KEYS

if TYPE_CHECKING:
    from engine.core.kinds.rules import GameRules
    from engine.core.kinds.verbs import Verb
    from engine.core.plugin.registry import Registry


def placed_items(rules: GameRules) -> list[str]:
    """The item kinds a preset places, in its order: ``item_counts``, then its loot tables' rows."""
    names = [*rules.item_counts, *(row.item for table in rules.loot.values() for row in table.items)]
    return list(dict.fromkeys(names))


def in_use(registry: Registry, rules: GameRules) -> list[Verb]:
    """The registered verbs the preset's items use, in the order they were registered."""
    uses = {registry.items[name].use for name in placed_items(rules) if name in registry.items}
    return [verb for name, verb in registry.verbs.items() if name in uses]


def _claims(registry: Registry, rules: GameRules) -> list[tuple[str, str, str]]:
    """``(key, name, "verb" or "command")`` of the verbs the preset uses and the key commands that
    belong to it, in the order they claim their keys."""
    return [*((verb.key, verb.name, "verb") for verb in in_use(registry, rules)),
            *((c.key, c.name, "command") for c in registry.commands.values() if c.belongs(rules.params))]


def keys(registry: Registry, rules: GameRules) -> dict[str, str]:
    """Key token -> verb or key command name, for the verbs in use and the key commands that belong
    to the preset, whose key the default keymap leaves free (its own verb commands, ``q`` for
    ``quaff``, are the keymap's); none in a preset with a keymap of its own. The first to claim a
    key keeps it."""
    if rules.keys:
        return {}
    found: dict[str, str] = {}
    for key, name, _ in _claims(registry, rules):
        if key not in DEFAULT_KEYS and name not in DEFAULT_KEYS.values():
            found.setdefault(key, name)
    return found


def line(registry: Registry, rules: GameRules) -> str:
    """The verbs in use as a keys line says them, each by the key that gives it: "q quaff  z zap"."""
    keymap = rules.keys or DEFAULT_KEYS
    bound: dict[str, str] = {}
    for token, name in [*keymap.items(), *keys(registry, rules).items()]:
        bound.setdefault(name, token)
    return "  ".join(f"{bound[verb.name]} {verb.name}" for verb in in_use(registry, rules) if verb.name in bound)


def collisions(registry: Registry) -> list[str]:
    """One warning per verb or key command that :func:`keys` leaves without its key in a preset
    played with the default keys (the first such preset named): the default keys bind it to
    something else, or a verb or command that claims it first in that preset has it. The built-in
    verbs the default keys name (``q`` quaff) are theirs, not a clash."""
    owners, named = registry.owners, set(DEFAULT_KEYS.values())
    warned: dict[tuple[str, str], str] = {}
    for rules in registry.games.values():
        if rules.keys:
            continue
        holders: dict[str, str] = {}
        for key, name, what in _claims(registry, rules):
            if name in named:
                continue
            holder = f"{what} {name!r} (plugin {owners.get((what + 's', name), '?')})"
            said = f"key {key!r} of {holder}"
            if key in DEFAULT_KEYS:
                warned.setdefault((what, name), f"{said} is taken by the default keys ({DEFAULT_KEYS[key]}): it "
                                                "has no key in a preset played with them")
            elif key in holders:
                warned.setdefault((what, name), f"{said} is taken by {holders[key]} in game {rules.name!r}: it "
                                                "has no key there")
            else:
                holders[key] = holder
    taken = {*DEFAULT_KEYS, *(v.key for v in registry.verbs.values()), *(c.key for c in registry.commands.values())}
    free = " ".join([ch for ch in string.ascii_letters if ch not in taken][:8])
    return [f"{clash}; choose a free key ({free}...)" for clash in warned.values()]
