"""A run in play: its state, the registry and preset it plays, and what can be done to it.

:class:`Run` is what actions, behaviours, effects and systems act on: entities and where they
stand, the message log, the random streams, what the player sees. It holds no turn loop and never
changes the level or the run: that is :class:`engine.core.game.Game`, which is a Run that owns the
turn. (The split keeps imports one way: actions and rulesets know a Run; the Game knows them.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.core import inventory
from engine.core.components import Actor, Dead, Fighter, Item, Monster, Position
from engine.core.content import ItemKind, MonsterKind
from engine.core.looks import item_look, monster_look
from engine.core.state import RunState, View
from engine.kit import limits
from engine.kit.mapgen import WALL, Level

if TYPE_CHECKING:
    from engine.core.registry import Registry
    from engine.core.requests import Request
    from engine.core.rules import GameRules
    from engine.kit.fov import FovAlgorithm
    from engine.kit.path import Pathfinder


class Choices(dict):
    """The plugin choices of a run (``--plugin fov=...``, ``generator=...``, ``path=...``), over the
    preset's defaults."""

    @property
    def fov(self) -> str | None:
        return self.get("fov")

    @property
    def generator(self) -> str | None:
        return self.get("generator")

    @property
    def path(self) -> str | None:
        return self.get("path")

    def as_dict(self) -> dict[str, str]:
        return {k: v for k, v in sorted(self.items()) if v}


class Run:
    """``ruleset`` is the preset's :class:`engine.core.ruleset.Ruleset` (typed loosely here: the
    ruleset module depends on this one, not the other way). ``first_seed`` seeds run 1 (later runs
    derive theirs from it); ``level_source`` is a fixed level 1 (``--map``), or None."""

    def __init__(self, registry: Registry, rules: GameRules, ruleset: Any, fov: FovAlgorithm, *,
                 choices: Choices, first_seed: int, level_source: Level | None = None) -> None:
        self.registry = registry
        self.rules = rules
        self.ruleset = ruleset
        self.fov = fov
        self.choices = choices
        self.first_seed = first_seed
        self.level_source = level_source
        self.state: RunState | None = None  # None until the game starts or resumes
        # given by the game: what plugins are handed (engine.core.api.GameAPI), and the guard every
        # call into a plugin goes through (engine.core.isolation.Isolation)
        self.api: Any = None
        self.isolation: Any = None
        # called as listener(event, game, **data); see emit()
        self.listeners: list[Callable[..., Any]] = []
        self.new_in_view = False  # a monster came into view this key (held keys stop walking)
        self.quit_requested = False

    def emit(self, event: str, **data: Any) -> None:
        """Tell the listeners (saves, profile, replay: engine.persist.keeper) what happened. Events:
        ``start`` (a new run, before its level 1), ``level`` (a level was entered, at the end of a
        turn), ``death`` (the player died; the state is final), ``escape`` (the player reached an
        exit, before the next run starts), ``quit`` (``save=``: the quit key, at a turn boundary)
        and ``key`` (``token=``, after every key has been handled: always a turn boundary)."""
        for listener in list(self.listeners):
            listener(event, self, **data)

    # -- the state, as the game and plugins read it ---------------------------------------
    @property
    def world(self):
        return self.state.world

    @property
    def player(self) -> int:
        return self.state.player

    @property
    def level(self) -> Level:
        return self.state.level

    @property
    def floor(self) -> View:
        """What the player sees (``visible``) and has seen (``seen``) of the current level."""
        return self.state.view

    @property
    def depth(self) -> int:
        return self.state.depth

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def won(self) -> bool:
        """The run was won: it is over, the player alive (the victory screen)."""
        return self.state.won

    @property
    def playing(self) -> bool:
        """The run goes on: the player is alive and has not won."""
        return self.state.alive and not self.state.won

    @property
    def alive(self) -> bool:
        return self.state.alive

    @property
    def messages(self) -> list[str]:
        return self.state.log

    @property
    def scheduler(self):
        return self.state.scheduler

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def run(self) -> int:
        return self.state.run

    def rng(self, label: str) -> random.Random:
        """The run's random stream for ``label`` ("combat", "ai", ...), created on first use."""
        return self.state.streams.get(label)

    def log(self, message: str) -> None:
        self.state.log.add(message)

    # -- entities ----------------------------------------------------------------------
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
        self.state.spatial.place(entity, x, y)
        return entity

    def give(self, kind_name: str, amount: int = 1) -> int | None:
        """Put ``amount`` of an item kind straight into the player's pack (a start kit, a reward):
        the carried entity, or None when the pack has no room (nothing is created then)."""
        kind = self.registry.items[kind_name]
        item = self.world.create(Item(kind.name, amount), item_look(kind))
        if not inventory.room_for(self, item):
            self.world.delete(item)
            return None
        return inventory.add(self, item)

    def position(self, entity: int) -> tuple[int, int]:
        pos = self.world.get(entity, Position)
        return pos.x, pos.y

    def passable(self, x: int, y: int) -> bool:
        """In bounds, not a wall, and nobody standing there."""
        terrain = self.level.terrain
        return (
            0 <= x < terrain.shape[1] and 0 <= y < terrain.shape[0]
            and terrain[y, x] != WALL and self.state.spatial.blocker_at(x, y) is None
        )

    def name_of(self, entity: int) -> str:
        monster = self.world.try_get(entity, Monster)
        return monster.kind if monster else "you"

    def move_entity(self, entity: int, x: int, y: int) -> None:
        self.state.spatial.move(entity, x, y)
        if entity == self.player:
            self.state.view.dirty = True

    def kill(self, entity: int, killer: int | None = None) -> None:
        """An entity's HP reached 0 (by ``killer``'s hand, when someone's). A monster leaves the map
        and the scheduler now, so it never acts again and its cell frees up before the next monster
        moves (the reap system deletes it). The player's death is applied by the turn loop at the
        end of the turn."""
        self.hook("on_death", entity=entity, killer=killer)
        if entity == self.player:
            self.state.alive = False
            monster = self.world.try_get(killer, Monster) if killer is not None else None
            self.state.killed_by = monster.kind if monster is not None else ""
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
        if message is not None and self.isolation.check(plugin, f"effect {kind.effect!r}", isinstance(message, str),
                                                         f"returned {message!r}, not a message or None"):
            self.log(message)

    def hook(self, name: str, **kwargs: Any) -> None:
        """Call an event hook (``on_level_generated``, ``on_turn_end``, ``on_death``) of every plugin,
        each under isolation, in pluggy's order, with the game API as ``game``."""
        manager = self.registry.manager
        if manager is None:
            return
        kwargs["game"] = self.api
        for impl in reversed(getattr(manager.hook, name).get_hookimpls()):
            args = {arg: kwargs[arg] for arg in impl.argnames}
            self.isolation.call(manager.get_name(impl.plugin), f"hook {name}", impl.function, **args)

    def pathfinder(self) -> Pathfinder:
        """The pathfinder in use: the run's choice, else the preset's, else the only (or first by
        name) registered one."""
        name = self.choices.path or self.rules.pathfinder or min(self.registry.pathfinders, default=None)
        if name is None:
            raise LookupError("no pathfinder is registered")
        return self.registry.choose("path", name)

    def sleep(self, monster: int) -> None:
        """A monster stops acting until it notices the player again (it leaves the scheduler)."""
        m = self.world.try_get(monster, Monster)
        if m is not None and m.awake:
            m.awake = False
            self.state.scheduler.remove(monster)

    def set_speed(self, entity: int, speed: int) -> None:
        """A creature's speed (energy per tick, 100 normal) from now on, in its Actor and the scheduler."""
        speed = max(1, min(limits.MAX_SPEED, int(speed)))
        self.world.get(entity, Actor).speed = speed
        self.state.scheduler.set_speed(entity, speed)

    def area(self, center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
        """The cells a blast of ``radius`` around ``center`` reaches: what the FOV in use sees
        from there within the radius, walls excepted (a wall shelters what is behind it)."""
        x, y = center
        terrain = self.level.terrain
        if radius <= 0 or terrain[y, x] == WALL:
            return [center]
        reach = self.fov(terrain != WALL, center, radius) & (terrain != WALL)
        ys, xs = reach.nonzero()
        return sorted(zip(xs.tolist(), ys.tolist(), strict=True), key=lambda c: (c[1], c[0]))

    # -- what the player sees ------------------------------------------------------------
    def compute_visible(self) -> np.ndarray:
        """The FOV from the player's cell (no memory, nobody woken). The FOV is a chosen plugin: a
        result that is not a bool array of the map's shape stops the game (see isolation)."""
        x, y = self.position(self.player)
        terrain = self.level.terrain
        where = f"fov {self.fov.name!r}"
        plugin = self.registry.owners.get(("fov", self.fov.name))
        visible = self.isolation.call(plugin, where, self.fov, terrain != WALL, (x, y), self.rules.fov_radius)
        ok = isinstance(visible, np.ndarray) and visible.shape == terrain.shape and visible.dtype == bool
        self.isolation.check(plugin, where, ok, f"returned {type(visible).__name__} "
                             f"{getattr(visible, 'shape', '')} {getattr(visible, 'dtype', '')}, not a bool array of "
                             f"shape {terrain.shape}")
        return visible

    def update_view(self) -> None:
        """Recompute the view and memory, and wake the monsters that notice the player.
        ``new_in_view`` is set when a monster comes into view or one in view notices the player:
        news that stops a held key in the window."""
        view = self.state.view
        in_view = set(self.visible_monsters())
        view.visible = self.compute_visible()
        view.seen |= view.visible
        view.dirty = False
        if not in_view.issuperset(self.visible_monsters()):
            self.new_in_view = True
        self.notice_player()

    def notices(self, entity: int) -> bool:
        """A monster notices the player when it stands where the player can see and the player is
        within its sight (a round radius)."""
        pos = self.world.get(entity, Position)
        if not self.state.view.visible[pos.y, pos.x]:
            return False
        me = self.world.get(self.player, Position)
        sight = self.world.get(entity, Monster).sight
        return (pos.x - me.x) ** 2 + (pos.y - me.y) ** 2 <= sight * sight

    def visible_monsters(self) -> list[int]:
        """The monsters standing where the player sees, by entity id. Only the light's square is
        looked at when it holds fewer cells than there are monsters (a crowd of 500 on a big map)."""
        visible, blockers, player = self.state.view.visible, self.state.spatial.blockers(), self.player
        radius = self.rules.fov_radius
        if radius is not None and (2 * radius + 1) ** 2 < len(blockers):
            px, py = self.position(player)
            h, w = visible.shape
            ys, xs = visible[max(0, py - radius):py + radius + 1, max(0, px - radius):px + radius + 1].nonzero()
            cells = zip((xs + max(0, px - radius)).tolist(), (ys + max(0, py - radius)).tolist(), strict=True)
            found = [blockers.get(cell) for cell in cells]
            return sorted(e for e in found if e is not None and e != player)
        return sorted(e for (x, y), e in blockers.items() if e != player and visible[y, x])

    def notice_player(self) -> None:
        """Wake the monsters that notice the player: only awake monsters are scheduled."""
        for entity in self.visible_monsters():
            monster = self.world.get(entity, Monster)
            if not monster.awake and self.notices(entity):
                monster.awake = True
                self.new_in_view = True
                self.state.scheduler.add(entity, self.world.get(entity, Actor).speed)
