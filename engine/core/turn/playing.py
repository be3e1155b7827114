"""A run being played, as type checkers see it: :class:`Playing`.

A :class:`engine.core.turn.run.Run`'s ``state`` is None until the game starts or resumes, and its
``sight`` is given by the game; while a run plays both are set. Code called only then (the game
API's parts) names its run ``Playing``, so a type checker reads ``run.state`` and ``run.sight``
without a check that would cost on the hot paths. Never made: a Run is cast to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.turn.run import Run

if TYPE_CHECKING:
    from engine.core.model.state import RunState
    from engine.core.turn.sight import Sight


class Playing(Run):
    """A run while it plays: its state is set, and its sight given."""

    state: RunState
    sight: Sight
