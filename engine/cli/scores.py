"""``python -m engine scores``: the profile's counters and best runs, every preset's or one's.

Plain ``scores`` prints the totals over every preset, then each preset's own table (runs begun,
deaths, quits, escapes, deepest depth, gold, its best ten runs). ``--game NAME`` prints that preset's table
alone (lesson28's run counter is its ``Runs``); ``--json`` prints the same as JSON: the whole profile,
or with ``--game`` that preset's table. A preset that is installed but was never played shows an
empty table; a name that is neither played nor installed is one line and exit status 2.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine.cli.parser import Parser
from engine.core.errors import UsageError
from engine.persist import profile


def main(argv: Sequence[str]) -> int:
    p = Parser(prog="undercroft scores", description="Show the profile: runs, deaths, quits, escapes, the best ten "
               "runs, for every preset or one.")
    p.add_argument("--game", metavar="NAME", help="show only this preset's own table")
    p.add_argument("--json", action="store_true", help="print the profile (or the preset's table) as JSON")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="also know the presets of the plugins in DIR (for --game)")
    args = p.parse_args(list(argv))
    data = profile.load()
    if args.game is not None and args.game not in data["presets"]:
        from engine.core.play.setup import load

        installed = sorted(load(args.plugins_dir).games)
        if args.game not in installed:
            valid = ", ".join(sorted({*installed, *data["presets"]}))
            raise UsageError(f"scores --game {args.game!r}: no such preset (valid: {valid})")
    if args.json:
        shown = data if args.game is None else data["presets"].get(args.game) or profile.table()
        print(json.dumps(shown, indent=2, sort_keys=True))
    else:
        print("\n".join(profile.lines(data, args.game)))
    return 0
