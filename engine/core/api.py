"""The game API: what a plugin's behaviour, effect, bot or event hook is given instead of the game.

A :class:`GameAPI` reads the run (the player, monsters and items, what stands where, what the
player sees) and changes it through the game's own operations (damage and heal, spawn, move and
teleport, statuses, the log), so a plugin never reaches into the engine's internals and the
engine's invariants (one creature per cell, the scheduler, the spatial index) always hold.

Entities are plain ints. Cells are ``(x, y)``. Every list comes in entity order, so what a plugin
does with it is deterministic; randomness comes from :meth:`rng` (the run's own streams), never
from the global ``random``.

Statuses are named conditions on any entity with a duration in turns (``None``: until removed)
and parameters: ``api.add_status(rat, "frozen", 3)``. They are saved with the run, tick down at the
end of every turn (after the monsters have acted, before ``on_turn_end``: see :meth:`GameAPI.add_status`),
and are shown in the window. What a status *does* is a plugin's to say: a
``on_action`` hook that vetoes the actions of the frozen, a system that hurts the poisoned.

A plugin's own state goes in :meth:`data`: a dict of JSON values saved with the run.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.core import inventory
from engine.core.components import Fighter, Item, Monster, Player, Position, Status, Statuses
from engine.core.keys import DEFAULT_KEYS, command_for
from engine.kit import limits
from engine.kit.mapgen import WALL
from engine.kit.path import Moves, downhill

if TYPE_CHECKING:
    from engine.core.content import ItemKind, MonsterKind
    from engine.core.rules import GameRules
    from engine.core.run import Run


class GameAPI:
    """The game, as plugins see it. Made by the engine; a plugin never builds one."""

    def __init__(self, run: Run) -> None:
        self._run = run
        self._cost_level, self._cost, self._maps = None, None, {}  # pathfinding, per level

    # -- the run -----------------------------------------------------------------------------
    @property
    def player(self) -> int:
        """The player's entity (an int). It stays the same for a whole run; a new run (after a death
        in a preset that goes straight on) has a new one, so read it each time rather than keep it."""
        return self._run.state.player

    @property
    def rules(self) -> GameRules:
        """The preset being played (its ``params``, ``messages``, sizes...)."""
        return self._run.rules

    @property
    def depth(self) -> int:
        """The depth of the level being played: 1 for the first, one more for each stairs down."""
        return self._run.state.depth

    @property
    def turn(self) -> int:
        """Turns the player has spent in this run: one more for each action that took time (a key
        that did nothing, a menu, a look around, adds none). What statuses count down in."""
        return self._run.state.turn

    @property
    def alive(self) -> bool:
        """Whether the player is alive."""
        return self._run.state.alive

    def rng(self, label: str) -> random.Random:
        """The run's random stream for ``label`` (use your plugin's name in it: ``"frost:ai"``)."""
        return self._run.rng(label)

    def log(self, message: str) -> None:
        """Tell the player (the message log; the window shows the newest)."""
        self._run.log(message)

    def messages(self, count: int | None = None) -> list[str]:
        """The message log, oldest first (a copy); the newest ``count`` when given."""
        log = list(self._run.state.log)
        if count is None:
            return log
        return log[-count:] if count > 0 else []

    def keys(self) -> dict[str, str]:
        """The preset's keys: each key token and the command it gives (``"move left"``, ``"wait"``,
        ``"descend"``, ``"drink"``, ``"quit"``...), only those that do something in this preset (no
        diagonal moves where it moves 4 ways). The window, ``--keys`` and replays read the same map."""
        rules = self._run.rules
        return {token: spec for token, spec in (rules.keys or DEFAULT_KEYS).items()
                if command_for(rules, token) is not None}

    def data(self, plugin: str) -> dict[str, Any]:
        """Your plugin's own saved state for this run: a dict it keeps in the run's save.

        ``plugin`` is the key it is kept under: use your plugin's name (``game.data("frost")``), the
        same in every call. The first call of a run gives an empty dict; change it in place, and what
        it holds is saved with the run and given back, equal, after a load (a resumed run, a replay).
        Values must be JSON values (numbers, strings, booleans, None, lists and dicts with string
        keys): with a value a save cannot hold, the run is not saved (said in one line) and would
        resume from its last save point.
        A new run (after a death in a preset that goes straight on) starts with empty data. State
        that belongs to one entity is better in a registered component (``register_components``),
        which goes when the entity goes.

        Example::

            def on_death(game, entity):
                kills = game.data("frost")
                kills["count"] = kills.get("count", 0) + 1"""
        return self._run.state.plugin_data.setdefault(plugin, {})

    def behaviour(self, name: str):
        """A registered behaviour by name, to call from your own: ``api.behaviour("chase")(api, me)``."""
        return self._run.registry.behaviours[name]

    # -- the map -----------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """The level's (width, height) in cells."""
        h, w = self._run.level.terrain.shape
        return w, h

    def is_wall(self, x: int, y: int) -> bool:
        """A wall, or off the map."""
        terrain = self._run.level.terrain
        return not (0 <= x < terrain.shape[1] and 0 <= y < terrain.shape[0]) or terrain[y, x] == WALL

    def passable(self, x: int, y: int) -> bool:
        """On the map, not a wall, and nobody standing there."""
        return self._run.passable(x, y)

    def sees(self, x: int, y: int) -> bool:
        """Whether the player sees the cell now."""
        visible = self._run.state.view.visible
        return 0 <= y < visible.shape[0] and 0 <= x < visible.shape[1] and bool(visible[y, x])

    def stairs(self) -> tuple[int, int] | None:
        """The stairs down, known or not (a bot that plays fair asks :meth:`seen` first)."""
        return self._run.level.stairs

    def upstairs(self) -> tuple[int, int] | None:
        """The stairs up, known or not (None on a level without them)."""
        return self._run.level.upstairs

    def prompt(self) -> dict[str, Any] | None:
        """The prompt open now, as plain data (the same as ``--dump json``'s ``prompt``: ``kind``
        "menu", "target", "look", "history" or "question", its ``title``, a menu's or question's
        ``options`` with their ``letter`` and ``label``, a cursor's ``cursor`` cell...), or None.
        While one is open, keys answer it (a letter, a cursor move, Enter, Escape)."""
        prompt = getattr(self._run, "prompt", None)
        return prompt.describe(self._run) if prompt is not None else None

    def exit(self) -> tuple[int, int] | None:
        """The level's exit (a preset's goal: stepping on it ends the run), known or not; None
        when the level has none."""
        return self._run.level.exit

    def seen(self) -> np.ndarray:
        """What the player has seen of the level (bool, ``[y, x]``; a copy): their memory."""
        return self._run.state.view.seen.copy()

    def visible(self) -> np.ndarray:
        """What the player sees now (bool, ``[y, x]``; a copy)."""
        return self._run.state.view.visible.copy()

    def walls(self) -> np.ndarray:
        """Where the walls are (bool, ``[y, x]``; a copy). What the player knows is ``walls & seen``."""
        return self._run.level.terrain == WALL

    # -- entities ----------------------------------------------------------------------------
    def monsters(self) -> list[int]:
        """Every monster on the level."""
        return sorted(e for e, _ in self._run.world.query(Monster, Position))

    def items(self) -> list[int]:
        """Every item lying on the level."""
        return sorted(e for e, _ in self._run.world.query(Item, Position))

    def visible_monsters(self) -> list[int]:
        """The monsters standing where the player sees."""
        return self._run.visible_monsters()

    def entities_at(self, x: int, y: int) -> list[int]:
        """Who stands on the cell (at most one creature), then the items lying there."""
        spatial = self._run.state.spatial
        blocker = spatial.blocker_at(x, y)
        return ([blocker] if blocker is not None else []) + spatial.items_at(x, y)

    def position(self, entity: int) -> tuple[int, int] | None:
        """Where it stands, or None when it is not on the map (dead, carried)."""
        pos = self._run.world.try_get(entity, Position)
        return (pos.x, pos.y) if pos is not None else None

    def is_player(self, entity: int) -> bool:
        """Whether ``entity`` is the player."""
        return self._run.world.has(entity, Player)

    def name_of(self, entity: int) -> str:
        """"you" for the player, else its kind's name."""
        item = self._run.world.try_get(entity, Item)
        return item.kind if item is not None else self._run.name_of(entity)

    def kind_of(self, entity: int) -> MonsterKind | ItemKind | None:
        """A monster's or item's kind (with its ``params``); None for the player."""
        world = self._run.world
        if world.has(entity, Monster):
            return self._run.kind_of(entity)
        item = world.try_get(entity, Item)
        return self._run.registry.items[item.kind] if item is not None else None

    def item_kind(self, name: str) -> ItemKind | None:
        """An item kind by name (an ``engine.Item``'s ``kind``), or None."""
        return self._run.registry.items.get(name)

    def hp(self, entity: int) -> tuple[int, int]:
        """(hp, max_hp); (0, 0) for what cannot be hurt."""
        fighter = self._run.world.try_get(entity, Fighter)
        return (fighter.hp, fighter.max_hp) if fighter is not None else (0, 0)

    def attack_defense(self, entity: int) -> tuple[int, int]:
        """A creature's (attack, defense) now, the player's equipment included; (0, 0) for what
        cannot fight."""
        if not self._run.world.has(entity, Fighter):
            return (0, 0)
        return inventory.attack_of(self._run, entity), inventory.defense_of(self._run, entity)

    def notices(self, monster: int) -> bool:
        """Whether a monster notices the player (it stands where the player sees, within its sight)."""
        return self._run.notices(monster)

    def distance(self, a: int, b: int) -> int:
        """King-move distance between two entities on the map."""
        (ax, ay), (bx, by) = self.position(a), self.position(b)
        return max(abs(ax - bx), abs(ay - by))

    def component(self, entity: int, cls: type):
        """An entity's component of type ``cls`` (the engine's, like ``engine.Inventory``, or one your
        plugin registered), or None. Change it in place; positions only through :meth:`move`."""
        if cls is Position:
            raise TypeError("positions change only through move() and teleport(); read them with position()")
        return self._run.world.try_get(entity, cls)

    def add_component(self, entity: int, component: Any) -> None:
        """Give an entity a component (a registered one is saved with the run)."""
        if isinstance(component, Position):
            raise TypeError("positions change only through move() and teleport()")
        self._run.world.add(entity, component)

    # -- changing things ---------------------------------------------------------------------
    def damage(self, entity: int, amount: int, by: int | None = None) -> int:
        """Hurt an entity (never below 0 HP); at 0 it dies, killed ``by`` that entity when given
        (a scroll's reader: ``on_death`` hears who, and the killer may grow). Returns the damage dealt."""
        fighter = self._run.world.try_get(entity, Fighter)
        if fighter is None or amount <= 0 or fighter.hp <= 0:
            return 0
        dealt = min(fighter.hp, int(amount))
        fighter.hp -= dealt
        if fighter.hp == 0:
            self._run.kill(entity, by)
        return dealt

    def heal(self, entity: int, amount: int) -> int:
        """Heal an entity (never above its max HP). Returns the HP gained."""
        fighter = self._run.world.try_get(entity, Fighter)
        if fighter is None or amount <= 0 or fighter.hp <= 0:
            return 0
        gained = min(fighter.max_hp - fighter.hp, int(amount))
        fighter.hp += gained
        return gained

    def spawn(self, kind: str, x: int, y: int, amount: int = 1) -> int | None:
        """A monster (asleep) or an item of ``kind`` on a cell; None when a monster's cell is taken
        or the cell is a wall. An unknown kind is a KeyError (a bug in the plugin)."""
        if self.is_wall(x, y):
            return None
        if kind in self._run.registry.items:
            return self._run.spawn_item(kind, x, y, amount)
        if not self.passable(x, y):
            return None
        return self._run.spawn_monster(kind, x, y)

    def area(self, center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
        """The cells a blast of ``radius`` around ``center`` reaches (what the FOV sees from there,
        walls excepted), sorted: the cells a targeting cursor shows as affected."""
        return self._run.area(center, radius)

    def ask(self, question: str, title: str, options: list[str]) -> None:
        """Ask the player to choose one of ``options`` (at most 26), as a menu that cannot be put
        off. The answer comes to every plugin's ``on_answer(game, question, choice)`` hook with the
        option's index: name the question after your plugin (``"growth.level"``) to know it. It
        is part of the run: saved, and asked again on resume until answered."""
        options = [str(o)[:100] for o in options][: limits.MAX_PACK]
        if not options:
            raise ValueError("ask: expected at least one option")
        if len(self._run.state.questions) >= limits.MAX_QUESTIONS:
            return
        self._run.state.questions.append({"name": str(question)[:100], "title": str(title)[:200],
                                          "options": options})

    def loot(self, table: str, depth: int | None = None, label: str = "loot") -> list[tuple[str, int]]:
        """Roll the preset's loot table ``table`` (``GameRules.loot``) at ``depth`` (the current one
        when None), from the run's stream ``label``: the ``(item kind, amount)`` pairs it gives, the
        amount rolled from the kind's ``amount``; empty when it gives nothing or the preset has no
        such table. Place them with :meth:`spawn`."""
        loot = self._run.rules.loot.get(table)
        if loot is None:
            return []
        rng = self.rng(label)
        items = self._run.registry.items
        return [(name, rng.randint(*items[name].amount)) for name in loot.roll(self.depth if depth is None else depth,
                                                                                rng)]

    def reveal(self, cells: np.ndarray) -> None:
        """Mark cells as seen by the player (bool, ``[y, x]``, the level's shape): they join the
        player's memory of the level, as if seen and left (a map read from a scroll)."""
        seen = self._run.state.view.seen
        if not isinstance(cells, np.ndarray) or cells.shape != seen.shape:
            raise ValueError(f"reveal: expected a bool array of shape {seen.shape}")
        seen |= cells.astype(bool)

    def give(self, kind: str, amount: int = 1) -> int | None:
        """Put ``amount`` of an item kind into the player's pack (onto its stack, or under the
        first free letter): the carried item, or None when the pack is full."""
        return self._run.give(kind, amount)

    def pack(self) -> list[int]:
        """The items the player carries, by letter (each has ``Carried(letter)``; worn ones also
        ``Equipped(slot)``)."""
        return inventory.pack(self._run)

    def monster_kinds(self, depth: int | None = None) -> list[MonsterKind]:
        """The monster kinds this game's table may place at ``depth`` (the current one when None),
        by name: a plugin placing a guard or a summon picks among these."""
        return self._run.monster_kinds_at(self.depth if depth is None else depth)

    def remove(self, entity: int) -> None:
        """Take an item away: off the map, or out of the pack (a creature dies with ``kill``)."""
        run = self._run
        if not run.world.has(entity, Item):
            raise ValueError(f"remove: entity {entity} is not an item (a creature dies with kill)")
        if run.world.has(entity, Position):
            run.state.spatial.remove(entity)
        run.world.delete(entity)

    def move(self, entity: int, x: int, y: int) -> bool:
        """Put a creature on another cell at once (not a step: no bump, no attack, no pickup);
        False when the cell is a wall or taken."""
        if not self.passable(x, y):
            return False
        self._run.move_entity(entity, x, y)
        return True

    def teleport(self, entity: int, label: str = "teleport") -> tuple[int, int] | None:
        """Move a creature to a random free floor cell of the level (from the stream ``label``)."""
        terrain = self._run.level.terrain
        ys, xs = (terrain != WALL).nonzero()
        cells = [(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True) if self.passable(x, y)]
        if not cells:
            return None
        cell = cells[self.rng(label).randrange(len(cells))]
        self.move(entity, *cell)
        return cell

    def kill(self, entity: int, by: int | None = None) -> None:
        """Kill a creature at once (``by`` that entity, when given)."""
        fighter = self._run.world.try_get(entity, Fighter)
        if fighter is not None and fighter.hp > 0:
            fighter.hp = 0
            self._run.kill(entity, by)

    def set_speed(self, entity: int, speed: int) -> None:
        """Change how fast a creature acts (100 is normal), from now on."""
        self._run.set_speed(entity, speed)

    def sleep(self, monster: int) -> None:
        """A monster stops acting until it notices the player again: it costs nothing meanwhile."""
        self._run.sleep(monster)

    # -- pathfinding -------------------------------------------------------------------------
    @property
    def moves(self) -> Moves:
        """How creatures step in this preset: 4 or 8 ways; a diagonal may pass a wall's corner, as
        a step does in the engine."""
        return Moves(self._run.rules.movement, 1.0, cut_corners=True)

    def walk_cost(self) -> np.ndarray:
        """The level's cost to enter each cell for pathfinding: True (cost 1) on floor, False on wall.
        Creatures are not in it: they move; pass them as ``blocked`` where it matters."""
        level = self._run.level
        if self._cost_level is not level:
            self._cost_level, self._cost, self._maps = level, level.terrain != WALL, {}
        return self._cost

    def distance_map(self, goals, limit: float | None = None, cost: np.ndarray | None = None) -> np.ndarray:
        """A Dijkstra map of ``goals`` over the level (see ``engine.kit.path``), from the preset's
        pathfinder, over ``cost`` (default :meth:`walk_cost`). Maps of one goal cell over the level's
        own cost are remembered for the level: the terrain never changes."""
        own = cost is None
        cost = self.walk_cost() if own else cost
        key = (goals, limit) if own and isinstance(goals, tuple) and len(goals) == 2 and isinstance(goals[0], int) \
            else None
        if key is not None and key in self._maps:
            return self._maps[key]
        dist = self._run.pathfinder().dijkstra(cost, [goals] if key is not None else goals, self.moves, limit)
        if key is not None:
            if len(self._maps) >= 64:  # a few goals matter at once (the player, where monsters search)
                self._maps.pop(next(iter(self._maps)))
            self._maps[key] = dist
        return dist

    def path(self, start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]] | None:
        """A shortest walk from ``start`` to ``goal`` (the cells after ``start``), or None."""
        return self._run.pathfinder().astar(self.walk_cost(), start, goal, self.moves)

    def step_toward(self, entity: int, goal: tuple[int, int]) -> tuple[int, int] | None:
        """The step (dx, dy) that takes a creature along a shortest walk to ``goal``, around walls
        and the creatures in the way; None when it is there or no step brings it nearer."""
        here = self.position(entity)
        if here is None or here == goal:
            return None
        dist = self.distance_map(goal)
        occupied = {cell for cell in self._run.state.spatial.blockers() if cell != goal}
        step = downhill(dist, here, self.walk_cost(), self.moves, blocked=occupied)
        return None if step is None else (step[0] - here[0], step[1] - here[1])

    def step_away(self, entity: int, threats: list[tuple[int, int]]) -> tuple[int, int] | None:
        """The step (dx, dy) that takes a creature away from ``threats`` along Brogue's safety map
        (toward open ways out, not into corners); None when none does."""
        here = self.position(entity)
        if here is None or not threats:
            return None
        safety = self._run.pathfinder().safety(self.walk_cost(), threats, self.moves)
        occupied = set(self._run.state.spatial.blockers())
        step = downhill(safety, here, self.walk_cost(), self.moves, blocked=occupied)
        return None if step is None else (step[0] - here[0], step[1] - here[1])

    def adjacent(self, a: int, b: int) -> bool:
        """Whether two creatures stand one step apart (by the preset's 4 or 8 ways)."""
        (ax, ay), (bx, by) = self.position(a), self.position(b)
        dx, dy = abs(ax - bx), abs(ay - by)
        return (dx + dy == 1) if self._run.rules.movement == 4 else max(dx, dy) == 1

    # -- statuses ----------------------------------------------------------------------------
    def add_status(self, entity: int, name: str, turns: int | None, **params: Any) -> None:
        """Put a status on an entity for ``turns`` turns (None: until removed). Adding one it has
        already keeps the longer duration and the new params.

        When it counts down: at the end of every turn (after the monsters have acted, before the
        ``on_turn_end`` hooks), each status loses one turn and goes at 0, and the player reads
        "The rat is no longer frozen." when it was theirs or a monster they see. So ``turns=N``
        added during a turn (an effect, a behaviour, ``on_action``) holds for the rest of this turn
        and N - 1 more; added in ``on_turn_end``, it holds for the next N whole turns (the player's
        next N actions and the monsters' turns between them)."""
        world = self._run.world
        statuses = world.try_get(entity, Statuses)
        if statuses is None:
            statuses = Statuses()
            world.add(entity, statuses)
        old = statuses.active.get(name)
        if old is not None and (old.turns is None or (turns is not None and old.turns > turns)):
            turns = old.turns
        statuses.active[name] = Status(turns, dict(params))

    def statuses(self, entity: int) -> dict[str, Status]:
        """The entity's statuses by name (a copy): each with ``turns`` left and ``params``."""
        statuses = self._run.world.try_get(entity, Statuses)
        return dict(statuses.active) if statuses is not None else {}

    def has_status(self, entity: int, name: str) -> bool:
        """Whether the entity has the status ``name`` now (it is removed the moment it runs out)."""
        statuses = self._run.world.try_get(entity, Statuses)
        return statuses is not None and name in statuses.active

    def remove_status(self, entity: int, name: str) -> None:
        """Take the status ``name`` off the entity at once (nothing if it has none); unlike running
        out, this logs nothing."""
        statuses = self._run.world.try_get(entity, Statuses)
        if statuses is not None:
            statuses.active.pop(name, None)
