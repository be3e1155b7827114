"""Weighted, depth-gated tables: monster and item spawning pick from these.

A table is a list of ``(entry, weight)``; weights are relative, not probabilities. Entries below
their ``min_depth`` are left out before the roll, so depth gates power.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Protocol, TypeVar

from engine.core.kinds.schema import Check, Int, List, NonEmpty, Tuple, of
from engine.kit import limits

T = TypeVar("T")


class Spawned(Protocol):
    """What a depth-gated table's entry has (a kind, a loot row)."""

    @property
    def min_depth(self) -> int: ...
    @property
    def weight(self) -> int: ...


S = TypeVar("S", bound=Spawned)


def pick(table: Sequence[tuple[T, int]], rng: random.Random) -> T:
    """One entry, chosen with probability weight / total weight."""
    total = sum(w for _, w in table)
    if total <= 0:
        raise ValueError("cannot pick from an empty table")
    roll = rng.randrange(total)
    upto = 0
    for entry, weight in table:
        upto += weight
        if roll < upto:
            return entry
    raise AssertionError("unreachable")  # roll < total


def gated(kinds: Iterable[S], depth: int) -> list[tuple[S, int]]:
    """The spawn table at ``depth`` for kinds with ``min_depth`` and ``weight`` fields (and
    ``max_depth``, when they have one: deeper, they are left out)."""
    return [(k, k.weight) for k in kinds
            if k.min_depth <= depth <= getattr(k, "max_depth", limits.MAX_DEPTH) and k.weight > 0]


def threshold(rows: Sequence[tuple[int, int, T]], depth: int, roll: int) -> T | None:
    """A threshold table: rows of ``(min_depth, min_roll, entry)``; the last row whose depth and
    roll are reached wins ("goblins on a roll of 60+ from depth 2, orcs on 85+ from depth 4")."""
    chosen = None
    for min_depth, min_roll, entry in rows:
        if depth >= min_depth and roll >= min_roll:
            chosen = entry
    return chosen


# --- loot tables ---------------------------------------------------------------------------------
# The playbook's drop tables: weighted rows plus a "nothing" weight, scaled by depth. A preset names
# its tables in ``loot`` (``engine.core.kinds.rules.GameRules``): ``floor`` is rolled when a level is
# populated; any other (``drop``, ...) is a plugin's to roll (``GameAPI.loot``), as the drops plugin
# does when a monster dies.


@dataclass(frozen=True)
class LootRow:
    """One row: ``item`` (an item kind's name) with ``weight`` at ``min_depth``, changed by
    ``per_depth`` for each level deeper (never below 0), and left out outside
    ``min_depth..max_depth``."""

    item: Annotated[str, NonEmpty()]
    weight: Annotated[int, Int(0, 10**6)]
    min_depth: Annotated[int, Int(1, limits.MAX_DEPTH)] = 1
    max_depth: Annotated[int, Int(1, limits.MAX_DEPTH)] = limits.MAX_DEPTH
    per_depth: Annotated[int, Int(-10**6, 10**6)] = 0

    def weight_at(self, depth: int) -> int:
        if not self.min_depth <= depth <= self.max_depth:
            return 0
        return max(0, self.weight + self.per_depth * (depth - self.min_depth))


@dataclass(frozen=True)
class LootTable:
    """``rolls`` (min, max) picks, each one of ``items`` or nothing: ``nothing`` is the weight of
    nothing at depth 1, changed by ``nothing_per_depth`` per level deeper (never below 0)."""

    items: Annotated[tuple[LootRow, ...], List(of(LootRow), lo=1, most=1000, as_tuple=True)]
    nothing: Annotated[int, Int(0, 10**6)] = 0
    nothing_per_depth: Annotated[int, Int(-10**6, 10**6)] = 0
    rolls: Annotated[tuple[int, int], Check(Tuple(Int(0, limits.MAX_SPAWNS), Int(0, limits.MAX_SPAWNS),
                                                  expected="[min, max]"), lambda v: v[0] <= v[1],
                                            "[min, max] with 0 <= min <= max")] = (1, 1)

    def at(self, depth: int) -> list[tuple[str | None, int]]:
        """The table at ``depth``: ``(item, weight)`` rows with a weight, ``(None, w)`` for nothing."""
        rows: list[tuple[str | None, int]] = [(row.item, row.weight_at(depth)) for row in self.items]
        rows.append((None, max(0, self.nothing + self.nothing_per_depth * (depth - 1))))
        return [(item, w) for item, w in rows if w > 0]

    def roll(self, depth: int, rng: random.Random) -> list[str]:
        """The item kinds ``rolls`` picks give at ``depth`` (nothing leaves no entry), in roll order."""
        table = self.at(depth)
        count = rng.randint(*self.rolls)
        if not table:
            return []
        picks = [pick(table, rng) for _ in range(count)]
        return [p for p in picks if p is not None]


LOOT = of(LootTable)  # the spec a preset's ``loot`` tables are checked with
