"""A crowd hunting the player: a monster's step costs the same however many monsters the level
holds, and the hunters chasing one goal share one distance map, which their moves never make stale."""

from __future__ import annotations

import random

import pytest

from engine.core.play.setup import Setup, new_game
from engine.kit.path import downhill


def _crowd(count: int, seed: int = 5):
    """A 120x70 cave game with ``count`` more rats on random floor cells."""
    g = new_game(Setup(seed=seed, size=(120, 70), plugins=["generator=caves"]))
    rng = random.Random(seed)
    taken = set(g.state.spatial.blockers())
    floor = [(int(x), int(y)) for y, x in zip(*(g.level.terrain != 0).nonzero(), strict=True)
             if (int(x), int(y)) not in taken]
    for x, y in rng.sample(floor, count):
        g.spawn_monster("rat", x, y)
    return g


def _whole_map_step(g, walker, goal):
    """The step the whole level's distance map gives, around the creatures in the way."""
    api, here = g.api, g.api.position(walker)
    occupied = {c for c in g.state.spatial.blockers() if c != goal}
    step = downhill(api.distance_map(goal), here, api.walk_cost(), api.moves, blocked=occupied)
    return None if step is None else (step[0] - here[0], step[1] - here[1])


class Watched(dict):
    """The spatial index's table of blockers, counting the cells asked about; reading it whole is
    what a step must not do."""

    asked = 0

    def __contains__(self, cell):
        self.asked += 1
        return super().__contains__(cell)

    def __iter__(self):
        raise AssertionError("a step read every blocker on the level")


@pytest.mark.parametrize("count", [10, 400])
def test_a_step_asks_only_about_the_cells_beside_the_walker(count):
    g = _crowd(count)
    api, goal = g.api, g.api.position(g.api.player)
    monsters = api.monsters()
    expected = [_whole_map_step(g, m, goal) for m in monsters]
    spatial = g.state.spatial
    spatial._blockers = watched = Watched(spatial._blockers)
    steps = [api.step_toward(m, goal) for m in monsters]
    assert steps == expected and sum(s is not None for s in steps) > len(monsters) // 4
    assert watched.asked <= 8 * len(monsters)  # the 8 cells beside each walker, at most


def test_hunters_chasing_one_goal_share_one_map_that_their_moves_never_make_stale(monkeypatch):
    g = _crowd(150)
    api, goal = g.api, g.api.position(g.api.player)
    searched = []
    real = api.distance_map

    def counted(goals, limit=None, cost=None):
        searched.append(goals)
        return real(goals, limit, cost)

    monkeypatch.setattr(api._paths, "distance_map", counted)
    monsters = sorted(api.monsters(), key=lambda m: -api.distance(m, api.player))  # the farthest first
    for m in monsters:
        api.step_toward(m, goal)
    assert len(searched) == 1  # the farthest hunter's map serves every nearer one
    for _ in range(3):  # the crowd moves: blockers change, the terrain does not
        for m in monsters:
            step = api.step_toward(m, goal)
            monkeypatch.setattr(api._paths, "distance_map", real)
            assert step == _whole_map_step(g, m, goal)
            monkeypatch.setattr(api._paths, "distance_map", counted)
            x, y = api.position(m)
            if step is not None and g.state.spatial.blocker_at(x + step[0], y + step[1]) is None:
                g.move_entity(m, x + step[0], y + step[1])  # beside the player, a hunter would attack
    assert len(searched) == 1
