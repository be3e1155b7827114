"""``python -m engine replay FILE``: play a replay back, headless (``--dump json`` prints exactly what
the original run's ``--dump json`` printed), as a picture (``--shot``), or in a window at
``--speed`` keys per second."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from engine.cli.parser import Parser
from engine.core.errors import UsageError
from engine.core.play.setup import load
from engine.core.play.snapshot import dumps
from engine.persist import files, replay


def main(argv: Sequence[str]) -> int:
    p = Parser(prog="undercroft replay", description="Play back a replay file (--record FILE, or "
               "last-run.replay.json in the user data folder).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--dump", choices=["json"], help="print the final state as one JSON object")
    p.add_argument("--shot", metavar="FILE.png", help="write a screenshot of the last frame")
    p.add_argument("--speed", type=float, default=10.0, help="keys per second in the window (default 10)")
    p.add_argument("--headless", action="store_true",
                   help="no window: play at once (implied by --dump, unless --seconds asks for the window)")
    p.add_argument("--seconds", type=float, help="close the window after N seconds (then --dump, if asked)")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR")
    args = p.parse_args(argv)
    if not 0 < args.speed < math.inf:  # nan and inf too: no key would come at its time
        raise UsageError(f"--speed {args.speed}: expected keys per second, a number > 0")
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"replay {args.file}: " + (f"{files.not_a_file(path) or 'not a file'} (expected a replay "
                                                    "file)" if path.exists() else "no such file"))
    data = replay.read(path)
    registry = load(args.plugins_dir)
    if data["game"] not in registry.games:
        raise UsageError(f"replay {args.file}: preset {data['game']!r} is not installed")
    diff = replay.differences(data, registry)
    if diff:
        files.warn(f"replay {args.file} was recorded with other versions: {diff}; it may play differently")
    watched = not (args.shot or args.headless or (args.dump and args.seconds is None))
    early = replay.verdict(args.file, data, None) if watched else None  # said before the window opens
    if early:
        files.warn(early)
    if args.shot or watched:
        from engine.frontend.replayer import play_in_window

        game = play_in_window(data, registry, shot=args.shot, speed=args.speed if watched else None,
                              seconds=args.seconds)
    else:
        game = replay.play(data, registry)
    # a watched replay may be closed before its end: only a replay played to the end is judged
    line = None if watched else replay.verdict(args.file, data, game)
    if line:
        files.warn(line)
    if args.dump == "json":
        print(dumps(game))
    return 0
