"""``bsp``: binary space partition, one room per leaf, rooms joined in order by L corridors.

By default exactly the "Rogue SDL" tutorial's part 3 generator. The map rectangle is cut across
its longer side (across the height only when the height is strictly greater) when that side is
at least ``2 * min_area`` (20) cells and fewer than ``max_cuts`` (6) cuts were made above it; the
cut falls between ``min_area`` and ``length - min_area`` inclusive. Each leaf gets a room of
``room_min_w`` x ``room_min_h`` (4x3) up to its size less 2, placed with at least a cell of wall
between it and the leaf's edges, so the outer ring of the map is always wall. Rooms are kept in
the order the leaves are made (first piece first, depth first), and each is joined to the next
by an L corridor between their centres (``x + w // 2``), turning its corner at a random end.
The player starts in a random room's centre; the stairs are in the centre of the room farthest
from it (Manhattan; the first such room wins ties).

Dice, in order: each cut (parent before children, first piece before second), each room's w, h,
x, y as its leaf is reached, each corridor's coin, then the start room.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import STAIRS, GenContext, GenerationError, Level, Rect, hookimpl
from engine.kit.mapgen import carve_line, carve_rect, farthest_room
from engine.kit.regions import ensure_connected

PARAMS: dict[str, Any] = {
    "min_area": 10,  # the shortest piece a cut may leave; an area shorter than twice it is a leaf
    "max_cuts": 6,  # an area this many cuts deep is a leaf however big it is
    "room_min_w": 4,
    "room_min_h": 3,
}


def _between(rng, low: int, high: int) -> int:
    """A whole number from low to high inclusive; ``low`` when the range is empty (as in C++)."""
    return low if high <= low else rng.randint(low, high)


def _split(rng, area: Rect, cuts: int, p: dict[str, Any], leaves: list[Rect]) -> None:
    # Recursion depth is at most max_cuts, so no explicit stack is needed. Rect here is the
    # area itself (x, y, w, h), walls included.
    across = area.h > area.w
    length = area.h if across else area.w
    if cuts >= p["max_cuts"] or length < 2 * p["min_area"]:
        leaves.append(area)
        return
    cut = _between(rng, p["min_area"], length - p["min_area"])
    if across:
        halves = (Rect(area.x, area.y, area.w, cut), Rect(area.x, area.y + cut, area.w, area.h - cut))
    else:
        halves = (Rect(area.x, area.y, cut, area.h), Rect(area.x + cut, area.y, area.w - cut, area.h))
    for half in halves:
        _split(rng, half, cuts + 1, p, leaves)


def _room(rng, area: Rect, p: dict[str, Any]) -> Rect:
    w = _between(rng, p["room_min_w"], area.w - 2)
    h = _between(rng, p["room_min_h"], area.h - 2)
    x = _between(rng, area.x + 1, area.x + area.w - w - 1)
    y = _between(rng, area.y + 1, area.y + area.h - h - 1)
    return Rect(x, y, w, h)


def _center(room: Rect) -> tuple[int, int]:
    return room.x + room.w // 2, room.y + room.h // 2


def generate(ctx: GenContext) -> Level:
    p, rng, w, h = ctx.params, ctx.rng, ctx.width, ctx.height
    if p["room_min_w"] < 1 or p["room_min_h"] < 1 or p["max_cuts"] < 0:
        raise GenerationError("generator 'bsp': need room_min_w, room_min_h >= 1 and max_cuts >= 0")
    # every piece is at least min_area long, so a room (plus its wall each side) must fit in it
    if p["min_area"] < max(p["room_min_w"], p["room_min_h"]) + 2:
        raise GenerationError("generator 'bsp': min_area must be at least the smallest room side + 2")
    if w < p["room_min_w"] + 2 or h < p["room_min_h"] + 2:
        smallest = f"{p['room_min_w']}x{p['room_min_h']}"
        raise GenerationError(f"generator 'bsp': {w}x{h} is too small for a {smallest} room")
    leaves: list[Rect] = []
    _split(rng, Rect(0, 0, w, h), 0, p, leaves)
    terrain = np.zeros((h, w), dtype=np.uint8)
    rooms = []
    for leaf in leaves:
        room = _room(rng, leaf, p)
        carve_rect(terrain, room)
        rooms.append(room)
    for a, b in zip(rooms, rooms[1:], strict=False):
        # coin 0 turns the corner at (from.x, to.y): the vertical leg first
        carve_line(terrain, _center(a), _center(b), horizontal_first=rng.randrange(2) != 0)
    start = _center(rooms[rng.randrange(len(rooms))])
    stairs = farthest_room(rooms, start, _center)
    ensure_connected(terrain, start, rng)  # consecutive corridors already join every room
    terrain[stairs[1], stairs[0]] = STAIRS
    return Level(terrain, start, stairs, rooms=rooms)


@hookimpl
def register_generators(register):
    register(
        "bsp",
        generate,
        summary="binary space partition, a room per leaf, joined in order (Rogue SDL part 3)",
        params=PARAMS,
        min_size=(8, 7),
    )
