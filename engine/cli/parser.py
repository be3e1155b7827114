"""What every subcommand shares: the argument parser whose mistakes are one line, and the table of
subcommands (each a module of this package with a ``main(argv)``)."""

from __future__ import annotations

import argparse

from engine.core.errors import UsageError

SUBCOMMANDS = {"plugins": "plugins", "compare": "compare", "bench": "bench", "replay": "replay",
               "catalog": "catalog", "scores": "scores", "new-plugin": "new_plugin",
               "sim": "sim"}


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (and still exit status 2)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")
