"""A Slope's step is engine.kit.path.downhill's, for every map, cost and moves: the crowd's hunters
step by it (engine.core.turn.api_paths.step_toward), and their every decision must stay the same."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine import testing
from engine.kit.path import UNREACHABLE, Moves, downhill
from engine.kit.slope import UNREACHED, Slope

MOVES = [Moves(4), Moves(8), Moves(8, cut_corners=True), Moves(8, 1.5), Moves(8, 1.41, True), Moves(4, 2.0)]


def _maps(rng, cost, moves):
    """Distance maps of the kinds a walker meets: one goal, a goal on a wall (its value kept), a
    limited search, a safety map (negative values, no goal at 0)."""
    from engine.core.loading.loader import load_registry

    pf = load_registry(entry_points=False).pathfinders["heap"].reference()
    h, w = cost.shape
    goal = (rng.randrange(w), rng.randrange(h))
    yield pf.dijkstra(cost, [goal], moves)
    yield pf.dijkstra(cost, {goal: 0, (rng.randrange(w), rng.randrange(h)): -3}, moves, limit=6)
    yield pf.safety(cost, [goal], moves)


@pytest.mark.parametrize("moves", MOVES, ids=repr)
def test_a_slope_steps_as_downhill_does(moves):
    rng = random.Random(f"slope {moves}")
    for cost in testing.random_costs(f"slope {moves}", 3):
        h, w = cost.shape
        for dist in _maps(rng, cost, moves):
            x0, y0 = rng.randrange(-5, 50), rng.randrange(-5, 50)  # the box anywhere on a level
            slope = Slope(dist, cost, moves, x0, y0)
            cells = [(x, y) for y in range(h) for x in range(w)]
            blocked = set(rng.sample(cells, len(cells) // 4))
            for x, y in cells:
                free = rng.choice([None, (x + 1, y), (x, y - 1)])
                want = downhill(dist, (x, y), cost, moves, blocked={c for c in blocked if c != free})
                want = None if want is None else (want[0] - x, want[1] - y)
                shifted = {(bx + x0, by + y0) for bx, by in blocked}
                got = slope.step(x + x0, y + y0, shifted, None if free is None else (free[0] + x0, free[1] + y0))
                assert got == want, (moves, cost.shape, (x, y))
                value = slope.value(x + x0, y + y0)
                assert value == dist[y, x] or (math.isinf(value) and dist[y, x] == UNREACHABLE)
                # toward: the same step where the map reaches the walker, UNREACHED where it does not
                toward = slope.toward(x + x0, y + y0, shifted, None if free is None else (free[0] + x0, free[1] + y0))
                assert toward == (UNREACHED if math.isinf(value) else want), (moves, cost.shape, (x, y))
        assert slope.value(x0 - 1, y0) == math.inf and slope.value(x0 + w, y0 + h - 1) == math.inf
        assert slope.toward(x0 - 1, y0) is UNREACHED and slope.toward(x0 + w, y0 + h - 1) is UNREACHED


def test_a_goal_on_a_wall_keeps_its_value_and_walls_are_never_stepped_on():
    cost = np.ones((3, 3))
    cost[1, 1] = 0  # the goal's cell cannot be entered; the walker beside it stands still
    dist = np.full((3, 3), 1.0)
    dist[1, 1] = 0.0
    slope = Slope(dist, cost, Moves(8))
    assert slope.value(1, 1) == 0.0 and slope.step(0, 0) is None and slope.step(1, 1) is None


@pytest.mark.parametrize("moves", MOVES[:3], ids=repr)
def test_a_cell_asked_again_and_again_steps_as_downhill_does_whoever_is_in_the_way(moves):
    """From its second ask a cell's ways down are kept (a crowd's queue asks from the same cells
    turn after turn); the creatures in the way change from ask to ask, and the step with them."""
    rng = random.Random(f"again {moves}")
    kept = 0
    for cost in testing.random_costs(f"again {moves}", 2):
        h, w = cost.shape
        for dist in _maps(rng, cost, moves):
            slope = Slope(dist, cost, moves)
            cells = [(x, y) for y in range(h) for x in range(w)]
            for _ in range(4):  # the first ask looks at every neighbour; the others read the kept ways
                blocked = set(rng.sample(cells, len(cells) // 3))
                for x, y in cells:
                    free = rng.choice([None, (x + 1, y), (x - 1, y + 1)])
                    want = downhill(dist, (x, y), cost, moves, blocked={c for c in blocked if c != free})
                    want = None if want is None else (want[0] - x, want[1] - y)
                    assert slope.step(x, y, blocked, free) == want, (moves, cost.shape, (x, y))
            assert len(slope._ways) <= w * h // 4  # kept, for at most a quarter of its cells
            kept += len(slope._ways)
    assert kept > 0  # the kept ways were read


def test_the_ways_a_slope_keeps_are_bounded_and_counted(monkeypatch):
    from engine.kit import slope as slope_module

    cost = np.ones((60, 60))
    dist = np.add.outer(np.arange(60.0), np.arange(60.0))  # downhill toward (0, 0) everywhere
    monkeypatch.setattr(slope_module, "MAX_SLOPE_WAYS", 50)
    slope = Slope(dist, cost, Moves(8))
    empty = Slope(dist, cost, Moves(8)).cells
    for _ in range(2):
        for y in range(60):
            for x in range(60):
                slope.step(x, y)
    assert len(slope._ways) == 50  # 3599 cells asked twice (all but the goal), 50 kept
    assert slope.cells == empty >= 62 * 62 * 10 // 8 + 50 * slope_module.WAY_BYTES // 8  # counted whole from the start
