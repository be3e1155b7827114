"""The ``delver`` bot's plugin (``bot_delver``): its registration. The bot itself, what it does
concern by concern, is :mod:`engine.plugins.bots._delver_bot` (beside this module), imported when a
run first asks for a delver (``sim --bot delver``, a test): a game that is only played never pays
for its import (some 10 ms of every start). Its names (``Delver``, ``CONCERNS``, ``flee``, ...)
read through this module as they always did.
"""

from __future__ import annotations

import importlib

from engine import hookimpl

NAME = "delver"
_BOT = "engine.plugins.bots._delver_bot"


def start(fresh: bool = False):  # -> _delver_bot.Delver
    """A new delver, for one run (``fresh``: see ``_delver_bot.Delver``)."""
    return importlib.import_module(_BOT).Delver(fresh=fresh)


def __getattr__(name: str):
    """The bot module's names (``Delver``, ``CONCERNS``, ...), imported on first use."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        return getattr(importlib.import_module(_BOT), name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


@hookimpl
def register_bots(register):
    register(NAME, start, per_run=True,
             summary="explores, fights, picks up, wears, reads, zaps, throws and drinks, flees when outmatched, dives "
                     "for the Amulet and carries it up")
