"""A run as plain data: :func:`capture` turns a Game into JSON-able data, :func:`restore` rebuilds it.

The save holds everything the next turn depends on, so resuming plays exactly as never quitting:
the seeds and run counter, the turn, the level (terrain as text rows, start, stairs, exit, rooms,
generator), what the player has seen (what they see now is recomputed from FOV), every entity with
its components, the scheduler (order and energies), the state of every random stream, the messages,
the plugin choices and preset, and the keys pressed so far (so the run's replay stays whole).

Renderables are not saved: they are rebuilt from the monster and item kinds. Entity ids are not
kept either: entities are recreated in their old order and every reference is mapped to the new id.
Order matters in three places and is kept: the blockers index (monsters wake in its order), the
items on a cell (picked up in order) and the scheduler (ready actors act in the order they were
added). Everything read back is validated (:mod:`engine.persist.runcheck`): a hostile file is refused,
never trusted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from engine.core.components import Actor, Fighter, Inventory, Item, Monster, Player, Position
from engine.core.game import Choices, Floor, Game
from engine.core.looks import item_look, monster_look, player_look
from engine.core.scheduler import Scheduler
from engine.core.world import World
from engine.kit.mapgen import TILE_CHARS, WALL, Level, Rect
from engine.persist.runcheck import check_run

if TYPE_CHECKING:
    from engine.core.registry import Registry

KIND = "run"
SCHEMA = 1
MIGRATIONS: dict[int, Any] = {}  # schema n -> fn(data) -> data of schema n + 1; none yet
CHARS_TILE = {c: t for t, c in TILE_CHARS.items()}


def _level(level: Level) -> dict[str, Any]:
    return {
        "rows": level.rows(), "start": list(level.start),
        "stairs": list(level.stairs) if level.stairs else None, "exit": list(level.exit) if level.exit else None,
        "rooms": [[r.x, r.y, r.w, r.h] for r in level.rooms], "generator": level.generator,
        "spawns": [[k, x, y] for k, x, y in level.spawns], "populate": level.populate,
    }


def _unlevel(data: dict[str, Any]) -> Level:
    lut = np.zeros(128, dtype=np.uint8)
    for char, tile in CHARS_TILE.items():
        lut[ord(char)] = tile
    terrain = lut[np.frombuffer("".join(data["rows"]).encode("ascii"), dtype=np.uint8)]
    terrain = terrain.reshape(len(data["rows"]), len(data["rows"][0]))

    def cell(v: list[int] | None) -> tuple[int, int] | None:
        return (v[0], v[1]) if v is not None else None

    return Level(terrain, cell(data["start"]), cell(data["stairs"]), cell(data["exit"]),
                 [Rect(*r) for r in data["rooms"]], [(k, x, y) for k, x, y in data["spawns"]], data["generator"],
                 populate=data["populate"])


def capture(game: Game, keys: list[str] | None = None) -> dict[str, Any]:
    """The whole run as JSON-able data (without the file's kind/schema envelope)."""
    world = game.world
    ids = sorted({game.player, *game.blockers.values(), *(e for es in game.items_at.values() for e in es)})
    entities = []
    for e in ids:
        pos = world.get(e, Position)
        row: dict[str, Any] = {"id": e, "x": pos.x, "y": pos.y}
        fighter = world.try_get(e, Fighter)
        if fighter is not None:
            row["fighter"] = [fighter.hp, fighter.max_hp, fighter.attack, fighter.defense]
        actor = world.try_get(e, Actor)
        if actor is not None:
            row["speed"] = actor.speed
        monster = world.try_get(e, Monster)
        if monster is not None:
            row["monster"] = {"kind": monster.kind, "behaviour": monster.behaviour, "sight": monster.sight,
                              "awake": monster.awake}
        item = world.try_get(e, Item)
        if item is not None:
            row["item"] = {"kind": item.kind, "amount": item.amount}
        inv = world.try_get(e, Inventory)
        if inv is not None:
            row["inventory"] = {"gold": inv.gold, "pack": dict(inv.pack)}
        entities.append(row)
    sched = game.scheduler.state()
    return {
        "game": game.rules.name,
        "choices": game.choices.as_dict(),
        "first_seed": game.first_seed, "seed": game.seed, "run": game.run, "epoch": game.epoch, "turn": game.turn,
        "depth": game.depth, "alive": game.alive,
        "level": _level(game.level),
        "source_level": _level(game.level_source) if game.level_source is not None else None,
        "seen": ["".join("1" if v else "0" for v in row) for row in game.floor.seen.tolist()],
        "player": game.player,
        "entities": entities,
        "blockers": [[x, y, e] for (x, y), e in game.blockers.items()],
        "items_at": [[x, y, list(es)] for (x, y), es in game.items_at.items()],
        "scheduler": {"order": sched["order"], "player": sched["player"],
                      "speed": [[e, s] for e, s in sched["speed"].items()],
                      "energy": [[e, v] for e, v in sched["energy"].items()]},
        "streams": {label: _rng_state(r.getstate()) for label, r in game._streams.items()},
        "messages": list(game.messages),
        "keys": list(keys or []),
    }


def _rng_state(state: tuple) -> list[Any]:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """What a title screen shows about a save: preset, seed, depth, turn."""
    return {k: data[k] for k in ("game", "seed", "depth", "turn", "run")}


def restore(data: dict[str, Any], registry: Registry) -> Game:
    """Rebuild the Game a save describes; raise ValueError (one line) when the data does not hold up."""
    check_run(data, registry)
    rules = registry.games[data["game"]]
    choices = Choices(**data["choices"])
    source = _unlevel(data["source_level"]) if data["source_level"] is not None else None
    # Build a real Game first, so every attribute a newer engine adds exists, then replace its state.
    game = Game(registry, rules, data["first_seed"], choices, level_source=source)
    game.world.close()
    game.world = world = World()
    game.scheduler = Scheduler()
    game.seed, game.run, game.turn, game.epoch = data["seed"], data["run"], data["turn"], data["epoch"]
    game.alive, game.quit_requested, game.new_in_view = data["alive"], False, False
    game.messages = list(data["messages"])
    game.floor = Floor(_unlevel(data["level"]), data["depth"])
    game.floor.seen = np.array([[c == "1" for c in row] for row in data["seen"]], dtype=bool)

    new_id: dict[int, int] = {}
    for row in data["entities"]:
        comps: list[Any] = [Position(row["x"], row["y"])]
        if row["id"] == data["player"]:
            comps += [Player(), player_look(rules)]
        if "fighter" in row:
            comps.append(Fighter(*row["fighter"]))
        if "speed" in row:
            comps.append(Actor(speed=row["speed"]))
        if "monster" in row:
            m = row["monster"]
            kind = game.monster_kind(m["kind"])
            comps += [Monster(m["kind"], m["behaviour"], m["sight"], m["awake"]), monster_look(kind)]
        if "item" in row:
            kind = registry.items[row["item"]["kind"]]
            comps += [Item(kind.name, row["item"]["amount"]), item_look(kind)]
        if "inventory" in row:
            comps.append(Inventory(row["inventory"]["gold"], dict(row["inventory"]["pack"])))
        new_id[row["id"]] = world.create(*comps)
    game.player = new_id[data["player"]]
    game.blockers = {(x, y): new_id[e] for x, y, e in data["blockers"]}
    game.items_at = {(x, y): [new_id[e] for e in es] for x, y, es in data["items_at"]}

    sched = data["scheduler"]
    speed, energy = dict(map(tuple, sched["speed"])), dict(map(tuple, sched["energy"]))
    # the player was added first and the monsters in order: adding them again rebuilds the same queue
    if sched["player"] is not None:
        e = sched["player"]
        game.scheduler.add(new_id[e], speed[e], energy[e], player=True)
    for e in sched["order"]:
        game.scheduler.add(new_id[e], speed[e], energy[e])

    game._streams = {}
    for label, (version, internal, gauss) in data["streams"].items():
        game.rng(label).setstate((version, tuple(internal), gauss))

    # what the player sees now: the same FOV call as the last update_fov, without waking anyone
    pos = world.get(game.player, Position)
    visible = game.fov(game.level.terrain != WALL, (pos.x, pos.y), rules.fov_radius)
    game.floor.visible = np.asarray(visible, dtype=bool)
    return game
