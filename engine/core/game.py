"""The game: one run of one preset, around one esper world.

:class:`Game` owns the world, the current level and its FOV memory, the scheduler, the message
log and the run's random streams: runs and levels, entities and their positions, what the player
sees. ``press`` plays one key; the turn itself (the player's action, then the monsters') is
``engine/turns.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.core import rng as rngmod
from engine.core import turn as turns
from engine.core.components import Actor, Fighter, Inventory, Item, Monster, Player, Position
from engine.core.content import ItemKind, MonsterKind
from engine.core.generate import run_generator
from engine.core.looks import item_look, monster_look, player_look
from engine.core.placement import populate
from engine.core.registry import Registry
from engine.core.rules import GameRules
from engine.core.scheduler import TURN_COST, Scheduler
from engine.core.world import World
from engine.kit.mapgen import WALL, Level


@dataclass
class Choices:
    """The plugin choices of a run: ``--plugin fov=...`` and ``generator=...`` override the preset."""

    fov: str | None = None
    generator: str | None = None

    def as_dict(self) -> dict[str, str]:
        return {k: v for k, v in (("fov", self.fov), ("generator", self.generator)) if v}


@dataclass
class Floor:
    """The current level and what the player knows of it."""

    level: Level
    depth: int
    visible: np.ndarray = field(init=False)
    seen: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.visible = np.zeros(self.level.terrain.shape, dtype=bool)
        self.seen = np.zeros(self.level.terrain.shape, dtype=bool)


class Game:
    def __init__(
        self,
        registry: Registry,
        rules: GameRules,
        seed: int,
        choices: Choices | None = None,
        *,
        level_source: Any = None,
    ) -> None:
        self.registry = registry
        self.rules = rules
        self.choices = choices or Choices()
        self.fov = registry.choose("fov", self.choices.fov or rules.fov)
        if self.choices.generator:
            registry.choose("generator", self.choices.generator)
        self.level_source = level_source  # a fixed Level for depth 1 (``--map``), or None
        self.first_seed = seed
        self.run = 1
        self.epoch = 0  # counts level and run changes: an action that changes either ends the turn there
        self.world: World | None = None
        # called as listener(event, game, **data); see emit(). Empty while the first run is built.
        self.listeners: list[Callable[..., None]] = []
        self.start_run(seed)

    def emit(self, event: str, **data: Any) -> None:
        """Tell the listeners (saves, profile, replay: engine.persist.keeper) what happened. Events:
        ``start`` (a new run, before its level 1), ``level`` (a level was entered; mid-turn),
        ``death`` (the player died; the state is final), ``escape`` (the player reached an exit,
        before the next run starts), ``quit`` (the quit key; a turn boundary) and ``key``
        (``token=``, after every key has been handled: always a turn boundary)."""
        for listener in list(self.listeners):
            listener(event, self, **data)

    # -- runs and levels ---------------------------------------------------------------
    def start_run(self, seed: int, note: str = "") -> None:
        """Start a run: a new world, a fresh player, level 1. ``note`` is logged after the welcome
        (how the last run ended, for presets that go straight on)."""
        if self.world is not None:
            self.world.close()
        self.seed = seed
        self.world = World()
        self.scheduler = Scheduler()
        self.blockers: dict[tuple[int, int], int] = {}
        self.items_at: dict[tuple[int, int], list[int]] = {}
        self.messages: list[str] = []
        self.turn = 0
        self.alive = True
        self.quit_requested = False
        self.new_in_view = False  # a monster came into view this turn (held keys stop walking)
        self._streams: dict[str, random.Random] = {}
        p = self.rules.player
        self.player = self.world.create(
            Player(),
            Position(0, 0),
            player_look(self.rules),
            Actor(speed=int(p.get("speed", 100))),
            Fighter(int(p["hp"]), int(p["hp"]), int(p["attack"]), int(p.get("defense", 0))),
            Inventory(),
        )
        # the player starts with a full turn of energy: the first move of a run is always theirs
        self.scheduler.add(self.player, self.world.get(self.player, Actor).speed, TURN_COST, player=True)
        self.log(self.rules.message("welcome"))
        self.log(note)
        self.emit("start")
        self.enter_level(1)

    def new_run(self, note: str = "") -> None:
        """The next run: the run counter goes up and the seed is derived from the first one, so a
        replay of the keys reproduces every run."""
        self.run += 1
        self.start_run(rngmod.derive(self.first_seed, f"run:{self.run}") % rngmod.MAX_SEED, note)

    def rng(self, label: str) -> random.Random:
        """The run's random stream for ``label`` ("combat", "ai", ...), created on first use."""
        stream = self._streams.get(label)
        if stream is None:
            stream = self._streams[label] = rngmod.stream(self.seed, label)
        return stream

    def make_level(self, depth: int) -> Level:
        if depth == 1 and self.run == 1 and self.level_source is not None:
            return self.level_source
        name = self.choices.generator or self.rules.generator_for(depth)
        info = self.registry.choose("generator", name)
        params = self.rules.generator_params.get(name, {})
        stream = rngmod.stream(self.seed, f"level:{depth}")
        return run_generator(info, self.rules.width, self.rules.height, depth, stream, params)

    def enter_level(self, depth: int) -> None:
        self.epoch += 1
        for entity in [*self.blockers.values(), *(e for es in self.items_at.values() for e in es)]:
            if entity != self.player:
                self.scheduler.remove(entity)
                self.world.delete(entity)
        self.blockers.clear()
        self.items_at.clear()
        level = self.make_level(depth)
        self.floor = Floor(level, depth)
        pos = self.world.get(self.player, Position)
        pos.x, pos.y = level.start
        self.blockers[level.start] = self.player
        populate(self, level, depth, self.rng(f"spawn:{depth}"))
        self.update_fov()
        self.registry.call("on_level_generated", game=self, level=level)
        self.emit("level")

    @property
    def level(self) -> Level:
        return self.floor.level

    @property
    def depth(self) -> int:
        return self.floor.depth

    def descend(self) -> None:
        depth = self.depth + 1
        self.log(self.rules.message("descend", depth=depth))
        self.enter_level(depth)

    # -- entities ----------------------------------------------------------------------
    def monster_kind(self, name: str) -> MonsterKind:
        """A monster kind by name: the preset's own kinds first, then the registered ones."""
        return self.rules.monster_kinds.get(name) or self.registry.monsters[name]

    def kind_of(self, entity: int) -> MonsterKind:
        return self.monster_kind(self.world.get(entity, Monster).kind)

    def spawn_monster(self, kind_name: str, x: int, y: int) -> int:
        kind = self.monster_kind(kind_name)
        entity = self.world.create(
            Monster(kind.name, kind.behaviour, kind.sight),
            Position(x, y),
            monster_look(kind),
            Actor(speed=kind.speed),
            Fighter(kind.hp, kind.hp, kind.attack, kind.defense),
        )
        self.blockers[(x, y)] = entity
        return entity

    def spawn_item(self, kind_name: str, x: int, y: int, amount: int) -> int:
        kind = self.registry.items[kind_name]
        entity = self.world.create(Item(kind.name, amount), Position(x, y), item_look(kind))
        self.items_at.setdefault((x, y), []).append(entity)
        return entity

    def position(self, entity: int) -> tuple[int, int]:
        pos = self.world.get(entity, Position)
        return pos.x, pos.y

    def passable(self, x: int, y: int) -> bool:
        """In bounds, not a wall, and nobody standing there."""
        terrain = self.level.terrain
        return (
            0 <= x < terrain.shape[1] and 0 <= y < terrain.shape[0]
            and terrain[y, x] != WALL and (x, y) not in self.blockers
        )

    def name_of(self, entity: int) -> str:
        monster = self.world.try_get(entity, Monster)
        return monster.kind if monster else "you"

    def move_entity(self, entity: int, x: int, y: int) -> None:
        pos = self.world.get(entity, Position)
        if self.blockers.get((pos.x, pos.y)) == entity:
            del self.blockers[(pos.x, pos.y)]
        pos.x, pos.y = x, y
        self.blockers[(x, y)] = entity

    def kill(self, entity: int) -> None:
        """An entity's HP reached 0: the player's death ends the run; a monster is cleared now,
        so it never acts again and its cell frees up before the next monster moves."""
        self.registry.call("on_death", game=self, entity=entity)
        if entity == self.player:
            self.alive = False
            if self.rules.on_death == "screen":
                self.log(self.rules.message("die"))
            self.emit("death")
            return
        pos = self.world.get(entity, Position)
        if self.blockers.get((pos.x, pos.y)) == entity:
            del self.blockers[(pos.x, pos.y)]
        self.scheduler.remove(entity)
        self.world.delete(entity)

    def log(self, message: str) -> None:
        if not message:
            return
        self.messages.append(message)
        if self.rules.log_size and len(self.messages) > self.rules.log_size:
            del self.messages[: len(self.messages) - self.rules.log_size]

    # -- what the player sees ------------------------------------------------------------
    def update_fov(self) -> None:
        """Recompute the view and wake the monsters that notice the player. ``new_in_view`` is set
        when a monster comes into view or one in view notices the player: news that stops a held
        key in the window."""
        pos = self.world.get(self.player, Position)
        in_view = set(self.visible_monsters())
        transparent = self.level.terrain != WALL
        self.floor.visible = np.asarray(self.fov(transparent, (pos.x, pos.y), self.rules.fov_radius), dtype=bool)
        self.floor.seen |= self.floor.visible
        if not in_view.issuperset(self.visible_monsters()):
            self.new_in_view = True
        self.notice_player()

    def notices(self, entity: int) -> bool:
        """A monster notices the player when it stands where the player can see and the player is
        within its sight (a round radius)."""
        pos = self.world.get(entity, Position)
        if not self.floor.visible[pos.y, pos.x]:
            return False
        me = self.world.get(self.player, Position)
        sight = self.world.get(entity, Monster).sight
        return (pos.x - me.x) ** 2 + (pos.y - me.y) ** 2 <= sight * sight

    def visible_monsters(self) -> list[int]:
        visible = self.floor.visible
        return [e for (x, y), e in self.blockers.items() if e != self.player and visible[y, x]]

    def notice_player(self) -> None:
        """Wake the monsters that notice the player: only awake monsters are scheduled."""
        for entity in self.visible_monsters():
            monster = self.world.get(entity, Monster)
            if not monster.awake and self.notices(entity):
                monster.awake = True
                self.new_in_view = True
                self.scheduler.add(entity, self.world.get(entity, Actor).speed)

    def after_player_moved(self) -> None:
        pos = self.world.get(self.player, Position)
        here = (pos.x, pos.y)
        if here == self.level.exit:
            self.emit("escape")
            self.new_run(self.rules.message("exit"))  # on_exit = "new_run": the only choice so far
            return
        if self.rules.fov_timing == "move":
            self.update_fov()
        for entity in self.items_at.pop(here, []):
            item = self.world.get(entity, Item)
            kind = self.registry.items[item.kind]
            self.pick_up(kind, item.amount)
            self.world.delete(entity)
        if self.level.stairs == here:
            self.log(self.rules.message("on_stairs"))

    # -- items ---------------------------------------------------------------------------
    def pick_up(self, kind: ItemKind, amount: int) -> None:
        if kind.use == "pickup":
            self.apply_item(self.player, kind, amount)
        else:
            inv = self.world.get(self.player, Inventory)
            inv.pack[kind.name] = inv.pack.get(kind.name, 0) + amount
            self.log(self.rules.message("pickup", item=kind.name))

    def apply_item(self, entity: int, kind: ItemKind, amount: int) -> None:
        effect = self.registry.effects[kind.effect]
        message = effect(self, entity, kind, amount)
        if message:
            self.log(message)

    # -- turns (the loop itself is engine/turns.py) ------------------------------------------
    def press(self, token: str) -> bool:
        """Handle one key token; returns whether anything changed. Listeners hear ``key`` after it."""
        changed = turns.handle_key(self, token)
        self.emit("key", token=token)
        return changed

    def close(self) -> None:
        if self.world is not None:
            self.world.close()
            self.world = None
