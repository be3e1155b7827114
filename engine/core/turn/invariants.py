"""The invariants the game keeps between turns, checked on every loaded run (and by the tests after
random play), so a save that is well-formed but inconsistent is refused instead of crashing or
hanging the game later.

:func:`check` raises ValueError with one line naming the first broken invariant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.model import memory
from engine.core.model.components import (
    Actor,
    Carried,
    Dead,
    Equipped,
    Fighter,
    Inventory,
    Item,
    Monster,
    Player,
    Position,
)
from engine.kit import limits

if TYPE_CHECKING:
    from engine.core.kinds.rules import GameRules
    from engine.core.model.state import RunState
    from engine.core.plugin.registry import Registry


def check(state: RunState, registry: Registry, rules: GameRules) -> None:
    world, level = state.world, state.level
    h, w = level.terrain.shape
    _terrain(level, registry, "level")
    if state.view.seen.shape != (h, w):
        raise ValueError(f"seen: expected the {w}x{h} map's shape, got {state.view.seen.shape}")
    for label, cell in (("start", level.start), ("stairs", level.stairs), ("exit", level.exit)):
        if cell is not None and not _floor(level, registry, *cell):
            raise ValueError(f"level.{label}: expected a cell on the map that is not wall, got {list(cell)}")
    player = state.player
    for needed in (Player, Position, Fighter, Actor, Inventory):
        if not world.has(player, needed):
            raise ValueError(f"player: expected an entity with {needed.__name__}, entity {player} has none")
    if not state.alive or player not in state.scheduler:
        raise ValueError("scheduler: expected the living player to be scheduled")
    monsters = {*registry.monsters, *rules.monster_kinds}
    for entity in world.entities():
        name = "the player" if entity == player else f"entity {entity}"
        if world.has(entity, Dead):
            raise ValueError(f"{name}: a dead entity is never saved")
        if entity != player and (world.has(entity, Player) or world.has(entity, Inventory)):
            raise ValueError(f"{name}: only the player has Player and Inventory")
        pos = world.try_get(entity, Position)
        if pos is not None and not _floor(level, registry, pos.x, pos.y):
            raise ValueError(f"{name}: expected a position on the {w}x{h} map that is not wall, got {pos.x},{pos.y}")
        fighter = world.try_get(entity, Fighter)
        if fighter is not None and not (0 < fighter.hp <= fighter.max_hp if entity == player
                                        else 0 <= fighter.hp <= fighter.max_hp):
            raise ValueError(f"{name}: expected 0 <= hp <= max_hp (above 0 for the player), got "
                             f"{fighter.hp}/{fighter.max_hp}")
        monster = world.try_get(entity, Monster)
        if monster is not None:
            _monster(state, registry, monsters, entity, monster, name)
        item = world.try_get(entity, Item)
        if item is not None:
            if item.kind not in registry.items:
                raise ValueError(f"{name}: expected a known item kind, got {item.kind!r}")
            _item(state, registry, entity, item, name)
        elif world.has(entity, Carried) or world.has(entity, Equipped):
            raise ValueError(f"{name}: only an item is carried or worn")
    _kept(state, registry, monsters)
    _remembered(state, registry)
    entities = set(world.entities())
    for entity in state.scheduler.energy:
        if entity not in entities:
            raise ValueError(f"scheduler: entity {entity} does not exist")
        if entity != player and not (world.has(entity, Monster) and world.get(entity, Monster).awake):
            raise ValueError(f"scheduler: entity {entity} is scheduled but is no awake monster")
        if not -limits.MAX_STAT <= state.scheduler.energy[entity] <= limits.MAX_STAT:
            raise ValueError(f"scheduler: energy of entity {entity} out of range: {state.scheduler.energy[entity]}")


def _kept(state: RunState, registry: Registry, monsters: set[str]) -> None:
    """Kept levels: not the current depth, within the limits; each thing on its level's floor, one
    creature a cell, a known monster or item or neither, nothing of the player's; energy only for
    awake monsters."""
    if state.depth in state.kept:
        raise ValueError(f"kept: depth {state.depth} is the current level, kept as well")
    cells = sum(k.cells for k in state.kept.values())
    if len(state.kept) > limits.MAX_KEPT_LEVELS or cells > limits.MAX_KEPT_CELLS:
        raise ValueError(f"kept: {len(state.kept)} levels of {cells} cells, past the limits "
                         f"({limits.MAX_KEPT_LEVELS} levels, {limits.MAX_KEPT_CELLS} cells)")
    things = sum(len(k.things) for k in state.kept.values())
    if things + len(state.world.entities()) > limits.MAX_ENTITIES:
        raise ValueError(f"kept: {things} things kept and {len(state.world.entities())} in play: more than "
                         f"{limits.MAX_ENTITIES} entities in a run")
    for depth, kept in sorted(state.kept.items()):
        level, taken = kept.level, set()
        _terrain(level, registry, f"kept depth {depth}")
        for i, (components, energy) in enumerate(kept.things):
            name = f"kept depth {depth}, thing {i}"
            by_type = {type(c): c for c in components}
            pos = by_type.get(Position)
            if pos is None or not _floor(level, registry, pos.x, pos.y):
                raise ValueError(f"{name}: expected a position on its level that is not wall")
            if {Player, Inventory, Carried, Equipped, Dead} & set(by_type):
                raise ValueError(f"{name}: the player's own things are never left on a level")
            monster, item = by_type.get(Monster), by_type.get(Item)
            if monster is not None:
                if monster.kind not in monsters or monster.behaviour not in registry.behaviours:
                    raise ValueError(f"{name}: expected a known monster kind and behaviour, got "
                                     f"{monster.kind!r}, {monster.behaviour!r}")
                if Actor not in by_type or Fighter not in by_type:
                    raise ValueError(f"{name}: a monster needs Actor and Fighter")
                if (pos.x, pos.y) in taken:
                    raise ValueError(f"{name}: two creatures on {pos.x},{pos.y}")
                taken.add((pos.x, pos.y))
            if item is not None and item.kind not in registry.items:
                raise ValueError(f"{name}: expected a known item kind, got {item.kind!r}")
            if (energy is not None) != (monster is not None and monster.awake):
                raise ValueError(f"{name}: an awake monster has energy and nothing else does")


def _remembered(state: RunState, registry: Registry) -> None:
    """Items remembered: each on its level's map and of a known kind, at most MAX_REMEMBERED in all."""
    total = memory.remembered_total(state)
    if total > limits.MAX_REMEMBERED:
        raise ValueError(f"remembered: {total} item cells remembered, more than {limits.MAX_REMEMBERED} in a run")
    levels = [("remembered", state.level, state.view.items),
              *((f"kept depth {d}, remembered", k.level, k.items) for d, k in sorted(state.kept.items()))]
    for where, level, items in levels:
        h, w = level.terrain.shape
        for (x, y), kind in items.items():
            if not (0 <= x < w and 0 <= y < h):
                raise ValueError(f"{where}: expected a cell on the {w}x{h} map, got {x},{y}")
            if kind not in registry.items:
                raise ValueError(f"{where}: expected a known item kind, got {kind!r}")


def _item(state: RunState, registry: Registry, entity: int, item: Item, name: str) -> None:
    """An item lies on the map (a position) or is in the pack (a letter, maybe worn), and is
    nothing else; letters are not shared; a worn item is wearable and in its kind's slot."""
    world = state.world
    kind = registry.items[item.kind]
    carried, equipped = world.try_get(entity, Carried), world.try_get(entity, Equipped)
    if (world.has(entity, Position) == (carried is not None) or world.has(entity, Monster)
            or world.has(entity, Fighter)):
        raise ValueError(f"{name}: expected an item either lying on the map or carried, and nothing else")
    if carried is not None and any(c.letter == carried.letter and e != entity for e, c in world.query(Carried)):
        raise ValueError(f"{name}: letter {carried.letter!r} is carried twice")
    if equipped is not None and (carried is None or not kind.equipment or equipped.slot != kind.slot):
        raise ValueError(f"{name}: expected a carried {kind.slot!r} item to be worn, got {kind.use!r} "
                         f"in {equipped.slot!r}")


def _monster(state: RunState, registry: Registry, kinds: set[str], entity: int, monster: Monster, name: str):
    world = state.world
    if monster.kind not in kinds:
        raise ValueError(f"{name}: expected a known monster kind, got {monster.kind!r}")
    if monster.behaviour not in registry.behaviours:
        raise ValueError(f"{name}: expected a known behaviour, got {monster.behaviour!r}")
    for needed in (Position, Fighter, Actor):
        if not world.has(entity, needed):
            raise ValueError(f"{name}: a monster needs {needed.__name__}")
    if monster.awake != (entity in state.scheduler):
        raise ValueError(f"{name}: an awake monster is scheduled and a sleeping one is not")


def _terrain(level, registry: Registry, where: str) -> None:
    """Every kind of terrain the level names is registered (a save's plugin is named in it, and
    its absence is told before this; a file edited by hand is caught here)."""
    for name in level.kinds:
        if name not in registry.terrain:
            raise ValueError(f"{where}: terrain kind {name!r} is registered by no plugin")


def _floor(level, registry: Registry, x: int, y: int) -> bool:
    """Whether (x, y) is on the level and a creature may stand there."""
    h, w = level.terrain.shape
    if not (0 <= x < w and 0 <= y < h):
        return False
    kind = registry.terrain.get(level.kinds[int(level.terrain[y, x])])
    return kind is not None and kind.walkable
