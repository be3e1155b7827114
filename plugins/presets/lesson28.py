"""The rules of the ``lesson28`` preset (the Godot roguelike lesson) where they differ from the
default game's: an enemy's touch kills (walking into one, or being walked onto), and caught or
escaped, a new dungeon starts at once: the run counter is all that survives. Escape quits without
keeping the dungeon (the lesson has no saves; the profile still counts the run)."""

from engine import ActionResult, NewRun, Ruleset, hookimpl


class Lesson28(Ruleset):
    name = "lesson28"
    saves = False  # Escape quits and ends the run; no run file is ever written

    def touch(self, game, mover, other):
        game.kill(game.player, other if mover == game.player else mover)  # caught: by whichever moved or was met
        return ActionResult.success()

    def player_died(self, game):
        return NewRun(game.rules.message("die"))  # caught: a new dungeon at once

    def restart(self, game):
        return None


@hookimpl
def register_rulesets(register):
    register(Lesson28())
