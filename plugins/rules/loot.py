"""Drops: a monster that dies leaves what the preset's loot table gives on its cell.

The table is the monster kind's ``params.drops`` (a table name), else ``drop``; a game with no
such table (the presets) drops nothing. Rolled from the run's stream ``loot:drop``.
"""

from engine import hookimpl


@hookimpl
def on_death(game, entity):
    if game.is_player(entity):
        return
    kind = game.kind_of(entity)
    where = game.position(entity)
    if kind is None or where is None:
        return
    for name, amount in game.loot(str(kind.params.get("drops", "drop")), label="loot:drop"):
        game.spawn(name, *where, amount)
