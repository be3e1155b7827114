"""The rules of the ``bunyip`` preset (the Go engine bunyip's roguelike example) where they differ
from the default game's: a wall bump still takes the turn (the goblins move), goblins act on what
the player saw at the end of the last turn, and there is no restart: one life, then Escape, which
quits without keeping the run (the example has no saves: its next launch is the same fixed map,
fresh)."""

from engine import ActionResult, Phase, Ruleset, hookimpl


class Bunyip(Ruleset):
    name = "bunyip"
    view_phase = Phase.END_OF_TURN  # the view is recomputed after the goblins have acted
    saves = False  # Escape quits and ends the run; no run file is ever written

    def bump_wall(self, game, player):
        return ActionResult.success()  # the move fails, but the turn goes on

    def restart(self, game):
        return None


@hookimpl
def register_rulesets(register):
    register(Bunyip())
