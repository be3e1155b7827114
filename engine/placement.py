"""Populating a level: fixed spawns from the generator, then the preset's spawn tables.

Monsters: ``base + per_depth * depth + extra`` per level, kinds from a weighted, depth-gated table.
Items: the preset's ``item_counts``. Nothing is placed on another thing, on the start or on the
stairs, and no monster in the start room (or, on levels without rooms, within 3 cells of it).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

from . import tables
from .mapgen import FLOOR, Level

if TYPE_CHECKING:
    from .game import Game

START_CLEARANCE = 3  # cells around the start kept free of monsters on levels without rooms


def populate(game: Game, level: Level, depth: int, rng: random.Random) -> None:
    registry, rules = game.registry, game.rules
    for kind, x, y in level.spawns:
        if kind in registry.monsters:
            game.spawn_monster(kind, x, y)
        else:
            item = registry.items[kind]
            game.spawn_item(kind, x, y, rng.randint(*item.amount))

    if not level.populate:
        return
    ys, xs = np.nonzero(level.terrain == FLOOR)
    floor = list(zip(xs.tolist(), ys.tolist(), strict=True))
    if not floor:
        return
    taken = set(game.blockers) | set(game.items_at) | {level.start}
    if level.goal is not None:
        taken.add(level.goal)
    start_room = next((r for r in level.rooms if r.contains(*level.start)), None)

    def near_start(x: int, y: int) -> bool:
        if start_room is not None:
            return start_room.contains(x, y)
        sx, sy = level.start
        return max(abs(x - sx), abs(y - sy)) <= START_CLEARANCE

    def free_cell(monster: bool) -> tuple[int, int] | None:
        for _ in range(200):
            x, y = floor[rng.randrange(len(floor))]
            if (x, y) in taken or (monster and rules.monster_free_start_room and near_start(x, y)):
                continue
            taken.add((x, y))
            return x, y
        return None  # a crowded level: place fewer rather than loop forever

    kinds = [registry.monsters[n] for n in rules.monsters] if rules.monsters else list(registry.monsters.values())
    table = tables.gated(kinds, depth)
    base, per_depth, lo, hi = rules.monster_count
    count = base + per_depth * depth + rng.randint(lo, hi)
    if table:
        for _ in range(count):
            kind = tables.pick(table, rng)
            cell = free_cell(monster=True)
            if cell is not None:
                game.spawn_monster(kind.name, *cell)
    for name, (lo, hi) in rules.item_counts.items():
        item = registry.items[name]
        for _ in range(rng.randint(lo, hi)):
            cell = free_cell(monster=False)
            if cell is not None:
                game.spawn_item(name, *cell, rng.randint(*item.amount))
