"""The ``delver`` bot's way to what it has not seen (``bot_delver``'s helper, not a plugin): the
frontier of the floor it knows (:func:`frontier`), and the walk down its distance map
(:func:`box_walk`, :func:`descent`), which ``_delver_bot.explore`` takes. In one call of a compiled
kernel (``_delver_explore_jit``) when numba is installed; the numpy code here, with the game's
pathfinder, is the reference and the fallback.
"""

from __future__ import annotations

import functools

import numpy as np

from engine import Moves
from engine.kit import jit
from engine.plugins.bots._delver_look import TRAP_COST, DelverView


def frontier(look: DelverView, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """The cells it has not seen next to the floor it knows (minus those it stood beside and
    still did not see: the FOV shows them never). ``box``: (x0, y0, x1, y1), the part of the level
    to work out (the cells in it, from the floor one cell around it); default, the whole level."""
    floor = look.floor
    h, w = floor.shape
    x0, y0, x1, y1 = box if box is not None else (0, 0, w, h)
    bh, bw = y1 - y0, x1 - x0
    # the floor of the box and a ring of one cell around it (off the map: no floor); read in place
    # when the ring is on the map (the usual box, away from the level's edges)
    if x0 > 0 and y0 > 0 and x1 < w and y1 < h:
        ring = floor[y0 - 1:y1 + 1, x0 - 1:x1 + 1]
    else:
        ring = np.zeros((bh + 2, bw + 2), dtype=bool)
        ex0, ey0, ex1, ey1 = max(0, x0 - 1), max(0, y0 - 1), min(w, x1 + 1), min(h, y1 + 1)
        ring[ey0 - y0 + 1:ey1 - y0 + 1, ex0 - x0 + 1:ex1 - x0 + 1] = floor[ey0:ey1, ex0:ex1]
    # next to the floor: its cell too, harmlessly (a floor cell is a seen one); 8 ways, the 3x3
    # block by rows then columns; 4 ways, the cross
    if look.moves.movement == 8:
        rows = ring[:, :-2] | ring[:, 1:-1] | ring[:, 2:]
        out = rows[:-2] | rows[1:-1] | rows[2:]
    else:
        out = ring[1:-1, :-2] | ring[1:-1, 2:] | ring[:-2, 1:-1] | ring[2:, 1:-1]
    out &= ~look.seen[y0:y1, x0:x1]
    x, y = look.here
    for dx, dy in look.moves.steps:
        if 0 <= x + dx < w and 0 <= y + dy < h and out[y + dy - y0, x + dx - x0]:
            look.memory.ignored.add((x + dx, y + dy))
    for cx, cy in look.memory.ignored:
        if y0 <= cy < y1 and x0 <= cx < x1:
            out[cy - y0, cx - x0] = False
    return out


def descent(dist: np.ndarray, start: tuple[int, int], cost: np.ndarray, moves) -> list[tuple[int, int]]:
    """``engine.descend(dist, start, cost, moves)``: the walk downhill from ``start``, step by step
    the lowest neighbour strictly below (the first in ``moves.steps`` on a tie) that can be entered
    and, unless corners may be cut, is not a diagonal past a wall. The same steps, read from the
    maps as Python numbers once, in a window around ``start`` as wide as its value (each step of
    a walk down a map of whole steps goes one lower), not as a 3x3 block at every step; the whole
    map when the walk comes to the window's edge (a map of other costs)."""
    h, w = dist.shape
    x, y = start
    value = float(dist[y, x])
    r = max(1, int(value) + 2) if value < max(h, w) else max(h, w)
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + r + 1), min(h, y + r + 1)
    d, c = dist[y0:y1, x0:x1].tolist(), cost[y0:y1, x0:x1].tolist()
    steps, cut = moves.steps, moves.cut_corners
    path: list[tuple[int, int]] = []
    while True:
        if (0 < x <= x0) or (x1 - 1 <= x < w - 1) or (0 < y <= y0) or (y1 - 1 <= y < h - 1):
            x0, y0, x1, y1 = 0, 0, w, h  # a neighbour off the window: the whole map
            d, c = dist.tolist(), cost.tolist()
        best, low = None, d[y - y0][x - x0]
        for dx, dy in steps:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h and c[ny - y0][nx - x0] > 0):
                continue
            if dx and dy and not cut and not (c[y - y0][nx - x0] > 0 and c[ny - y0][x - x0] > 0):
                continue
            if d[ny - y0][nx - x0] < low:
                best, low = (nx, ny), d[ny - y0][nx - x0]
        if best is None:
            return path
        path.append(best)
        x, y = best


def box_walk(look: DelverView, box: tuple[int, int, int, int], reach: float,
             always: bool = False) -> list[tuple[int, int]] | None:
    """Explore's walk on ``box`` (x0, y0, x1, y1), around the cell it stands on: down the distance
    map of the box's frontier, made within the box and ``reach`` steps; None when the box has no
    frontier, or (unless ``always``: the walk down from a cell the map does not reach, which is
    none) no frontier cell is that near. In one call of the compiled kernel
    (``_delver_explore_jit``) when numba is installed and every step costs one (the preset's
    diagonal too); else with numpy and the game's pathfinder, the reference (the same frontier,
    map and steps)."""
    (x, y), moves = look.here, look.moves
    kernel = _explore_kernel(look.floor.size) if moves.movement == 4 or moves.diagonal_cost == 1.0 else None
    if kernel is not None:
        floor, seen, memory = look.floor, look.seen, look.memory
        w = floor.shape[1]
        ignored = np.array([cy * w + cx for cx, cy in memory.ignored], dtype=np.int64) if len(memory.ignored) \
            else _NONE
        path = np.empty((box[2] - box[0]) * (box[3] - box[1]), dtype=np.int64)
        added = np.empty(len(moves.steps), dtype=np.int64)
        # the traps it knows (look.traps) when the look has them; else the kernel reads them from
        # the walk cost, as look.traps does (seen, and costing TRAP_COST or more; a cost in bools: none)
        traps, cost = look.__dict__.get("traps"), _NO_COST
        if traps is None:
            traps, cost = _NO_TRAPS, look.game.walk_cost()
            cost = _NO_COST if cost.dtype == bool else cost
        status, steps, beside = kernel.box_walk(floor, seen, traps, cost, float(TRAP_COST), ignored, *box, x, y,
                                                *_steps(moves), moves.cut_corners, float(reach), always, path, added)
        for i in added[:beside].tolist():
            memory.ignored.add((i % w, i // w))
        return [(i % w, i // w) for i in path[:steps].tolist()] if status == 2 else None
    goals = frontier(look, box)
    if np.count_nonzero(goals):
        cost = look.wary_of_traps(look.floor[box[1]:box[3], box[0]:box[2]] | goals, box, shun=True) \
            if np.count_nonzero(look.traps) else look.floor[box[1]:box[3], box[0]:box[2]] | goals
        dist = look.game.distance_map(goals, limit=reach, cost=cost)
        if always or np.isfinite(dist[y - box[1], x - box[0]]):
            walk = descent(dist, (x - box[0], y - box[1]), cost, moves)
            return [(cx + box[0], cy + box[1]) for cx, cy in walk]
    return None


_NONE = np.empty(0, dtype=np.int64)  # no cells
_NO_TRAPS = np.zeros((0, 0), dtype=bool)  # the traps not given: read from the cost
_NO_COST = np.zeros((0, 0))  # no cost given: no traps at all, or given as traps


def _steps(moves) -> tuple[np.ndarray, np.ndarray]:
    """The preset's steps, in order, as the kernel takes them: the dx, then the dy."""
    return _steps_of(moves.steps)


@functools.lru_cache(maxsize=4)  # one entry for 8 ways, one for 4
def _steps_of(steps: tuple[tuple[int, int], ...]) -> tuple[np.ndarray, np.ndarray]:
    return np.array([dx for dx, _ in steps], dtype=np.int64), np.array([dy for _, dy in steps], dtype=np.int64)


def _check(kernel) -> None:
    """Compile the kernel on a tiny level (engine.kit.jit.sibling's check)."""
    floor = np.array([[True, True, False]])
    kernel.box_walk(floor, floor.copy(), _NO_TRAPS, np.ones((1, 3)), float(TRAP_COST), _NONE, 0, 0, 3, 1, 0, 0,
                    *_steps(Moves(8)), True, 12.0, False, np.empty(3, dtype=np.int64), np.empty(8, dtype=np.int64))


def _explore_kernel(cells: int):
    return jit.sibling(__name__, "_delver_explore_jit", _check, cells)
