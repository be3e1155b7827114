"""``python -m engine scores [--json]``: the profile: runs, deaths, escapes, the best runs."""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine.cli.parser import Parser
from engine.persist import profile


def main(argv: Sequence[str]) -> int:
    p = Parser(prog="undercroft scores", description="Show the profile: runs, deaths, escapes, the best ten runs.")
    p.add_argument("--json", action="store_true", help="print the profile as JSON")
    args = p.parse_args(argv)
    data = profile.load()
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True))
    else:
        print("\n".join(profile.lines(data)))
    return 0
