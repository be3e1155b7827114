"""The rules of the default game (``undercroft``) where they differ from the classic games the
presets reproduce: stepping on an item picks up gold alone; the rest waits for ``g`` (the classic
games, and the presets' rulesets, pick everything up by walking)."""

from engine import Ruleset, hookimpl


class Undercroft(Ruleset):
    name = "undercroft"

    def picks_up(self, game, kind):
        return kind.use == "pickup"


@hookimpl
def register_rulesets(register):
    register(Undercroft())
