"""Populating a level: fixed spawns from the generator, then the preset's spawn tables.

Monsters: ``base + per_depth * depth + extra`` per level, kinds from a weighted, depth-gated table
(or the preset's threshold table). Items: the preset's ``item_counts``, then its ``floor`` loot
table (``GameRules.loot``). Nothing is placed on
another thing, on the start or on the stairs or exit; no monster in the start room (or, on levels
without rooms, within ``start_clearance`` king-moves of the start). With ``place_in_rooms``,
things go on room cells only, never in corridors. Where in those cells a try lands is the
preset's ruleset's (``Ruleset.spawn_cell``): by default a candidate cell picked uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from engine.core.kinds import tables
from engine.kit.limits import MAX_ENTITIES
from engine.kit.mapgen import FLOOR, Level

if TYPE_CHECKING:
    from engine.core.turn.run import Run

TRIES = 200  # per thing: a crowded level gets fewer things rather than a loop forever


def populate(game: Run, level: Level, depth: int, rng: random.Random) -> None:
    rules = game.rules
    # a run holds at most MAX_ENTITIES things (what a save can hold): placing stops there
    room = MAX_ENTITIES - len(game.state.world.entities())
    for kind, x, y in level.spawns[: max(0, room)]:
        if kind in game.registry.items:
            game.spawn_item(kind, x, y, rng.randint(*game.registry.items[kind].amount))
        else:
            game.spawn_monster(kind, x, y)
    room -= len(level.spawns)
    if not level.populate or room <= 0:
        return
    cells = _candidate_cells(level, rules.place_in_rooms)
    if not cells:
        return
    taken = game.state.spatial.occupied() | {level.start}
    if level.goal is not None:
        taken.add(level.goal)
    start_room = next((r for r in level.rooms if r.contains(*level.start)), None)
    sx, sy = level.start

    def near_start(x: int, y: int) -> bool:
        if start_room is not None:
            return start_room.contains(x, y)
        return max(abs(x - sx), abs(y - sy)) < rules.start_clearance

    spawn_cell = game.ruleset.spawn_cell  # the preset's rule for a try (a room cell, or a room first)

    def free_cell(monster: bool) -> tuple[int, int] | None:
        for _ in range(TRIES):
            cell = spawn_cell(game.api, level, rng, cells)
            if cell is None or cell in taken or (monster and rules.monster_free_start_room and near_start(*cell)):
                continue
            taken.add(cell)
            return cell
        return None

    base, per_depth, lo, hi = rules.monster_count
    for _ in range(base + per_depth * depth + rng.randint(lo, hi)):
        kind = _monster_kind(game, depth, rng)
        if kind is None or room <= 0:
            break
        cell = free_cell(monster=True)
        if cell is not None:
            game.spawn_monster(kind, *cell)
            room -= 1
    for name, (lo, hi) in rules.item_counts.items():
        item = game.registry.items[name]
        for _ in range(rng.randint(lo, hi)):
            cell = free_cell(monster=False) if room > 0 else None
            if cell is not None:
                game.spawn_item(name, *cell, rng.randint(*item.amount))
                room -= 1
    if "floor" in rules.loot:  # the preset's floor loot table, after its fixed counts
        for name in rules.loot["floor"].roll(depth, rng):
            cell = free_cell(monster=False) if room > 0 else None
            if cell is not None:
                game.spawn_item(name, *cell, rng.randint(*game.registry.items[name].amount))
                room -= 1


class Cells(Sequence[tuple[int, int]]):
    """Cells in scan order, read as ``(x, y)`` tuples one at a time. It holds one int64 a cell, not a
    tuple of two ints (about 100 bytes a cell): a 1000x1000 level's 500,000 floor cells take 4 MB,
    not 50."""

    def __init__(self, flat: np.ndarray, width: int) -> None:
        self._flat, self._width = flat, width

    def __len__(self) -> int:
        return len(self._flat)

    def __getitem__(self, i):  # an int gives a cell; a slice, Cells (as a list's slice would)
        if isinstance(i, slice):
            return Cells(self._flat[i], self._width)
        y, x = divmod(int(self._flat[i]), self._width)
        return x, y


def _candidate_cells(level: Level, in_rooms: bool) -> Cells:
    """Floor cells (not stairs) in scan order, or only those inside rooms."""
    floor = level.terrain == FLOOR
    if in_rooms and level.rooms:
        mask = np.zeros_like(floor)
        for r in level.rooms:
            mask[r.y : r.y2 + 1, r.x : r.x2 + 1] = True
        floor &= mask
    return Cells(np.flatnonzero(floor), floor.shape[1])


def _monster_kind(game: Run, depth: int, rng: random.Random) -> str | None:
    rules = game.rules
    if rules.monster_table:
        return tables.threshold(rules.monster_table, depth, rng.randrange(100))
    names = rules.monsters or tuple(game.registry.monsters)
    table = tables.gated([game.monster_kind(n) for n in names], depth)
    return tables.pick(table, rng).name if table else None
