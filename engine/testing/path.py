"""The pathfinder contract, as checks on a registered :class:`engine.kit.path.Pathfinder` (called
through its methods, which check the arguments, as the game calls it)."""

from __future__ import annotations

import random

import numpy as np

from engine.kit.path import UNREACHABLE, Moves, Pathfinder, descend
from engine.testing.errors import fail

MOVES = [Moves(4), Moves(8), Moves(8, cut_corners=True), Moves(8, 1.5), Moves(4, 3.0)]
Cell = tuple[int, int]


def random_cost(rng: random.Random, w: int, h: int, walls: float, weights: str) -> np.ndarray:
    """A (h, w) cost map: ``walls`` of it 0 (or negative), the rest 1, ints 1..5, or floats."""
    cost = np.ones((h, w))
    for y in range(h):
        for x in range(w):
            if rng.random() < walls:
                cost[y, x] = rng.choice((0.0, -1.0))
            elif weights == "ints":
                cost[y, x] = rng.randint(1, 5)
            elif weights == "floats":
                cost[y, x] = rng.choice((0.1, 0.3, 0.7, 1.0, 2.5, 3.3))
    return cost


def random_costs(seed: str, n: int) -> list[np.ndarray]:
    """Random cost maps from 1x1 to 40x40, thin ones (1xN, Nx1) among them, walls 0-60%, and
    three weightings (uniform, whole numbers, fractions): ``n`` of them plus five fixed sizes."""
    rng = random.Random(seed)
    sizes = [(1, 1), (1, 9), (13, 1), (2, 2), (40, 40)] + [(rng.randint(1, 40), rng.randint(1, 40)) for _ in range(n)]
    return [random_cost(rng, w, h, rng.choice((0.0, 0.1, 0.25, 0.4, 0.6)), rng.choice(("uniform", "ints", "floats")))
            for w, h in sizes]


def random_cells(rng: random.Random, cost: np.ndarray, k: int) -> list[Cell]:
    """``k`` cells anywhere on the map (walls included)."""
    h, w = cost.shape
    return [(rng.randrange(w), rng.randrange(h)) for _ in range(k)]


def step_cost(cost: np.ndarray, a: Cell, b: Cell, moves: Moves) -> float | None:
    """What stepping from ``a`` to ``b`` costs under ``moves``; None when it is no legal step."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    if (dx, dy) not in moves.steps or cost[by, bx] <= 0:
        return None
    if dx and dy:
        if not moves.cut_corners and not (cost[ay, bx] > 0 and cost[by, ax] > 0):
            return None
        return float(cost[by, bx] * moves.diagonal_cost)
    return float(cost[by, bx])


def _subject(pf: Pathfinder) -> str:
    return f"pathfinder {pf.name!r}"


def check_astar(pf: Pathfinder, maps: int = 40, seed: str = "astar properties") -> int:
    """A* finds a legal path exactly as cheap as the Dijkstra distance (both its own), or None
    exactly when the goal is unreachable: on ``maps`` random maps, for five kinds of moves.
    Returns the paths checked."""
    rng = random.Random(seed)
    checked = 0
    for cost in random_costs(seed + " maps", maps):
        for moves in MOVES:
            start, goal = random_cells(rng, cost, 2)
            best = pf.dijkstra(cost, [start], moves)[goal[1], goal[0]]
            path = pf.astar(cost, start, goal, moves)
            where = f"{cost.shape[1]}x{cost.shape[0]} map, {moves}, {start} -> {goal}"
            if best == UNREACHABLE:
                if path is not None:
                    raise fail(_subject(pf), "A* finds no path where Dijkstra reaches nothing", where)
                continue
            if path is None or (path[-1] != goal if path else start != goal):
                raise fail(_subject(pf), "A* finds a path to every goal Dijkstra reaches, ending on it", where)
            total, here = 0.0, start
            for cell in path:
                step = step_cost(cost, here, cell, moves)
                if step is None:
                    raise fail(_subject(pf), f"A*'s path takes legal steps: {here} -> {cell} is not one", where)
                total, here = total + step, cell
            if not np.isclose(total, best, rtol=1e-12, atol=0):
                raise fail(_subject(pf), f"A*'s path is a cheapest one: it costs {total}, Dijkstra says {best}", where)
            checked += 1
    return checked


def check_bellman(pf: Pathfinder, maps: int = 25, seed: str = "bellman") -> None:
    """Every distance of a Dijkstra map is its cheapest neighbour's plus the step into it (0 on a
    goal; ``UNREACHABLE`` where no step leads): the definition of a Dijkstra map, checked cell by
    cell on ``maps`` random maps with one to three goals."""
    rng = random.Random(seed)
    for cost in random_costs(seed + " maps", maps):
        moves = rng.choice(MOVES)
        goals = random_cells(rng, cost, rng.randint(1, 3))
        h, w = cost.shape
        d = pf.dijkstra(cost, goals, moves)
        for y in range(h):
            for x in range(w):
                best = 0.0 if (x, y) in goals else UNREACHABLE
                if cost[y, x] > 0:
                    for dx, dy in moves.steps:
                        u = (x - dx, y - dy)
                        if 0 <= u[0] < w and 0 <= u[1] < h and d[u[1], u[0]] < UNREACHABLE:
                            step = step_cost(cost, u, (x, y), moves)
                            if step is not None:
                                best = min(best, d[u[1], u[0]] + step)
                if d[y, x] != best:
                    raise fail(_subject(pf), f"a distance is its cheapest neighbour's plus the step: [{y}, {x}] is "
                               f"{d[y, x]}, expected {best}", f"{w}x{h} map, {moves}, goals {goals}")


def check_symmetric_distances(pf: Pathfinder, maps: int = 20, seed: str = "symmetry") -> None:
    """On uniform costs, the distance from A to B is the distance from B to A, and walking
    ``engine.kit.path.descend`` down a Dijkstra map reaches its goal in that many steps."""
    rng = random.Random(seed)
    for cost in random_costs(seed + " maps", maps):
        walkable = cost > 0
        moves = rng.choice(MOVES[:3])
        ys, xs = np.nonzero(walkable)
        floors = list(zip(xs.tolist(), ys.tolist(), strict=True))
        if len(floors) < 2:
            continue
        a, b = rng.sample(floors, 2)  # (a goal on a wall spreads, but nothing enters it: not symmetric)
        from_a, from_b = pf.dijkstra(walkable, [a], moves), pf.dijkstra(walkable, [b], moves)
        where = f"{cost.shape[1]}x{cost.shape[0]} map, {moves}, {a} and {b}"
        if from_a[b[1], b[0]] != from_b[a[1], a[0]]:
            raise fail(_subject(pf), "uniform distances are symmetric", where)
        if from_b[a[1], a[0]] < UNREACHABLE:
            path = descend(from_b, a, walkable, moves, max_steps=walkable.size + 1)
            if len(path) != from_b[a[1], a[0]] or (path[-1] != b if path else a != b):
                raise fail(_subject(pf), "descend walks a Dijkstra map to its goal in its distance", where)


def check_pathfinder_reference(pf: Pathfinder, maps: int = 30, seed: str = "reference") -> int:
    """A pathfinder registered with ``python_dijkstra`` / ``python_astar`` references (its functions
    run compiled kernels) agrees with them exactly: the same distance maps, cell for cell
    (unreachable cells and goal values of any sign included), and the very same A* paths.
    Returns the cases compared (0 when it has no references)."""
    ref = pf.reference()
    if ref is pf:
        return 0
    rng = random.Random(seed)
    cases = 0
    for cost in random_costs(seed + " maps", maps):
        for moves in rng.sample(MOVES, 3):
            goals = random_cells(rng, cost, rng.randint(1, 4))
            limit = rng.choice((None, None, 3.0, 7.5))
            fast, slow = pf.dijkstra(cost, goals, moves, limit), ref.dijkstra(cost, goals, moves, limit)
            where = f"{cost.shape[1]}x{cost.shape[0]} map, {moves}, goals {goals}, limit {limit}"
            if not np.array_equal(fast, slow):
                raise fail(_subject(pf), "the compiled Dijkstra agrees with its python reference", where)
            seeds = {c: rng.choice((-rng.random() * 30, rng.random() * 5)) for c in random_cells(rng, cost, 3)}
            if not np.array_equal(pf.dijkstra(cost, seeds, moves), ref.dijkstra(cost, seeds, moves)):
                raise fail(_subject(pf), "the compiled Dijkstra agrees with its reference on goal values", where)
            for _ in range(2):
                start, goal = random_cells(rng, cost, 2)
                if pf.astar(cost, start, goal, moves) != ref.astar(cost, start, goal, moves):
                    raise fail(_subject(pf), "the compiled A* finds the very path its python reference finds",
                               f"{where}, {start} -> {goal}")
            cases += 1
    return cases


def check_pathfinder(pf: Pathfinder, *, maps: int = 15) -> None:
    """Every pathfinder contract, for it and (when it has them) its python references:
    :func:`check_astar`, :func:`check_bellman`, :func:`check_symmetric_distances` on ``maps``
    random maps each, and :func:`check_pathfinder_reference`."""
    for variant in dict.fromkeys((pf, pf.reference())):
        check_astar(variant, maps)
        check_bellman(variant, maps)
        check_symmetric_distances(variant, maps)
    check_pathfinder_reference(pf, maps)
