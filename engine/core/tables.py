"""Weighted, depth-gated tables: monster and item spawning pick from these.

A table is a list of ``(entry, weight)``; weights are relative, not probabilities. Entries below
their ``min_depth`` are left out before the roll, so depth gates power.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")


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


def gated(kinds: Iterable[T], depth: int) -> list[tuple[T, int]]:
    """The spawn table at ``depth`` for kinds with ``min_depth`` and ``weight`` fields."""
    return [(k, k.weight) for k in kinds if k.min_depth <= depth and k.weight > 0]


def threshold(rows: Sequence[tuple[int, int, T]], depth: int, roll: int) -> T | None:
    """A threshold table: rows of ``(min_depth, min_roll, entry)``; the last row whose depth and
    roll are reached wins ("goblins on a roll of 60+ from depth 2, orcs on 85+ from depth 4")."""
    chosen = None
    for min_depth, min_roll, entry in rows:
        if depth >= min_depth and roll >= min_roll:
            chosen = entry
    return chosen
