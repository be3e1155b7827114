"""The game API's pathfinding: distance maps, shortest walks and single steps over the level.

A part of :class:`engine.core.turn.api.GameAPI` (which owns one and gives its members under their own
names): it reads the run it is given, and positions through the reading part's ``position``; what
it remembers of the level (its walk cost, its distance maps) is its own.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from engine.core.model.components import Position
from engine.core.turn import entities
from engine.kit import limits
from engine.kit.path import Goals, Moves, downhill
from engine.kit.slope import UNREACHED, Slope

if TYPE_CHECKING:
    from collections.abc import Collection

    from engine.core.model.ground import Ground
    from engine.core.turn.api_reading import Reading
    from engine.core.turn.playing import Playing
    from engine.core.turn.run import Run


def _reaches(here: tuple[int, int], x0: int, y0: int, dist: np.ndarray) -> bool:
    """Whether a distance map of the box at (x0, y0) holds ``here`` and reaches it."""
    y, x = here[1] - y0, here[0] - x0
    return 0 <= y < dist.shape[0] and 0 <= x < dist.shape[1] and math.isfinite(dist[y, x])


class Pathfinding:
    """Pathfinding.

    Distance maps, shortest walks and single steps over the level's terrain, with the preset's
    pathfinder and its 4 or 8 ways of stepping."""

    def __init__(self, run: Run, reading: Reading) -> None:
        self._run, self._reading = cast("Playing", run), reading  # read only while the run plays
        # The level's walk cost and its one-goal distance maps, remembered while the level and its terrain
        # stay the same (walk_cost sets them when the ground or its revision changes).
        self._cost_level: tuple[Ground, int] | None = None
        self._cost: np.ndarray
        self._maps: dict[Any, Any] = {}
        self._sizes: dict[Any, int] = {}  # cells of each remembered map, by the same keys
        self._moves: Moves | None = None  # made once per preset's movement: every monster's step asks

    @property
    def moves(self) -> Moves:
        """How creatures step in this preset: 4 or 8 ways; a diagonal may pass a wall's corner, as
        a step does in the engine."""
        movement, moves = self._run.rules.movement, self._moves
        if moves is None or moves.movement != movement:
            moves = self._moves = Moves(movement, 1.0, cut_corners=True)
        return moves

    def walk_cost(self) -> np.ndarray:
        """The level's cost to enter each cell for pathfinding, from its kinds of terrain: a bool array
        (True, cost 1, where walkable; False on wall) while every walkable kind costs 1, else the
        kinds' ``cost`` as floats (0 where no creature may step). Creatures are not in it: they move;
        pass them as ``blocked`` where it matters."""
        ground = self._run.ground
        known = self._cost_level
        if known is None or known[0] is not ground or known[1] != ground.revision:
            self._cost_level, self._cost, self._maps, self._sizes = (ground, ground.revision), ground.cost, {}, {}
        return self._cost

    def distance_map(self, goals: Goals, limit: float | None = None, cost: np.ndarray | None = None) -> np.ndarray:
        """A Dijkstra map of ``goals`` over the level (see ``engine.kit.path``), from the preset's
        pathfinder, over ``cost`` (default :meth:`walk_cost`). Maps of one goal cell over the level's
        own cost are remembered while the level's terrain stays the same."""
        own = cost is None
        if cost is None:
            cost = self.walk_cost()
        key = (goals, limit) if own and isinstance(goals, tuple) and len(goals) == 2 and isinstance(goals[0], int) \
            else None
        if key is not None and key in self._maps:
            return self._maps[key]
        dist = self._run.pathfinder().dijkstra(cost, [goals] if key is not None else goals, self.moves, limit)
        if key is not None:
            self._remember(key, dist, dist.size)
        return dist

    def _remember(self, key: Any, value: Any, cells: int) -> None:
        """Keep a map for the level. A few goals matter at once (the player, where monsters
        search): the oldest go first, at most 64 maps and at most MAX_PATH_CACHE_CELLS cells."""
        self._maps.pop(key, None)
        while self._maps and (len(self._maps) >= 64 or sum(self._sizes.values()) + cells > limits.MAX_PATH_CACHE_CELLS):
            del self._sizes[(gone := next(iter(self._maps)))]
            del self._maps[gone]
        self._maps[key], self._sizes[key] = value, cells

    def path(self, start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]] | None:
        """A shortest walk from ``start`` to ``goal`` (the cells after ``start``), or None."""
        return self._run.pathfinder().astar(self.walk_cost(), start, goal, self.moves)

    def step_toward(self, entity: int, goal: tuple[int, int]) -> tuple[int, int] | None:
        """The step (dx, dy) that takes a creature along a shortest walk to ``goal``, around walls
        and the creatures in the way (and the kinds ``barred`` to it: a closed door to an animal);
        None when it is there or no step brings it nearer."""
        run = self._run
        pos = run.state.world.try_get(entity, Position)  # read here: every hunter's every turn asks
        if pos is None:
            return None
        here = (pos.x, pos.y)
        if here == goal:
            return None
        # the goal's map as _reaching keeps it, read here first when it reaches the walker (the
        # crowd's every step); the creatures beside the walker are asked of the spatial index's
        # table where the step looks: a step costs the same among 10 monsters or 10,000
        ground, known = run.ground, self._cost_level  # the maps kept hold for this terrain
        if ground.barring:  # some kind of the level bars some creatures
            barred = entities.barring(run, entity)  # kinds it may not enter: its own maps
            if barred:
                slope = self._reaching(goal, here, barred)
                return slope.step(here[0], here[1], run.state.spatial.blockers(), goal)
        fresh = known is not None and known[0] is ground and known[1] == ground.revision
        got = self._maps.get(("reaching", goal)) if fresh else None
        if got is not None:  # asked whether it reaches the walker and stepped on, in one call
            step = got[1].toward(here[0], here[1], run.state.spatial.blockers(), goal)
            if step is not UNREACHED:
                return step  # type: ignore[no-any-return]  # a step or None (cast() was a call a step)
        return self._reaching(goal, here).step(here[0], here[1], run.state.spatial.blockers(), goal)

    def _barred_cost(self, barred: frozenset[str]) -> np.ndarray:
        """The level's walk cost for a creature barred by ``barred`` (``TerrainKind.barred``): the
        kinds it may not enter are walls to it. Remembered with the level's maps."""
        cost = self.walk_cost()
        key = ("cost", barred)
        got: np.ndarray | None = self._maps.get(key)
        if got is None:
            got = cost.copy()
            got[self._run.ground.barred(barred)] = 0
            self._remember(key, got, got.size)
        return got

    def _reaching(self, goal: tuple[int, int], here: tuple[int, int], barred: frozenset[str] = frozenset()) -> Slope:
        """A distance map of ``goal`` over the box of ``radius`` cells around it, exact out to
        ``here``, read for steps (a :class:`~engine.kit.slope.Slope`). Every step costs 1, so a walk
        of at most ``radius`` steps never leaves that box, and every cell the walk from ``here`` looks at (its
        own, and neighbours nearer than it) has the value the whole level's map gives: the same
        steps, for the cells near the goal instead of the whole level (a hunter next to the player
        on a 1000x1000 level searched a million cells each turn). The map is remembered for the
        level by goal, so the hunters that chase one goal share it (one search a turn for a crowd
        chasing the player): it depends on the terrain alone (creatures are the step's
        ``blocked``), so their moves never make it stale. The radius doubles until ``here`` is reached; the
        box covering the level, it is the whole map, without a limit."""

        cost = self.walk_cost() if not barred else self._barred_cost(barred)  # first: a new level forgets
        key = ("reaching", goal) if not barred else ("reaching", goal, barred)
        got: tuple[int, Slope] | None = self._maps.get(key)  # (radius, slope)
        h, w = cost.shape
        # a walker the whole level's map does not reach is cut off: that map again would be the same
        if got is not None and (got[1].value(*here) < math.inf or (got[1].width, got[1].height) == (w, h)):
            return got[1]
        (gx, gy), (hx, hy) = goal, here
        radius = max(16, 2 * max(abs(hx - gx), abs(hy - gy)), 2 * got[0] if got else 0)
        while True:
            x0, x1, y0, y1 = max(0, gx - radius), min(w, gx + radius + 1), max(0, gy - radius), min(h, gy + radius + 1)
            whole = (x0, y0, x1, y1) == (0, 0, w, h)
            box = cost[y0:y1, x0:x1]
            dist = self.distance_map([(gx - x0, gy - y0)], limit=None if whole else radius, cost=box)
            if whole or _reaches(here, x0, y0, dist):
                break
            radius *= 2
        slope = Slope(dist, box, self.moves, x0, y0)
        self._remember(key, (radius, slope), slope.cells)
        return slope

    def step_away(self, entity: int, threats: Collection[tuple[int, int]]) -> tuple[int, int] | None:
        """The step (dx, dy) that takes a creature away from ``threats`` along Brogue's safety map
        (toward open ways out, not into corners); None when none does. ``threats`` are cells
        ``(x, y)``, not entities: a monster fleeing the player passes where the player stands.

        Example::

            def flee(game, me):
                there = game.position(game.player)
                step = game.step_away(me, [there]) if there is not None else None
                return engine.Move(*step) if step is not None else None"""
        here = self._reading.position(entity)
        if here is None or not threats:
            return None
        cost = self.walk_cost()  # first: a new level forgets the old level's maps
        barred = entities.barring(self._run, entity)  # kinds it may not enter: its own maps
        if barred:
            cost = self._barred_cost(barred)
        # the map is remembered for the level by threats, like the one-goal maps: the monsters
        # that flee the player on one turn (and while the player stands) share one, two searches
        # of the whole level
        try:
            key = ("safety", tuple(tuple(cell) for cell in threats), *((barred,) if barred else ()))
            hash(key)
        except TypeError:
            key = None
        safety = self._maps.get(key) if key is not None else None
        if safety is None:
            safety = self._run.pathfinder().safety(cost, threats, self.moves)
            if key is not None:
                self._remember(key, safety, safety.size)
        occupied = self._run.state.spatial.blockers()
        step = downhill(safety, here, cost, self.moves, blocked=occupied)
        return None if step is None else (step[0] - here[0], step[1] - here[1])

    def adjacent(self, a: int, b: int) -> bool:
        """Whether two creatures stand one step apart (by the preset's 4 or 8 ways)."""
        world = self._run.state.world  # a hunter's every turn asks: the positions read here
        pa, pb = world.try_get(a, Position), world.try_get(b, Position)
        if pa is None or pb is None:
            raise TypeError("adjacent: a creature not on the map")  # as unpacking its None position did
        dx, dy = abs(pa.x - pb.x), abs(pa.y - pb.y)
        return (dx + dy == 1) if self._run.rules.movement == 4 else max(dx, dy) == 1
