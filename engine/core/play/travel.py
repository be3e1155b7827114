"""Travel: one key that plays many turns (Brogue's ``x`` and ``Z``, DCSS's ``o``, ``G`` and ``5``).

``explore`` walks toward the nearest cell the player has not seen (over known floor and unknown
cells; known walls stop it), and first to the items the player remembers, to pick them up where
the game leaves items on the floor (:mod:`engine.core.play.gathering`); ``downstairs`` to the
known stairs, ``travel`` to a clicked cell (over known floor only); ``rest`` waits where the player
stands until their HP is full (it does not start at full HP, and gives up, saying so, after
``limits.MAX_REST_UNHEALED`` turns in which the HP did not rise: a game where waiting heals
nobody). Each step is a normal turn:
the monsters act. Every walk is over the level's path cost (``GameAPI.walk_cost``, from the kinds
of terrain the player has seen): a dearer kind is walked around when there is another way, and a
kind no path enters (a cost of ``math.inf``: a known trap, a door that will not open) is never
stepped on, even when it is walkable. A travel stops

- when it gets there (explore: when nothing reachable is unknown any more: said once; rest: at
  full HP, said);
- at once when something new comes into view or a monster notices the player (``new_in_view``),
  when the player's HP drops, when the level or the run changes, or the player dies;
- after its step limit (``:N`` on its token: where the window's player interrupted it);
- when no step leads on (a monster blocks the only way).

It does not start while a monster in view threatens the player (:func:`threatens`: an awake one;
a sleeping one is left to sleep): that is the player's to deal with, and the refusal names it.
Everything else here reads only what the player knows (their memory of the level), never the
level itself.

A :class:`~engine.core.play.session.Session` starts, steps and ends a travel (``session.travel``),
each step a turn of the game's own (``Game.take_turn``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from engine.core.model.components import Monster
from engine.core.play import gathering
from engine.core.play.gathering import Gathering
from engine.core.turn.actions import Action, Wait
from engine.kit import limits
from engine.kit.path import downhill
from engine.kit.regions import grown

if TYPE_CHECKING:
    from engine.core.turn.api import GameAPI


@dataclass
class Travel:
    """A travel in progress: what it walks toward, how far it may go, and what it has done."""

    kind: str  # "explore", "downstairs", "upstairs", "travel" or "rest"
    goal: tuple[int, int] | None = None  # the cell, for downstairs and travel
    limit: int | None = None  # the most steps (a recorded interruption), None: until it stops
    token: str = ""  # the key that started it, as recorded
    steps: int = 0
    interrupted: bool = False
    gathering: Gathering = field(default_factory=Gathering)  # explore: what it knows of picking up
    healed: tuple[int, int] = (-1, 0)  # rest: the most HP seen, and the step it was first seen

    @property
    def spent(self) -> bool:
        return self.steps >= (self.limit if self.limit is not None else limits.MAX_TRAVEL)

    def recorded(self) -> str:
        """The travel's key as a replay records it: with the steps it took when it was
        interrupted (``o:12``, ``travel:3,4:7``), so that the replay stops there too."""
        key = self.token.split(":")[0] if not self.token.startswith("travel:") else \
            ":".join(self.token.split(":")[:2])
        return f"{key}:{self.steps}" if self.interrupted else self.token


NOT_COMING = frozenset({"fleeing", "lurking"})  # what a behaviour declares when it will not come


def threatens(api: GameAPI, monster: int) -> bool:
    """Whether ``monster``, in view, keeps a travel from starting: it is awake and coming. A
    sleeping one strikes no blow until it notices the player, and a monster that notices the
    player stops a travel at once (``new_in_view``), so walking on past it is safe; one whose
    behaviour declared on its last turn (``GameAPI.declare``) that it is ``"fleeing"`` (a hurt
    coward) or ``"lurking"`` (an eel as near as its water goes) is not coming. Every monster is
    hostile today."""
    state = api.component(monster, Monster)
    return state is not None and state.awake and api.declared(monster) not in NOT_COMING


def threat_in_view(api: GameAPI) -> int | None:
    """The monster in view that keeps a travel from starting (:func:`threatens`): the nearest
    (in steps; ties by entity id), or None."""
    px, py = api.position(api.player)
    threats = [m for m in api.visible_monsters() if threatens(api, m)]

    def steps(monster: int) -> tuple[int, int]:
        x, y = api.position(monster)
        return max(abs(x - px), abs(y - py)), monster

    return min(threats, key=steps, default=None)


@dataclass(frozen=True)
class Known:
    """What the player knows of the level, inside the box of the cells they have seen and their
    own cell, one cell wider each way (clipped to the map): every cell a walk may cross or end on
    lies in it (known floor, and the unknown cells beside it). A walk's masks and costs are made
    on this box alone, so a step on a 1000x1000 map costs what the explored part does, not the
    map's million cells. ``seen`` and ``floor`` (seen and not a wall) are the box's; ``origin``
    is the box's top left cell on the map."""

    origin: tuple[int, int]
    seen: np.ndarray
    floor: np.ndarray
    whole: bool  # the box is the whole map

    @classmethod
    def of(cls, api: GameAPI, here: tuple[int, int]) -> Known:
        seen = api.seen()
        (h, w), (x0, y0, x1, y1) = seen.shape, _box(seen, here)
        x0, y0, x1, y1 = max(0, x0 - 1), max(0, y0 - 1), min(w, x1 + 1), min(h, y1 + 1)
        seen = seen[y0:y1, x0:x1]
        return cls((x0, y0), seen, seen & ~api.walls()[y0:y1, x0:x1], seen.shape == (h, w))

    def weighted(self, api: GameAPI, walkable: np.ndarray) -> np.ndarray:
        """``walkable`` (of the box: what the player knows they may walk over) with the path cost
        of the kinds of terrain they saw there (shallow water costs more: a walk goes around it);
        an unknown cell costs 1. While every kind costs 1 (the built-in ones), ``walkable`` itself."""
        cost = api.walk_cost()
        if cost.dtype == bool:
            return walkable
        (x0, y0), (h, w) = self.origin, walkable.shape
        return np.where(walkable, np.where(self.seen, cost[y0:y0 + h, x0:x0 + w], 1.0), 0.0)

    def cost(self, api: GameAPI) -> np.ndarray:
        """What the player may walk over, by what they know (a known wall never), each cell at
        its kind's path cost (:meth:`weighted`): travel's and the walk to items."""
        return self.weighted(api, self.floor)

    def frontier(self, api: GameAPI) -> tuple[np.ndarray, np.ndarray]:
        """Explore's walkable cells and goals: known floor, and the unknown cells beside it (8
        ways). The nearest unknown cell is always one of these (a way into the unknown enters it
        beside known floor), so the distances on known floor are those of walking over every
        unknown cell toward every unknown cell, but the search covers what the player knows."""
        goals = grown(self.floor) & ~self.seen
        return self.weighted(api, self.floor | goals), goals

    def at(self, cost: np.ndarray, cell: tuple[int, int]) -> float:
        """``cost`` (of the box) at a cell of the map: 0 outside the box (nothing known there)."""
        x, y = cell[0] - self.origin[0], cell[1] - self.origin[1]
        h, w = cost.shape
        return float(cost[y, x]) if 0 <= x < w and 0 <= y < h else 0.0


def _box(cells: np.ndarray, here: tuple[int, int]) -> tuple[int, int, int, int]:
    """The smallest box (x0, y0, x1, y1; x1 and y1 past its edge) holding every cell of ``cells``
    that is not 0 and ``here``. Of a cost, the walkable cells: cells outside it cannot be entered,
    so a search inside it finds what one over the whole map would."""
    cols, rows = np.flatnonzero(cells.any(axis=0)), np.flatnonzero(cells.any(axis=1))
    if not cols.size:  # nothing known (to walk on): the player's cell alone
        return here[0], here[1], here[0] + 1, here[1] + 1
    x0, x1 = min(cols[0], here[0]), max(cols[-1], here[0]) + 1
    y0, y1 = min(rows[0], here[1]), max(rows[-1], here[1]) + 1
    return int(x0), int(y0), int(x1), int(y1)


def next_step(api: GameAPI, travel: Travel) -> tuple[int, int] | Action | str | None:
    """The step (dx, dy) to take, an action to take instead (explore: pick up what lies here), or
    a message saying why there is none to take (or None: arrived)."""
    if travel.kind == "rest":
        return _rest(api, travel)
    here = api.position(api.player)
    if travel.kind == "explore":
        pick = gathering.pick_here(api, travel.gathering)
        if pick is not None:
            return pick
        known = Known.of(api, here)
        items = gathering.goals(api, travel.gathering)
        if items:
            cost = known.cost(api)
            items = [cell for cell in items if known.at(cost, cell) > 0]  # never onto a kind no path enters
            step = _downhill(api, known, cost, items, here) if items else None
            if isinstance(step, tuple):
                return step
        if known.whole and known.seen.all():
            return api.rules.message("explored")
        cost, goals = known.frontier(api)
        step = _downhill(api, known, cost, goals, here)
        return api.rules.message("explored" if step is None else "travel_blocked") if not isinstance(step, tuple) \
            else step
    if here == travel.goal:
        return None
    known = Known.of(api, here)
    cost = known.cost(api)
    if not known.at(cost, travel.goal) > 0:  # off the map, unknown, a wall, a kind no path enters
        return api.rules.message("no_way")
    step = _downhill(api, known, cost, [travel.goal], here, keep=travel.goal)
    return api.rules.message("no_way" if step is None else "travel_blocked") if not isinstance(step, tuple) else step


def _rest(api: GameAPI, travel: Travel) -> Action | str:
    """A rest's next turn, a wait; or why it ends: the player's HP is full, or has not risen for
    ``limits.MAX_REST_UNHEALED`` turns."""
    hp, max_hp = api.hp(api.player)
    if hp >= max_hp:
        return api.rules.message("rested")
    if hp > travel.healed[0]:
        travel.healed = (hp, travel.steps)
    elif travel.steps - travel.healed[1] >= limits.MAX_REST_UNHEALED:
        return api.rules.message("rest_in_vain")
    return Wait()


def _downhill(api: GameAPI, known: Known, cost: np.ndarray, goals: np.ndarray | list[tuple[int, int]],
              here: tuple[int, int], keep: tuple[int, int] | None = None) -> tuple[int, int] | bool | None:
    """The step (dx, dy) down the distance map of ``goals`` (a bool array of ``known``'s box, or
    cells of the map) over ``cost`` (of ``known``'s box) from ``here``, around the monsters (but
    the one on ``keep``, a goal the walk bumps into); None: no goal is reached from here; False:
    the only ways are blocked. The player's own cell is always left: one of a kind no path enters
    (they stepped there themselves) too."""
    ox, oy = known.origin
    x0, y0, x1, y1 = _box(cost, (here[0] - ox, here[1] - oy))
    # searched within the box of what the player may walk over: what they know, not the whole map
    cost = cost[y0:y1, x0:x1]
    x0, y0 = x0 + ox, y0 + oy  # the search's box on the map
    hx, hy = here[0] - x0, here[1] - y0
    if not cost[hy, hx] > 0:
        cost = cost.copy()
        cost[hy, hx] = 1
    goals = goals[y0 - oy:y0 - oy + cost.shape[0], x0 - ox:x0 - ox + cost.shape[1]] if isinstance(goals, np.ndarray) \
        else [(gx - x0, gy - y0) for gx, gy in goals]
    dist = api.distance_map(goals, cost=cost)
    if not np.isfinite(dist[hy, hx]):
        return None
    occupied = {(x - x0, y - y0) for x, y in (api.position(m) for m in api.monsters())}
    if keep is not None:
        occupied.discard((keep[0] - x0, keep[1] - y0))
    step = downhill(dist, (hx, hy), cost, api.moves, blocked=occupied)
    if step is None:
        return False
    return step[0] - hx, step[1] - hy
