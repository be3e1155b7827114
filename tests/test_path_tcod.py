"""Our pathfinders compute what libtcod computes (python-tcod's ``tcod.path``), on the bench's maps and
on random weighted ones. tcod is an optional extra (``pip install .[bench]``): these tests are
skipped only when it is not installed. The bench runs the same check before it times anything.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_path_jit import random_cells

from engine.cli.tools.bench import path as bench_path
from engine.kit.path import Moves

tcod_path = pytest.importorskip("tcod.path", reason="tcod is the optional bench extra")
MAXINT = np.iinfo(np.int32).max


def pathfinders(registry):
    return [p for pf in registry.pathfinders.values() for p in (pf, pf.reference())]


@pytest.mark.parametrize("kind", bench_path.MAPS)
def test_the_bench_maps_give_the_same_distances_and_path_costs_as_libtcod(registry, kind):
    walkable = bench_path.make_map(kind, 80, 50)
    assert walkable.mean() > 0.2
    cost = walkable.astype(np.int32)
    rng = random.Random(kind)
    goals = bench_path.floor_cells(walkable, rng, 3)
    pairs = list(zip(bench_path.floor_cells(walkable, rng, 4), bench_path.floor_cells(walkable, rng, 4), strict=True))
    for pf in pathfinders(registry):
        assert bench_path.check_against_tcod(pf, cost, goals, pairs) is None


def test_random_weighted_maps_give_the_same_distances_as_dijkstra2d(registry):
    """Integer costs 1-9 with walls, several goals; 8 ways (libtcod's cardinal=1, diagonal=1, which
    cuts corners), 8 ways with diagonals 1.5 (libtcod's cardinal=2, diagonal=3, halved) and 4 ways."""
    rng = random.Random("tcod weighted")
    compared = 0
    for _ in range(40):
        w, h = rng.randint(1, 30), rng.randint(1, 30)
        walls = rng.choice((0.0, 0.2, 0.45))
        cost = np.array([[0 if rng.random() < walls else rng.randint(1, 9) for _ in range(w)] for _ in range(h)],
                        dtype=np.int32)
        goals = random_cells(rng, cost, rng.randint(1, 3))
        for cardinal, diagonal, moves, factor in ((1, 1, Moves(8, cut_corners=True), 1), (2, 3, Moves(8, 1.5, True), 2),
                                                  (1, None, Moves(4), 1)):
            theirs = tcod_path.maxarray(cost.shape, dtype=np.int32)
            for x, y in goals:
                theirs[y, x] = 0
            tcod_path.dijkstra2d(theirs, cost, cardinal, diagonal, out=theirs)
            expected = np.where(theirs == MAXINT, np.inf, theirs / factor)
            for pf in pathfinders(registry):
                assert np.array_equal(pf.dijkstra(cost, goals, moves), expected), f"{pf.name} {moves} {goals}"
                compared += 1
    assert compared == 40 * 3 * len(pathfinders(registry))


def test_a_difference_from_libtcod_is_reported_not_timed(registry):
    """The bench's check can fail: a pathfinder that gets one cell wrong is named with the cell."""
    heap = registry.pathfinders["heap"]

    class OffByOne:
        name = "off by one"

        def dijkstra(self, cost, goals, moves):
            d = heap.dijkstra(cost, goals, moves)
            d[d == 3] += 1
            return d

        def astar(self, cost, start, goal, moves):
            return heap.astar(cost, start, goal, moves)

    walkable = bench_path.make_map("rooms", 80, 50)
    goal = bench_path.floor_cells(walkable, random.Random(1), 1)
    problem = bench_path.check_against_tcod(OffByOne(), walkable.astype(np.int32), goal, [])
    assert problem is not None and problem.startswith(f"Dijkstra map from {goal[0]} differs at [y, x]")
    assert problem.endswith("ours 4.0, libtcod 3")
