"""``caves``: cellular-automaton caves.

Random fill (``fill`` = 45% wall), then ``passes`` rounds of the 4-5 rule: a cell is wall in the
next map when 5 or more of the 9 cells of its 3x3 block (itself included) are wall. Each pass
reads the old map and writes a new one (updating in place would smear the caves in the scan
direction), and cells beyond the map count as wall, so the caves keep off the edge. Only the
largest region is kept: the pockets are filled rather than tunnelled to, which keeps the caves
organic. The start and stairs are the two ends of a longest path (a double breadth-first sweep
from a random cell), so they sit far apart.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import FLOOR, STAIRS, WALL, GenContext, GenerationError, Level, hookimpl
from engine.kit.mapgen import random_unit
from engine.kit.regions import farthest, largest_region

PARAMS: dict[str, Any] = {
    "fill": 0.45,  # chance that a cell starts as wall
    "passes": 4,  # rounds of the 4-5 rule; 4-5 is typical, more gives rounder caves
    "wall_at": 5,  # walls in the 3x3 block that make a cell wall
    "attempts": 8,  # fresh fills to try when a map comes out with almost no floor
}


def smooth(wall: np.ndarray, passes: int, wall_at: int) -> np.ndarray:
    """``passes`` rounds of the 3x3 majority rule, each into a new array (vectorised)."""
    h, w = wall.shape
    for _ in range(passes):
        p = np.pad(wall, 1, constant_values=True).astype(np.uint8)  # beyond the map is wall
        count = sum(p[dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3))
        wall = count >= wall_at
    return wall


def generate(ctx: GenContext) -> Level:
    p, rng, w, h = ctx.params, ctx.rng, ctx.width, ctx.height
    if not 0.0 <= p["fill"] < 1.0 or p["passes"] < 0 or not 1 <= p["wall_at"] <= 9 or p["attempts"] < 1:
        raise GenerationError("generator 'caves': need 0 <= fill < 1, passes >= 0, 1 <= wall_at <= 9")
    keep = np.zeros((h, w), dtype=bool)
    for _ in range(p["attempts"]):
        wall = random_unit(rng, (h, w)) < p["fill"]
        wall = smooth(wall, p["passes"], p["wall_at"])
        wall[0, :] = wall[-1, :] = wall[:, 0] = wall[:, -1] = True
        keep = largest_region(~wall)
        if keep.sum() >= max(2, (w - 2) * (h - 2) // 10):
            break
    if keep.sum() < 2:
        # a tiny or nearly solid map: a short tunnel across the middle is still a level
        keep[h // 2, 1 : w - 1] = True
    terrain = np.where(keep, FLOOR, WALL).astype(np.uint8)
    ys, xs = np.nonzero(keep)
    k = rng.randrange(len(xs))
    start = farthest(keep, (int(xs[k]), int(ys[k])))
    stairs = farthest(keep, start)
    terrain[stairs[1], stairs[0]] = STAIRS
    return Level(terrain, start, stairs)


@hookimpl
def register_generators(register):
    register(
        "caves",
        generate,
        summary="cellular-automaton caves (4-5 rule), largest region kept, far-apart start and stairs",
        params=PARAMS,
        min_size=(6, 5),
        natural_walls=True,  # rock faces: drawn as they are, not joined like masonry
    )
