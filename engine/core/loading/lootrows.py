"""Rows plugins add to presets' loot tables (``register_loot``), joined once every plugin has loaded.

A plugin names a preset, one of its loot tables and a row (``engine.LootRow``: the same weight,
depth and per-depth rules as the preset's own rows). A preset registered by a later plugin is
known only at the end, so the rows join then, in load order, after the references between plugins
are checked (an item skipped for naming no effect takes its rows with it). A row naming a preset,
a table or an item kind that is not registered is skipped, in one line naming the valid ones (a
built-in's is fatal, as any built-in's mistake is). The preset's ``GameRules`` is replaced by one
whose table holds the added rows after its own; :attr:`Registry.loot_rows` keeps who added what,
for ``undercroft catalog``.
"""

from __future__ import annotations

import dataclasses

from engine.core.errors import valid_names
from engine.core.plugin.registry import AddedRow, PluginError, Registry, Skipped


def _problem(registry: Registry, added: AddedRow) -> str | None:
    game = registry.games.get(added.game)
    if game is None:
        return f"no game named {added.game!r} {valid_names(added.game, registry.games)}"
    if added.table not in game.loot:
        tables = ", ".join(sorted(game.loot)) or "none: it rolls no loot"
        return f"game {added.game!r} has no loot table {added.table!r} (its tables: {tables})"
    if added.row.item not in registry.items:
        return f"no item named {added.row.item!r} {valid_names(added.row.item, registry.items)}"
    if len(game.loot[added.table].items) >= 1000:
        return f"game {added.game!r}: loot table {added.table!r} holds 1000 rows already (the most a table holds)"
    return None


def join(registry: Registry) -> None:
    """Add every plugin's loot rows to their presets' tables (see the module doc)."""
    for name, added in list(registry.loot_rows.items()):
        why = _problem(registry, added)
        if why is not None:
            info = registry.owner("loot_rows", name)
            assert info is not None  # every registration has its owner
            if info.builtin:
                raise PluginError(f"plugin {info.name}: register_loot: {why}")
            registry.drop("loot_rows", name)
            info.skipped.append(Skipped("loot_rows", name, why))
            if not info.registered:
                info.error = why
                registry.forget(info.name)
            continue
        game = registry.games[added.game]
        table = game.loot[added.table]
        loot = {**game.loot, added.table: dataclasses.replace(table, items=(*table.items, added.row))}
        registry.games[added.game] = dataclasses.replace(game, loot=loot)
