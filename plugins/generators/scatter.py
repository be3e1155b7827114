"""``scatter``: a small open board with walls scattered at random and a path kept open.

By default exactly the Godot roguelike lesson's board (it is 8x8 there; any size works here).
The start is the bottom-left cell and the exit the top-right one. ``walls`` cells other than
those two are made wall at random (a cell drawn as x then y, redrawn until it is new), then a
path is walked from the start to the exit, one cell at a time, along x first and then along y
(``path="x_then_y"``; ``"y_then_x"`` is the other way round), and any wall on it is erased, so
every board can be finished.

This board has NO outer wall ring: every cell is board, and the map edge is the board edge.
It sets ``exit`` (not ``stairs``); the exit cell is ``STAIRS`` terrain.

The engine wants every floor cell reachable, which the lesson did not care about: a floor cell
walled into a pocket is made wall too (``pockets="wall"``), or the walls closing it in are cut
through with a corridor instead (``pockets="open"``). Either way the path and exit are untouched.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import FLOOR, STAIRS, WALL, GenContext, GenerationError, Level, hookimpl
from engine.kit.regions import ensure_connected, flood

PARAMS: dict[str, Any] = {
    "walls": 12,  # walls scattered before the path is cleared (Godot lesson: 12 on 8x8)
    "path": "x_then_y",  # the order the kept-open path walks: "x_then_y" or "y_then_x"
    "pockets": "wall",  # unreachable floor: "wall" fills it, "open" tunnels to it
}


def _path(start: tuple[int, int], goal: tuple[int, int], x_first: bool) -> list[tuple[int, int]]:
    """The cells stepped on from ``start`` to ``goal``, one axis at a time (start excluded)."""
    (x, y), cells = start, []
    while (x, y) != goal:
        if (x != goal[0]) if x_first else (y == goal[1]):
            x += 1 if goal[0] > x else -1
        else:
            y += 1 if goal[1] > y else -1
        cells.append((x, y))
    return cells


def generate(ctx: GenContext) -> Level:
    p, rng, w, h = ctx.params, ctx.rng, ctx.width, ctx.height
    if p["path"] not in ("x_then_y", "y_then_x"):
        raise GenerationError(f"generator 'scatter': path must be x_then_y or y_then_x, got {p['path']!r}")
    if p["pockets"] not in ("wall", "open"):
        raise GenerationError(f"generator 'scatter': pockets must be 'wall' or 'open', got {p['pockets']!r}")
    if not 0 <= p["walls"] <= w * h - 2:
        raise GenerationError(f"generator 'scatter': walls must be 0..{w * h - 2} on a {w}x{h} board")
    start, goal = (0, h - 1), (w - 1, 0)
    terrain = np.full((h, w), FLOOR, dtype=np.uint8)
    placed = 0
    while placed < p["walls"]:
        # redrawing until the cell is new is what the lesson does; walls is capped above
        x, y = rng.randint(0, w - 1), rng.randint(0, h - 1)
        if (x, y) not in (start, goal) and terrain[y, x] != WALL:
            terrain[y, x] = WALL
            placed += 1
    for x, y in _path(start, goal, p["path"] == "x_then_y"):
        terrain[y, x] = FLOOR
    if p["pockets"] == "open":
        ensure_connected(terrain, start, rng)
    else:
        terrain[(terrain != WALL) & ~flood(terrain != WALL, start)] = WALL
    terrain[goal[1], goal[0]] = STAIRS
    return Level(terrain, start, exit=goal)


@hookimpl
def register_generators(register):
    register(
        "scatter",
        generate,
        summary="a small open board (no outer wall), scattered walls, a path kept open (Godot lesson)",
        params=PARAMS,
        min_size=(4, 4),  # the default 12 walls need 14 cells besides the start and exit
        natural_size=(8, 8),  # a small board: compared at its own size, not a dungeon's
        outer_wall=False,  # a board: its edge is the map's
    )
