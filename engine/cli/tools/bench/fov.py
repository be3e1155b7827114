"""The FOV figures of ``python -m engine bench``: how the cost of a call grows with the radius and
the map, beside libtcod called both ways its users call it.

Every registered algorithm that names a libtcod counterpart (``register(..., tcod="FOV_...")``)
is timed on three kinds of map (``maps.KINDS``: the bench's own caves, and levels of the built-in
``rooms`` and ``bsp`` generators) of 80x50, 200x200 and 1000x1000, at radius 4, 8, 20, 50 and with
no radius, against ``tcod.map.compute_fov`` (a new result array per call, as ours) and against a
persistent ``tcod.map.Map`` made once per map (its ``compute_fov`` writes into the map's own
array, the way a libtcod game calls it). Every figure is CPU time (``engine.cli.tools.timing.cpu``);
the calls alternate round by round (ours, theirs, ours, ...), a sample is the mean µs per call over the same
origins, and a row gives the median of the rounds with their spread. Its ratios are the medians of
the rounds' own ratios (ours and libtcod's taken in the same round), with their spread.

An algorithm with a compiled kernel is timed twice: the compiled row carries the target, its
pure-Python reference is a figure. The first call of each variant at each map size, with no radius
and at r20 (it builds the pure-Python versions' tables), is timed on its own, with the plugin's
caches emptied before each sample ("first call" rows, in ms). At 1000x1000 each row also gives its
worst single call (``worst_ms``): no call there may take over 30 ms.

What a ratio measures: with no radius libtcod's ``compute_fov`` clears and fills a result array of
the whole map every call (a million cells at 1000x1000), while ours lights a window of the reach
it needs in an array zeroed lazily by the OS. Where the light is small beside the map, a ratio far
below 1 is that saving (real for the game, which asks the same), not a faster algorithm: the
``Map`` ratio, whose array libtcod reuses, is the fairer one there.

Light shapes: our lights are round. Where libtcod lights more than the disc at that radius (its
permissive FOV lights a square), the row says by how much (libtcod then does more work).
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.cli.tools.bench import maps as bench_maps
from engine.cli.tools.compare.fov import floor_origins
from engine.cli.tools.timing import alternated, cpu, paired_ratio, summary, verdict
from engine.kit.fov import FovAlgorithm, reach_error

MAPS = ((80, 50), (200, 200), (1000, 1000))
RADII: tuple[int | None, ...] = (4, 8, 20, 50, None)
ORIGINS = {(80, 50): 200, (200, 200): 100, (1000, 1000): 20}  # fewer where a call costs more
TARGET = "<= 1.5x compute_fov, <= 2x Map"  # the default game's FOV
STRICT = "< 1.5x Map at 80x50 with no radius, on rooms, bsp and caves"  # the default game's FOV there
CATALOGUE_TARGET = "within 5x of libtcod"  # every other FOV with a counterpart
STRICT_TARGETS = {"permissive": 2.0, "diamond": 3.0}  # at most this many times compute_fov, at every radius
WORST_MS = 30.0  # no FOV call over 30 ms at 1000x1000
WORST_AT = 1_000_000  # cells: maps this big also give their slowest single call
FIGURE = "pure-Python reference: a figure"


def bench_map(w: int, h: int, kind: str = "caves") -> np.ndarray:
    """The bench's ``kind`` map of this size (caves: the cave the bench has always used)."""
    return bench_maps.open_cells(kind, w, h)


def _tcod() -> Any:
    try:
        import tcod.constants
        import tcod.map
    except ImportError:
        return None
    return tcod


def _time_calls(fn: Callable, t: np.ndarray, origins: list[tuple[int, int]], radius: int | None) -> float:
    """Mean CPU µs per call over ``origins`` (after one warm-up call that builds any cached tables)."""
    fn(t, origins[0], radius)
    start = cpu()
    for origin in origins:
        fn(t, origin, radius)
    return (cpu() - start) / len(origins) * 1e6


def _worst_ms(fn: Callable, t: np.ndarray, origins: list[tuple[int, int]], radius: int | None) -> float:
    """The slowest single call over ``origins``, in CPU ms."""
    worst = 0.0
    for origin in origins:
        start = cpu()
        fn(t, origin, radius)
        worst = max(worst, cpu() - start)
    return worst * 1000


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
                maps: tuple[tuple[int, int], ...] | None = None, radii: tuple[int | None, ...] = RADII,
                kinds: tuple[str, ...] = bench_maps.KINDS) -> list[dict]:
    """Median CPU µs per call of every algorithm with a libtcod counterpart, per map kind, size and
    radius, beside libtcod's ``compute_fov`` and a persistent ``Map``, alternated round by round;
    and the first call at each size (ms). ``quick`` leaves out 1000x1000 and uses a quarter of the
    origins."""
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
        for kind in kinds:
            t = bench_map(w, h, kind)
            count = ORIGINS.get((w, h), 50) // (4 if quick else 1)
            origins = floor_origins(t, random.Random(f"bench fov origins {kind} {w}x{h}"), count)
            for name, alg in algorithms.items():
                theirs = _libtcod(tcod, alg.tcod, t) if tcod is not None and alg.tcod else None
                for radius in radii:
                    runs = [(label, fn) for label, fn in variants(alg)
                            if not (label == " (python)" and reach_error(name, _python_reach(alg), t.shape, radius))]
                    fns = {label: fn for label, fn in runs}
                    if theirs:
                        fns["compute_fov"], fns["Map"] = theirs
                    samples = alternated({k: functools.partial(_time_calls, fn, t, origins, radius)
                                          for k, fn in fns.items()}, repeats)
                    for label, fn in runs:
                        worst = (_worst_ms(fn, t, origins, radius)
                                 if w * h >= WORST_AT and label != " (python)" else None)
                        figures.append(_row(name, label, kind, w, h, radius, samples, alg.tcod,
                                            _target(name, default, w, h, radius), worst))
    if maps is None:
        figures += first_calls(algorithms, quick, repeats=max(3, repeats // 2))
    return figures


def _target(name: str, default: str | None, w: int, h: int, radius: int | None) -> tuple[str, dict]:
    """(what a compiled row of ``name`` must meet, as words; the limits it is checked against)."""
    if name == default:
        if (w, h) == (80, 50) and radius is None:
            return f"{TARGET}; {STRICT}", {"ratio": 1.5, "ratio_map": 1.5}
        return TARGET, {"ratio": 1.5, "ratio_map": 2.0}
    if name in STRICT_TARGETS:
        limit = STRICT_TARGETS[name]
        return f"<= {limit:g}x compute_fov at every radius", {"ratio": limit}
    return CATALOGUE_TARGET, {"ratio": 5.0}


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


def _row(name: str, label: str, kind: str, w: int, h: int, radius: int | None, samples: dict[str, list[float]],
         constant: str, target: tuple[str, dict], worst_ms: float | None) -> dict:
    ours = samples[label]
    them, them_map = samples.get("compute_fov"), samples.get("Map")
    note = shape_note(constant, radius) if them else ""
    goal, limits = target
    if worst_ms is not None:
        goal, limits = f"{goal}; every call < {WORST_MS:.0f} ms", {**limits, "worst_ms": WORST_MS}
    python = label == " (python)"
    words = FIGURE if python else goal if them else f"{goal} (pip install tcod to compare)"
    row = {"group": "fov", "name": f"fov {name}{label} {_radius(radius)} {bench_maps.label(kind, w, h)}",
           "fov": name, "variant": label.strip(" ()") or "python", "map": f"{w}x{h}", "terrain": kind,
           "radius": radius, **summary(ours, 2), "unit": "us",
           "tcod": round(statistics.median(them), 2) if them else None, "ratio": None,
           "tcod_map": round(statistics.median(them_map), 2) if them_map else None, "ratio_map": None,
           "target": words + (f"; {note}" if note else "")}
    if them:
        mine = paired_ratio(ours, them)
        row.update(mine or {})
        theirs = paired_ratio(ours, them_map) or {}
        row["ratio_map"], row["ratio_map_spread"] = theirs.get("ratio"), theirs.get("ratio_spread")
    if worst_ms is not None:
        row["worst_ms"] = round(worst_ms, 3)
    if not python and (them or worst_ms is not None):
        row["verdict"] = verdict(row, limits)
    return row


def first_calls(algorithms: dict[str, FovAlgorithm], quick: bool = False, repeats: int = 3) -> list[dict]:
    """CPU ms of the first call at each map size (the bench's caves), with no radius and at r20, the
    plugin's caches emptied before each sample: what building the pure-Python versions' tables
    costs (the compiled ones keep none). Median of ``repeats`` samples, the variants alternated."""
    figures = []
    for w, h in MAPS[:2] if quick else MAPS:
        t = bench_map(w, h)
        origin = floor_origins(t, random.Random("bench first call"), 1)[0]
        for radius in (20, None):
            for name, alg in algorithms.items():
                runs = {}
                for label, fn in variants(alg):
                    limit = _python_reach(alg) if label == " (python)" else alg.max_reach
                    if not reach_error(name, limit, t.shape, radius):
                        runs[label] = functools.partial(_first_call_ms, fn, t, origin, radius)
                for label, samples in alternated(runs, repeats).items():
                    row = {"group": "fov", "name": f"fov {name}{label} first call {_radius(radius)} {w}x{h}",
                           "fov": name, "variant": (label.strip(" ()") or "python") + " first call",
                           "map": f"{w}x{h}", "terrain": "caves", "radius": radius, **summary(samples, 2),
                           "unit": "ms", "target": "< 100 ms"}
                    row["verdict"] = verdict({"first call_ms": row["value"]}, {"first call_ms": 100.0})
                    figures.append(row)
    return figures


def _first_call_ms(fn: Callable, t: np.ndarray, origin: tuple[int, int], radius: int | None) -> float:
    _clear_caches(fn)
    start = cpu()
    fn(t, origin, radius)
    return (cpu() - start) * 1000


def _clear_caches(fn: Callable) -> None:
    """Empty every functools cache of the module that defines ``fn`` (its per-size tables)."""
    module = sys.modules.get(getattr(fn, "__module__", ""), None)
    for value in vars(module).values() if module else ():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


def overhead_figures(repeats: int = 7, registry: Any = None) -> list[dict]:
    """CPU µs per call on a 1x1 map: what a call costs before it lights anything (the Python
    wrapper, numba's dispatch, the result array), per compiled algorithm."""
    from engine.core.loading.loader import load_registry

    t = np.ones((1, 1), bool)
    runs = {}
    for name, alg in sorted((registry or load_registry()).fov.items()):
        for label, fn in variants(alg):
            if label == " (numba)":
                runs[name] = functools.partial(_time_calls, fn, t, [(0, 0)] * 2000, 1)
    return [{"group": "fov", "name": f"fov {name} (numba) call overhead (1x1 map)", "fov": name,
             "variant": "overhead", "map": "1x1", "radius": 1, **summary(samples, 2), "unit": "us",
             "target": "a figure"}
            for name, samples in alternated(runs, repeats).items()]
