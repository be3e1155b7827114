"""The command line's entry point: ``python -m engine [SUBCOMMAND] ...``.

Each subcommand is a module of this package with a ``main(argv)`` (:data:`SUBCOMMANDS`); playing is
:mod:`engine.cli.play`. Every mistake of the player's is one line on stderr and exit status 2; no
traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from engine.cli.parser import SUBCOMMANDS
from engine.core import gchold
from engine.core.errors import UsageError, show_traceback
from engine.core.plugin.isolation import PluginFailure
from engine.core.plugin.registry import PluginError


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None and not (sys.argv[1:2] and sys.argv[1] in SUBCOMMANDS):
        # the program playing: no collection until its first frame (engine.core.gchold)
        gchold.hold()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if os.environ.get("UNDERCROFT_HOME") == "":  # set to keep a session apart, it would have used the real one
            raise UsageError("UNDERCROFT_HOME is set but empty: set it to a folder, or unset it for the usual "
                             "data folder")
        name = SUBCOMMANDS.get(argv[0]) if argv else None
        # imported when asked for: playing never pays for the tools' imports
        module = importlib.import_module(f"engine.cli.{name or 'play'}")
        return module.main(argv[1:] if name else argv)
    except (UsageError, PluginFailure, PluginError) as e:  # PluginError: a plugin's result refused (BadResult)
        show_traceback(e)  # UNDERCROFT_DEBUG=1: the traceback too
        print(f"undercroft: {e}" if not str(e).startswith("undercroft") else str(e), file=sys.stderr)
        return 2
    except OSError as e:
        if e.filename is None or isinstance(e, BrokenPipeError):
            raise
        # a path of the player's that a check looked at and the system refused (a name too long for
        # it, a loop of links): whichever check met it first, one line naming the path
        show_traceback(e)
        name = os.fsdecode(e.filename)
        shown = name if len(name) <= 100 else f"{name[:60]}...{name[-30:]} ({len(name)} characters)"
        print(f"undercroft: {shown}: {e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os._exit(0)
    finally:
        gchold.release()  # the play ended before its first frame (an error, --help)
