"""What differs between presets in how a turn goes: a small rule object per preset.

A preset names a ruleset (``ruleset = "bunyip"`` in its TOML); a plugin registers it through
``register_rulesets(register)`` with ``register(MyRuleset())``. :class:`Ruleset` itself is the
default game's rules; a preset's ruleset subclasses it and overrides only what differs, so a new
preset adds a plugin, not fields to ``GameRules`` or flags to the core.

Each method is asked at one point of a turn (see :mod:`engine.core.turn.game`) and answers with an
:class:`~engine.core.turn.actions.ActionResult` or a :class:`~engine.core.turn.actions.Request` for the turn
loop to apply; none of them starts a level or a run itself. ``spawn_cell`` is asked while a level is
populated (:mod:`engine.core.turn.placement`), before the level is played. Every method is given
the game API (``engine.GameAPI``) as ``game``, as every plugin callable is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core.model.requests import NewRun, Quit, Request
from engine.core.turn.actions import ActionResult, Attack
from engine.core.turn.systems import Phase

if TYPE_CHECKING:
    import random

    from engine.core.kinds.content import ItemKind
    from engine.core.turn.api import GameAPI
    from engine.kit.mapgen import Level


class Ruleset:
    """The default rules. ``name`` is what a preset's ``ruleset`` key refers to.

    ``view_phase``: when the player's view is recomputed after a move: right after the player's
    action (``Phase.AFTER_PLAYER``: monsters act on what the player sees now) or at the end of the
    turn (``Phase.END_OF_TURN``: they act on what the player saw last turn).

    ``saves``: whether the run is saved, to be resumed at the next start (the quit key saves it, a
    crash resumes from its last save point). A preset whose source has no saves says False: no run
    file is ever written for it, its run ends with its session however that ends, and the quit key
    ends it (the profile counts a quit).
    """

    name = "standard"
    view_phase = Phase.AFTER_PLAYER
    saves = True

    def bump_wall(self, game: GameAPI, player: int) -> ActionResult:
        """The player walked into a wall or the map's edge: by default nothing happens, no time passes."""
        return ActionResult.not_done()

    def touch(self, game: GameAPI, mover: int, other: int) -> ActionResult:
        """The player and a monster meet (either one moving onto the other): by default an attack."""
        return ActionResult.instead(Attack(other))

    def player_died(self, game: GameAPI) -> Request | None:
        """The player died this turn: by default the death screen (the ``die`` message), where
        ``restart`` may start a new run."""
        game.log(game.rules.message("die"))
        return None

    def restart(self, game: GameAPI) -> Request | None:
        """The restart key after death: a new run, or None where the preset has no restart."""
        return NewRun(game.rules.message("new_run"))

    def reached_exit(self, game: GameAPI) -> Request:
        """The player stepped on the level's exit (a preset's goal): the next run starts."""
        return NewRun(game.rules.message("exit"), escaped=True)

    def picks_up(self, game: GameAPI, kind: ItemKind) -> bool:
        """Whether stepping onto an item of ``kind`` picks it up: by default everything is (the
        classic games); a game with a pick-up key picks up gold alone this way."""
        return True

    def keeps_levels(self, game: GameAPI) -> bool:
        """Whether levels left are kept, to be found as they were, with stairs up on each (see
        :mod:`engine.core.turn.levels`): by default not (the classic games make each level anew)."""
        return False

    def climb_out(self, game: GameAPI) -> ActionResult:
        """The player climbs the stairs up of the first level (a game that keeps its levels): what
        it means to leave the dungeon. By default it cannot be done."""
        game.log(game.rules.message("cannot_leave"))
        return ActionResult.not_done()

    def escape(self, game: GameAPI) -> Request:
        """The quit key: save the run and stop (the next start resumes it); in a preset without
        saves, stop and end the run."""
        return Quit(save=self.saves)

    def spawn_cell(self, game: GameAPI, level: Level, rng: random.Random,
                   cells: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
        """One try at a cell for a monster or an item of the preset's spawn tables: by default one
        of ``cells`` (the level's candidate cells, in scan order: floor, or room floor with
        ``place_in_rooms``) picked uniformly, so a big room gets more than a small one. The caller
        (:func:`engine.core.turn.placement.populate`) refuses a cell already taken, the start, the goal
        and, for a monster, the start room, and tries again; None is a try that found nothing.
        Only ``rng`` may be used: it is the level's spawn stream."""
        return cells[rng.randrange(len(cells))]
