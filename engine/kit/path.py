"""The pathfinding contract and the helpers built on it: distance maps, A*, safety maps, steps.

Pathfinders are registered by plugins through ``register_pathfinders(register)`` with
``register(name, *, dijkstra, astar, summary="", python_dijkstra=None, python_astar=None)`` and
reached as ``registry.pathfinders[name]``, a :class:`Pathfinder`. Game code calls its methods:

- ``pf.dijkstra(cost, goals, moves=Moves(), limit=None) -> dist``: a Dijkstra map.
- ``pf.astar(cost, start, goal, moves=Moves()) -> [(x, y), ...] | None``: one shortest path.
- ``pf.safety(cost, threats, moves=Moves(), coefficient=-1.2) -> map``: where to flee (Brogue).
- :func:`downhill` and :func:`descend` walk any such map.

Units and conventions (the same for every function here):

- ``cost``: a numeric (or bool) array of shape (height, width), indexed ``[y, x]`` like FOV.
  ``cost[y, x] <= 0``: the cell cannot be entered. ``> 0``: what it costs to enter it (a move
  onto a floor of cost 1 costs 1; mud of cost 3 costs 3). Finite numbers only. A bool array is
  cost 1 where True (walkable) and impassable where False.
- Cells are ``(x, y)`` tuples. Distances are float64 arrays of the map's shape; a cell no goal
  can reach (or farther than ``limit``) holds :data:`UNREACHABLE` (``numpy.inf``).
- ``goals``: ``(x, y)`` cells, any iterable of them (each with value 0); a mapping from cells
  to starting values (``{stairs: 0, gold: -5}``: lower pulls harder); a bool array (value 0
  where True); or a numeric array of starting values, where ``inf`` (float) or the dtype's
  maximum (integer, as in ``tcod.path.maxarray``) means "not a goal". A goal keeps its value
  even on a cell that cannot be entered (a monster's cell, an unexplored one), and spreads
  from there.
- ``dist[y, x]`` is the least total cost of a walk out from a goal to ``(x, y)``, each step
  costing the cell it steps onto: the goal's own cost never counts, ``(x, y)``'s always does
  (as in libtcod's ``dijkstra2d`` and Brogue's ``dijkstraScan``). On uniform costs that is the
  number of steps (diagonals times ``diagonal_cost``); a walker going down to the goal pays the
  cells it leaves. ``astar`` counts the cells entered from ``start``, so its path costs
  ``dijkstra(cost, [start])[goal]``.
- ``Moves``: 4 or 8 ways (``movement``, as in ``GameRules.movement``); a diagonal step costs
  ``diagonal_cost`` times the cell's cost (default 1: every step one turn, like libtcod's
  ``diagonal=1``; 1.5 or 1.41 for rounder distances; at least 1). By default a diagonal step
  may not cut a corner: both cells beside it must be enterable (Brogue's rule; libtcod
  allows it: ``cut_corners=True`` matches libtcod exactly).

Downhill tie-break: among the neighbours with the lowest value, the first in :data:`STEPS` order:
north, east, south, west, then north-east, south-east, south-west, north-west. Orthogonal steps
come first so that a walker on open floor goes straight rather than zig-zagging between equal
diagonals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.kit import limits
from engine.kit.caches import SPARE_FROM, Spares

UNREACHABLE = np.inf
Cell = tuple[int, int]
# What ``goals`` and ``threats`` may be (see above): cells, cells to starting values, or an array.
Goals = Iterable[Cell] | Mapping[Cell, float] | np.ndarray
# (dx, dy) in tie-break order: the four orthogonal steps, then the four diagonals.
STEPS: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
HEURISTIC_MARGIN = 1.0 - 2.0 ** -30  # A* scales its estimate down by this, so float rounding never overestimates


@dataclass(frozen=True)
class Moves:
    """How a walker moves: ``movement`` 4 or 8 ways (``steps``: the ``(dx, dy)`` it may take), what a
    diagonal step costs (``diagonal_cost``, at least 1, times the cost of the cell it enters), and
    whether it may cut a wall's corner (``cut_corners``)."""

    movement: int = 8
    diagonal_cost: float = 1.0
    cut_corners: bool = False
    _steps: tuple[Cell, ...] = field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        if self.movement not in (4, 8):
            raise ValueError(f"pathfinding: movement must be 4 or 8, got {self.movement!r}")
        d = self.diagonal_cost
        if isinstance(d, bool) or not isinstance(d, int | float) or not math.isfinite(d) or d < 1:
            raise ValueError(f"pathfinding: diagonal_cost must be a finite number of at least 1, got {d!r}")
        object.__setattr__(self, "diagonal_cost", float(d))
        object.__setattr__(self, "cut_corners", bool(self.cut_corners))
        object.__setattr__(self, "_steps", STEPS[:self.movement])  # made once: every step asks

    @property
    def steps(self) -> tuple[Cell, ...]:
        """The steps a walker may take, in tie-break order."""
        return self._steps


# What a plugin registers, called with checked, normalised arguments:
#   dijkstra(cost, seeds, moves, limit) -> dist: ``cost`` a C-contiguous float64 (h, w) array,
#     ``seeds`` a new float64 (h, w) array of goal values (inf elsewhere) it may write into, ``limit``
#     a float (inf for none); returns the distance map, cells beyond ``limit`` set to inf.
#   astar(cost, start, goal, moves) -> the cells after ``start`` up to ``goal`` (a list of (x, y)), or
#     None when ``goal`` cannot be reached; ``start != goal``, both on the map, ``cost[goal] > 0``;
#     ``cost`` good for the call only (a converted one is a work array the next call reuses).
DijkstraFn = Callable[[np.ndarray, np.ndarray, Moves, float], np.ndarray]
AStarFn = Callable[[np.ndarray, Cell, Cell, Moves], "list[Cell] | None"]


@dataclass(frozen=True)
class Pathfinder:
    """A registered pathfinder. Call its methods, not the raw functions: they check the arguments."""

    name: str
    dijkstra_fn: DijkstraFn
    astar_fn: AStarFn
    summary: str = ""
    python_dijkstra: DijkstraFn | None = None  # the pure-Python references of compiled functions
    python_astar: AStarFn | None = None

    def reference(self) -> Pathfinder:
        """This pathfinder running its pure-Python references (itself when it has none)."""
        if self.python_dijkstra is None and self.python_astar is None:
            return self
        return Pathfinder(f"{self.name} (python)", self.python_dijkstra or self.dijkstra_fn,
                          self.python_astar or self.astar_fn, self.summary)

    def dijkstra(self, cost: np.ndarray, goals: Goals, moves: Moves = Moves(),
                 limit: float | None = None) -> np.ndarray:
        """The Dijkstra map of ``goals`` over ``cost``: a float64 array of each cell's least cost to
        reach from a goal, ``UNREACHABLE`` where none can (or beyond ``limit``, when given: a
        search that stops early, for monsters that only look so far)."""
        c, moves = as_cost(cost), check_moves(moves)
        cap = math.inf if limit is None else float(limit)
        if math.isnan(cap):
            raise ValueError("pathfinding: limit must be a number, got nan")
        return self.dijkstra_fn(c, as_seeds(goals, c.shape), moves, cap)

    def astar(self, cost: np.ndarray, start: Cell, goal: Cell, moves: Moves = Moves()) -> list[Cell] | None:
        """A cheapest path from ``start`` to ``goal``: the cells stepped on after ``start``, ending with
        ``goal`` (``[]`` when they are the same cell), or None when ``goal`` cannot be reached (it
        cannot be entered, or walls cut it off). ``start`` itself may be any cell.

        A cost that is not already a C-contiguous float64 array (a walkable bool map, libtcod-style
        ints) on a map of more than ``SPARE_FROM`` cells is converted into a float64 array kept for
        the next call (:data:`_COST_SPARES`), not a new one: on a big map, new memory's first writes
        (a fault a page) cost more than a search."""
        a, moves = checked_cost(cost), check_moves(moves)
        start, goal = check_cell(start, a.shape, "start"), check_cell(goal, a.shape, "goal")
        if start == goal:
            return []
        if a[goal[1], goal[0]] <= 0:
            return None
        if a.size <= SPARE_FROM or (a.dtype == np.float64 and a.flags.c_contiguous):
            return self.astar_fn(np.ascontiguousarray(a, dtype=np.float64), start, goal, moves)
        spare = _COST_SPARES.take(a.size)
        try:
            c = spare[:a.size].reshape(a.shape)
            np.copyto(c, a, casting="unsafe")  # the values astype(float64) gives
            return self.astar_fn(c, start, goal, moves)
        finally:
            _COST_SPARES.give(spare)

    def safety(self, cost: np.ndarray, threats: Goals, moves: Moves = Moves(), coefficient: float = -1.2) -> np.ndarray:
        """Brogue's safety map: walk :func:`downhill` on it to flee ``threats`` (goals, as above).

        The threats' Dijkstra map times ``coefficient`` (negative: farther is lower), then rescanned
        (relaxed again from every cell), so a cell's value also counts the way out: a dead end far
        from the threats is worth less than an open route that keeps going. A coefficient nearer
        -1 hugs the distance more; further from -1 favours long escapes. Cells no threat can reach
        stay ``UNREACHABLE`` (there is nothing to flee there)."""
        if not (isinstance(coefficient, int | float) and math.isfinite(coefficient) and coefficient < 0):
            raise ValueError(f"pathfinding: safety coefficient must be a negative number, got {coefficient!r}")
        dist = self.dijkstra(cost, threats, moves)
        seeds = np.where(np.isfinite(dist), dist * float(coefficient), UNREACHABLE)
        return self.dijkstra(cost, seeds, moves)


# float64 arrays A* converts a cost into, kept for the next call (at most two: a tool may alternate
# two map sizes; taken out while a search runs, so threads never share one)
_COST_SPARES = Spares(2, limits.MAX_PATH_SCRATCH_CELLS, np.empty, len)


def check_moves(moves: object) -> Moves:
    """``moves`` itself when it is a :class:`Moves`, else a one-line ValueError."""
    if not isinstance(moves, Moves):
        raise ValueError(f"pathfinding: moves must be an engine.Moves, such as Moves(8) or Moves(4), got {moves!r}")
    return moves


def as_cost(cost: object) -> np.ndarray:
    """``cost`` as a C-contiguous float64 (h, w) array (a copy when it was anything else), or a
    ValueError naming what is wrong."""
    return np.ascontiguousarray(checked_cost(cost), dtype=np.float64)


def checked_cost(cost: object) -> np.ndarray:
    """``cost`` as a 2-D array of finite numbers or bools, not converted, or a ValueError naming
    what is wrong."""
    a = np.asarray(cost)
    if a.ndim != 2 or a.size == 0:
        raise ValueError(f"pathfinding: cost must be a non-empty 2-D array indexed [y, x], got shape {a.shape}")
    kind = a.dtype.kind
    if kind not in "biuf":
        raise ValueError(f"pathfinding: cost must be numbers or bools, got dtype {a.dtype}")
    if kind == "f" and not np.isfinite(a).all():  # bools and whole numbers are finite as floats
        raise ValueError("pathfinding: cost must be finite (0 or less for a cell that cannot be entered)")
    return a


def check_cell(cell: Any, shape: tuple[int, int], what: str = "cell") -> Cell:
    """``cell`` as an (x, y) tuple of ints on a map of ``shape`` (h, w), or a one-line ValueError."""
    h, w = shape
    if type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int and type(cell[1]) is int:
        x, y = cell  # the usual cell, without the conversion below (a step asks once per monster)
    else:
        try:
            x, y = (int(v) for v in cell)
        except (TypeError, ValueError):
            raise ValueError(f"pathfinding: {what} must be an (x, y) pair, got {cell!r}") from None
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError(f"pathfinding: {what} {(x, y)} is outside the {w}x{h} map")
    return x, y


def as_seeds(goals: object, shape: tuple[int, int]) -> np.ndarray:
    """The goals (see the module docstring) as a new float64 (h, w) array: each cell's starting value,
    ``inf`` where there is no goal."""
    if isinstance(goals, np.ndarray):
        if goals.shape != shape:
            raise ValueError(f"pathfinding: a goal array must have the cost's shape {shape}, got {goals.shape}")
        if goals.dtype.kind == "b":
            return np.where(goals, 0.0, UNREACHABLE)
        if goals.dtype.kind in "iu":
            return np.where(goals == np.iinfo(goals.dtype).max, UNREACHABLE, goals.astype(np.float64))
        if goals.dtype.kind == "f":
            seeds = goals.astype(np.float64)  # a copy: the pathfinder writes into it
            if np.isnan(seeds).any() or np.isneginf(seeds).any():
                raise ValueError("pathfinding: goal values must be numbers, or inf for no goal")
            return seeds
        raise ValueError(f"pathfinding: a goal array must hold bools or numbers, got dtype {goals.dtype}")
    seeds = np.full(shape, UNREACHABLE)
    if isinstance(goals, Mapping):
        for cell, value in goals.items():
            x, y = check_cell(cell, shape, "goal")
            try:
                v = float(value)
            except (TypeError, ValueError):
                v = math.nan
            if math.isnan(v) or v == -math.inf:
                raise ValueError(f"pathfinding: goal {(x, y)} has value {value!r}: goal values must be numbers")
            seeds[y, x] = v
        return seeds
    if not isinstance(goals, Iterable) or isinstance(goals, str | bytes):
        raise ValueError(f"pathfinding: goals must be a list of (x, y) cells or an array, got {type(goals).__name__}")
    for cell in goals:
        x, y = check_cell(cell, shape, "goal")
        seeds[y, x] = 0.0
    return seeds


def downhill(dist: np.ndarray, cell: Cell, cost: np.ndarray, moves: Moves = Moves(),
             blocked: Container[Cell] = ()) -> Cell | None:
    """The neighbour of ``cell`` to step to on ``dist`` (a Dijkstra or safety map made with the same
    ``cost`` and ``moves``): the lowest neighbour strictly below ``cell``'s own value that can be
    entered (``cost > 0``), is not in ``blocked`` (say, the cells monsters stand on), and, unless
    ``moves.cut_corners``, is not a diagonal past a wall. Ties go to the first in :data:`STEPS`.
    None when there is no such step: at a goal, at the bottom of a basin, next to a goal that
    cannot be entered (the player's cell, when it is marked so), or cut off."""
    x, y = check_cell(cell, dist.shape)
    moves = check_moves(moves)
    return _downhill(dist, x, y, cost, moves.steps, moves.cut_corners, blocked)


def _downhill(dist: np.ndarray, x: int, y: int, cost: np.ndarray, steps: tuple[Cell, ...], cut: bool,
              blocked: Container[Cell]) -> Cell | None:
    """:func:`downhill` from a checked cell (x, y)."""
    h, w = cost.shape
    # The cell's 3x3 block as lists, read once: eight numpy scalar reads per map cost more, and a
    # crowd of hunters calls this once per monster per turn. near[j][i] is cell (x0 + i, y0 + j).
    x0, y0 = max(0, x - 1), max(0, y - 1)
    near_cost, near_dist = cost[y0 : y + 2, x0 : x + 2].tolist(), dist[y0 : y + 2, x0 : x + 2].tolist()
    best, here = None, near_dist[y - y0][x - x0]
    for dx, dy in steps:
        nx, ny = x + dx, y + dy
        if not (0 <= nx < w and 0 <= ny < h and near_cost[ny - y0][nx - x0] > 0) or (nx, ny) in blocked:
            continue
        # a diagonal past a wall's corner: (nx, y) and (x, ny) are on the map when (nx, ny) is
        if dx and dy and not cut and not (near_cost[y - y0][nx - x0] > 0 and near_cost[ny - y0][x - x0] > 0):
            continue
        value = near_dist[ny - y0][nx - x0]
        if value < here:
            best, here = (nx, ny), value
    return best


def descend(dist: np.ndarray, start: Cell, cost: np.ndarray, moves: Moves = Moves(),
            max_steps: int | None = None) -> list[Cell]:
    """The walk :func:`downhill` takes from ``start`` until it can go no lower (or ``max_steps``):
    the cells after ``start``, in order. On a Dijkstra map it ends at a goal (or beside one that
    cannot be entered); it is empty when ``start`` is already there or cut off."""
    path: list[Cell] = []
    if max_steps is not None and max_steps <= 0:
        return path
    (x, y), moves = check_cell(start, dist.shape), check_moves(moves)
    steps, cut = moves.steps, moves.cut_corners
    while max_steps is None or len(path) < max_steps:
        step = _downhill(dist, x, y, cost, steps, cut, ())
        if step is None:
            break
        path.append(step)
        x, y = step
    return path


def heuristic_scale(cost: np.ndarray) -> float:
    """The A* estimate's factor: the cheapest enterable cell's cost, scaled by HEURISTIC_MARGIN."""
    positive = cost[cost > 0]
    return float(positive.min()) * HEURISTIC_MARGIN if positive.size else 0.0


def estimate(dx: int, dy: int, moves: Moves, scale: float) -> float:
    """A* estimate of the cost of an offset (dx, dy) (absolute values), never above the truth: the
    fewest steps times the cheapest cell (octile for 8 ways, a diagonal worth at most 2 steps)."""
    if moves.movement == 4:
        return scale * (dx + dy)
    lo, hi = min(dx, dy), max(dx, dy)
    return scale * ((hi - lo) + min(moves.diagonal_cost, 2.0) * lo)
