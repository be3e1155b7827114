"""The compiled kernel of the ``delver`` bot's explore, for when numba is installed.

:func:`box_walk` is ``_delver_bot.explore``'s walk on the box around it in one call: the frontier
of the box (``_delver_frontier.frontier``), the distance map of it over the known floor within the box
(``game.distance_map(goals, limit=reach, cost=cost)``: every step costs 1 there, so it is made by
layers from a queue, the very values any pathfinder gives), and the walk down it
(``_delver_frontier.descent``). What they do in Python, with numpy and the game's pathfinder, is the
reference and the fallback (``engine.kit.jit``); ``tests/test_bots.py`` checks the two agree.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own.
"""

from __future__ import annotations

import numba
import numpy as np

COMPILE_SECONDS = 3  # the first call on a machine (2.5 s measured), before numba caches it on disk


@numba.njit(cache=True, nogil=True)
def _step(enter: np.ndarray, bw: int, bh: int, bx: int, by: int, dx: int, dy: int, cut: bool) -> int:
    """The box's cell one step (dx, dy) from (bx, by), as ``by * bw + bx``, when it may be entered
    (on the box, in ``enter``, and unless corners may be cut no diagonal past a cell it may not
    enter); -1 when not. The map's layers and the walk down it step alike."""
    nx, ny = bx + dx, by + dy
    if nx < 0 or nx >= bw or ny < 0 or ny >= bh:
        return -1
    j = ny * bw + nx
    if not enter[j]:
        return -1
    if dx != 0 and dy != 0 and not cut and not (enter[by * bw + nx] and enter[ny * bw + bx]):
        return -1
    return j


@numba.njit(cache=True, nogil=True)
def box_walk(floor: np.ndarray, seen: np.ndarray, traps: np.ndarray, cost: np.ndarray, trap_cost: float,
             ignored: np.ndarray,
             x0: int, y0: int, x1: int, y1: int, hx: int, hy: int, dxs: np.ndarray, dys: np.ndarray,
             cut: bool, reach: float, always: bool, path: np.ndarray, added: np.ndarray) -> tuple[int, int, int]:
    """``(status, steps, beside)``. ``floor``, ``seen``, ``traps``: the level's (bool, ``[y, x]``);
    ``traps`` empty: a cell seen whose ``cost`` (the level's walk cost; empty: none) is
    ``trap_cost`` or more is one;
    ``ignored``: cells never to go to, as ``y * w + x``; the box (x0, y0)-(x1, y1) holds the cell
    it stands on, (hx, hy); ``dxs``, ``dys``: the preset's steps in order; every step costs 1.

    ``beside``: how many unseen cells next to it were on the frontier (written to ``added``, as
    ``y * w + x``: the caller keeps them among the ignored; they are not goals). ``status`` 0: no
    frontier in the box; 1: none within ``reach`` steps (unless ``always``: then the walk down from
    where it stands, none); 2: the walk, ``steps`` cells written to ``path`` (``y * w + x``, in
    order)."""
    h, w = floor.shape
    bw, bh = x1 - x0, y1 - y0
    n = bw * bh
    ways = dxs.shape[0]
    goal = np.zeros(n, dtype=np.bool_)
    for by in range(bh):
        y = y0 + by
        for bx in range(bw):
            x = x0 + bx
            if seen[y, x]:
                continue
            for s in range(ways):
                nx, ny = x + dxs[s], y + dys[s]
                if 0 <= nx < w and 0 <= ny < h and floor[ny, nx]:
                    goal[by * bw + bx] = True
                    break
    beside = 0
    for s in range(ways):
        nx, ny = hx + dxs[s], hy + dys[s]
        if 0 <= nx < w and 0 <= ny < h and goal[(ny - y0) * bw + nx - x0]:
            added[beside] = ny * w + nx
            beside += 1
            goal[(ny - y0) * bw + nx - x0] = False
    for j in range(ignored.shape[0]):
        y = ignored[j] // w
        x = ignored[j] - y * w
        if y0 <= y < y1 and x0 <= x < x1:
            goal[(y - y0) * bw + x - x0] = False
    # where it may step: the known floor and the goals, not a known trap
    enter = np.zeros(n, dtype=np.bool_)
    dist = np.full(n, np.inf)
    queue = np.empty(n, dtype=np.int64)
    tail = 0
    for by in range(bh):
        for bx in range(bw):
            i = by * bw + bx
            y, x = y0 + by, x0 + bx
            if traps.shape[0]:
                trap = traps[y, x]
            else:
                trap = cost.shape[0] > 0 and seen[y, x] and cost[y, x] >= trap_cost
            enter[i] = (floor[y, x] or goal[i]) and not trap
            if goal[i]:
                dist[i] = 0.0
                queue[tail] = i
                tail += 1
    if tail == 0:
        return 0, 0, beside
    # by layers from the goals, until the layer that reaches where it stands: the cells of every
    # layer below have their values by then, and the walk down looks only below where it is
    target, head = (hy - y0) * bw + hx - x0, 0
    while head < tail and not dist[target] < np.inf:
        i = queue[head]
        head += 1
        d = dist[i]
        if d + 1.0 > reach:
            continue  # beyond reach: left unreached, as the map limited to it says
        by = i // bw
        bx = i - by * bw
        for s in range(ways):
            j = _step(enter, bw, bh, bx, by, dxs[s], dys[s], cut)
            if j < 0:
                continue
            if d + 1.0 < dist[j]:
                dist[j] = d + 1.0
                queue[tail] = j
                tail += 1
    bx, by = hx - x0, hy - y0
    if not dist[by * bw + bx] < np.inf and not always:
        return 1, 0, beside
    steps = 0
    while True:
        here = by * bw + bx
        best, low = -1, dist[here]
        for s in range(ways):
            j = _step(enter, bw, bh, bx, by, dxs[s], dys[s], cut)
            if j < 0:
                continue
            if dist[j] < low:
                best, low = j, dist[j]
        if best < 0:
            return 2, steps, beside
        by = best // bw
        bx = best - by * bw
        path[steps] = (y0 + by) * w + x0 + bx
        steps += 1
