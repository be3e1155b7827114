"""Travel: one key that walks many steps (Brogue's ``x``, DCSS's ``o`` and ``G``).

``explore`` walks toward the nearest cell the player has not seen (over known floor and unknown
cells; known walls stop it), ``downstairs`` to the known stairs, ``travel`` to a clicked cell
(over known floor only). Each step is a normal turn: the monsters act. A travel stops

- when it gets there (explore: when nothing reachable is unknown any more: said once);
- at once when something new comes into view or a monster notices the player (``new_in_view``),
  when the player's HP drops, when the level or the run changes, or the player dies;
- after its step limit (``:N`` on its token: where the window's player interrupted it);
- when no step leads on (a monster blocks the only way).

It does not start with a monster in view: that is the player's to deal with. Everything here reads
only what the player knows (their memory of the level), never the level itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.kit import limits
from engine.kit.path import downhill

if TYPE_CHECKING:
    from engine.core.api import GameAPI


@dataclass
class Travel:
    """A travel in progress: what it walks toward, how far it may go, and what it has done."""

    kind: str  # "explore", "downstairs" or "travel"
    goal: tuple[int, int] | None = None  # the cell, for downstairs and travel
    limit: int | None = None  # the most steps (a recorded interruption), None: until it stops
    token: str = ""  # the key that started it, as recorded
    steps: int = 0
    interrupted: bool = False

    @property
    def spent(self) -> bool:
        return self.steps >= (self.limit if self.limit is not None else limits.MAX_TRAVEL)


def known_cost(api: GameAPI, unknown_passable: bool) -> np.ndarray:
    """What the player may walk over, by what they know: seen floor (and, to explore, what they
    have not seen yet); a known wall never."""
    seen, walls = api.seen(), api.walls()
    floor = seen & ~walls
    return (floor | ~seen) if unknown_passable else floor


def next_step(api: GameAPI, travel: Travel) -> tuple[int, int] | str | None:
    """The step (dx, dy) to take, or a message saying why there is none to take (or None: arrived)."""
    here = api.position(api.player)
    occupied = {api.position(m) for m in api.monsters()}
    if travel.kind == "explore":
        cost = known_cost(api, unknown_passable=True)
        goals = ~api.seen()
        if not goals.any():
            return api.rules.message("explored")
        dist = api.distance_map(goals, cost=cost)
        if not np.isfinite(dist[here[1], here[0]]):
            return api.rules.message("explored")
        step = downhill(dist, here, cost, api.moves, blocked=occupied)
    else:
        if here == travel.goal:
            return None
        cost = known_cost(api, unknown_passable=False)
        gx, gy = travel.goal
        if not (0 <= gy < cost.shape[0] and 0 <= gx < cost.shape[1]) or not cost[gy, gx]:
            return api.rules.message("no_way")
        dist = api.distance_map([travel.goal], cost=cost)
        if not np.isfinite(dist[here[1], here[0]]):
            return api.rules.message("no_way")
        step = downhill(dist, here, cost, api.moves, blocked=occupied - {travel.goal})
    if step is None:
        return api.rules.message("travel_blocked")
    return step[0] - here[0], step[1] - here[1]
