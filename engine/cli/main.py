"""The command line's entry point: ``python -m engine [SUBCOMMAND] ...``.

Each subcommand is a module of this package with a ``main(argv)``; playing is :mod:`engine.cli.play`.
Every mistake of the player's is one line on stderr and exit status 2; no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from engine.core.errors import UsageError

# subcommand -> the module that runs it (engine.cli.<module>.main)
SUBCOMMANDS = {"plugins": "tools", "compare": "tools", "bench": "bench", "replay": "replay",
               "catalog": "catalog", "scores": "tools"}


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (and still exit status 2)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in SUBCOMMANDS:
            module = importlib.import_module(f"engine.cli.{SUBCOMMANDS[argv[0]]}")
            if module.__name__.endswith(".tools"):
                return module.run(argv[0], argv[1:])
            return module.main(argv[1:])
        from engine.cli import play

        return play.main(argv)
    except UsageError as e:
        print(f"undercroft: {e}" if not str(e).startswith("undercroft") else str(e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os._exit(0)
