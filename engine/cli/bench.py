"""``python -m engine bench``: figures, not pass/fail. Each is a median over repeats, measured side
by side in one run, so ratios hold even on a noisy shared machine."""

from __future__ import annotations

import dataclasses
import json
import random
import statistics
import time
from collections.abc import Sequence

from engine.core.components import Actor, Fighter, Monster
from engine.core.game import Game
from engine.core.keys import DEFAULT_KEYS
from engine.core.setup import default_game, load

MOVES = [t for t, c in DEFAULT_KEYS.items() if c.startswith("move") or c == "wait"]


def _per_turn(game: Game, n: int, keys: random.Random) -> float:
    """Seconds per player turn over ``n`` random move keys. Wall bumps take no turn but their
    time is counted, so this errs on the slow side. The player cannot die: the bench is not
    about the rules."""
    fighter = game.world.get(game.player, Fighter)
    turn0 = game.turn
    start = time.perf_counter()
    for _ in range(n):
        fighter.hp = fighter.max_hp
        game.press(keys.choice(MOVES))
    return (time.perf_counter() - start) / max(1, game.turn - turn0)


def turn_figures(repeats: int = 7, turns: int = 200, registry=None) -> list[dict]:
    """Engine time per player turn: the default game at 80x43, depth 5; and a 250x250 level of 500
    monsters with 10, 100 and 500 of them awake (sleeping monsters cost nothing; awake ones are
    what the scheduler pays for, linearly)."""
    registry = registry or load()
    rules = default_game(registry)
    crowd = dataclasses.replace(rules, width=250, height=250, monster_count=(500, 0, 0, 0),
                                monster_free_start_room=False)
    cases = [
        ("turn 80x43 depth 5", rules, 5, 0, "< 1 ms"),
        ("turn 250x250, 500 monsters, 10 awake", crowd, 1, 10, "< 5 ms"),
        ("turn 250x250, 500 monsters, 100 awake", crowd, 1, 100, "a figure"),
        ("turn 250x250, 500 monsters, 500 awake", crowd, 1, 500, "< 5 ms; 500/10 < 15x"),
    ]
    rows = []
    for name, case_rules, depth, awake, target in cases:
        samples = []
        for r in range(repeats):
            game = Game(registry, case_rules, seed=1000 + r).start()
            if depth != 1:
                game.enter_level(depth)
            game.world.get(game.player, Fighter).max_hp = 10**9
            if awake:
                sleeping = sorted(e for e, m in game.world.query(Monster) if not m.awake)
                for e in random.Random(r).sample(sleeping, min(awake, len(sleeping))):
                    game.world.get(e, Monster).awake = True
                    game.scheduler.add(e, game.world.get(e, Actor).speed)
            samples.append(_per_turn(game, turns, random.Random(r)) * 1000)
            game.close()
        rows.append({"name": name, "value": statistics.median(samples), "unit": "ms", "target": target,
                     "awake": awake})
    by_awake = {row["awake"]: row["value"] for row in rows if row["awake"]}
    if by_awake.get(10):
        rows.append({"name": "  ratio 500 awake / 10 awake", "value": by_awake[500] / by_awake[10], "unit": "x",
                     "target": "< 15x"})
    return rows


def _optional(module: str, repeats: int, **kwargs) -> list[dict]:
    import importlib

    try:
        mod = importlib.import_module(f"engine.{module}")
    except ImportError:
        return []
    return mod.bench_figures(repeats, **kwargs)


# --plugin KIND=NAME: the kinds the bench times per plugin, and the registry table of each
FILTERS = {"fov": "fov", "generator": "generators", "path": "pathfinders"}


def filtered(registry, specs: Sequence[str]):
    """``registry`` with only the plugins ``--plugin KIND=NAME`` names in the kinds named (the
    other kinds whole); every name checked to be registered."""
    from engine.core.errors import UsageError
    from engine.core.registry import PluginError

    chosen: dict[str, set[str]] = {}
    for spec in specs:
        kind, _, name = spec.partition("=")
        if kind not in FILTERS or not name:
            raise UsageError(f"bench: --plugin {spec}: expected KIND=NAME with KIND one of {', '.join(FILTERS)}")
        try:
            registry.choose(kind, name, via=f"bench: --plugin {spec}")
        except PluginError as e:
            raise UsageError(str(e)) from None
        chosen.setdefault(FILTERS[kind], set()).add(name)
    tables = {table: {n: v for n, v in getattr(registry, table).items() if n in names}
              for table, names in chosen.items()}
    return dataclasses.replace(registry, **tables)


def main(argv: Sequence[str]) -> int:
    from engine.cli.parser import Parser

    p = Parser(prog="undercroft bench", description=__doc__)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--quick", action="store_true", help="fewer repeats (for a smoke test)")
    p.add_argument("--only", choices=["turn", "fov", "path", "gen", "window"], action="append",
                   help="run only these groups (repeatable)")
    p.add_argument("--plugin", action="append", default=[], metavar="KIND=NAME",
                   help="time only these plugins of their kind: fov=NAME, generator=NAME, path=NAME (repeatable)")
    args = p.parse_args(argv)
    everything = load()  # every plugin, installed ones included (a broken one said once, here)
    registry = filtered(everything, args.plugin)
    repeats = 3 if args.quick else 7
    groups = args.only or ["turn", "fov", "path", "gen", "window"]
    rows: list[dict] = []
    if "turn" in groups:
        rows += turn_figures(repeats, 50 if args.quick else 200, everything)
    if "fov" in groups:
        rows += _optional("cli.compare_fov", repeats, registry=registry)
    if "path" in groups:
        rows += _optional("cli.bench_path", repeats, registry=registry)
    if "gen" in groups:
        rows += _optional("cli.compare_gen", repeats, registry=registry)
    if "window" in groups:
        rows += _optional("frontend.bench", repeats)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'figure':<44} {'median':>12}  {'libtcod':>10} {'ratio':>7}  target")
    for r in rows:
        tcod = f"{r['tcod']:.1f}" if r.get("tcod") is not None else "-"
        ratio = f"{r['ratio']:.2f}x" if r.get("ratio") is not None else "-"
        print(f"{r['name']:<44} {r['value']:>9.3f} {r['unit']:<2}  {tcod:>10} {ratio:>7}  {r.get('target', '')}")
    return 0
