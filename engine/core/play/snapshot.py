"""The game state as plain data: what ``--dump json`` prints and what tests compare."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from engine.core.model.components import Charges, Equipped, Fighter, Inventory, Item, Monster, Position, Statuses
from engine.core.play import status as hud
from engine.core.turn import inventory, naming
from engine.kit.mapgen import CODE_CHARS

if TYPE_CHECKING:
    from engine.core.turn.game import Game


def snapshot(game: Game) -> dict[str, Any]:
    world = game.world
    pos = world.get(game.player, Position)
    fighter = world.get(game.player, Fighter)
    inv = world.get(game.player, Inventory)
    values = hud.values(game)
    potions = values["potions"]
    statuses = world.try_get(game.player, Statuses)
    monsters = [
        {"kind": monster.kind, "x": mpos.x, "y": mpos.y, "hp": mf.hp, "awake": monster.awake}
        for _, (monster, mpos, mf) in world.query(Monster, Position, Fighter)
    ]
    items = [
        {"kind": item.kind, "x": ipos.x, "y": ipos.y, "amount": item.amount}
        for _, (item, ipos) in world.query(Item, Position)
    ]
    monsters.sort(key=lambda m: (m["y"], m["x"], m["kind"]))
    items.sort(key=lambda i: (i["y"], i["x"], i["kind"]))
    return {
        "seed": game.seed,
        "game": game.rules.name,
        # what is in use (the run's choices, else the preset's): the pathfinder too, as the FOV
        "plugins": {"fov": game.fov.name, "generator": game.level.generator, "path": game.pathfinder().name,
                    **game.choices.as_dict()},
        "run": game.run_number,
        "turn": game.turn,
        "depth": game.depth,
        "alive": game.alive,
        "won": game.won,
        "levels": sorted({*game.state.kept, game.depth}),
        "player": {
            "x": pos.x,
            "y": pos.y,
            "hp": fighter.hp,
            "max_hp": fighter.max_hp,
            "attack": inventory.attack_of(game, game.player),
            "defense": inventory.defense_of(game, game.player),
            "gold": inv.gold,
            "potions": potions,
            "level": values["level"],
            "xp": values["xp"],
            "statuses": {name: status.turns for name, status in sorted(statuses.active.items())}
            if statuses is not None else {},
            "inventory": [
                {"letter": inventory.letter_of(game, e), "kind": world.get(e, Item).kind,
                 **naming.dump_fields(game, e, inventory.kind(game, e)),
                 "count": world.get(e, Item).amount, "equipped": world.has(e, Equipped),
                 **({"charges": charges.left} if (charges := world.try_get(e, Charges)) is not None else {})}
                for e in inventory.pack(game)
            ],
        },
        "monsters": monsters,
        "items": items,
        "messages": list(game.messages),
        "prompt": game.api.prompt(),
        "map": _rows(game),
        "visible": int(game.floor.visible.sum()),
        "seen": int(game.floor.seen.sum()),
        # the items remembered on the level, as [x, y, kind] in the map's reading order
        "remembered": [[x, y, kind] for (x, y), kind in sorted(game.floor.items.items(), key=lambda c: c[0][::-1])],
    }


def _rows(game: Game) -> list[str]:
    """The map as text: ``# . > <`` for the built-in kinds, a plugin's kinds by their glyphs."""
    level = game.level
    rows = level.rows()
    if len(level.kinds) <= 4:
        return rows
    known = game.registry.terrain
    table = {ch: known[name].glyph if name in known else "?"
             for ch, name in zip(CODE_CHARS[4:], level.kinds[4:], strict=False)}
    return [row.translate(str.maketrans(table)) for row in rows]


def dumps(game: Game) -> str:
    """The snapshot as canonical JSON: sorted keys, so equal states give equal bytes."""
    return json.dumps(snapshot(game), sort_keys=True, separators=(",", ":"))

