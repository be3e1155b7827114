"""Comparing the registered generators: ``python -m engine compare generators`` and bench figures.

Per generator, over seeds 1..N at 80x50: floor fraction, rooms, dead ends, the length of the
shortest walk from the start to the stairs (or exit), whether the level is connected, and the
milliseconds per level. A generator that cannot build an 80x50 level without extra params (the
``ascii`` map reader) is listed as skipped with its reason; a generator registered with a
``natural_size`` (a small board) is compared at that size.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from engine.cli.parser import Parser
from engine.cli.tools.timing import alternated, summary, verdict
from engine.core.errors import show_traceback
from engine.core.model.rng import stream
from engine.core.plugin.registry import BadResult
from engine.core.turn.generate import run_generator, walkable_of
from engine.kit import limits
from engine.kit.mapgen import BUILTIN_KINDS, STAIRS, WALL, GenerationError, Level
from engine.kit.regions import dead_ends, distances, flood

SIZE = (80, 50)
THUMB_CELL = 4  # pixels per cell in --shot thumbnails
COLOURS = {"wall": (40, 40, 52), "floor": (170, 165, 150), "goal": (90, 200, 110), "start": (240, 200, 60)}


def _registry(registry: Any = None, plugins_dirs: list[str] | None = None) -> Any:
    """``registry``, or every plugin's (installed ones and those of ``plugins_dirs`` included; a
    broken one said on stderr)."""
    if registry is not None:
        return registry
    from engine.core.play.setup import load

    return load(plugins_dirs or ())


def _level(info: Any, size: tuple[int, int], seed: int, terrain: Any = None) -> tuple[Level, float]:
    """One level of ``info`` for ``seed`` (seeded like a run's depth 1), and its build time in CPU ms
    (the process's CPU time: another process's load does not stretch it). ``terrain``: the
    registered kinds of terrain (a level naming another is refused, as in a run)."""
    rng = stream(seed, "level:1")
    t0 = time.process_time()
    level = run_generator(info, size[0], size[1], 1, rng, terrain=terrain)
    return level, (time.process_time() - t0) * 1000.0


def measure(info: Any, seeds: int, terrain: Any = None) -> dict[str, Any]:
    """The comparison row for one generator over seeds 1..``seeds`` (walkable by the kinds of
    ``terrain``, the registered ones, when given)."""
    size = info.natural_size or SIZE  # boards meant to be small are compared at their own size
    row: dict[str, Any] = {"name": info.name, "size": f"{size[0]}x{size[1]}"}
    floor, rooms, ends, path, ms, connected = [], [], [], [], [], True
    for seed in range(1, seeds + 1):
        try:
            level, took = _level(info, size, seed, terrain)
        except BadResult:
            raise  # not a size it cannot build: the plugin broke its contract (one line naming it)
        except GenerationError as e:
            row["skipped"] = str(e)
            return row
        walk = walkable_of(level, terrain)
        floor.append(float(walk.mean()))
        rooms.append(len(level.rooms))
        ends.append(int(dead_ends(walk).sum()))
        goal = level.goal
        path.append(int(distances(walk, level.start)[goal[1], goal[0]]) if goal else 0)
        connected &= not (walk & ~flood(walk, level.start)).any()
        ms.append(took)
    row.update(
        floor=round(statistics.fmean(floor), 3),
        rooms=round(statistics.fmean(rooms), 1),
        dead_ends=round(statistics.fmean(ends), 1),
        path=round(statistics.fmean(path), 1),
        path_max=max(path),
        connected=connected,
        ms=round(statistics.fmean(ms), 2),
    )
    return row


def thumbnail(level: Level, terrain: Any = None) -> np.ndarray:
    """An RGB picture of a level, ``THUMB_CELL`` pixels a cell: wall, floor, goal, start, and a
    plugin's kinds of terrain in their own colour (``terrain``: the registered kinds, by name)."""
    img = np.empty(level.terrain.shape + (3,), dtype=np.uint8)
    img[:] = COLOURS["floor"]
    img[level.terrain == WALL] = COLOURS["wall"]
    img[level.terrain == STAIRS] = COLOURS["goal"]
    for code, name in enumerate(level.kinds[len(BUILTIN_KINDS):], start=len(BUILTIN_KINDS)):
        kind = (terrain or {}).get(name)
        img[level.terrain == code] = kind.color if kind is not None else (255, 0, 255)
    img[level.start[1], level.start[0]] = COLOURS["start"]
    return img.repeat(THUMB_CELL, axis=0).repeat(THUMB_CELL, axis=1)


def _table(rows: list[dict[str, Any]]) -> str:
    heads = ("generator", "size", "floor", "rooms", "dead ends", "path", "path max", "connected", "ms/level")
    keys = ("name", "size", "floor", "rooms", "dead_ends", "path", "path_max", "connected", "ms")
    lines = []
    for row in rows:
        if "skipped" in row:
            lines.append([row["name"], row["size"], f"skipped: {row['skipped']}"])
        else:
            lines.append([("yes" if row[k] else "NO") if k == "connected" else str(row[k]) for k in keys])
    widths = [max([len(h), *(len(r[i]) for r in lines if len(r) == len(heads))]) for i, h in enumerate(heads)]

    def fmt(cells: list[str]) -> str:
        if len(cells) != len(heads):
            return f"{cells[0]:<{widths[0]}}  {cells[1]:<{widths[1]}}  {cells[2]}"
        # names left-aligned, numbers right-aligned
        padded = (c.ljust(wd) if i < 2 else c.rjust(wd) for i, (c, wd) in enumerate(zip(cells, widths, strict=True)))
        return "  ".join(padded)

    return "\n".join([fmt(list(heads)), *(fmt(r) for r in lines)])


class _BadInput(Exception):
    pass


def _chosen(registry: Any, specs: list[str]) -> list[str]:
    """The generators ``--plugin generator=NAME`` names (none: all), each checked to be registered."""
    from engine.core.plugin.registry import PluginError

    names = []
    for spec in specs:
        kind, _, name = spec.partition("=")
        if kind != "generator" or not name:
            raise _BadInput(f"--plugin {spec}: expected generator=NAME")
        try:
            registry.choose("generator", name, via=f"--plugin {spec}")  # says so when a broken plugin has it
        except PluginError as e:
            raise _BadInput(str(e)) from None
        names.append(name)
    return names


class _Parser(Parser):  # its own one line: the option's whole name all the same
    def error(self, message: str):  # one line and status 2, not argparse's usage dump
        raise _BadInput(message)


def compare_main(argv: list[str]) -> int:
    """``python -m engine compare generators [--json] [--seeds N] [--shot DIR] [--plugin generator=NAME]
    [--plugins-dir DIR]``."""
    argv = list(argv)
    if argv[:1] == ["generators"]:
        argv = argv[1:]
    parser = _Parser(prog="python -m engine compare generators", add_help=True)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--seeds", default="20", help="levels per generator (seeds 1..N, default 20)")
    parser.add_argument("--shot", metavar="DIR", help="write a PNG thumbnail of one level per generator")
    parser.add_argument("--plugin", action="append", default=[], metavar="generator=NAME", help="compare only these")
    parser.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                        help="load every *.py in DIR as a plugin too (repeatable)")
    try:
        args = parser.parse_args(argv)
        try:
            seeds = int(args.seeds)
        except ValueError:
            raise _BadInput(f"--seeds: {args.seeds!r} is not a whole number") from None
        if not 1 <= seeds <= limits.MAX_COMPARE_SEEDS:
            raise _BadInput(f"--seeds: must be 1..{limits.MAX_COMPARE_SEEDS}, got {seeds}")
        shot = Path(args.shot) if args.shot else None
        if shot is not None:
            if shot.exists() and not shot.is_dir():  # --shot names a folder for the thumbnails
                raise _BadInput(f"--shot: {shot} is not a folder (it takes a folder for the PNG thumbnails)")
            try:
                shot.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise _BadInput(f"--shot: cannot create the folder {shot}: {e.strerror or e}") from None
            if not os.access(shot, os.W_OK):
                raise _BadInput(f"--shot: {shot} is not writable")
        registry = _registry(plugins_dirs=args.plugins_dir)
        chosen = _chosen(registry, args.plugin)
        # a level the load checks refuse (pluginchecks: tile codes, shape, dtype) is the plugin's
        # mistake, said in one line naming it; a size it cannot build is a skipped row
        rows = [measure(registry.generators[name], seeds, registry.terrain)
                for name in sorted(chosen or registry.generators)]
        if shot is not None:
            for row in rows:
                if "skipped" not in row:
                    w, h = (int(v) for v in row["size"].split("x"))
                    level, _ = _level(registry.generators[row["name"]], (w, h), 1, registry.terrain)
                    target = shot / f"gen_{row['name']}.png"
                    try:
                        Image.fromarray(thumbnail(level, registry.terrain), "RGB").save(target, format="PNG")
                    except OSError as e:
                        raise _BadInput(f"--shot: cannot write {target}: {e.strerror or e}") from None
                    row["shot"] = str(target)
    except (_BadInput, BadResult) as e:
        show_traceback(e)  # UNDERCROFT_DEBUG=1: the traceback too
        print(f"compare generators: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"seeds": seeds, "generators": rows}, indent=2))
    else:
        print(_table(rows))
    return 0


BENCH_SIZES = (((80, 50), "< 20 ms"), ((500, 500), "< 300 ms"), ((1000, 1000), "< 300 ms"))
SEEDS = 11  # levels per figure: the median of 11 seeds


def bench_figures(repeats: int = 5, registry: Any = None, quick: bool = False, seeds: int = SEEDS) -> list[dict]:
    """Median CPU ms per level for every registered generator at 80x50, 500x500 and 1000x1000.

    Each figure is the median of ``seeds`` levels (seeds 1..N; ``quick``: 3), engine checks included,
    with the spread, as ``{"name": "gen caves 80x50", "value": ms, "unit": "ms", "spread": [min, max],
    "target": "< 20 ms"}``. Generators that cannot build a level without extra params (``ascii``)
    are left out. With numba installed, each is timed again in pure Python (``(python)`` rows, a
    figure: what the default install, without numba, does), the two alternated seed by seed (the
    same seed compiled, then in pure Python; the order turned each seed). ``quick`` also leaves out
    1000x1000. (``repeats`` is not used: the seeds are the repeats.)
    """
    from engine.kit import jit

    registry = _registry(registry)
    seeds = 3 if quick else seeds
    variants = [("", None)]
    if jit.enabled():
        variants.append((" (python)", "pure Python (no numba): a figure"))
    figures: dict[str, list[dict]] = {label: [] for label, _ in variants}
    for name in sorted(registry.generators):
        info = registry.generators[name]
        try:
            _level(info, (80, 50), 1)  # warm up: a first call may load a kernel
        except BadResult:
            raise
        except GenerationError:
            continue  # it needs what the bench cannot give (a map file): left out
        for (w, h), size_target in BENCH_SIZES[:2] if quick else BENCH_SIZES:
            runs = {label: _seeded(info, (w, h), python=bool(label)) for label, _ in variants}
            failed = None
            try:
                samples = alternated(runs, seeds)
            except BadResult:
                raise  # the plugin's mistake, in one line naming it: no figure to show
            except GenerationError as e:  # a size it cannot build is a finding, shown, not dropped
                failed, samples = str(e).splitlines()[0], {}
            for label, target in variants:
                row = {"group": "gen", "name": f"gen {name}{label} {w}x{h}", "generator": name,
                       "variant": label.strip(" ()") or "default", "map": f"{w}x{h}", "value": None, "unit": "ms",
                       "target": f"FAILED: {failed}" if failed else target or size_target}
                if not failed:
                    row.update(summary(samples[label], 2))
                    if not label:
                        limit = float(size_target.split()[1])  # "< 20 ms"
                        row["verdict"] = verdict({"median_ms": row["value"]}, {"median_ms": limit})
                figures[label].append(row)
    return [row for label, _ in variants for row in figures[label]]


def _seeded(info: Any, size: tuple[int, int], python: bool):
    """A sampler: each call builds the level of the next seed (1, 2, ...) and returns its CPU ms;
    ``python``: with numba's kernels switched off for that call."""
    from engine.kit import jit

    seed = [0]

    def one() -> float:
        seed[0] += 1
        if not python:
            return _level(info, size, seed[0])[1]
        with jit.disabled():
            return _level(info, size, seed[0])[1]
    return one
