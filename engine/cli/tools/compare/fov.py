"""Comparing FOV algorithms: ``python -m engine compare fov``, and the bench's maps.

Every registered algorithm runs on the same 80x50 maps (an empty room, pillars, corridors, caves
and 25% random walls) from the same origins, and is measured on the properties of Jice's 2009 FOV
study: symmetry errors (A sees floor B but B does not see A), expansive walls, pillar shadows that
widen with distance, no blind corners, how much it sees, and how long a call takes.
The maps are made here with numpy and a seeded ``random.Random``, so the figures do not change
when a generator plugin does.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from engine.cli.parser import Parser
from engine.kit import limits
from engine.kit.fov import FovAlgorithm, reach_error

WIDTH, HEIGHT = 80, 50
MAP_NAMES = ("empty", "pillars", "corridors", "caves", "random25")


def _room(w: int, h: int) -> np.ndarray:
    t = np.zeros((h, w), dtype=bool)
    t[1:-1, 1:-1] = True
    return t


def cave_map(rng: random.Random, w: int = WIDTH, h: int = HEIGHT) -> np.ndarray:
    """A cellular-automata cave: 45% walls, then four rounds of 'a wall has 5+ wall neighbours'."""
    wall = np.array([[rng.random() < 0.45 for _ in range(w)] for _ in range(h)])
    for _ in range(4):
        padded = np.pad(wall, 1, constant_values=True).astype(np.int8)
        count = sum(padded[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx]
                    for dy in (-1, 0, 1) for dx in (-1, 0, 1))  # includes the cell itself
        wall = count >= 5
    wall[0, :] = wall[-1, :] = wall[:, 0] = wall[:, -1] = True
    return ~wall


def make_map(name: str, rng: random.Random) -> np.ndarray:
    """One of the comparison maps, True where transparent."""
    t = _room(WIDTH, HEIGHT)
    if name == "pillars":
        t[4:-4:4, 4:-4:4] = False
    elif name == "corridors":
        t[:] = False
        t[2:-2:6, 1:-1] = True  # one-wide corridors: every 6th row, and every 8th column between them
        t[2:-2, 3:-1:8] = True
    elif name == "caves":
        t = cave_map(rng)
    elif name == "random25":
        t[1:-1, 1:-1] = np.array([[rng.random() >= 0.25 for _ in range(WIDTH - 2)] for _ in range(HEIGHT - 2)])
    elif name != "empty":
        raise ValueError(f"unknown map {name!r}")
    return t


def floor_origins(t: np.ndarray, rng: random.Random, n: int) -> list[tuple[int, int]]:
    ys, xs = np.nonzero(t)
    cells = list(zip(xs.tolist(), ys.tolist(), strict=True))
    return [cells[i] for i in sorted(rng.sample(range(len(cells)), min(n, len(cells))))]


def symmetry_errors(fn: Callable, t: np.ndarray, origins: list[tuple[int, int]], radius: int | None,
                    rng: random.Random, per_origin: int = 30) -> tuple[int, int]:
    """(failures, pairs): for each origin A and up to ``per_origin`` floors B it sees, does B see A?"""
    failures = pairs = 0
    for ax, ay in origins:
        seen = fn(t, (ax, ay), radius) & t
        seen[ay, ax] = False
        ys, xs = np.nonzero(seen)
        picks = sorted(rng.sample(range(len(xs)), min(per_origin, len(xs))))
        for i in picks:
            b = (int(xs[i]), int(ys[i]))
            pairs += 1
            failures += not fn(t, b, radius)[ay, ax]
    return failures, pairs


def expansive_walls(fn: Callable) -> bool:
    """From every floor of a 15x9 room, every cell of the room (its walls included) is visible."""
    t = _room(17, 11)
    return all(fn(t, (x, y), None).all() for y in range(1, 10) for x in range(1, 16))


def pillar_shadow_widths(fn: Callable) -> list[int]:
    """Shadow width, column by column, behind a pillar two cells east of the viewer in a big room."""
    t = _room(40, 41)
    t[20, 7] = False
    seen = fn(t, (5, 20), None)
    return [int((~seen[1:-1, x]).sum()) for x in range(8, 39)]


def pillar_shadows_widen(fn: Callable) -> bool:
    widths = pillar_shadow_widths(fn)
    return all(a <= b for a, b in zip(widths, widths[1:], strict=False)) and widths[-1] > widths[0]


def no_blind_corners(fn: Callable) -> bool:
    """One step before the bend of a one-wide L corridor, the viewer sees around the corner: the
    diagonal cell and the next one down the new corridor."""
    t = np.zeros((9, 10), dtype=bool)
    t[1, 1:8] = True
    t[1:8, 7] = True
    seen = fn(t, (6, 1), None)
    return bool(seen[2, 7] and seen[3, 7])


def _time_calls(fn: Callable, t: np.ndarray, origins: list[tuple[int, int]], radius: int | None) -> float:
    """Mean CPU µs per call over ``origins`` (after one warm-up call that builds any cached tables)."""
    fn(t, origins[0], radius)
    start = time.process_time()
    for origin in origins:
        fn(t, origin, radius)
    return (time.process_time() - start) / len(origins) * 1e6


def compare(algorithms: dict[str, FovAlgorithm], n_maps: int = 1, seed: int = 0, radius: int | None = 16) -> dict:
    """The comparison as plain data: one row per algorithm."""
    maps = []
    for k in range(n_maps):
        for name in MAP_NAMES:
            rng = random.Random(f"{seed}:{k}:{name}")
            maps.append((f"{name}#{k}", make_map(name, rng), rng))
    rows = {}
    for name, alg in sorted(algorithms.items()):
        fn = alg.fn
        failures = pairs = visible = calls = 0
        times = []
        for _, t, rng in maps:
            origins = floor_origins(t, random.Random(rng.random()), 8)
            f, p = symmetry_errors(fn, t, origins, radius, random.Random(rng.random()))
            failures, pairs = failures + f, pairs + p
            visible += sum(int(fn(t, o, radius).sum()) for o in origins)
            calls += len(origins)
            times.append(_time_calls(fn, t, floor_origins(t, random.Random(rng.random()), 100), radius))
        rows[name] = {
            "claims_symmetric": alg.symmetric,
            "symmetry_errors": failures,
            "symmetry_pairs": pairs,
            "symmetry_error_rate": failures / pairs if pairs else 0.0,
            "expansive_walls": expansive_walls(fn),
            "pillar_shadows_widen": pillar_shadows_widen(fn),
            "no_blind_corners": no_blind_corners(fn),
            "mean_visible": visible / calls if calls else 0.0,
            "us_per_call": statistics.median(times),
        }
    return {"width": WIDTH, "height": HEIGHT, "radius": radius, "seed": seed,
            "maps": [m[0] for m in maps], "algorithms": rows}


def format_table(data: dict) -> str:
    head = ("algorithm", "claims sym", "sym errors", "expansive", "pillars widen", "no blind",
            "mean visible", "us/call")
    lines = [head]
    for name, r in data["algorithms"].items():
        lines.append((name, "yes" if r["claims_symmetric"] else "no",
                      f"{100 * r['symmetry_error_rate']:.2f}% ({r['symmetry_errors']}/{r['symmetry_pairs']})",
                      *("yes" if r[k] else "no" for k in ("expansive_walls", "pillar_shadows_widen",
                                                          "no_blind_corners")),
                      f"{r['mean_visible']:.1f}", f"{r['us_per_call']:.0f}"))
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    out = [f"FOV comparison on {len(data['maps'])} maps of {data['width']}x{data['height']}, "
           f"radius {data['radius']}, seed {data['seed']}"]
    out += ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
            for row in lines]
    return "\n".join(out)


class _Parser(Parser):  # its own one line: the option's whole name all the same
    def error(self, message: str):  # type: ignore[override]
        # "argument --maps: --maps must be ..." reads better without argparse's prefix.
        head, sep, rest = message.partition(": ")
        if sep and head.startswith("argument ") and rest.startswith(head.split()[-1].split("/")[0]):
            message = rest
        raise ValueError(f"compare fov: {message}")


def _positive(flag: str, minimum: int, most: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be an integer, got {text!r}") from None
        if value < minimum or (most is not None and value > most):
            said = f"at least {minimum}" if most is None else f"{minimum}..{most}"
            raise argparse.ArgumentTypeError(f"{flag} must be {said}, got {value}")
        return value
    return parse


def compare_main(argv: list[str], only: list[str] | None = None) -> int:
    """``python -m engine compare fov [--json] [--maps N] [--seed S] [--radius R] [--plugin fov=NAME]
    [--plugins-dir DIR]``."""
    p = _Parser(prog="compare fov", add_help=True)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--maps", type=_positive("--maps", 1, limits.MAX_COMPARE_MAPS), default=1,
                   help=f"maps of each kind (default 1, at most {limits.MAX_COMPARE_MAPS})")
    p.add_argument("--seed", type=_positive("--seed", 0), default=0, help="seed of the maps (default 0)")
    p.add_argument("--radius", type=_positive("--radius", 1), default=16, help="light radius (default 16)")
    p.add_argument("--plugin", action="append", default=[], metavar="fov=NAME", help="compare only these")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="load every *.py in DIR as a plugin too (repeatable)")
    try:
        args = p.parse_args(argv)
        from engine.core.loading.loader import load_registry
        from engine.core.plugin.registry import PluginError

        registry = load_registry(plugins_dirs=args.plugins_dir)
        chosen = list(only or []) + [s.partition("=")[2] for s in args.plugin if s.startswith("fov=")]
        bad = [s for s in args.plugin if not s.startswith("fov=")]
        if bad:
            raise ValueError(f"compare fov: --plugin {bad[0]}: expected fov=NAME")
        for name in chosen:
            try:
                registry.choose("fov", name, via="compare fov")  # says so when a broken plugin has it
            except PluginError as e:
                raise ValueError(str(e)) from None
        algorithms = {n: a for n, a in registry.fov.items() if not chosen or n in chosen}
        for alg in algorithms.values():
            problem = reach_error(alg.name, alg.max_reach, (HEIGHT, WIDTH), args.radius)
            if problem:
                raise ValueError(f"compare fov: {problem}: use --radius {alg.max_reach} or less, or compare "
                                 f"the others without it (--plugin fov=NAME)")
    except ValueError as e:
        print(str(e).splitlines()[0], file=sys.stderr)
        return 2
    data = compare(algorithms, args.maps, args.seed, args.radius)
    print(json.dumps(data, indent=2) if args.json else format_table(data))
    return 0
