"""Pathfinding: the contract (engine.kit.path), the built-in ``heap`` pathfinder on hand-checked maps,
and properties that hold on random maps for every registered pathfinder (and its Python reference).
"""

from __future__ import annotations

import dataclasses
import textwrap

import numpy as np
import pytest

from engine import UNREACHABLE, Moves, PluginError, descend, downhill, load_registry, testing
from engine.cli.tools.bench import path as bench_path
from engine.kit.path import STEPS

INF = UNREACHABLE


def walk(dist: np.ndarray, start, cost: np.ndarray, moves: Moves | None = None) -> list:
    """``descend``, bounded: a walk down strictly falling values visits a cell at most once."""
    path = descend(dist, start, cost, moves or Moves(), max_steps=cost.size + 1)
    assert len(path) <= cost.size, "descend went round in circles"
    return path


def grid(text: str) -> np.ndarray:
    """A cost map from rows of characters: '#' a wall, '.' cost 1, a digit that cost."""
    rows = textwrap.dedent(text).strip().splitlines()
    return np.array([[0.0 if ch == "#" else 1.0 if ch == "." else float(ch) for ch in row] for row in rows])


@pytest.fixture(scope="module", params=["compiled", "python"])
def pf(request, registry):
    heap = registry.pathfinders["heap"]
    return heap if request.param == "compiled" else heap.reference()


def all_pathfinders(registry):
    return [p for pf in registry.pathfinders.values() for p in (pf, pf.reference())]


# --- the registry -------------------------------------------------------------------------------------


def test_the_heap_pathfinder_is_built_in_and_chosen_by_name(registry):
    assert registry.choose("path", "heap") is registry.pathfinders["heap"]
    assert registry.owners[("pathfinders", "heap")] == "path_heap"
    with pytest.raises(PluginError, match=r"--plugin path=astar: no path named 'astar' \(valid: heap\)"):
        registry.choose("path", "astar")


def test_a_plugin_registers_a_pathfinder_and_a_bad_one_is_reported(tmp_path):
    (tmp_path / "flat.py").write_text(textwrap.dedent("""
        from engine import hookimpl

        @hookimpl
        def register_pathfinders(register):
            register("flat", dijkstra=lambda cost, seeds, moves, limit: seeds, astar=lambda *a: None)
    """))
    (tmp_path / "half.py").write_text(textwrap.dedent("""
        from engine import hookimpl

        @hookimpl
        def register_pathfinders(register):
            register("half", dijkstra=print, astar="not a function")
    """))
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    flat = registry.pathfinders["flat"]
    assert flat.dijkstra(np.ones((2, 3)), [(1, 1)]).tolist() == [[INF, INF, INF], [INF, 0.0, INF]]
    assert flat.astar(np.ones((2, 3)), (0, 0), (2, 1)) is None
    assert "half" not in registry.pathfinders
    assert registry.broken["half"] == "TypeError: register_pathfinders: 'half': astar is not callable"


def test_the_dump_names_the_pathfinder_in_use_the_presets_or_the_runs(tmp_path):
    """--dump json's plugins name the pathfinder as they name the FOV: the run's --plugin path=,
    else the preset's own (a preset's was left out: only a --plugin choice was said)."""
    from engine.core.play.setup import Setup, new_game
    from engine.core.play.snapshot import snapshot

    (tmp_path / "flat.py").write_text(textwrap.dedent("""
        from engine import hookimpl

        @hookimpl
        def register_pathfinders(register):
            register("flat", dijkstra=lambda cost, seeds, moves, limit: seeds, astar=lambda *a: None)
    """))
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    rules = registry.games["undercroft"]
    registry.games["flatland"] = dataclasses.replace(rules, name="flatland", pathfinder="flat")
    assert snapshot(new_game(Setup(seed=1, game="flatland"), registry))["plugins"]["path"] == "flat"
    chosen = new_game(Setup(seed=1, game="flatland", plugins=["path=heap"]), registry)
    assert snapshot(chosen)["plugins"]["path"] == "heap"
    assert snapshot(new_game(Setup(seed=1), registry))["plugins"]["path"] == "heap"


# --- arguments ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "message"), [
    (lambda pf: pf.dijkstra(np.ones(5), [(0, 0)]),
     r"cost must be a non-empty 2-D array indexed \[y, x\], got shape \(5,\)"),
    (lambda pf: pf.dijkstra(np.zeros((0, 3)), []), r"cost must be a non-empty 2-D .* got shape \(0, 3\)"),
    (lambda pf: pf.dijkstra(np.array([["a"]]), []), r"cost must be numbers or bools, got dtype <U1"),
    (lambda pf: pf.dijkstra(np.array([[1.0, np.nan]]), []), r"cost must be finite"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), [(3, 0)]), r"goal \(3, 0\) is outside the 3x2 map"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), [(0,)]), r"goal must be an \(x, y\) pair, got \(0,\)"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), (1, 1)), r"goal must be an \(x, y\) pair, got 1"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), np.zeros((3, 2), bool)),
     r"a goal array must have the cost's shape \(2, 3\), got \(3, 2\)"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), np.full((2, 3), np.nan)), r"goal values must be numbers"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), 7), r"goals must be a list of \(x, y\) cells or an array, got int"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), {(1, 1): "near"}), r"goal \(1, 1\) has value 'near': goal values must"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), [], limit=float("nan")), r"limit must be a number"),
    (lambda pf: pf.astar(np.ones((2, 3)), (0, 0), (0, 2)), r"goal \(0, 2\) is outside the 3x2 map"),
    (lambda pf: pf.astar(np.ones((2, 3)), (-1, 0), (0, 0)), r"start \(-1, 0\) is outside"),
    (lambda pf: pf.safety(np.ones((2, 3)), [(0, 0)], coefficient=1.2),
     r"safety coefficient must be a negative number, got 1.2"),
    (lambda pf: Moves(6), r"movement must be 4 or 8, got 6"),
    (lambda pf: downhill(np.zeros((2, 3)), (-1, 0), np.ones((2, 3))), r"cell \(-1, 0\) is outside the 3x2 map"),
    (lambda pf: pf.dijkstra(np.ones((2, 3)), [(0, 0)], 8), r"moves must be an engine.Moves, such as Moves\(8\)"),
    (lambda pf: pf.astar(np.ones((2, 3)), (0, 0), (1, 1), 4), r"moves must be an engine.Moves, .*got 4"),
    (lambda pf: Moves(8, 0.5), r"diagonal_cost must be a finite number of at least 1, got 0.5"),
])
def test_bad_arguments_are_one_clear_line(pf, call, message):
    with pytest.raises(ValueError, match="^pathfinding: " + message) as info:
        call(pf)
    assert "\n" not in str(info.value)


def test_goals_as_cells_bools_floats_and_tcod_style_ints_are_the_same_goals(pf):
    cost = grid("""
        .....
        .#...
        .....
    """)
    cells = pf.dijkstra(cost, [(0, 0), (4, 2)])
    mask = np.zeros(cost.shape, bool)
    mask[0, 0] = mask[2, 4] = True
    ints = np.full(cost.shape, np.iinfo(np.int32).max, dtype=np.int32)
    ints[0, 0] = ints[2, 4] = 0
    floats = np.where(mask, 0.0, INF)
    for goals in (mask, ints, floats, {(0, 0), (4, 2)}, {(0, 0): 0, (4, 2): 0.0}, (c for c in [(0, 0), (4, 2)])):
        assert np.array_equal(pf.dijkstra(cost, goals), cells)
    floats[2, 4] = -3
    assert np.array_equal(pf.dijkstra(cost, {(0, 0): 0, (4, 2): -3}), pf.dijkstra(cost, floats))
    floats[2, 4] = 0
    assert floats[0, 1] == INF  # the caller's array is not written into


# --- hand-checked maps --------------------------------------------------------------------------------


def test_distances_around_a_wall_4_and_8_ways(pf):
    cost = grid("""
        ....
        .##.
        ....
    """)
    assert pf.dijkstra(cost, [(0, 1)], Moves(8, cut_corners=True)).tolist() == [
        [1, 1, 2, 3],
        [0, INF, INF, 3],
        [1, 1, 2, 3],
    ]
    assert pf.dijkstra(cost, [(0, 1)], Moves(4)).tolist() == [
        [1, 2, 3, 4],
        [0, INF, INF, 5],
        [1, 2, 3, 4],
    ]
    # Not cutting corners, every diagonal here passes a wall: 8 ways is no shorter than 4.
    assert np.array_equal(pf.dijkstra(cost, [(0, 1)], Moves(8)), pf.dijkstra(cost, [(0, 1)], Moves(4)))


def test_corners_are_not_cut_unless_asked_and_diagonals_cost_what_is_asked(pf):
    cost = grid("""
        .#.
        ...
        #..
    """)
    assert pf.dijkstra(cost, [(0, 0)]).tolist() == [[0, INF, 4], [1, 2, 3], [INF, 3, 3]]
    assert pf.dijkstra(cost, [(0, 0)], Moves(cut_corners=True)).tolist() == [[0, INF, 2], [1, 1, 2], [INF, 2, 2]]
    assert pf.dijkstra(cost, [(0, 0)], Moves(8, 1.5)).tolist() == [[0, INF, 4], [1, 2, 3], [INF, 3, 3.5]]
    # The same rule for A*: from the top-left corner to the top-right one.
    assert pf.astar(cost, (0, 0), (2, 0)) == [(0, 1), (1, 1), (2, 1), (2, 0)]
    assert pf.astar(cost, (0, 0), (2, 0), Moves(cut_corners=True)) == [(1, 1), (2, 0)]


def test_weighted_costs_count_the_cells_entered(pf):
    cost = grid("""
        .9.
        ...
    """)
    assert pf.dijkstra(cost, [(0, 0)], Moves(4)).tolist() == [[0, 9, 4], [1, 2, 3]]
    assert pf.astar(cost, (0, 0), (2, 0), Moves(4)) == [(0, 1), (1, 1), (2, 1), (2, 0)]
    assert pf.astar(cost, (2, 0), (0, 0), Moves(4)) == [(2, 1), (1, 1), (0, 1), (0, 0)]


def test_unreachable_cells_walls_and_goals_that_cannot_be_entered(pf):
    cost = grid("""
        ..#..
        ..#..
    """)
    d = pf.dijkstra(cost, [(0, 0)])
    assert d.tolist() == [[0, 1, INF, INF, INF], [1, 1, INF, INF, INF]]
    assert pf.astar(cost, (0, 0), (4, 1)) is None
    assert pf.astar(cost, (0, 0), (2, 0)) is None  # a wall cannot be entered
    assert pf.astar(cost, (1, 1), (1, 1)) == []
    assert pf.astar(cost, (2, 0), (4, 1)) == [(3, 0), (4, 1)]  # starting on a wall is allowed
    # A goal on a wall keeps its value and spreads (say, the unexplored cells auto-explore aims at).
    assert pf.dijkstra(cost, [(2, 0)]).tolist() == [[2, 1, 0, 1, 2], [2, 2, INF, 2, 2]]
    assert pf.dijkstra(cost, []).tolist() == [[INF] * 5] * 2


def test_goal_values_and_limit(pf):
    cost = np.ones((1, 7))
    seeds = np.full((1, 7), INF)
    seeds[0, 0], seeds[0, 6] = 0.0, -2.0
    assert pf.dijkstra(cost, seeds).tolist() == [[0, 1, 2, 1, 0, -1, -2]]
    assert pf.dijkstra(cost, [(0, 0)], limit=3).tolist() == [[0, 1, 2, 3, INF, INF, INF]]
    assert pf.dijkstra(cost, [(0, 0)], limit=2.5).tolist() == [[0, 1, 2, INF, INF, INF, INF]]


def test_downhill_goes_straight_on_open_floor_and_steps_round_blockers():
    cost = np.ones((7, 9))
    dist = load_registry(entry_points=False).pathfinders["heap"].dijkstra(cost, [(8, 3)])
    assert walk(dist, (0, 3), cost) == [(x, 3) for x in range(1, 9)]  # not a zig-zag of diagonals
    assert downhill(dist, (0, 0), cost) == (1, 0)  # east and south-east are both 7: east comes first
    assert downhill(dist, (5, 0), cost) == (6, 1)  # the one lowest neighbour, diagonal
    assert downhill(dist, (0, 3), cost, blocked={(1, 3)}) == (1, 2)  # ties: north-east before south-east
    assert downhill(dist, (0, 3), cost, blocked={(1, 3), (1, 2), (1, 4)}) is None  # nothing lower left
    assert downhill(dist, (8, 3), cost) is None  # at the goal
    assert downhill(dist, (0, 3), cost, Moves(4), blocked={(1, 3)}) is None
    assert [s for s in STEPS[:4]] == [(0, -1), (1, 0), (0, 1), (-1, 0)]


def test_a_walker_goes_around_a_pillar_and_stops_beside_a_goal_it_cannot_enter(pf):
    cost = grid("""
        .......
        ...#...
        ...#...
        ...#...
        .......
    """)
    dist = pf.dijkstra(cost, [(6, 2)])
    path = walk(dist, (0, 2), cost)
    assert path[-1] == (6, 2) and len(path) == 6 and (3, 2) not in path
    cost[2, 6] = 0  # the goal is occupied: the walk stops next to it
    path = walk(pf.dijkstra(cost, [(6, 2)]), (0, 2), cost)
    assert max(abs(path[-1][0] - 6), abs(path[-1][1] - 2)) == 1


def test_downhill_does_not_cut_corners_unless_the_moves_do():
    cost = grid("""
        .#
        ..
    """)
    dist = np.array([[3.0, INF], [2.0, 0.0]])
    assert downhill(dist, (0, 0), cost) == (0, 1)
    assert downhill(dist, (0, 0), cost, Moves(cut_corners=True)) == (1, 1)


def test_a_fleeing_walker_heads_for_the_far_exit_not_the_far_wall(pf):
    """Brogue's safety map. The threat stands by the room's west wall, the fleer east of it. Mere
    distance from the threat leads to the room's east wall, a dead end; the rescanned map sees
    that the corridor leaving by the north door goes much farther, and leads out through it."""
    cost = grid("""
        ##################################################
        #####............................................#
        #####.############################################
        #####.############################################
        #####.############################################
        #............#####################################
        #............#####################################
        #............#####################################
        #............#####################################
        #............#####################################
        ##################################################
    """)
    threat, fleer = (2, 7), (7, 8)
    path = walk(pf.safety(cost, [threat]), fleer, cost)
    assert path[:3] == [(7, 7), (6, 6), (5, 5)] and path[-1] == (48, 1), path
    naive = np.where(cost > 0, pf.dijkstra(cost, [threat]) * -1.2, INF)
    assert walk(naive, fleer, cost)[-1] == (12, 8)  # without the rescan: against the east wall
    assert np.isinf(pf.safety(cost, [])).all()  # no threat: nothing to flee


# --- properties on random maps: the kit's contract, for every pathfinder and its python reference --------


@pytest.fixture(params=["as registered", "python reference"])
def variant(request, registry, path_name):
    pf = registry.pathfinders[path_name]
    return pf if request.param == "as registered" else pf.reference()


def test_astar_is_legal_and_as_cheap_as_the_dijkstra_distance(variant):
    assert testing.path.check_astar(variant, maps=40) > 100  # paths found (the rest: goals cut off)


def test_every_distance_is_its_cheapest_neighbour_plus_the_step(variant):
    """The Bellman equations, checked directly: the definition of a Dijkstra map, whatever computes it."""
    testing.path.check_bellman(variant, maps=25)


def test_uniform_distances_are_symmetric_and_descend_walks_them(variant):
    testing.path.check_symmetric_distances(variant, maps=20)


def test_the_kit_passes_it_whole(registry, path_name):
    """``engine.testing.check_pathfinder``, as a plugin's own test calls it."""
    testing.check_pathfinder(registry.pathfinders[path_name], maps=4)


def test_bench_rows_time_compiled_and_python_side_by_side_and_nothing_differs():
    rows = bench_path.bench_figures(repeats=1, sizes=((40, 30),))
    names = [r["name"] for r in rows]
    for op in ("dijkstra", "astar"):
        for kind in bench_path.MAPS:
            for variant in ("(numba)", "no-cut (numba)", "(python)"):
                assert f"path {op} {kind} 40x30 {variant}" in names
    for r in rows:
        assert r["unit"] == "us" and r["value"] > 0 and "DIFFERS" not in r["target"], r
        assert (r["tcod"] is None) == (bench_path.tcod_path() is None)
