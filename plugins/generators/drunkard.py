"""``drunkard``: a drunkard's walk carving floor until a target fraction of the map is open.

Walkers start at the centre, then each later walker at a random cell already carved, so the floor
is one connected piece by construction. A walker takes up to ``walk_length`` random 4-neighbour
steps and stops early when its next step would reach the outer ring, which stays wall. Walking
stops as soon as ``floor`` (a fraction of the cells inside the ring) is open. The stairs are the
open cell farthest (in steps) from the start.

Each walker's steps are drawn at once from the level's stream (2 bits a step) and laid out with a
cumulative sum, so a 500x500 level costs a few thousand numpy calls rather than a million steps of
Python.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from engine import FLOOR, STAIRS, GenContext, GenerationError, Level, hookimpl
from engine.kit import jit
from engine.kit.regions import farthest

PARAMS: dict[str, Any] = {
    "floor": 0.4,  # fraction of the inner cells to open
    "walk_length": 400,  # the most steps one walker takes before a new one starts
}

_STEPS = np.array([(1, 0), (-1, 0), (0, 1), (0, -1)], dtype=np.int64)


def _walk(rng, length: int) -> np.ndarray:
    """``length`` random steps as (dx, dy) rows."""
    raw = rng.getrandbits(2 * length).to_bytes((2 * length + 7) // 8, "little")
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")[: 2 * length]
    return _STEPS[bits[0::2] + 2 * bits[1::2]]


def _check(kernel) -> None:
    from engine.plugins.generators import _random_jit

    st = _random_jit.state(random.Random(0))
    kernel.carve(st, np.zeros((5, 5), dtype=np.uint8), 2, 2, 3, 8)


def generate(ctx: GenContext) -> Level:
    """The drunkard's walk: the generator's ``fn``. Compiled when numba is installed
    (``_drunkard_jit``), else the pure-Python walk; the two build the same level."""
    return _generate(ctx, jit.sibling(__name__, "_drunkard_jit", _check, cells=ctx.width * ctx.height))


def generate_python(ctx: GenContext) -> Level:
    """The numpy walk, a walker at a time: the reference, and what runs without numba."""
    return _generate(ctx, None)


def _generate(ctx: GenContext, kernel) -> Level:
    p, rng, w, h = ctx.params, ctx.rng, ctx.width, ctx.height
    if not 0.0 < p["floor"] <= 0.9 or p["walk_length"] < 1:
        raise GenerationError("generator 'drunkard': need 0 < floor <= 0.9 and walk_length >= 1")
    terrain = np.zeros((h, w), dtype=np.uint8)
    target = max(2, int(p["floor"] * (w - 2) * (h - 2)))
    start = (w // 2, h // 2)
    terrain[start[1], start[0]] = FLOOR
    if kernel is not None:
        from engine.plugins.generators import _random_jit

        st = _random_jit.state(rng)
        kernel.carve(st, terrain, start[0], start[1], target, p["walk_length"])
        _random_jit.restore(rng, st)
        return _finish(terrain, start, w, h)
    carved = [start[1] * w + start[0]]  # flat indices in carving order, for picking walkers' starts
    opened = 1
    x, y = start
    while opened < target:
        path = np.cumsum(_walk(rng, p["walk_length"]), axis=0) + (x, y)
        inside = (path[:, 0] >= 1) & (path[:, 0] <= w - 2) & (path[:, 1] >= 1) & (path[:, 1] <= h - 2)
        stop = int(np.argmin(inside)) if not inside.all() else len(path)
        cells = path[:stop, 1] * w + path[:stop, 0]
        if cells.size:
            fresh = cells[terrain.flat[cells] == 0]
            # keep first visits only, in walk order, and no more than the target needs
            _, first = np.unique(fresh, return_index=True)
            fresh = fresh[np.sort(first)][: target - opened]
            terrain.flat[fresh] = FLOOR
            carved.extend(fresh.tolist())
            opened += len(fresh)
        i = carved[rng.randrange(len(carved))]
        x, y = i % w, i // w
    return _finish(terrain, start, w, h)


def _finish(terrain: np.ndarray, start: tuple[int, int], w: int, h: int) -> Level:
    stairs = farthest(terrain != 0, start)
    if stairs == start:
        raise GenerationError(f"generator 'drunkard': {w}x{h} is too small to walk in")
    terrain[stairs[1], stairs[0]] = STAIRS
    return Level(terrain, start, stairs)


@hookimpl
def register_generators(register):
    register(
        "drunkard",
        generate,
        summary="random walks carving winding tunnels until a target floor fraction is open",
        params=PARAMS,
        min_size=(5, 5),
        natural_walls=True,  # rock faces: drawn as they are, not joined like masonry
    )
