"""Command line: play (in a window or headless), and the tools: plugins, compare, bench.

Every mistake of the player's is one line on stderr and exit status 2; no traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from engine.core import rng as rngmod
from engine.core.keys import KeyError_, parse_keys
from engine.core.setup import Setup, UsageError, parse_size

SUBCOMMANDS = ("plugins", "compare", "bench", "replay", "catalog", "scores")


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (and still exit status 2)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def play_parser() -> Parser:
    p = Parser(prog="undercroft", description="Undercroft: a turn-based roguelike. Subcommands: "
               + ", ".join(SUBCOMMANDS) + " (python -m engine SUBCOMMAND --help).")
    p.add_argument("--headless", action="store_true", help="play without a window (tests, tools, --shot)")
    p.add_argument("--seed", help="the run's seed (an integer); default: the preset's, else random")
    p.add_argument("--game", help="the preset to play (python -m engine plugins lists them)")
    p.add_argument("--plugin", action="append", default=[], metavar="KIND=NAME",
                   help="choose an implementation: fov=NAME, generator=NAME, game=NAME (repeatable)")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="load every *.py in DIR as a plugin (repeatable)")
    p.add_argument("--map", metavar="FILE", help="play the first level from an ASCII map file")
    p.add_argument("--size", metavar="WxH", help="the map size in cells, instead of the preset's (e.g. 120x60)")
    p.add_argument("--keys", default="", help='keys to play, space-separated: "l l j > q", "kp5", "esc"')
    p.add_argument("--dump", choices=["json"], help="print the final state as one JSON object")
    p.add_argument("--shot", metavar="FILE.png", help="write a screenshot after the first frame / the keys")
    p.add_argument("--seconds", type=float, help="quit the window after this many seconds")
    p.add_argument("--tileset", metavar="NAME|FILE.png",
                   help="draw the map with a tileset (glyphs, kenney) or a CP437 tilesheet PNG (16x16 glyphs)")
    p.add_argument("--new", action="store_true",
                   help="start a new run even when one is saved (--seed, --map, --size, --game, --plugin do too)")
    p.add_argument("--record", metavar="FILE",
                   help="also write the run's replay to FILE (play it: python -m engine replay FILE)")
    return p


def setup_from(args: argparse.Namespace) -> Setup:
    seed = None
    if args.seed is not None:
        try:
            seed = rngmod.parse_seed(args.seed)
        except ValueError as e:
            raise UsageError(str(e)) from None
    size = parse_size(args.size) if args.size is not None else None
    return Setup(args.game, seed, list(args.plugin), list(args.plugins_dir), args.map, size=size,
                 new_run=args.new, record=args.record)


def play(argv: Sequence[str]) -> int:
    args = play_parser().parse_args(argv)
    try:
        keys = parse_keys(args.keys)
    except KeyError_ as e:
        raise UsageError(str(e)) from None
    setup = setup_from(args)
    if args.headless and not args.shot:
        return play_headless(setup, keys, args.dump)
    from engine.frontend.launch import run_window  # imports arcade: only for the window and --shot

    return run_window(setup, keys, headless=args.headless, shot=args.shot, seconds=args.seconds, dump=args.dump,
                      tileset=args.tileset)


def play_headless(setup: Setup, keys: list[str], dump: str | None) -> int:
    """Play ``keys`` without a window. Saves, profile and replay work as in the window (engine.persist.keeper):
    ``esc`` saves the run and quits, and a saved run is resumed unless the command line asks for a
    new one (--new, --seed, --map, --game, --plugin)."""
    from engine.core.snapshot import dumps
    from engine.persist import keeper

    game = keeper.open_game(setup)
    for token in keys:
        game.press(token)
        if game.quit_requested:
            break
    keeper.close(game)
    if dump == "json":
        print(dumps(game))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in SUBCOMMANDS:
            from engine.cli import tools

            return tools.run(argv[0], argv[1:])
        return play(argv)
    except UsageError as e:
        print(f"undercroft: {e}" if not str(e).startswith("undercroft") else str(e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os._exit(0)
