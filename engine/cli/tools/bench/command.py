"""``python -m engine bench``: figures, not pass/fail. Each is a median of CPU time (never the wall
clock) over repeats, with its spread; what is compared runs alternated in one process (A B A B ...),
and a ratio is the median of the rounds' own ratios, so ratios hold on a loaded shared machine.
Each figure stands beside its target, and a row with a target says whether it is met, or by how
much it is missed. ``--markdown`` prints the summary table the README's Performance section is.
(How each group measures: engine.cli.tools.timing and each group's module.)"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence


def _optional(module: str, repeats: int, **kwargs) -> list[dict]:
    import importlib

    try:
        mod = importlib.import_module(f"engine.{module}")
    except ImportError:
        return []
    return mod.bench_figures(repeats, **kwargs)


# --plugin KIND=NAME: the kinds the bench times per plugin, and the registry table of each
FILTERS = {"fov": "fov", "generator": "generators", "path": "pathfinders"}


# the bench group that times each kind
KIND_GROUPS = {"fov": "fov", "generator": "gen", "path": "path"}


def _replaced(registry, kind: str) -> str | None:
    """The built-in a plugin of ``kind`` would replace: the default game's own choice."""
    from engine.core.play.setup import default_game

    try:
        rules = default_game(registry)
    except Exception:  # noqa: BLE001 - no default game: nothing to stand beside
        return None
    if kind == "fov":
        return rules.fov
    if kind == "generator":
        return rules.generator_for(1)
    return rules.pathfinder or (min(registry.pathfinders) if registry.pathfinders else None)


def filtered(registry, specs: Sequence[str]):
    """``registry`` with, in each kind ``--plugin KIND=NAME`` names, only the plugins named and the
    built-in each would replace (the default game's own choice, timed beside them, so the rows
    compare like with like); the other kinds whole. Every name checked to be registered."""
    from engine.core.errors import UsageError
    from engine.core.plugin.registry import PluginError

    chosen: dict[str, set[str]] = {}
    for spec in specs:
        kind, _, name = spec.partition("=")
        if kind not in FILTERS or not name:
            raise UsageError(f"bench: --plugin {spec}: expected KIND=NAME with KIND one of {', '.join(FILTERS)}")
        try:
            registry.choose(kind, name, via=f"bench: --plugin {spec}")
        except PluginError as e:
            raise UsageError(str(e)) from None
        names = chosen.setdefault(FILTERS[kind], set())
        names.add(name)
        beside = _replaced(registry, kind)
        if beside is not None and beside in getattr(registry, FILTERS[kind]):
            names.add(beside)
    tables = {table: {n: v for n, v in getattr(registry, table).items() if n in names}
              for table, names in chosen.items()}
    return dataclasses.replace(registry, **tables)


GROUPS = ["turn", "bot", "fov", "path", "gen", "window", "start", "compile"]


def _fov(repeats: int, quick: bool, registry) -> list[dict]:
    from engine.cli.tools.bench import fov as bench_fov

    return bench_fov.overhead_figures(repeats, registry) + bench_fov.fov_figures(repeats, quick, registry)


def _compile(quick: bool) -> list[dict]:
    from engine.cli.tools.bench import compile as bench_compile

    return bench_compile.compile_figures(1 if quick else 3)


def _gen(repeats: int, quick: bool, registry) -> list[dict]:
    from engine.cli.tools.compare import generators as compare_gen

    return compare_gen.bench_figures(repeats, registry, quick=quick)


def _print_table(rows: list[dict]) -> None:
    print(f"{'figure':<58} {'median':>12} {'spread (min-max)':>19}  {'libtcod':>9} {'ratio':>6} {'(spread)':>11}"
          f"  {'Map':>8} {'ratio':>6}  target")
    for r in rows:
        tcod = f"{r['tcod']:.1f}" if r.get("tcod") is not None else "-"
        ratio = f"{r['ratio']:.2f}x" if r.get("ratio") is not None else "-"
        ratio_spread = f"{r['ratio_spread'][0]:.2f}-{r['ratio_spread'][1]:.2f}" if r.get("ratio_spread") else ""
        tmap = f"{r['tcod_map']:.1f}" if r.get("tcod_map") is not None else "-"
        ratio_map = f"{r['ratio_map']:.2f}x" if r.get("ratio_map") is not None else "-"
        value = f"{r['value']:>9.3f} {r['unit']:<2}" if r["value"] is not None else f"{'-':>12}"
        spread = r.get("spread")
        spread = f"{spread[0]:.3f}-{spread[1]:.3f}" if spread else ""
        print(f"{r['name']:<58} {value} {spread:>19}  {tcod:>9} {ratio:>6} {ratio_spread:>11}  {tmap:>8} {ratio_map:>6}"
              f"  {r.get('target', '')}{_verdict(r)}")


def _verdict(row: dict) -> str:
    """The row's verdict on its target and its note, when it has them."""
    text = f" [{row['verdict']}]" if row.get("verdict") else ""
    return text + (f"; {row['note']}" if row.get("note") else "")


def main(argv: Sequence[str]) -> int:
    from pathlib import Path

    from engine.cli.parser import Parser
    from engine.cli.tools.bench import plot as bench_plot

    p = Parser(prog="undercroft bench", description=__doc__)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--markdown", action="store_true",
                   help="print the summary table (Markdown) the README's Performance section is made of")
    p.add_argument("--from-json", metavar="FILE",
                   help="measure nothing: read the rows of an earlier --json run (with --markdown: its summary)")
    p.add_argument("--quick", action="store_true", help="fewer repeats and no 1000x1000 maps (a smoke test)")
    p.add_argument("--only", choices=GROUPS, action="append",
                   help="run only these groups (repeatable; 'bot' plays 20 delver runs, as sim does; 'compile' "
                        "times numba's first compile)")
    p.add_argument("--plot", metavar="FILE.png", help="also chart the FOV figures (needs matplotlib: extra 'plot')")
    p.add_argument("--plugin", action="append", default=[], metavar="KIND=NAME",
                   help="time only these plugins, beside the built-in each would replace (the default game's): "
                        "fov=NAME, generator=NAME, path=NAME (repeatable); only their groups unless --only says")
    args = p.parse_args(argv)
    if args.from_json:
        return _from_json(args.from_json, args.markdown)
    from engine.core.play.setup import load

    everything = load()  # every plugin, installed ones included (a broken one said once, here)
    registry = filtered(everything, args.plugin)
    repeats = 3 if args.quick else 7
    # with --plugin, only the groups that time the kinds named (not the turn, the window, the rest)
    named = [KIND_GROUPS[spec.partition("=")[0]] for spec in args.plugin]
    groups = args.only or [g for g in GROUPS if g in named] or GROUPS
    if args.plot:
        if not bench_plot.available():
            print(bench_plot.MISSING, file=sys.stderr)
            return 2
        if "fov" not in groups:
            print("bench: --plot charts the FOV figures: add --only fov", file=sys.stderr)
            return 2
        problem = bench_plot.target_problem(args.plot)  # before the minutes of measuring, not after
        if problem:
            print(f"bench: {problem}", file=sys.stderr)
            return 2
    rows: list[dict] = []
    if "turn" in groups:
        from engine.cli.tools.bench.turn import turn_figures

        rows += turn_figures(repeats, 50 if args.quick else 200)  # the built-in game: installs vary
    if "bot" in groups:
        from engine.cli.tools.bench import botrun

        rows += botrun.bench_figures(args.quick)  # the built-in game: the sim's seeds and outcomes
    if "fov" in groups:
        rows += _fov(repeats, args.quick, registry)
    if "path" in groups:
        rows += _optional("cli.tools.bench.path", repeats, registry=registry)
        if not args.plugin:  # explore uses the default game's pathfinder: not a plugin comparison
            from engine.cli.tools.bench import explore as bench_explore

            rows += bench_explore.bench_figures(repeats)
    if "gen" in groups:
        rows += _gen(repeats, args.quick, registry)
    if "window" in groups:
        rows += _optional("frontend.bench", repeats)
        from engine.cli.tools.bench import shot as bench_shot

        rows += bench_shot.bench_figures(1 if args.quick else 3, quick=args.quick)
    if "start" in groups:
        from engine.cli.tools.bench import start as bench_start

        rows += bench_start.start_figures(2 if args.quick else repeats)
    if "compile" in groups:
        rows += _compile(args.quick)
    if args.plot:
        try:
            bench_plot.plot(rows, Path(args.plot))
        except (OSError, ValueError) as e:
            print(f"bench: --plot: cannot write {args.plot}: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if args.markdown:
        from engine.cli.tools.bench import summary as bench_summary

        print(bench_summary.markdown(rows))
        return 0
    _print_table(rows)
    return 0


def _from_json(path: str, markdown: bool) -> int:
    """Print the table (or ``markdown``: the summary) of the rows an earlier ``--json`` run wrote."""
    from engine.cli.tools.bench import summary as bench_summary
    from engine.persist import jsonfile

    try:
        rows = jsonfile.read_document(path)  # a regular file of a few kB: never a FIFO's endless read
        if not isinstance(rows, list) or not all(isinstance(r, dict) and "name" in r for r in rows):
            raise ValueError("expected the list of rows bench --json prints")
    except (OSError, ValueError) as e:  # jsonfile.BadFile is a ValueError
        print(f"bench: --from-json {path}: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 2
    if markdown:
        print(bench_summary.markdown(rows))
    else:
        _print_table(rows)
    return 0
