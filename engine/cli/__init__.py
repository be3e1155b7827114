"""The command line: one module per subcommand; ``main`` is the entry point."""

from engine.cli.main import main

__all__ = ["main"]
