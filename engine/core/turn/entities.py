"""What actions, behaviours and effects do to entities: monster kinds, spawning, giving, moving,
killing, the player's arrival on a cell, picking up and applying items.

Functions over a :class:`engine.core.turn.run.Run` (its ``state``, ``world``, ``registry``,
``rules``, ``ruleset``, ``api``, ``isolation``, ``hook`` and ``log``), passed as ``run``, as
:mod:`engine.core.turn.inventory`'s are; this module imports nothing that imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.kinds import saying
from engine.core.kinds.content import ItemKind, MonsterKind
from engine.core.model.components import Actor, Charges, Dead, Fighter, Item, LeftBehind, Monster, Position
from engine.core.model.events import Hurt
from engine.core.plugin.isolation import safe_repr
from engine.core.turn import inventory, naming
from engine.core.turn import terrain as terrainrun
from engine.core.turn.looks import item_look, monster_look
from engine.kit import limits

if TYPE_CHECKING:
    from engine.core.model.requests import Request
    from engine.core.turn.run import Run


def monster_kind(run: Run, name: str) -> MonsterKind:
    """A monster kind by name: the preset's own kinds first, then the registered ones."""
    return run.rules.monster_kinds.get(name) or run.registry.monsters[name]


def monster_kinds_at(run: Run, depth: int) -> list[MonsterKind]:
    """The monster kinds the preset's table may place at ``depth`` (its own list, or every
    registered kind; or the kinds its threshold table reaches there), by name."""
    rules = run.rules
    if rules.monster_table:
        names = {name for d, _, name in rules.monster_table if d <= depth}
        return sorted((monster_kind(run, n) for n in names), key=lambda k: k.name)
    kinds = [monster_kind(run, n) for n in (rules.monsters or tuple(run.registry.monsters))]
    return sorted((k for k in kinds if k.min_depth <= depth <= k.max_depth and k.weight > 0), key=lambda k: k.name)


def kind_of(run: Run, entity: int) -> MonsterKind:
    return monster_kind(run, run.world.get(entity, Monster).kind)


def barring(run: Run, entity: int) -> frozenset[str]:
    """The words of the level's ``barred`` kinds that bar ``entity`` (a monster whose kind's params
    has the word true; the player: none): the kinds it may not enter (``TerrainKind.barred``)."""
    words = run.ground.barring
    if not words:
        return words
    monster = run.world.try_get(entity, Monster)
    if monster is None:
        return frozenset()
    params = monster_kind(run, monster.kind).params
    return frozenset(word for word in words if params.get(word))


def spawn_monster(run: Run, kind_name: str, x: int, y: int) -> int:
    kind = monster_kind(run, kind_name)
    entity = run.world.create(
        Monster(kind.name, kind.behaviour, kind.sight),
        monster_look(kind),
        Actor(speed=kind.speed),
        Fighter(kind.hp, kind.hp, kind.attack, kind.defense),
    )
    run.state.spatial.place(entity, x, y)
    return entity


def spawn_item(run: Run, kind_name: str, x: int, y: int, amount: int) -> int:
    kind = run.registry.items[kind_name]
    entity = run.world.create(Item(kind.name, amount), item_look(kind))
    if kind.charges:  # only a kind with charges gets the component: other items save as they did
        run.world.add(entity, Charges(kind.charges))
    run.state.spatial.place(entity, x, y)
    return entity


def give(run: Run, kind_name: str, amount: int = 1) -> int | None:
    """Put ``amount`` of an item kind straight into the player's pack (a start kit, a reward):
    the carried entity, or None when the pack has no room (nothing is created then)."""
    kind = run.registry.items[kind_name]
    item = run.world.create(Item(kind.name, amount), item_look(kind))
    if kind.charges:
        run.world.add(item, Charges(kind.charges))
    if not inventory.room_for(run, item):
        run.world.delete(item)
        return None
    return inventory.add(run, item)


def position(run: Run, entity: int) -> tuple[int, int]:
    pos = run.world.get(entity, Position)
    return pos.x, pos.y


def passable(run: Run, x: int, y: int) -> bool:
    """In bounds, walkable (not a wall), and nobody standing there."""
    walkable = run.ground.walkable
    return (
        0 <= x < walkable.shape[1] and 0 <= y < walkable.shape[0]
        and walkable[y, x] and run.state.spatial.blocker_at(x, y) is None
    )


def name_of(run: Run, entity: int) -> str:
    monster = run.world.try_get(entity, Monster)
    return monster.kind if monster else "you"


def move_entity(run: Run, entity: int, x: int, y: int) -> None:
    """Move a creature; the kinds of terrain it leaves and enters hear it (their hooks). The items
    the player steps off are :class:`LeftBehind` (explore does not walk back for them)."""
    state = run.state  # read once: a crowd's every step comes here
    listening = run.ground.listening  # the cells whose kinds hear steps
    player, spatial = entity == state.player, state.spatial
    old = spatial.move(entity, x, y)
    if not (listening or player):  # a monster's step where no kind hears steps: the index's move alone
        return
    if player:
        state.view.dirty = True
        if old != (x, y):
            for item in spatial.items_at(*old):
                if not run.world.has(item, LeftBehind):
                    run.world.add(item, LeftBehind())
    if listening and (old in listening or (x, y) in listening):
        terrainrun.moved(run, entity, old, (x, y))


def hurt(run: Run, entity: int, amount: int, by: int | str | None = None) -> int:
    """Take up to ``amount`` HP from a creature (never below 0), heard by listeners as
    :class:`~engine.core.model.events.Hurt`; returns the HP taken. The caller kills at 0 (after it
    has said the blow), with :func:`kill`."""
    fighter = run.world.try_get(entity, Fighter)
    if fighter is None or amount <= 0 or fighter.hp <= 0:
        return 0
    dealt = min(fighter.hp, int(amount))
    fighter.hp -= dealt
    pos = run.world.try_get(entity, Position)
    run.emit(Hurt(entity, dealt, by, killed=fighter.hp == 0, at=(pos.x, pos.y) if pos is not None else None))
    return dealt


def kill(run: Run, entity: int, killer: int | str | None = None) -> None:
    """An entity's HP reached 0, by ``killer``: a creature's hand, a named cause (a status, a
    terrain kind, a trap: a string) or nothing said (None). A monster leaves the map and the
    scheduler now, so it never acts again and its cell frees up before the next monster moves
    (the reap system deletes it). The player's death, wherever the blow came from, is applied
    by the turn loop at the end of the turn (:meth:`engine.core.turn.game.Game.apply_death`)."""
    creature = None if isinstance(killer, str) else killer
    monster = run.world.try_get(creature, Monster) if creature is not None else None
    cause = monster.kind if monster is not None else killer if isinstance(killer, str) else ""
    run.hook("on_death", entity=entity, killer=creature, cause=cause)
    if entity == run.player:
        run.state.alive = False
        run.state.killed_by, run.state.killed_by_creature = cause, monster is not None
        return
    run.state.spatial.remove(entity)
    run.state.scheduler.remove(entity)
    run.world.add(entity, Dead())


def player_arrived(run: Run) -> Request | None:
    """The player stepped onto a new cell: the exit ends the run (the ruleset says how);
    otherwise pick up what lies here and say when there are stairs."""
    here = position(run, run.player)
    if here == run.level.exit:
        return run.ruleset.reached_exit(run.api)
    left = []
    for entity in run.state.spatial.items_at(*here):
        kind = run.registry.items[run.world.get(entity, Item).kind]
        if not (run.ruleset.picks_up(run.api, kind) and pick_up(run, entity)):
            left.append(naming.item_name(run, entity, kind))
    if left:
        run.log(run.rules.message("see_here", items=", ".join(left)))
    if run.level.stairs == here:
        run.log(run.rules.message("on_stairs"))
    elif run.level.upstairs == here:
        run.log(run.rules.message("on_upstairs"))
    return None


# -- items ---------------------------------------------------------------------------
def pick_up(run: Run, item: int) -> bool:
    """The player picks up an item lying where they stand: gold and the like apply at once, the
    rest goes into the pack (onto its stack, or under a free letter). False when the pack is full."""
    kind = run.registry.items[run.world.get(item, Item).kind]
    if kind.use == "pickup":
        run.state.spatial.remove(item)
        apply_item(run, run.player, kind, run.world.get(item, Item).amount)
        run.world.delete(item)
        return True
    if not inventory.room_for(run, item):
        run.log(run.rules.message("pack_full", item=naming.item_name(run, item, kind)))
        return False
    run.state.spatial.remove(item)
    if run.world.has(item, LeftBehind):
        run.world.remove(item, LeftBehind)
    carried = inventory.add(run, item)
    said = naming.item_name(run, carried, kind)
    run.log(run.rules.message("pickup", item=said, letter=inventory.letter_of(run, carried)))
    return True


def apply_item(run: Run, entity: int, kind: ItemKind, amount: int, target: tuple[int, int] | None = None) -> None:
    """Apply an item's effect (a plugin's function, given the game API) and log what it says.
    An item that aims (its kind's ``target``) passes the cell aimed at as ``target=``."""
    effect = run.registry.effects[kind.effect]
    plugin = run.registry.owners.get(("effects", kind.effect))
    extra = {"target": target} if target is not None else {}
    message = run.isolation.call(plugin, f"effect {kind.effect!r}", effect, run.api, entity, kind, amount,
                                 **extra)
    if message is not None and (isinstance(message, str) or run.isolation.check(
            plugin, f"effect {kind.effect!r}", False, f"returned {safe_repr(message)}, not a message or None")):
        run.log(message, saying.kind_of(message) or "item")  # what using an item did, unless it says otherwise


def set_speed(run: Run, entity: int, speed: int) -> None:
    """A creature's speed (energy per tick, 100 normal) from now on, in its Actor and the scheduler."""
    speed = max(1, min(limits.MAX_SPEED, int(speed)))
    run.world.get(entity, Actor).speed = speed
    run.state.scheduler.set_speed(entity, speed)
