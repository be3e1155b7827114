"""What actions, behaviours and effects do to entities: monster kinds, spawning, giving, moving,
killing, the player's arrival on a cell, picking up and applying items.

:class:`Entities` is mixed into :class:`engine.core.turn.run.Run` and works on the run's state through
``self`` (``state``, ``world``, ``registry``, ``rules``, ``ruleset``, ``api``, ``isolation``,
``hook``, ``log``); it imports nothing that imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.kinds.content import ItemKind, MonsterKind
from engine.core.kinds.saying import kind_of
from engine.core.model.components import Actor, Charges, Dead, Fighter, Item, Monster, Position
from engine.core.model.events import Hurt
from engine.core.plugin.isolation import safe_repr
from engine.core.turn import inventory
from engine.core.turn import terrain as terrainrun
from engine.core.turn.looks import item_look, monster_look
from engine.kit import limits

if TYPE_CHECKING:
    from engine.core.model.requests import Request


class Entities:
    """The run's operations on entities (see the module doc)."""

    def monster_kind(self, name: str) -> MonsterKind:
        """A monster kind by name: the preset's own kinds first, then the registered ones."""
        return self.rules.monster_kinds.get(name) or self.registry.monsters[name]

    def monster_kinds_at(self, depth: int) -> list[MonsterKind]:
        """The monster kinds the preset's table may place at ``depth`` (its own list, or every
        registered kind; or the kinds its threshold table reaches there), by name."""
        rules = self.rules
        if rules.monster_table:
            names = {name for d, _, name in rules.monster_table if d <= depth}
            return sorted((self.monster_kind(n) for n in names), key=lambda k: k.name)
        kinds = [self.monster_kind(n) for n in (rules.monsters or tuple(self.registry.monsters))]
        return sorted((k for k in kinds if k.min_depth <= depth <= k.max_depth and k.weight > 0), key=lambda k: k.name)

    def kind_of(self, entity: int) -> MonsterKind:
        return self.monster_kind(self.world.get(entity, Monster).kind)

    def spawn_monster(self, kind_name: str, x: int, y: int) -> int:
        kind = self.monster_kind(kind_name)
        entity = self.world.create(
            Monster(kind.name, kind.behaviour, kind.sight),
            monster_look(kind),
            Actor(speed=kind.speed),
            Fighter(kind.hp, kind.hp, kind.attack, kind.defense),
        )
        self.state.spatial.place(entity, x, y)
        return entity

    def spawn_item(self, kind_name: str, x: int, y: int, amount: int) -> int:
        kind = self.registry.items[kind_name]
        entity = self.world.create(Item(kind.name, amount), item_look(kind))
        if kind.charges:  # only a kind with charges gets the component: other items save as they did
            self.world.add(entity, Charges(kind.charges))
        self.state.spatial.place(entity, x, y)
        return entity

    def give(self, kind_name: str, amount: int = 1) -> int | None:
        """Put ``amount`` of an item kind straight into the player's pack (a start kit, a reward):
        the carried entity, or None when the pack has no room (nothing is created then)."""
        kind = self.registry.items[kind_name]
        item = self.world.create(Item(kind.name, amount), item_look(kind))
        if kind.charges:
            self.world.add(item, Charges(kind.charges))
        if not inventory.room_for(self, item):
            self.world.delete(item)
            return None
        return inventory.add(self, item)

    def position(self, entity: int) -> tuple[int, int]:
        pos = self.world.get(entity, Position)
        return pos.x, pos.y

    def passable(self, x: int, y: int) -> bool:
        """In bounds, walkable (not a wall), and nobody standing there."""
        walkable = self.ground.walkable
        return (
            0 <= x < walkable.shape[1] and 0 <= y < walkable.shape[0]
            and walkable[y, x] and self.state.spatial.blocker_at(x, y) is None
        )

    def name_of(self, entity: int) -> str:
        monster = self.world.try_get(entity, Monster)
        return monster.kind if monster else "you"

    def move_entity(self, entity: int, x: int, y: int) -> None:
        """Move a creature; the kinds of terrain it leaves and enters hear it (their hooks)."""
        hooked = self.ground.hooked
        old = self.position(entity) if hooked else None
        self.state.spatial.move(entity, x, y)
        if entity == self.player:
            self.state.view.dirty = True
        if hooked:
            terrainrun.moved(self, entity, old, (x, y))

    def hurt(self, entity: int, amount: int, by: int | str | None = None) -> int:
        """Take up to ``amount`` HP from a creature (never below 0), heard by listeners as
        :class:`~engine.core.model.events.Hurt`; returns the HP taken. The caller kills at 0 (after it
        has said the blow), with :meth:`kill`."""
        fighter = self.world.try_get(entity, Fighter)
        if fighter is None or amount <= 0 or fighter.hp <= 0:
            return 0
        dealt = min(fighter.hp, int(amount))
        fighter.hp -= dealt
        pos = self.world.try_get(entity, Position)
        self.emit(Hurt(entity, dealt, by, killed=fighter.hp == 0, at=(pos.x, pos.y) if pos is not None else None))
        return dealt

    def kill(self, entity: int, killer: int | str | None = None) -> None:
        """An entity's HP reached 0, by ``killer``: a creature's hand, a named cause (a status, a
        terrain kind, a trap: a string) or nothing said (None). A monster leaves the map and the
        scheduler now, so it never acts again and its cell frees up before the next monster moves
        (the reap system deletes it). The player's death, wherever the blow came from, is applied
        by the turn loop at the end of the turn (:meth:`engine.core.turn.game.Game.apply_death`)."""
        creature = None if isinstance(killer, str) else killer
        monster = self.world.try_get(creature, Monster) if creature is not None else None
        cause = monster.kind if monster is not None else killer if isinstance(killer, str) else ""
        self.hook("on_death", entity=entity, killer=creature, cause=cause)
        if entity == self.player:
            self.state.alive = False
            self.state.killed_by, self.state.killed_by_creature = cause, monster is not None
            return
        self.state.spatial.remove(entity)
        self.state.scheduler.remove(entity)
        self.world.add(entity, Dead())

    def player_arrived(self) -> Request | None:
        """The player stepped onto a new cell: the exit ends the run (the ruleset says how);
        otherwise pick up what lies here and say when there are stairs."""
        here = self.position(self.player)
        if here == self.level.exit:
            return self.ruleset.reached_exit(self)
        left = []
        for entity in self.state.spatial.items_at(*here):
            kind = self.registry.items[self.world.get(entity, Item).kind]
            if not (self.ruleset.picks_up(self, kind) and self.pick_up(entity)):
                left.append(kind.name)
        if left:
            self.log(self.rules.message("see_here", items=", ".join(left)))
        if self.level.stairs == here:
            self.log(self.rules.message("on_stairs"))
        elif self.level.upstairs == here:
            self.log(self.rules.message("on_upstairs"))
        return None

    # -- items ---------------------------------------------------------------------------
    def pick_up(self, item: int) -> bool:
        """The player picks up an item lying where they stand: gold and the like apply at once, the
        rest goes into the pack (onto its stack, or under a free letter). False when the pack is full."""
        kind = self.registry.items[self.world.get(item, Item).kind]
        if kind.use == "pickup":
            self.state.spatial.remove(item)
            self.apply_item(self.player, kind, self.world.get(item, Item).amount)
            self.world.delete(item)
            return True
        if not inventory.room_for(self, item):
            self.log(self.rules.message("pack_full", item=kind.name))
            return False
        self.state.spatial.remove(item)
        carried = inventory.add(self, item)
        self.log(self.rules.message("pickup", item=kind.name, letter=inventory.letter_of(self, carried)))
        return True

    def apply_item(self, entity: int, kind: ItemKind, amount: int, target: tuple[int, int] | None = None) -> None:
        """Apply an item's effect (a plugin's function, given the game API) and log what it says.
        An item that aims (its kind's ``target``) passes the cell aimed at as ``target=``."""
        effect = self.registry.effects[kind.effect]
        plugin = self.registry.owners.get(("effects", kind.effect))
        extra = {"target": target} if target is not None else {}
        message = self.isolation.call(plugin, f"effect {kind.effect!r}", effect, self.api, entity, kind, amount,
                                      **extra)
        if message is not None and (isinstance(message, str) or self.isolation.check(
                plugin, f"effect {kind.effect!r}", False, f"returned {safe_repr(message)}, not a message or None")):
            self.log(message, kind_of(message) or "item")  # what using an item did, unless it says otherwise

    def set_speed(self, entity: int, speed: int) -> None:
        """A creature's speed (energy per tick, 100 normal) from now on, in its Actor and the scheduler."""
        speed = max(1, min(limits.MAX_SPEED, int(speed)))
        self.world.get(entity, Actor).speed = speed
        self.state.scheduler.set_speed(entity, speed)
