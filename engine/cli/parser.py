"""What every subcommand shares: the argument parser whose mistakes are one line, and the table of
subcommands (each a module of this package with a ``main(argv)``)."""

from __future__ import annotations

import argparse

from engine.core.errors import UsageError

SUBCOMMANDS = {"plugins": "plugins", "replay": "replay", "scores": "scores",
               # the developer's tools, apart from play (engine/cli/tools/)
               "compare": "tools.compare.command", "bench": "tools.bench.command",
               "catalog": "tools.catalog", "new-plugin": "tools.new_plugin", "sim": "tools.sim.command"}


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (and still exit status 2)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")
