"""The compiled pathfinding kernels (numba) agree exactly with their pure-Python references: the
same distance maps, cell for cell (unreachable cells included), and the very same A* paths.

numba is a test dependency, so the kernels really are compiled here.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import testing
from engine.kit import jit, limits
from engine.kit.path import Moves
from engine.testing import random_cells

MOVES = [Moves(4), Moves(8), Moves(8, cut_corners=True), Moves(8, 1.5), Moves(8, 1.41, True), Moves(4, 2.0)]


random_maps = testing.random_costs


@pytest.fixture(scope="module")
def heap(registry):
    assert jit.enabled(), "numba is a test dependency: install the test extra"
    pf = registry.pathfinders["heap"]
    pf.dijkstra(np.ones((2, 2)), [(0, 0)])
    assert jit.failed() == []
    return pf


def _differ(fast: np.ndarray, slow: np.ndarray) -> str:
    bad = np.argwhere(~((fast == slow) | (np.isnan(fast) & np.isnan(slow))))[:5].tolist()
    return f"at [y, x] {bad}: {[fast[y, x] for y, x in bad]} vs {[slow[y, x] for y, x in bad]}"


def test_dijkstra_maps_agree_exactly(heap):
    rng = random.Random("dijkstra cases")
    cases = 0
    for cost in random_maps("dijkstra maps", 70):
        for moves in rng.sample(MOVES, 3):
            goals = random_cells(rng, cost, rng.randint(1, 4))
            limit = rng.choice((np.inf, np.inf, 3.0, 7.5))
            fast = heap.dijkstra_fn(cost, heap_seeds(cost, goals), moves, limit)
            slow = heap.python_dijkstra(cost, heap_seeds(cost, goals), moves, limit)
            assert fast.dtype == np.float64 and fast.shape == cost.shape
            assert np.array_equal(fast, slow), f"{cost.shape} {moves} {goals} limit {limit}: {_differ(fast, slow)}"
            cases += 1
    assert cases > 200


def heap_seeds(cost: np.ndarray, goals) -> np.ndarray:
    seeds = np.full(cost.shape, np.inf)
    for x, y in goals:
        seeds[y, x] = 0.0
    return seeds


def test_rescans_of_goal_values_agree_exactly(heap):
    """Goal arrays with arbitrary (negative, fractional) values, as a safety map's rescan has."""
    rng = random.Random("rescan cases")
    for cost in random_maps("rescan maps", 40):
        moves = rng.choice(MOVES)
        seeds = np.array([[rng.choice((np.inf, -rng.random() * 30, rng.random() * 5)) for _ in range(cost.shape[1])]
                          for _ in range(cost.shape[0])])
        fast = heap.dijkstra_fn(cost, seeds.copy(), moves, np.inf)
        slow = heap.python_dijkstra(cost, seeds.copy(), moves, np.inf)
        assert np.array_equal(fast, slow), f"{cost.shape} {moves}: {_differ(fast, slow)}"
        assert np.array_equal(heap.safety(cost, [(0, 0)], moves), heap.reference().safety(cost, [(0, 0)], moves))


def test_astar_paths_agree_exactly(heap):
    rng = random.Random("astar cases")
    found = missing = 0
    for cost in random_maps("astar maps", 70):
        for moves in rng.sample(MOVES, 3):
            for _ in range(4):
                start, goal = random_cells(rng, cost, 2)
                fast = heap.astar(cost, start, goal, moves)
                slow = heap.reference().astar(cost, start, goal, moves)
                assert fast == slow, f"{cost.shape} {moves} {start}->{goal}:\n{fast}\n{slow}"
                found += fast is not None and len(fast) > 0
                missing += fast is None
    assert found > 300 and missing > 50  # both outcomes are well exercised


def test_jit_off_runs_the_python_reference(registry, monkeypatch):
    monkeypatch.setenv("UNDERCROFT_JIT", "0")
    monkeypatch.setattr(jit, "_kernels", {})
    pf = registry.pathfinders["heap"]
    cost = random_maps("jit off", 1)[-1]
    assert np.array_equal(pf.dijkstra(cost, [(3, 3)]), pf.reference().dijkstra(cost, [(3, 3)]))
    assert jit._kernels == {"_path_jit": None}


def test_unit_steps_from_goals_of_one_value_take_the_layered_search(heap):
    """Every step costing 1 and every goal one value: the map is made by layers from a queue, not a
    heap, and is the same map; a weighted map, a dearer diagonal or goals of two values take the heap."""
    from engine.core.play.setup import generate_level

    kernel = jit.sibling("engine.plugins.paths.heap", "_path_jit", lambda k: None)
    floor = (generate_level("bsp", 120, 80, seed=2).terrain != 0).astype(np.float64)
    h, w = floor.shape
    ys, xs = floor.nonzero()
    goals = [(int(xs[i]), int(ys[i])) for i in (0, len(xs) // 2)]
    for moves, cost, values, layered in [
            (Moves(8, cut_corners=True), floor, (0.0, 0.0), True), (Moves(4), floor, (3.0, 3.0), True),
            (Moves(8), floor, (0.0, 0.0), True), (Moves(8, 1.5), floor, (0.0, 0.0), False),
            (Moves(8), floor * 2, (0.0, 0.0), False), (Moves(8), floor, (0.0, 1.0), False)]:
        seeds = np.full(floor.shape, np.inf)
        for (x, y), value in zip(goals, values, strict=True):
            seeds[y, x] = value
        for limit in (np.inf, 40.0):
            probe = seeds.copy().ravel()
            assert kernel._layers(cost.ravel(), probe, w, h, moves.movement, moves.diagonal_cost,
                                  moves.cut_corners, limit) is layered
            fast = heap.dijkstra_fn(cost, seeds.copy(), moves, limit)
            slow = heap.python_dijkstra(cost, seeds.copy(), moves, limit)
            assert np.array_equal(fast, slow), f"{moves} {values} limit {limit}: {_differ(fast, slow)}"


@pytest.mark.parametrize("generator", ["bsp", "caves"])
def test_long_searches_on_levels_agree_exactly(heap, generator):
    """Far goals on whole generated levels, uniform and weighted: deep heaps, where a cell reached
    more cheaply takes its new key in place in the kernel's heap (the reference pushes it again and
    skips the old entry), and many entries of equal f, ordered by push number."""
    from engine.core.play.setup import generate_level

    floor = (generate_level(generator, 120, 80, seed=5).terrain != 0).astype(np.float64)
    rng = random.Random(f"long searches {generator}")
    mud = floor * np.array([[rng.choice((1.0, 1.0, 2.0, 3.5)) for _ in range(120)] for _ in range(80)])
    ys, xs = floor.nonzero()
    cells = [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]
    for cost in (floor, mud):
        for moves in (Moves(8, 1.5, cut_corners=True), Moves(8, 1.41), Moves(4), Moves(8)):
            for _ in range(6):
                start, goal = rng.sample(cells, 2)
                fast = heap.astar(cost, start, goal, moves)
                assert fast == heap.reference().astar(cost, start, goal, moves), f"{moves} {start}->{goal}"
                assert fast is not None and len(fast) >= max(abs(goal[0] - start[0]), abs(goal[1] - start[1]))
            goals = rng.sample(cells, 3)
            fast = heap.dijkstra(cost, goals, moves)
            slow = heap.reference().dijkstra(cost, goals, moves)
            assert np.array_equal(fast, slow), f"{moves} {goals}: {_differ(fast, slow)}"


def test_steps_of_a_few_costs_from_goals_of_many_values_take_the_queued_search(heap):
    """Steps of a few costs (a level's floor, doors, water) from goals of their own values (a safety
    map's rescan): the goals are sorted once and what they reach kept in a queue per step cost, not
    a heap, and the map is the same, cell for cell, as the Python reference's (limits, 4 or 8
    ways, diagonal costs, corners, unreachable cells included)."""
    kernel = jit.sibling("engine.plugins.paths.heap", "_path_jit", lambda k: None)
    rng = random.Random("queued cases")
    cases = weighted = 0
    for cost in random_maps("queued maps", 40):
        h, w = cost.shape
        for floor in ((cost > 0).astype(np.float64), np.where(cost > 0, np.minimum(np.ceil(cost), 4.0), 0.0)):
            for moves in (Moves(4), Moves(8), Moves(8, cut_corners=True), Moves(8, 1.5)):
                seeds = np.array([[rng.choice((np.inf, np.inf, -rng.random() * 30, float(rng.randint(-4, 4))))
                                   for _ in range(w)] for _ in range(h)])
                for limit in (np.inf, 2.0, 6.5):
                    probe = seeds.copy().ravel()
                    layered = kernel._layers(floor.ravel(), probe.copy(), w, h, moves.movement, moves.diagonal_cost,
                                             moves.cut_corners, limit)
                    queued = kernel._queues(floor.ravel(), probe, w, h, moves.movement, moves.diagonal_cost,
                                            moves.cut_corners, limit)
                    assert queued  # at most 4 costs, and 4 more on a diagonal: whatever the goals' values
                    cases += not layered  # goals of one value on unit steps (a small map's few) take the layers first
                    weighted += bool(np.any(floor > 1) or moves.diagonal_cost != 1)
                    slow = heap.python_dijkstra(floor, seeds.copy(), moves, limit)
                    assert np.array_equal(probe.reshape(h, w), slow), f"{floor.shape} {moves} limit {limit}"
                    assert np.array_equal(heap.dijkstra_fn(floor, seeds.copy(), moves, limit), slow)
            safety = heap.safety(floor, [(0, 0)], Moves(8))
            assert np.array_equal(safety, heap.reference().safety(floor, [(0, 0)], Moves(8)))
    assert cases > 600 and weighted > 300
    # more step costs than queues, or more entries than the limit: the heap's, the map untouched
    many = np.arange(1.0, 10.0)  # nine costs
    probe = np.array([0.0, 1.0] + [np.inf] * 7)
    assert not kernel._queues(many, probe, 3, 3, 4, 1.0, False, np.inf)
    assert probe.tolist() == [0.0, 1.0] + [np.inf] * 7
    side = 1 + int((limits.MAX_PATH_QUEUE_ENTRIES // 2) ** 0.5)  # two costs on a map that many cells square
    big = np.ones((side, side))
    big[0, 0] = 2.0
    probe = np.full(side * side, np.inf)
    probe[0] = 0.0
    assert not kernel._queues(big.ravel(), probe, side, side, 4, 1.0, False, np.inf) and probe[1] == np.inf


def test_scratch_arrays_kept_between_searches_give_the_references_paths(heap):
    """The compiled A* keeps its arrays between searches and tells this search's cells from older
    ones by a generation number: searches of every size, one after another on the same arrays (a
    small map on arrays made for a bigger one), find the reference's paths; a new generation is
    held by no cell, also once the numbers wrap round."""
    from engine.plugins.paths import heap as module

    kernel = jit.sibling("engine.plugins.paths.heap", "_path_jit", lambda k: None)
    scratch = module.Scratch(40 * 30)
    rng = random.Random("scratch cases")
    checked = 0
    for cost in random_maps("scratch maps", 30):
        h, w = cost.shape
        if w * h > scratch.cells:
            continue
        for moves in rng.sample(MOVES, 2):
            start, goal = random_cells(rng, cost, 2)
            if start == goal or cost[goal[1], goal[0]] <= 0:
                continue
            if checked == 20:
                scratch.gen = 2**31 - 3  # two searches before the int32 stamps would wrap
            gen = scratch.next_generation()
            assert not (scratch.stamp == gen).any()
            s = scratch
            flat = kernel.astar(cost.ravel(), s.stamp, s.g, s.parent, s.where, s.hf, s.hk, s.hc, gen, w, h,
                                start[0], start[1], goal[0], goal[1], moves.movement, moves.diagonal_cost,
                                moves.cut_corners)
            fast = [(i % w, i // w) for i in flat.tolist()] if flat.size else None
            assert fast == heap.reference().astar(cost, start, goal, moves), f"{cost.shape} {moves} {start}->{goal}"
            checked += 1
    assert checked > 40 and scratch.gen < 30  # wrapped round


def test_a_search_takes_no_whole_map_arrays_of_its_own(heap):
    """A* on a big map reuses its work arrays: the pathfinder's conversion of a bool cost and the
    kernel's scratch come from their pools, and go back to them after the search."""
    from engine.kit import path as kitpath
    from engine.plugins.paths import heap as module

    walkable = np.ones((300, 400), dtype=bool)
    walkable[150, 1:] = False
    heap.astar(walkable, (0, 0), (399, 299))
    scratch = module._spares.take(walkable.size)
    converted = kitpath._COST_SPARES.take(walkable.size)
    module._spares.give(scratch)
    kitpath._COST_SPARES.give(converted)
    for _ in range(3):
        path = heap.astar(walkable, (0, 0), (399, 299), Moves(8, 1.5))
        assert path == heap.reference().astar(walkable, (0, 0), (399, 299), Moves(8, 1.5))
        assert module._spares.take(walkable.size) is scratch and kitpath._COST_SPARES.take(walkable.size) is converted
        module._spares.give(scratch)
        kitpath._COST_SPARES.give(converted)
