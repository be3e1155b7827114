"""``rooms``: random non-overlapping rooms, each joined to the previous one by an L corridor.

The classic generator, and by default exactly the Bunyip Go engine's roguelike example: 40
tries of rooms 4-11 wide by 3-7 tall with their top-left corner at x in 1..W-12, y in 1..H-8
(1..48 by 1..24 on its 60x32 map); a room is rejected when it leaves the map (it must end at
least ``edge`` = 2 cells before the right and bottom edges) or comes within one cell of a room
already placed (``margin``). Each accepted room is joined to the previous one by an L corridor
between their centres, horizontal leg first or vertical leg first at random. The player starts
in the first room's centre and the stairs are in the last room's centre. Centres are
``x + w // 2`` as in Bunyip (``center="high"``); ``center="low"`` gives ``x + (w - 1) // 2``.

Dice per try, in order: x, y, w, h, then (for every room but the first) the corridor's coin;
then, with ``room_monster``, one roll per later room.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import FLOOR, STAIRS, GenContext, GenerationError, Level, Rect, hookimpl
from engine.kit.mapgen import carve_line, carve_rect
from engine.kit.regions import ensure_connected

PARAMS: dict[str, Any] = {
    "max_rooms": 40,  # placement tries, not rooms: rejected tries are simply lost
    "room_min_w": 4,
    "room_max_w": 11,
    "room_min_h": 3,
    "room_max_h": 7,
    # Bounds of a room's top-left floor cell. A negative bound counts back from the map size
    # (x_max=-12 is width - 12), so a preset keeps its meaning on any map size.
    "x_min": 1,
    "x_max": -12,
    "y_min": 1,
    "y_max": -8,
    "edge": 2,  # wall cells a room must leave before the right and bottom map edges
    "margin": 1,  # wall cells a room must keep from every other room
    "center": "high",  # "high": x + w // 2 (Bunyip); "low": x + (w - 1) // 2
    "stairs": True,  # False: no stairs (Bunyip's example is one level)
    # A monster kind placed at the centre of every room but the first with a chance of
    # room_monster_chance[0] in room_monster_chance[1] (Bunyip: a goblin, 2 in 3), rolled after
    # the map is carved, room by room.
    "room_monster": "",
    "room_monster_chance": [2, 3],
}


def _bound(value: int, size: int) -> int:
    return value + size if value < 0 else value


def room_center(room: Rect, center: str) -> tuple[int, int]:
    """A room's centre cell, rounding an even size up (``"high"``) or down (``"low"``)."""
    if center == "high":
        return room.x + room.w // 2, room.y + room.h // 2
    return room.center


def _check(p: dict[str, Any]) -> None:
    for lo, hi in (("room_min_w", "room_max_w"), ("room_min_h", "room_max_h")):
        if not 1 <= p[lo] <= p[hi]:
            raise GenerationError(f"generator 'rooms': need 1 <= {lo} <= {hi}, got {p[lo]}, {p[hi]}")
    if p["center"] not in ("high", "low"):
        raise GenerationError(f"generator 'rooms': center must be 'high' or 'low', got {p['center']!r}")
    chance = p["room_monster_chance"]
    if not (isinstance(chance, list | tuple) and len(chance) == 2 and 0 <= chance[0] <= chance[1] and chance[1] > 0):
        raise GenerationError(f"generator 'rooms': room_monster_chance must be [hits, out_of], got {chance!r}")
    if p["max_rooms"] < 1 or p["edge"] < 1 or p["margin"] < 0:
        raise GenerationError("generator 'rooms': need max_rooms >= 1, edge >= 1, margin >= 0")


def _apart(terrain, room: Rect, start: tuple[int, int]) -> tuple[int, int]:
    """A cell for the stairs of a level of one room: its far corner; for a room too small to have
    one apart from the start, the room cell farthest from it; for a room of one cell, a neighbour
    carved out for them (the generator promises stairs)."""
    corner = (room.x2, room.y2)
    if corner != start:
        return corner
    cells = [(x, y) for y in range(room.y, room.y2 + 1) for x in range(room.x, room.x2 + 1) if (x, y) != start]
    if cells:
        return max(cells, key=lambda c: (max(abs(c[0] - start[0]), abs(c[1] - start[1])), -c[1], -c[0]))
    h, w = terrain.shape
    for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        x, y = start[0] + dx, start[1] + dy
        if 0 < x < w - 1 and 0 < y < h - 1:
            terrain[y, x] = FLOOR
            return x, y
    raise GenerationError("generator 'rooms': no room for stairs")  # a 3x3 map's one cell: min_size forbids it


def generate(ctx: GenContext) -> Level:
    p = ctx.params
    _check(p)
    w, h, rng = ctx.width, ctx.height, ctx.rng
    x_lo, x_hi = max(1, _bound(p["x_min"], w)), _bound(p["x_max"], w)
    y_lo, y_hi = max(1, _bound(p["y_min"], h)), _bound(p["y_max"], h)
    if x_hi < x_lo or y_hi < y_lo:
        raise GenerationError(f"generator 'rooms': no room position fits a {w}x{h} map")
    terrain = np.zeros((h, w), dtype=np.uint8)
    rooms: list[Rect] = []
    for _ in range(p["max_rooms"]):
        room = Rect(
            rng.randint(x_lo, x_hi),
            rng.randint(y_lo, y_hi),
            rng.randint(p["room_min_w"], p["room_max_w"]),
            rng.randint(p["room_min_h"], p["room_max_h"]),
        )
        if room.x2 > w - 1 - p["edge"] or room.y2 > h - 1 - p["edge"]:
            continue
        if any(room.intersects(other, p["margin"]) for other in rooms):
            continue
        carve_rect(terrain, room)
        if rooms:
            a, b = room_center(rooms[-1], p["center"]), room_center(room, p["center"])
            carve_line(terrain, a, b, rng.randrange(2) == 0)
        rooms.append(room)
    if not rooms:
        # every try was rejected (a map barely above the minimum): one room in the corner
        room = Rect(x_lo, y_lo, p["room_min_w"], p["room_min_h"])
        if room.x2 > w - 2 or room.y2 > h - 2:
            raise GenerationError(f"generator 'rooms': no room fits a {w}x{h} map")
        carve_rect(terrain, room)
        rooms.append(room)
    start = room_center(rooms[0], p["center"])
    stairs: tuple[int, int] | None = room_center(rooms[-1], p["center"])
    if stairs == start:  # a single room: the stairs go in its far corner instead
        stairs = _apart(terrain, rooms[0], start)
    if not p["stairs"]:
        stairs = None
    ensure_connected(terrain, start, rng)  # a no-op unless the room chain was broken
    if stairs is not None:
        terrain[stairs[1], stairs[0]] = STAIRS
    spawns = []
    if p["room_monster"]:
        hits, out_of = p["room_monster_chance"]
        for room in rooms[1:]:
            if rng.randrange(out_of) < hits:
                spawns.append((p["room_monster"], *room_center(room, p["center"])))
    return Level(terrain, start, stairs, rooms=rooms, spawns=spawns)


@hookimpl
def register_generators(register):
    register(
        "rooms",
        generate,
        summary="random non-overlapping rooms joined in order by L corridors (Bunyip's example)",
        params=PARAMS,
        min_size=(16, 12),
    )
