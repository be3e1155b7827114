"""``python -m engine``: play, in a window or headless.

When to resume: a saved run is resumed when the command line asks for nothing else; ``--new``,
``--seed``, ``--map``, ``--size``, ``--game`` or ``--plugin`` describe a new run and start one. A
window with a saved run to resume opens on a title screen that asks instead. Resuming a run another
Undercroft is playing, or one saved in a folder that cannot be written, is one line and exit 2
(:func:`engine.persist.keeper.open_game`).
"""

from __future__ import annotations

import argparse
import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from engine.cli.parser import SUBCOMMANDS, Parser
from engine.core import gchold
from engine.core.errors import UsageError
from engine.core.model import rng as rngmod
from engine.core.play.setup import Setup, parse_size
from engine.core.plugin.isolation import interrupt
from engine.core.plugin.registry import CHOICE_KINDS
from engine.core.turn.keys import BadKey, parse_keys


def parser() -> Parser:
    p = Parser(prog="undercroft", description="Undercroft: a turn-based roguelike. Subcommands: "
               + ", ".join(SUBCOMMANDS) + " (python -m engine SUBCOMMAND --help).")
    p.add_argument("--headless", action="store_true", help="play without a window (tests, tools, --shot)")
    p.add_argument("--seed", help="the run's seed (an integer); default: the preset's, else random")
    p.add_argument("--game", help="the preset to play (python -m engine plugins lists them)")
    p.add_argument("--plugin", action="append", default=[], metavar="KIND=NAME",
                   help="choose an implementation: " + ", ".join(f"{kind}=NAME" for kind in CHOICE_KINDS)
                   + " (repeatable)")
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
    return Setup(args.game, seed, list(args.plugin), list(args.plugins_dir), args.map, size=size)


def wants_new(args: argparse.Namespace) -> bool:
    """The headless rule: anything that describes a run on the command line starts a new one."""
    return bool(args.new or args.seed is not None or args.map or args.game or args.plugin or args.size)


# options that name a file, and what: one given empty (--shot "") was taken as not given, and did nothing
FILE_OPTIONS = {"shot": "a PNG file to write", "record": "a file to write the replay to", "map": "a map file",
                "tileset": "a tileset's name or a PNG file"}


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(fix_negative_sizes(argv))
    for name, what in FILE_OPTIONS.items():
        if getattr(args, name) is not None and not getattr(args, name).strip():
            raise UsageError(f"--{name}: empty (expected {what})")
    if args.headless and not args.shot and args.tileset is not None:  # it would be read for nothing, unchecked
        raise UsageError("--tileset: --headless draws nothing without --shot FILE.png (add --shot, or drop --tileset)")
    try:
        keys = parse_keys(args.keys)
    except BadKey as e:
        raise UsageError(str(e)) from None
    setup = setup_from(args)
    resume = not wants_new(args)
    from engine.kit import jit

    # numba only where a kernel pays for its import: not on a small map (engine.kit.jit)
    with jit.deferred():
        if args.headless and not args.shot:
            return play_headless(setup, keys, args.dump, resume=resume, record=args.record, implied=not args.new)
        from engine.frontend.launch import run_window  # imports arcade: only for the window and --shot

        return run_window(setup, keys, headless=args.headless, shot=args.shot, seconds=args.seconds,
                          dump=args.dump, resume=resume, record=args.record, tileset=args.tileset)


def fix_negative_sizes(argv: Sequence[str]) -> list[str]:
    """``--size -1x5`` reads to argparse as a flag after ``--size``: join it so the size check
    itself says what is wrong with it."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg == "--size" and out[i + 1].startswith("-"):
            out[i : i + 2] = [f"--size={out[i + 1]}"]
            break
    return out


# SIGTERM (kill, a logout) and SIGHUP (the terminal closed) end a session as its keys running out do
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
INTERRUPTED = 130  # the exit status of a session the player stopped with Ctrl-C (128 + SIGINT)


@contextmanager
def stop_signals() -> Iterator[list[bool]]:
    """While inside, a stop signal only asks to stop (``[True, ...]``): the key in progress is
    played out, and the session ends with a save, as when the keys run out. So does the player's
    first Ctrl-C (``[True, True]``); a second one stops at once (the last save point stands). The
    handlers before are put back after (a test calling ``main`` keeps its own). Only the main
    thread may set them."""
    stopped = [False, False]  # asked to stop; by a Ctrl-C

    def on_stop(_number: int, _frame: object) -> None:
        stopped[0] = True  # between two bytecodes, maybe mid-turn: only ask

    def on_interrupt(_number: int, _frame: object) -> None:
        if stopped[1]:
            interrupt()  # asked already, and still going: the player means now
        stopped[0] = stopped[1] = True

    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {number: signal.signal(number, on_stop) for number in STOP_SIGNALS}
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield stopped
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def play_headless(setup: Setup, keys: list[str], dump: str | None, *, resume: bool, record: str | None,
                  implied: bool = False) -> int:
    """Play ``keys`` without a window. Saves, profile and replay work as in the window
    (:mod:`engine.persist.keeper`): the quit key saves the run and quits, and so does a stop
    signal, after the key in progress (exit status 0), or a Ctrl-C (exit status 130)."""
    from engine.core.play.session import Session
    from engine.core.play.snapshot import dumps
    from engine.persist import keeper

    with stop_signals() as stopped:  # before the slot is claimed: from then on a stop ends with a save
        game = keeper.open_game(setup, choice="continue" if resume else "new", record=record, implied=implied)
        gchold.release()  # the run is built: its keys play with the collector on
        try:
            session = Session(game)
            for token in keys:
                if stopped[0]:
                    break
                # a travel walks step by step, as in the window: a stop ends it after the step in
                # progress (its key heard with the steps it took: o:12), not after the whole walk
                outcome = session.press(token, step_by_step=True)
                while outcome.walking:
                    outcome = session.interrupt() if stopped[0] else session.step()
                if outcome.quit:
                    break
        except BaseException:
            keeper.close(game, failed=True)  # perhaps mid-turn (a chosen plugin failed): the last save point stands
            raise
        keeper.close(game)
    if dump == "json":
        print(dumps(game))
    return INTERRUPTED if stopped[1] else 0
