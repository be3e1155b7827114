"""The pathfinding figures of ``python -m engine bench`` (group ``path``), beside libtcod.

Every registered pathfinder is timed on the same maps as python-tcod's ``tcod.path`` (libtcod, C),
called the way its users call it, interleaved repeat by repeat so that both see the same load:

- Dijkstra map from one goal: ``tcod.path.dijkstra2d(dist, cost, 1, 1, out=dist)`` on a
  ``tcod.path.maxarray`` with the goal at 0 (the fastest of tcod's ways to make one: a
  ``Pathfinder`` over a ``SimpleGraph``, rooted at the goal and resolved, is about 1.3x to 2x
  slower). Ours: ``pf.dijkstra(cost, [goal], Moves(8, cut_corners=True))``.
- A* between two floor cells far apart, diagonal steps costing 1.5: the faster of
  ``tcod.path.AStar(cost, 1.5).get_path(...)`` (libtcod's classic A*, made per query since a
  game's costs change as monsters move) and ``tcod.path.Pathfinder(SimpleGraph(cost=cost,
  cardinal=2, diagonal=3))`` with ``add_root`` and ``path_to`` (the tutorial's way). Ours:
  ``pf.astar(cost, start, goal, Moves(8, 1.5, cut_corners=True))``. (With a diagonal cost of 1,
  libtcod's classic A* finds longer paths than the shortest, so the two would not compute the
  same thing.)

libtcod cuts corners, so the rows compared with it do too; a row "no-cut" times our default rule
(no diagonal past a wall) beside the same libtcod figure. Before timing, each case checks that both
compute the same thing: equal distance maps cell for cell, equal A* path costs. A difference is
shown in the row's target column, never silently timed. The maps, 80x50 and 500x500: the bench's
cellular-automata cave (its largest region), and levels of the built-in ``rooms`` and ``bsp``
generators (``maps.py``; rooms joined by corridors, the default game's kind of level).

Every figure is CPU time; ours and libtcod's calls alternate round by round (the order turned each
round), a sample is the mean per call over the same cases, and a row gives the median of the
rounds with their spread. The A* target is against ``tcod.path.AStar`` made per query (the target:
at most 1.2x); the row also gives libtcod's ``Pathfinder`` and an ``AStar`` made once per map and
reused (``tcod_calls``). A ratio is the median of the rounds' own ratios, with their spread.
"""

from __future__ import annotations

import functools
import random
import statistics
from collections.abc import Callable

import numpy as np

from engine.cli.tools.bench import maps as bench_maps
from engine.cli.tools.timing import alternated, paired_ratio, per_call_us, summary, verdict
from engine.kit.path import Moves, Pathfinder
from engine.kit.regions import largest_region

SIZES = ((80, 50), (500, 500))
MAPS = ("cave", "rooms", "bsp")
LIBTCOD = Moves(8, cut_corners=True)  # what tcod.path computes with cardinal=1, diagonal=1
LIBTCOD_ASTAR = Moves(8, 1.5, cut_corners=True)  # AStar(cost, 1.5); SimpleGraph(cardinal=2, diagonal=3) doubled
TARGET = "within 3x of libtcod"
ASTAR_TARGET = 1.2  # A* at most 1.2x tcod.path.AStar


def make_map(kind: str, w: int, h: int) -> np.ndarray:
    """One connected bench map, True where walkable: the bench's cave (its largest region), or a
    level of the built-in ``rooms`` or ``bsp`` generator (connected by the generator)."""
    if kind == "cave":
        return largest_region(bench_maps.open_cells("caves", w, h))
    if kind in ("rooms", "bsp"):
        return bench_maps.open_cells(kind, w, h).copy()
    raise ValueError(f"unknown map {kind!r} (valid: {', '.join(MAPS)})")


def floor_cells(walkable: np.ndarray, rng: random.Random, n: int) -> list[tuple[int, int]]:
    ys, xs = np.nonzero(walkable)
    return [(int(xs[i]), int(ys[i])) for i in (rng.randrange(len(xs)) for _ in range(n))]


# --- libtcod, called as its users do ------------------------------------------------------------------


def tcod_path():
    try:
        import tcod.path
    except ImportError:
        return None
    return tcod.path


def tcod_dijkstra(cost: np.ndarray, goal: tuple[int, int]) -> np.ndarray:
    """libtcod's Dijkstra map from ``goal`` (x, y): int32, ``maxarray``'s maximum where unreachable."""
    tp = tcod_path()
    dist = tp.maxarray(cost.shape, dtype=np.int32)
    dist[goal[1], goal[0]] = 0
    tp.dijkstra2d(dist, cost, 1, 1, out=dist)
    return dist


def tcod_astar(cost: np.ndarray, start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]]:
    """libtcod's classic A* (``tcod.path.AStar``, diagonal 1.5): the cells after ``start``, as (x, y).
    With a numpy cost, AStar takes (i, j) = (y, x) positions."""
    found = tcod_path().AStar(cost, 1.5).get_path(start[1], start[0], goal[1], goal[0])
    return [(j, i) for i, j in found]


def tcod_pathfinder(cost: np.ndarray, start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]]:
    """libtcod's newer pathfinder: ``Pathfinder(SimpleGraph(cost, cardinal=2, diagonal=3))``, rooted
    at ``start``, ``path_to(goal)`` minus the start, as (x, y)."""
    tp = tcod_path()
    finder = tp.Pathfinder(tp.SimpleGraph(cost=cost, cardinal=2, diagonal=3))
    finder.add_root((start[1], start[0]))
    return [(j, i) for i, j in finder.path_to((goal[1], goal[0]))[1:].tolist()]


def path_cost(cost: np.ndarray, start: tuple[int, int], path: list[tuple[int, int]], moves: Moves) -> float:
    """What ``path`` costs from ``start`` under ``moves``; inf if a step is not legal."""
    total, (x, y) = 0.0, start
    for nx, ny in path:
        dx, dy = nx - x, ny - y
        if (dx, dy) not in moves.steps or cost[ny, nx] <= 0:
            return np.inf
        if dx and dy and not moves.cut_corners and (cost[y, nx] <= 0 or cost[ny, x] <= 0):
            return np.inf
        total += float(cost[ny, nx]) * (moves.diagonal_cost if dx and dy else 1.0)
        x, y = nx, ny
    return total


def check_against_tcod(pf: Pathfinder, cost: np.ndarray, goals: list, pairs: list) -> str | None:
    """Why ``pf`` and libtcod disagree on these cases (one line), or None when they compute the same
    distance maps cell for cell (8 ways, corners cut, unit diagonals) and A* paths of equal cost."""
    for goal in goals:
        raw = tcod_dijkstra(cost, goal)
        theirs = np.where(raw == np.iinfo(np.int32).max, np.inf, raw)  # maxarray's "unreachable" is our inf
        ours = pf.dijkstra(cost, [goal], LIBTCOD)
        if not np.array_equal(ours, theirs):
            y, x = np.argwhere(ours != theirs)[0].tolist()
            return f"Dijkstra map from {goal} differs at [y, x] {[y, x]}: ours {ours[y, x]}, libtcod {raw[y, x]}"
    for start, goal in pairs:
        ours = pf.astar(cost, start, goal, LIBTCOD_ASTAR)
        expected = path_cost(cost, start, ours, LIBTCOD_ASTAR) if ours is not None else np.inf
        for name, fn in (("AStar", tcod_astar), ("Pathfinder", tcod_pathfinder)):
            theirs = fn(cost, start, goal)
            got = path_cost(cost, start, theirs, LIBTCOD_ASTAR) if theirs or start == goal else np.inf
            if got != expected:
                return f"A* {start}->{goal}: our path costs {expected}, libtcod's {name} path {got}"
    return None


# --- timing -------------------------------------------------------------------------------------------


def _variants(pf: Pathfinder) -> list[tuple[str, Pathfinder, Moves | None]]:
    """(label, pathfinder, moves override) per timed variant: compiled and pure Python when the
    pathfinder has a compiled kernel, and our default corner rule beside the libtcod-equal one."""
    from engine.kit import jit

    if pf.reference() is pf or not jit.enabled():
        return [("", pf, None)]
    pf.dijkstra(np.ones((2, 2)), [(0, 0)])  # compile now, so that failed() knows
    if jit.failed():
        return [(" (python)", pf, None)]
    return [(" (numba)", pf, None), (" no-cut (numba)", pf, "no-cut"), (" (python)", pf.reference(), None)]


def tcod_astar_reused(cost: np.ndarray) -> Callable:
    """libtcod's classic A* made once for ``cost`` and asked each query: (start, goal) -> path."""
    finder = tcod_path().AStar(cost, 1.5)

    def query(_cost: np.ndarray, start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]]:
        return [(j, i) for i, j in finder.get_path(start[1], start[0], goal[1], goal[0])]
    return query


def bench_figures(repeats: int = 7, sizes: tuple[tuple[int, int], ...] = SIZES, registry=None) -> list[dict]:
    """Rows for ``bench``: per pathfinder (of ``registry``; by default every plugin's, installed ones
    included), map and size, the Dijkstra and A* medians (CPU time) beside libtcod's, alternated."""
    from engine.core.loading.loader import load_registry

    tp = tcod_path()
    rows: list[dict] = []
    for pname, pf in sorted((registry or load_registry()).pathfinders.items()):
        variants = _variants(pf)
        for w, h in sizes:
            big = w * h > 100_000
            unit, scale = ("ms", 1e-3) if big else ("us", 1.0)
            n_goals, n_pairs = (2, 8) if big else (20, 20)  # calls per sample
            for kind in MAPS:
                walkable = make_map(kind, w, h)
                cost = walkable.astype(np.int32)
                rng = random.Random(f"bench path cases {kind} {w}x{h}")
                goals = floor_cells(walkable, rng, n_goals)
                pairs = list(zip(floor_cells(walkable, rng, n_pairs), floor_cells(walkable, rng, n_pairs), strict=True))
                problem = check_against_tcod(pf, cost, goals[:2], pairs[:2]) if tp else None
                for op in ("dijkstra", "astar"):
                    fns: dict[str, Callable[[], float]] = {}
                    reps: dict[str, int] = {}
                    for label, v, override in variants:
                        if op == "dijkstra":
                            moves = Moves() if override else LIBTCOD
                            fn = lambda c, g, v=v, m=moves: v.dijkstra(c, [g], m)  # noqa: E731
                            cases = [(cost, g) for g in goals]
                        else:
                            moves = Moves(8, 1.5) if override else LIBTCOD_ASTAR
                            fn = lambda c, s, g, v=v, m=moves: v.astar(c, s, g, m)  # noqa: E731
                            cases = [(cost, s, g) for s, g in pairs]
                        fns[label] = functools.partial(per_call_us, fn, cases)
                        python = label.endswith("(python)")
                        reps[label] = min(repeats, 3) if python and big else repeats  # up to a second a call
                    tcod_names: list[str] = []
                    if tp is not None:
                        if op == "dijkstra":
                            tcod_names = ["dijkstra2d"]
                            seeds = [(cost, g) for g in goals]
                            fns["dijkstra2d"] = functools.partial(per_call_us, tcod_dijkstra, seeds)
                        else:
                            tcod_names = ["AStar", "Pathfinder", "AStar reused"]
                            queries = [(cost, s, g) for s, g in pairs]
                            fns["AStar"] = functools.partial(per_call_us, tcod_astar, queries)
                            fns["Pathfinder"] = functools.partial(per_call_us, tcod_pathfinder, queries)
                            fns["AStar reused"] = functools.partial(per_call_us, tcod_astar_reused(cost), queries)
                        for k in tcod_names:
                            reps[k] = repeats
                    samples = alternated(fns, reps)
                    anchor = tcod_names[0] if tcod_names else None  # dijkstra2d; AStar made per query
                    rows += _rows(pname, op, kind, w, h, variants, samples, anchor, tcod_names, problem,
                                  unit, scale, tp is not None)
    return rows


def _rows(pname: str, op: str, kind: str, w: int, h: int, variants: list, samples: dict[str, list[float]],
          anchor: str | None, tcod_names: list[str], problem: str | None, unit: str, scale: float,
          have_tcod: bool) -> list[dict]:
    rows = []
    them = [v * scale for v in samples[anchor]] if anchor else None
    for label, _, override in variants:
        ours = [v * scale for v in samples[label]]
        limit = ASTAR_TARGET if op == "astar" else 3.0
        if label.endswith("(python)"):
            target = "pure-Python reference: a figure"
        elif override:
            target = "no libtcod counterpart: our default corner rule"
        elif not have_tcod:
            target = f"{TARGET} (pip install tcod to compare)"
        elif op == "astar":
            target = f"<= {ASTAR_TARGET:g}x tcod.path.AStar made per query"
        else:
            target = f"{TARGET} (tcod.path.{anchor})"
        if problem and not override:
            target = f"DIFFERS from libtcod: {problem}"
        row = {"group": "path", "name": f"path {op} {kind} {w}x{h}{label}", **summary(ours, 3), "unit": unit,
               "tcod": round(statistics.median(them), 3) if them else None, "ratio": None, "target": target,
               "pathfinder": pname, "terrain": kind, "map": f"{w}x{h}"}
        if them:
            row.update(paired_ratio(ours, them) or {})
        if tcod_names:
            row["tcod_calls"] = {k: round(statistics.median(samples[k]) * scale, 3) for k in tcod_names}
            for k in tcod_names[1:]:
                other = paired_ratio(ours, [v * scale for v in samples[k]])
                if other:
                    row.setdefault("ratio_to", {})[k] = other["ratio"]
        if them and not label.endswith("(python)") and not override and not problem:
            row["verdict"] = verdict(row, {"ratio": limit})
        rows.append(row)
    return rows
