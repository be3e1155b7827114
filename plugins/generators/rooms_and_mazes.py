"""``rooms_and_mazes``: rooms with a maze grown between them, after Bob Nystrom's generator.

1. Rooms of odd size at odd positions are tried ``room_tries`` times; overlapping ones are
   dropped. Sizes are ``2 * randint(1, 2 + room_extra_size) + 1``, one side lengthened by an even
   ``rectangularity``, as in "Rooms and Mazes" (2014).
2. Every odd cell still solid starts a growing-tree maze (newest cell first, so long corridors);
   ``winding`` is the percent chance a corridor turns when it could go straight on.
3. Connectors are wall cells touching two or more regions (rooms, mazes). They are tried in a
   random order: one joining regions not yet joined is opened (a random spanning tree, like
   Nystrom's merge loop); a redundant one is opened anyway one time in ``extra_connector_chance``
   unless it is next to an opening already made, which gives the occasional loop.
4. Dead ends are filled back in (``remove_dead_ends``), leaving only corridors that lead somewhere.

The start is a random room's centre; the stairs are the centre of the room farthest from it.
Both map sides are used up to the last odd cell, so an even size leaves one more wall column or row.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from engine import FLOOR, STAIRS, GenContext, GenerationError, Level, Rect, hookimpl
from engine.kit import jit, limits
from engine.kit.mapgen import farthest_room, random_unit
from engine.kit.regions import dead_ends, ensure_connected

PARAMS: dict[str, Any] = {
    "room_tries": None,  # None: one try per 32 cells of map
    "room_extra_size": 0,  # makes rooms bigger: sizes run up to 2 * (2 + this) + 1
    "winding": 0,  # percent chance a corridor turns when it could go straight on
    "extra_connector_chance": 20,  # one redundant connector in this many is opened as a loop
    "remove_dead_ends": True,
}


def _place_rooms(rng, w: int, h: int, p: dict[str, Any], region: np.ndarray) -> list[Rect]:
    tries = p["room_tries"] if p["room_tries"] is not None else w * h // 32
    rooms: list[Rect] = []
    for _ in range(tries):
        size = rng.randint(1, 2 + p["room_extra_size"]) * 2 + 1
        rect = rng.randint(0, size // 2) * 2
        rw = rh = size
        if rng.randrange(2) == 0:
            rw += rect
        else:
            rh += rect
        if rw > w - 2 or rh > h - 2:
            continue
        x = rng.randrange((w - rw) // 2) * 2 + 1
        y = rng.randrange((h - rh) // 2) * 2 + 1
        # odd positions and odd sizes: rooms that do not overlap have a wall between them
        if region[y : y + rh, x : x + rw].any():
            continue
        rooms.append(Rect(x, y, rw, rh))
        region[y : y + rh, x : x + rw] = len(rooms)
    return rooms


def _grow_mazes(rng, w: int, h: int, winding: int, region: np.ndarray, next_region: int) -> int:
    """Fill every solid odd cell with growing-tree mazes; returns the next free region id."""
    reg = region.ravel().tolist()  # plain lists: this loop is per cell, numpy would be slower
    xmax, ymax = w - 2, h - 2
    dirs = ((1, 0), (-1, 0), (0, 1), (0, -1))
    for sy in range(1, h - 1, 2):
        for sx in range(1, w - 1, 2):
            if reg[sy * w + sx]:
                continue
            rid, next_region = next_region, next_region + 1
            reg[sy * w + sx] = rid
            cells, last = [(sx, sy)], None
            while cells:
                x, y = cells[-1]
                unmade = [
                    (dx, dy)
                    for dx, dy in dirs
                    if 1 <= x + 2 * dx <= xmax and 1 <= y + 2 * dy <= ymax and not reg[(y + 2 * dy) * w + x + 2 * dx]
                ]
                if not unmade:
                    cells.pop()
                    last = None
                    continue
                d = last if last in unmade and rng.randrange(100) >= winding else rng.choice(unmade)
                reg[(y + d[1]) * w + x + d[0]] = rid
                reg[(y + 2 * d[1]) * w + x + 2 * d[0]] = rid
                cells.append((x + 2 * d[0], y + 2 * d[1]))
                last = d
    region.ravel()[:] = reg
    return next_region


def _connect(rng, w: int, region: np.ndarray, extra: int) -> None:
    """Open connectors: a random spanning tree of the regions plus the odd loop (in place).

    The order and the loop dice are drawn as whole arrays (a 500x500 map has ~50,000
    connectors); only the union-find walk over them is a Python loop.
    """
    p = np.pad(region, 1)
    sides = np.sort(np.stack((p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:])).reshape(4, -1), axis=0)
    # the distinct regions around each cell, largest first, 0 when there are fewer
    distinct, rest = [], sides
    for _ in range(4):
        top = rest.max(axis=0)
        distinct.append(top)
        rest = np.where(rest == top, 0, rest)
    cand = np.flatnonzero((region.ravel() == 0) & (distinct[1] > 0))
    if cand.size == 0:
        return
    around = np.stack([d[cand] for d in distinct], axis=1)
    order = np.argsort(random_unit(rng, (cand.size,)), kind="stable")
    lucky = (random_unit(rng, (cand.size,)) * extra < 1.0).tolist()  # one in ``extra``
    parent = list(range(int(region.max()) + 1))

    def find(r: int) -> int:
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    flat = region.ravel()
    opened: set[int] = set()
    near = (1, -1, w, -w, w + 1, w - 1, -w + 1, -w - 1)  # a loop never opens beside another opening
    cells, regions = cand[order].tolist(), around[order].tolist()
    for k, (i, rs) in enumerate(zip(cells, regions, strict=True)):
        roots = sorted({find(r) for r in rs if r})
        if len(roots) > 1:
            for r in roots[1:]:
                parent[r] = roots[0]
        elif not lucky[k] or any(i + d in opened for d in near):
            continue
        opened.add(i)
        flat[i] = rs[0]


def _fill_dead_ends(terrain: np.ndarray) -> None:
    """Fill dead ends back to where their corridor meets something, one cell at a time."""
    h, w = terrain.shape
    cells = terrain.ravel()
    stack = np.flatnonzero(dead_ends(terrain != 0).ravel()).tolist()
    while stack:
        i = stack.pop()
        if not cells[i]:
            continue
        nbrs = [j for j in (i - 1, i + 1, i - w, i + w) if cells[j]]
        if len(nbrs) <= 1:
            cells[i] = 0
            stack.extend(nbrs)


def _check(kernel) -> None:
    from engine.plugins.generators import _random_jit

    st = _random_jit.state(random.Random(0))
    region = np.zeros((9, 9), dtype=np.int32)
    kernel.place_rooms(st, 9, 9, 2, 0, region)
    kernel.grow_mazes(st, 9, 9, 0, region, 3)
    cells, around = kernel.candidates(region)
    kernel.connect(cells, around, np.ones(cells.size, dtype=bool), region.ravel(), 9, int(region.max()))
    terrain = (region != 0).astype(np.uint8)
    kernel.fill_dead_ends(terrain.ravel(), 9, np.flatnonzero(dead_ends(terrain != 0).ravel()))


def generate(ctx: GenContext) -> Level:
    """Rooms and mazes: the generator's ``fn``. Compiled when numba is installed
    (``_rooms_and_mazes_jit``), else :func:`generate_python`; the two build the same level."""
    return _generate(ctx, jit.sibling(__name__, "_rooms_and_mazes_jit", _check, cells=ctx.width * ctx.height))


def generate_python(ctx: GenContext) -> Level:
    """The Python and numpy steps: the reference, and what runs without numba."""
    return _generate(ctx, None)


def _generate(ctx: GenContext, kernel) -> Level:
    p, rng, w, h = ctx.params, ctx.rng, ctx.width, ctx.height
    if p["extra_connector_chance"] < 1 or p["room_extra_size"] < 0 or not 0 <= p["winding"] <= 100:
        raise GenerationError(
            "generator 'rooms_and_mazes': need extra_connector_chance >= 1, room_extra_size >= 0"
            " and 0 <= winding <= 100"
        )
    region = np.zeros((h, w), dtype=np.int32)
    joined = False  # known to be one piece (then ensure_connected has nothing to do)
    if kernel is None:
        rooms = _place_rooms(rng, w, h, p, region)
    else:
        from engine.plugins.generators import _random_jit

        st = _random_jit.state(rng)
        tries = p["room_tries"] if p["room_tries"] is not None else w * h // 32
        found = kernel.place_rooms(st, w, h, tries, p["room_extra_size"], region)
        rooms = [Rect(*row) for row in found.tolist()]
    if not rooms:  # a map too small for the dice: one 3x3 room in the corner
        rooms = [Rect(1, 1, 3, 3)]
        region[1:4, 1:4] = 1
    if kernel is None:
        _grow_mazes(rng, w, h, p["winding"], region, len(rooms) + 1)
        _connect(rng, w, region, p["extra_connector_chance"])
    else:
        kernel.grow_mazes(st, w, h, p["winding"], region, len(rooms) + 1)
        _random_jit.restore(rng, st)
        cells, around = kernel.candidates(region)
        if cells.size:  # as _connect: the order and the loop dice, then the walk
            order = np.argsort(random_unit(rng, (cells.size,)), kind="stable")
            lucky = random_unit(rng, (cells.size,)) * p["extra_connector_chance"] < 1.0
            joined = kernel.connect(cells[order], around[order], lucky, region.ravel(), w, int(region.max())) == 1
    terrain = (region != 0).astype(np.uint8) * FLOOR
    if p["remove_dead_ends"]:
        if kernel is None:
            _fill_dead_ends(terrain)
        else:
            kernel.fill_dead_ends(terrain.ravel(), w, np.flatnonzero(dead_ends(terrain != 0).ravel()))
    start = rooms[rng.randrange(len(rooms))].center
    if kernel is None or len(rooms) < 1000:
        stairs = farthest_room(rooms, start, lambda r: r.center)
    else:  # the same choice over the kernel's (x, y, w, h) rows: 13,000 rooms' Python centres cost 80 ms
        stairs = farthest_room(rooms, start, found[:, :2] + (found[:, 2:] - 1) // 2)
    if not joined:  # (filling dead ends never splits a piece)
        ensure_connected(terrain, start, rng)  # the connectors already join everything
    terrain[stairs[1], stairs[0]] = STAIRS
    # A 1000x1000 map holds some 13,000 rooms, more than a level may list (saves bound it): all are
    # carved; the level lists the first MAX_ROOMS, which is what placement spreads monsters over.
    return Level(terrain, start, stairs, rooms=rooms[: limits.MAX_ROOMS])


@hookimpl
def register_generators(register):
    register(
        "rooms_and_mazes",
        generate,
        summary="rooms with a maze grown between them, joined by connectors, dead ends pruned (Nystrom)",
        params=PARAMS,
        min_size=(7, 7),
    )
