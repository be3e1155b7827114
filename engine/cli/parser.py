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
    """argparse, but a usage mistake is one line (and still exit status 2), and an option is only
    ever its whole name: argparse's abbreviations read ``sim --plugin fov=x`` as ``--plugins-dir
    fov=x`` and said that folder was missing."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")
