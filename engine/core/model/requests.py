"""Requests: changes of level or run (and the quit) that only the turn loop may make.

An action or a ruleset asks for one in its result; :class:`engine.core.turn.game.Game` applies it at
the end of the turn. Nothing else ever starts a level or a run.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Request:
    """Something only the turn loop may do."""


@dataclass(frozen=True)
class ChangeLevel(Request):
    """Go to ``depth``: the new level's monsters do not move before the player's first turn.
    ``up``: the player climbs, and arrives on the stairs down of the level above (else on the
    level's start, where its stairs up are in a game that has them). ``fall``: the player falls
    (a chasm, a trapdoor) and lands on a random free floor cell of the level, one reachable from
    its start, drawn from the run's stream ``fall``."""

    depth: int
    up: bool = False
    fall: bool = False


@dataclass(frozen=True)
class Won(Request):
    """The run is won (the ruleset says how: the Amulet carried out): it ends, the player alive."""

    note: str = ""


@dataclass(frozen=True)
class NewRun(Request):
    """End this run and start the next (``escaped``: the player reached the exit); ``note`` is
    logged in the new run after its welcome."""

    note: str = ""
    escaped: bool = False


@dataclass(frozen=True)
class Quit(Request):
    """Stop playing; ``save``: keep the run to resume (else it ends here, as in the classic games)."""

    save: bool = True
