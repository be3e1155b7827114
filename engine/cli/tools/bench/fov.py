"""The FOV figures of ``python -m engine bench``: how the cost of a call grows with the radius and
the map, beside libtcod called both ways its users call it.

Every registered algorithm that names a libtcod counterpart (``register(..., tcod="FOV_...")``)
is timed on caves of 80x50, 200x200 and 1000x1000, at radius 4, 8, 20, 50 and with no radius,
against ``tcod.map.compute_fov`` (a new result array per call, as ours) and against a persistent
``tcod.map.Map`` made once per map (its ``compute_fov`` writes into the map's own array, the way a
libtcod game calls it). The calls are interleaved over repeats, so all see the same machine load,
and each figure is the median of the repeats' mean µs per call over the same origins.

An algorithm with a compiled kernel is timed twice: the compiled row carries the target, its
pure-Python reference is a figure. The first call of each variant at a new window size, which
builds the pure-Python versions' tables, is timed on its own ("first call" rows, in ms).

Light shapes: our lights are round. Where libtcod lights more than the disc at that radius (its
permissive FOV lights a square), the row says by how much (libtcod then does more work).
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.cli.tools.compare.fov import cave_map, floor_origins
from engine.kit.fov import FovAlgorithm, reach_error

MAPS = ((80, 50), (200, 200), (1000, 1000))
RADII: tuple[int | None, ...] = (4, 8, 20, 50, None)
ORIGINS = {(80, 50): 200, (200, 200): 100, (1000, 1000): 20}  # fewer where a call costs more
TARGET = "<= 1.5x compute_fov, <= 2x Map"  # the default game's FOV
CATALOGUE_TARGET = "within 5x of libtcod"  # every other FOV with a counterpart
FIGURE = "pure-Python reference: a figure"


def bench_map(w: int, h: int) -> np.ndarray:
    """The bench's cave of this size (the 80x50 one is the cave the bench has always used)."""
    return cave_map(random.Random("bench fov cave" if (w, h) == (80, 50) else f"bench fov cave {w}x{h}"), w, h)


def _tcod() -> Any:
    try:
        import tcod.constants
        import tcod.map
    except ImportError:
        return None
    return tcod


def _time_calls(fn: Callable, t: np.ndarray, origins: list[tuple[int, int]], radius: int | None) -> float:
    """Mean µs per call over ``origins`` (after one warm-up call that builds any cached tables)."""
    fn(t, origins[0], radius)
    start = time.perf_counter()
    for origin in origins:
        fn(t, origin, radius)
    return (time.perf_counter() - start) / len(origins) * 1e6


def _libtcod(tcod: Any, constant: str, t: np.ndarray) -> tuple[Callable, Callable]:
    """libtcod's ``compute_fov`` as an FOV ``fn``, and a persistent ``Map`` of ``t`` called in place."""
    algorithm = getattr(tcod.constants, constant)

    def compute(t: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
        # tcod indexes the array it is given: pov is (row, column), that is (y, x) here.
        return tcod.map.compute_fov(t, (origin[1], origin[0]), radius or 0, True, algorithm)

    with warnings.catch_warnings():  # "no longer needed": but it is how libtcod games call it
        warnings.simplefilter("ignore", DeprecationWarning)
        persistent = tcod.map.Map(t.shape[1], t.shape[0])
    persistent.transparent[:] = t

    def in_place(_t: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
        persistent.compute_fov(origin[0], origin[1], radius or 0, True, algorithm)
        return persistent.fov

    return compute, in_place


@functools.lru_cache(maxsize=64)  # (constant, radius): the bench asks a dozen
def shape_note(constant: str, radius: int | None) -> str:
    """How much more than our round light libtcod's ``constant`` lights at ``radius`` on open floor
    ("" when no more)."""
    tcod = _tcod()
    if tcod is None or radius is None:
        return ""
    side = 2 * radius + 3
    theirs = tcod.map.compute_fov(np.ones((side, side), bool), (radius + 1, radius + 1), radius, True,
                                  getattr(tcod.constants, constant))
    d = np.arange(side) - radius - 1
    disc = d[:, None] ** 2 + d[None, :] ** 2 <= radius * radius
    extra = int((theirs & ~disc).sum())
    return f"libtcod lights {theirs.sum() / disc.sum():.2f}x our disc" if extra else ""


def variants(alg: FovAlgorithm) -> list[tuple[str, Callable]]:
    """(label, fn) of an algorithm: compiled and pure Python when it has a kernel that compiled."""
    from engine.kit import jit

    if alg.python is None:
        return [("", alg.fn)]
    if jit.enabled():
        alg.fn(np.ones((3, 3), bool), (1, 1), 1)  # compile now, so that failed() knows
        if not jit.failed():  # (any failure at all: then no row claims to be compiled)
            return [(" (numba)", alg.fn), (" (python)", alg.python)]
    return [(" (python)", alg.python)]


def _radius(radius: int | None) -> str:
    return f"r{radius}" if radius is not None else "no radius"


def fov_figures(repeats: int = 7, quick: bool = False, registry: Any = None,
                maps: tuple[tuple[int, int], ...] | None = None, radii: tuple[int | None, ...] = RADII) -> list[dict]:
    """Median µs per call of every algorithm with a libtcod counterpart, per map and radius, beside
    libtcod's ``compute_fov`` and a persistent ``Map``; and the first call at a new size (ms).
    ``quick`` leaves out 1000x1000 and uses a quarter of the origins."""
    if registry is None:
        from engine.core.loading.loader import load_registry

        registry = load_registry()  # installed plugins' too
    tcod = _tcod()
    # a built-in with no libtcod counterpart is left out; a third-party plugin is timed all the same
    algorithms = {n: a for n, a in sorted(registry.fov.items())
                  if a.tcod or not getattr(registry.owner("fov", n), "builtin", True)}
    default = _default_fov(registry)
    figures: list[dict] = []
    for w, h in maps or (MAPS[:2] if quick else MAPS):
        t = bench_map(w, h)
        count = ORIGINS.get((w, h), 50) // (4 if quick else 1)
        origins = floor_origins(t, random.Random(f"bench fov origins {w}x{h}"), count)
        for name, alg in algorithms.items():
            theirs = _libtcod(tcod, alg.tcod, t) if tcod is not None and alg.tcod else None
            for radius in radii:
                runs = [(label, fn) for label, fn in variants(alg)
                        if not (label == " (python)" and reach_error(name, _python_reach(alg), t.shape, radius))]
                fns = [fn for _, fn in runs] + (list(theirs) if theirs else [])
                samples: list[list[float]] = [[] for _ in fns]
                for _ in range(repeats):  # interleaved, so all see the same machine load
                    for k, fn in enumerate(fns):
                        samples[k].append(_time_calls(fn, t, origins, radius))
                medians = [statistics.median(s) for s in samples]
                them, them_map = (medians[-2], medians[-1]) if theirs else (None, None)
                for (label, _), us in zip(runs, medians, strict=False):
                    figures.append(_row(name, label, w, h, radius, us, them, them_map, alg.tcod,
                                        TARGET if name == default else CATALOGUE_TARGET))
    if maps is None:
        figures += first_calls(algorithms, quick)
    return figures


def _python_reach(alg: FovAlgorithm) -> int | None:
    """How far the pure-Python version lights (the registered limit holds for the compiled one)."""
    module = sys.modules.get(getattr(alg.python, "__module__", ""), None)
    return getattr(module, "PYTHON_REACH", alg.max_reach)


def _default_fov(registry: Any) -> str | None:
    """The FOV of the default game (its preset names it), which carries the strictest target."""
    from engine.core.errors import UsageError
    from engine.core.play.setup import default_game

    try:
        return default_game(registry).fov
    except UsageError:  # no default game among the presets
        return None


def _row(name: str, label: str, w: int, h: int, radius: int | None, us: float, them: float | None,
         them_map: float | None, constant: str, goal: str) -> dict:
    note = shape_note(constant, radius) if them is not None else ""
    target = (FIGURE if label == " (python)" else goal if them is not None
              else f"{goal} (pip install tcod to compare)")
    return {"group": "fov", "name": f"fov {name}{label} {_radius(radius)} {w}x{h}", "fov": name,
            "variant": label.strip(" ()") or "python", "map": f"{w}x{h}", "radius": radius,
            "value": round(us, 2), "unit": "us",
            "tcod": round(them, 2) if them else None, "ratio": round(us / them, 2) if them else None,
            "tcod_map": round(them_map, 2) if them_map else None,
            "ratio_map": round(us / them_map, 2) if them_map else None,
            "target": target + (f"; {note}" if note else "")}


def first_calls(algorithms: dict[str, FovAlgorithm], quick: bool = False) -> list[dict]:
    """ms of the first call at a new window size and radius, with the plugin's caches emptied:
    what building the pure-Python versions' tables costs (the compiled ones keep none)."""
    figures = []
    cases = [((80, 50), 20), ((80, 50), None), ((200, 200), 50), ((200, 200), None)]
    for (w, h), radius in cases[:2] if quick else cases:
        t = bench_map(w, h)
        origin = floor_origins(t, random.Random("bench first call"), 1)[0]
        for name, alg in algorithms.items():
            for label, fn in variants(alg):
                limit = _python_reach(alg) if label == " (python)" else alg.max_reach
                if reach_error(name, limit, t.shape, radius):
                    continue
                _clear_caches(fn)
                start = time.perf_counter()
                fn(t, origin, radius)
                ms = (time.perf_counter() - start) * 1000
                figures.append({"group": "fov", "name": f"fov {name}{label} first call {_radius(radius)} {w}x{h}",
                                "fov": name, "variant": (label.strip(" ()") or "python") + " first call",
                                "map": f"{w}x{h}", "radius": radius, "value": round(ms, 2), "unit": "ms",
                                "target": "< 100 ms"})
    return figures


def _clear_caches(fn: Callable) -> None:
    """Empty every functools cache of the module that defines ``fn`` (its per-size tables)."""
    module = sys.modules.get(getattr(fn, "__module__", ""), None)
    for value in vars(module).values() if module else ():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


def overhead_figures(repeats: int = 7, registry: Any = None) -> list[dict]:
    """µs per call on a 1x1 map: what a call costs before it lights anything (the Python wrapper,
    numba's dispatch, the result array), per compiled algorithm."""
    from engine.core.loading.loader import load_registry

    t = np.ones((1, 1), bool)
    figures = []
    for name, alg in sorted((registry or load_registry()).fov.items()):
        for label, fn in variants(alg):
            if label != " (numba)":
                continue
            us = statistics.median(_time_calls(fn, t, [(0, 0)] * 2000, 1) for _ in range(repeats))
            figures.append({"group": "fov", "name": f"fov {name}{label} call overhead (1x1 map)", "fov": name,
                            "variant": "overhead", "map": "1x1", "radius": 1, "value": round(us, 2), "unit": "us",
                            "target": "a figure"})
    return figures
