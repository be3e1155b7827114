"""A run as plain data: :func:`capture` writes a game's :class:`RunState`, :func:`load` reads one back.

The save holds everything the next turn depends on, so resuming plays exactly as never quitting:
the seeds and run counter, the turn, the level (terrain as text rows, start, stairs, exit, rooms,
generator), what the player has seen (what they see now is recomputed from FOV) and the items
they remember where they saw them (on it and on every kept level), every entity with its saved
components by name (the engine's own and the ones plugins register), the scheduler
(speeds and energies), the state of every random stream, the messages, the preset, its size and the
plugin choices, and the keys pressed so far (so the run's replay stays whole).

What is derived is not saved: looks come from the kinds, the spatial index from the positions.
Entity ids are not kept either: entities are recreated in their old order (the order that matters:
monsters act in it, items on a cell are picked up in it) and the scheduler's references are mapped
to the new ids. Loading validates the data's shape (:mod:`engine.core.kinds.schema`), builds a RunState,
and holds it to the invariants the game keeps (:mod:`engine.core.turn.invariants`): a hostile file is
refused with one line, never trusted. It generates nothing and fires no hook.

The writer writes only what the loader accepts: :func:`check_writable` holds the captured data to
the loader's own spec and the live state to the same invariants before anything is written, and
the file layer refuses a text bigger than it reads. Every limit is :mod:`engine.kit.limits`'.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.core.model.components import SAVED, Position
from engine.core.model.state import KeptLevel, MessageLog, Remembered, RunState, Streams, View
from engine.core.model.world import World
from engine.core.turn import invariants
from engine.core.turn.game import Choices, Game
from engine.core.turn.looks import item_look, monster_look, player_look
from engine.persist import files, leveldata, needs
from engine.persist.runspec import check_not_ended, run_spec

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry

def capture(game: Game, keys: list[str] | None = None) -> dict[str, Any]:
    """The whole run as JSON-able data (without the file's kind/schema envelope)."""
    state = game.state
    saved = {**SAVED, **game.registry.components}
    entities = [{"id": entity, **_row(state.world.components(entity), saved)} for entity in state.world.entities()]
    listed = {row["id"] for row in entities}
    kept = [{"depth": depth, "level": leveldata.dump(k.level), "seen": _rows_of(k.seen),
             "things": [{**_row(components, saved), "energy": energy} for components, energy in k.things],
             "remembered": _remembered_rows(k.items)}
            for depth, k in sorted(state.kept.items())]
    energy, scheduler = state.scheduler.energy, state.scheduler
    return {
        "game": game.rules.name,
        "size": [game.rules.width, game.rules.height],
        "choices": game.choices.as_dict(),
        "first_seed": game.first_seed, "seed": state.seed, "run": state.run_number, "turn": state.turn,
        "depth": state.depth, "alive": state.alive,
        "level": leveldata.dump(state.level),
        "source_level": leveldata.dump(game.level_source) if game.level_source is not None else None,
        "seen": _rows_of(state.view.seen),
        "remembered": _remembered_rows(state.view.items),
        "entities": entities,
        "scheduler": {"player": [state.player, scheduler.speed(state.player), energy[state.player]],
                      "actors": [[e, scheduler.speed(e), energy[e]] for e in sorted(energy) if e != state.player]},
        "streams": {label: [v, list(internal), gauss] for label, (v, internal, gauss) in
                    ((label, r.getstate()) for label, r in state.streams.items())},
        "messages": list(state.log),
        "message_kinds": state.log.kinds(),
        "keys": list(keys or []),
        "plugin_data": state.plugin_data,
        "questions": state.questions,
        "plugins": needed_plugins(game, entities + [row for level in kept for row in level["things"]]
                                  + [{"Item": {"kind": kind}} for kind in _remembered_kinds(state)],
                                  _terrain_kinds(game)),
        "kept": kept,
        "last_target": state.last_target if state.last_target in listed else None,
        # what the monsters' behaviours declared on their last turn ("fleeing"): a walk reads it
        "declared": sorted([entity, word] for entity, (world, word) in game.declared.items()
                           if world is state.world and entity in listed),
    }


def _row(components, saved: dict[str, type]) -> dict[str, Any]:
    """An entity's saved components by name (the engine's and plugins' registered ones)."""
    row: dict[str, Any] = {}
    for component in components:
        name = type(component).__name__
        if saved.get(name) is type(component):
            row[name] = dataclasses.asdict(component)
    return row


def _terrain_kinds(game: Game) -> set[str]:
    """The kinds of terrain the run's levels are made of (the current one, the kept ones, a ``--map``)."""
    levels = [game.state.level, *(k.level for k in game.state.kept.values()), game.level_source]
    return {name for level in levels if level is not None for name in level.kinds}


def needed_plugins(game: Game, entities: list[dict[str, Any]],
                   terrain: set[str] = frozenset()) -> dict[str, dict[str, str]]:
    """The third-party plugins this run depends on, with their versions: those that registered the
    preset, its ruleset, the FOV, generators and pathfinder in use, the kinds of the monsters and
    items on the level and their behaviours and effects, the kinds of terrain of its levels, the
    components saved, and plugin data."""
    registry, rules, owner = game.registry, game.rules, game.registry.owners.get
    used = [("games", rules.name), ("fov", game.fov.name), ("rulesets", rules.ruleset or ""),
            *(("generators", name) for _, name in rules.generators), *(("generators", g) for g in
                                                                       [game.choices.generator] if g),
            *(("pathfinders", p) for p in [game.choices.path] if p)]
    for row in entities:
        if "Monster" in row:
            used += [("monsters", row["Monster"]["kind"]), ("behaviours", row["Monster"]["behaviour"])]
        if "Item" in row:
            kind = registry.items.get(row["Item"]["kind"])
            used += [("items", row["Item"]["kind"]), ("effects", kind.effect if kind else "")]
        used += [("components", name) for name in row if name in registry.components]
    used += [("terrain", name) for name in sorted(terrain)]
    plugins = {owner(key) for key in used} | set(game.state.plugin_data)
    return needs.described(registry, plugins - {None})


def check_plugins(data: dict[str, Any], registry: Registry) -> None:
    """Raise NeedsPlugin when the save names a plugin that is not here (or is broken)."""
    missing = needs.missing(data.get("plugins"), registry)
    if missing:
        raise needs.NeedsPlugin(missing)


def load(data: dict[str, Any], registry: Registry) -> tuple[Game, list[str]]:
    """The game a save describes, resumed, and the keys pressed so far; ValueError (one line) when
    the data does not hold up, RunEnded when it is a run's end (:func:`~engine.persist.runspec.ended_mark`)."""
    check_not_ended(data)
    check_plugins(data, registry)
    d = run_spec(registry).check(files.payload(data), "")
    rules = registry.games[d["game"]]
    if tuple(d["size"]) != (rules.width, rules.height):
        rules = dataclasses.replace(rules, width=d["size"][0], height=d["size"][1])
    level = leveldata.load(d["level"], "level")
    h, w = level.terrain.shape
    if len(d["seen"]) != h or any(len(row) != w for row in d["seen"]):
        raise ValueError(f"seen: expected a list of {h} rows of {w} 0/1 characters, got {len(d['seen'])} rows")
    source = leveldata.load(d["source_level"], "source_level") if d["source_level"] is not None else None
    game = Game(registry, rules, d["first_seed"], Choices(d["choices"]), level_source=source)

    world = World()
    new_id: dict[int, int] = {}
    for i, row in enumerate(d["entities"]):
        if row["id"] in new_id:
            raise ValueError(f"entities[{i}].id: {row['id']} is listed twice")
        parts = _parts(game, row, f"entities[{i}]")
        new_id[row["id"]] = world.create(*[p for p in parts if not isinstance(p, Position)])
    players = [row["id"] for row in d["entities"] if "Player" in row]
    if len(players) != 1 or d["scheduler"]["player"][0] != players[0]:
        raise ValueError(f"scheduler.player: expected the one entity with Player ({players}), got "
                         f"{d['scheduler']['player'][0]}")
    log = MessageLog(rules.log_size, d["messages"], d.get("message_kinds", ()))
    state = RunState(seed=d["seed"], first_seed=d["first_seed"], run_number=d["run"], world=world,
                     player=new_id[players[0]], log=log,
                     streams=Streams(d["seed"]), level=level, depth=d["depth"], turn=d["turn"],
                     plugin_data=d.get("plugin_data", {}), questions=d.get("questions", []))
    for row in d["entities"]:  # positions through the spatial index: two on one cell is refused there
        if "Position" in row:
            state.spatial.place(new_id[row["id"]], row["Position"].x, row["Position"].y)
    state.view = View(np.zeros(level.terrain.shape, dtype=bool), _seen_of(d["seen"], w, h), dirty=False,
                      items=_remembered_of(d["remembered"], "remembered"))
    for e, speed, energy in [d["scheduler"]["player"], *d["scheduler"]["actors"]]:
        if e not in new_id:
            raise ValueError(f"scheduler: expected ids of listed entities, got {e}")
        state.scheduler.add(new_id[e], speed, energy, player=e == players[0])
    for label, stream in d["streams"].items():
        state.streams.restore(label, stream)
    state.last_target = new_id.get(d.get("last_target"))  # an id of the save's entities, as they are now
    for i, k in enumerate(d["kept"]):
        state.kept[k["depth"]] = _kept(game, k, f"kept[{i}]")
    if len(state.kept) != len(d["kept"]):
        raise ValueError("kept: a depth is listed twice")
    invariants.check(state, registry, rules)
    game.resume(state)
    for i, (entity, word) in enumerate(d.get("declared", [])):
        if entity not in new_id:
            raise ValueError(f"declared[{i}]: expected the id of a listed entity, got {entity}")
        game.declared[new_id[entity]] = (world, word)
    return game, d["keys"]


def check_writable(data: dict[str, Any], game: Game) -> None:
    """Raise ValueError (one line) unless the loader would accept ``data`` (from :func:`capture`)
    and ``game``'s state: the loader's spec, then the invariants it holds a loaded run to."""
    run_spec(game.registry).check(data, "")
    invariants.check(game.state, game.registry, game.rules)


def _rows_of(seen: np.ndarray) -> list[str]:
    """A bool map as rows of "0" and "1" (numpy, not a Python loop: a 1000x1000 map is a million cells)."""
    h, w = seen.shape
    text = np.where(seen, ord("1"), ord("0")).astype(np.uint8).tobytes().decode("ascii")
    return [text[y * w : (y + 1) * w] for y in range(h)]


def _seen_of(rows: list[str], w: int, h: int) -> np.ndarray:
    """The inverse of :func:`_rows_of` (rows already checked to be of 0 and 1, h rows of w)."""
    return (np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8) == ord("1")).reshape(h, w)


def _remembered_rows(items: Remembered) -> list[list[Any]]:
    """A level's remembered items as ``[x, y, kind]`` rows, oldest first (see engine.core.model.memory)."""
    return [[x, y, kind] for (x, y), kind in items.items()]


def _remembered_of(rows: list[tuple[int, int, str]], where: str) -> Remembered:
    """The inverse of :func:`_remembered_rows` (rows already checked; the cells and kinds are the
    invariants')."""
    items = {(x, y): kind for x, y, kind in rows}
    if len(items) != len(rows):
        raise ValueError(f"{where}: a cell is listed twice")
    return items


def _remembered_kinds(state: RunState) -> set[str]:
    return {*state.view.items.values(), *(kind for kept in state.kept.values() for kind in kept.items.values())}


def _parts(game: Game, row: dict[str, Any], where: str) -> list[Any]:
    """An entity's components from its checked row, with its look (rebuilt from its kind)."""
    parts = [v for k, v in row.items() if k not in ("id", "energy")]
    if "Player" in row:
        parts.append(player_look(game.rules))
    elif "Monster" in row:
        parts.append(monster_look(_monster_kind(game, row["Monster"].kind, where)))
    elif "Item" in row:
        parts.append(item_look(_item_kind(game.registry, row["Item"].kind, where)))
    return parts


def _kept(game: Game, data: dict[str, Any], where: str) -> KeptLevel:
    level = leveldata.load(data["level"], f"{where}.level")
    h, w = level.terrain.shape
    if len(data["seen"]) != h or any(len(row) != w for row in data["seen"]):
        raise ValueError(f"{where}.seen: expected a list of {h} rows of {w} 0/1 characters")
    things = [(_parts(game, row, f"{where}.things[{i}]"), row.get("energy")) for i, row in enumerate(data["things"])]
    items = _remembered_of(data["remembered"], f"{where}.remembered")
    return KeptLevel(level, _seen_of(data["seen"], w, h), things, items)


def _monster_kind(game: Game, name: str, where: str):
    try:
        return game.monster_kind(name)
    except KeyError:
        raise ValueError(f"{where}.Monster.kind: expected a known monster kind, got {name!r}") from None


def _item_kind(registry: Registry, name: str, where: str):
    if name not in registry.items:
        raise ValueError(f"{where}.Item.kind: expected a known item kind, got {name!r}")
    return registry.items[name]
