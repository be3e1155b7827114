"""The rulesets that play a previous release's preset flags (:mod:`engine.core.kinds.deprecations`).

A preset written for plugin API 1 said ``wall_bump_costs_turn = true`` where a preset now names a
ruleset; its moved keys become a legacy ruleset's flags, and its name (``legacy:`` then the flags
joined by ``+``, e.g. ``legacy:no-restart+wall-bump-takes-turn``) is all it takes to build it again,
so the same flags in two plugins are the same ruleset. Each flag does what the built-in presets'
rulesets do for the same rule (bunyip's wall bump and view, lesson28's touch and death).
"""

from __future__ import annotations

from engine.core.kinds.deprecations import LEGACY
from engine.core.model.requests import NewRun
from engine.core.turn.actions import ActionResult
from engine.core.turn.ruleset import Ruleset
from engine.core.turn.systems import Phase


def _bump_takes_turn(self, game, player):
    return ActionResult.success()  # the move fails, but the turn goes on


def _no_restart(self, game):
    return None


def _new_run_on_death(self, game):
    return NewRun(game.rules.message("die"))  # a new dungeon at once


def _touch_kills(self, game, mover, other):
    game.kill(game.player, other if mover == game.player else mover)
    return ActionResult.success()


# flag -> the Ruleset attributes it sets
FLAGS = {
    "wall-bump-takes-turn": {"bump_wall": _bump_takes_turn},
    "view-at-turn-end": {"view_phase": Phase.END_OF_TURN},
    "no-restart": {"restart": _no_restart},
    "new-run-on-death": {"player_died": _new_run_on_death},
    "touch-kills": {"touch": _touch_kills},
}


def legacy_ruleset(name: str | None) -> Ruleset | None:
    """The legacy ruleset called ``name``, or None when ``name`` is no legacy ruleset's."""
    if not name or not name.startswith(LEGACY):
        return None
    flags = name[len(LEGACY):].split("+")
    if not flags or any(flag not in FLAGS for flag in flags):
        return None
    attrs: dict[str, object] = {"name": name, "__doc__": f"A previous release's preset flags: {', '.join(flags)}."}
    for flag in flags:
        attrs.update(FLAGS[flag])
    return type("LegacyRuleset", (Ruleset,), attrs)()
