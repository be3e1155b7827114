"""The maps the FOV and path figures of ``python -m engine bench`` are taken on: three kinds of
level, at each size.

- ``caves``: the bench's own cellular-automata cave (``engine.cli.tools.compare.fov.cave_map``),
  made with a seeded ``random.Random``: the map the bench has always used, so its rows keep their
  names (no kind in them) and stay comparable from round to round.
- ``rooms`` and ``bsp``: levels of the built-in generators of those names (seed fixed, depth 1):
  rectangular rooms and corridors, the default game's own kind of level. A map of long straight
  walls and open rooms, on which a light sees far, is not a cave: libtcod and we may compare
  differently on it.

True is open (transparent, walkable). Each map is made once per process (they are cached: the
1000x1000 ones take a moment).
"""

from __future__ import annotations

import functools
import random

import numpy as np

KINDS = ("caves", "rooms", "bsp")


@functools.lru_cache(maxsize=16)  # a dozen maps a run: (kind, size) of the groups
def open_cells(kind: str, w: int, h: int) -> np.ndarray:
    """The ``kind`` map of ``w`` x ``h``, True where open (shared between the groups: never write to it;
    left writable, so that a kernel sees the same array type as in the game)."""
    if kind == "caves":
        from engine.cli.tools.compare.fov import cave_map

        t = cave_map(random.Random("bench fov cave" if (w, h) == (80, 50) else f"bench fov cave {w}x{h}"), w, h)
    elif kind in ("rooms", "bsp"):
        t = _generated(kind, w, h)
    else:
        raise ValueError(f"unknown bench map {kind!r} (valid: {', '.join(KINDS)})")
    return t


def _generated(name: str, w: int, h: int) -> np.ndarray:
    """The floor of a level of the built-in generator ``name`` (the built-ins only: an installed
    plugin cannot change the bench's maps)."""
    from engine.core.model.rng import stream
    from engine.core.turn.generate import run_generator
    from engine.kit.mapgen import WALL

    info = _builtins().generators[name]
    level = run_generator(info, w, h, 1, stream(7, f"bench map {name} {w}x{h}"))
    return np.ascontiguousarray(level.terrain != WALL)


@functools.lru_cache(maxsize=1)  # one registry: the built-ins never change within a run
def _builtins():
    from engine.core.loading.loader import load_registry

    return load_registry(entry_points=False)


def label(kind: str, w: int, h: int) -> str:
    """How a row names the map: "80x50" for the bench's cave (as always), "rooms 80x50" else."""
    return f"{w}x{h}" if kind == "caves" else f"{kind} {w}x{h}"
