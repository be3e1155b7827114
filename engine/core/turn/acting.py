"""Acting: how an action is done, through the plugins' hooks, and how the monsters take their turns.

:class:`Acting` belongs to a :class:`engine.core.turn.game.Game` (``game.acting``): :meth:`Acting.perform`
does every action, the player's and the monsters', given the game API (an action is a plugin's as
often as the engine's); :meth:`Acting.monsters_act` is step 3's monster turns (see the turn's order
in engine.core.turn.game). It reads the game it is given (``state``, ``api``, ``isolation``,
``hooks``, ``registry``) and imports nothing that imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.model.components import Monster
from engine.core.model.scheduler import TURN_COST
from engine.core.plugin.isolation import PluginFailure, players, safe_repr
from engine.core.turn.actions import VETO, Action, ActionResult
from engine.core.turn.hearing import Audience
from engine.kit import limits

if TYPE_CHECKING:
    from engine.core.turn.run import Run


class Acting:
    """Performing actions and the monsters' turns, for one game (see the module doc)."""

    def __init__(self, game: Run) -> None:
        self.game = game
        self._behaviours: dict[str, tuple] = {}  # the behaviours met so far (see _behaviour)
        self._audiences: tuple[Audience, Audience] | None = None  # on_action's and after_action's (see perform)

    def perform(self, entity: int, action: Action) -> ActionResult:
        """Perform an action, following alternates (a bump becomes an attack). Before each, the
        plugins' ``on_action`` hooks may replace it with another action, or veto it (``VETO``: it
        does not happen, and the turn is spent all the same: the frozen do not get to act). When
        the last one has been performed, the ``after_action`` hooks hear it and its result. (A hook
        marked ``engine.hears``, or ``engine.player_only``, hears only the actions its mark names:
        :mod:`engine.core.turn.hearing`. When none of a hook's implementations hears an action, the
        hook caller is not asked at all: a crowd's plain step calls no hook.)"""
        game = self.game
        api, hooks = game.api, game.hooks
        before, after = self._audiences or self._listen()
        accept = self._accept
        for _ in range(limits.MAX_ALTERNATES):
            if not before.quiet(entity, action):
                answer = hooks.first("on_action", accept, api, entity, action, heard=before.heard)
                if answer is VETO:
                    return ActionResult.success()
                if answer is not None:
                    action = answer
            result = action.perform(api, entity)
            if result.alternate is None:  # it has resolved: who wants to know hears it now
                # (every after_action of the default game is the player's alone: a monster's, at once)
                if not (after.players_alone and entity != game.state.player) and not after.quiet(entity, action):
                    hooks.tell("after_action", api, entity, action, result, heard=after.heard)
                return result
            action = result.alternate
        raise RuntimeError(f"action chain too long at {action!r}")

    def _listen(self) -> tuple[Audience, Audience]:
        """The action hooks' audiences, made once per game (the plugins are all registered before)."""
        game, hooks = self.game, self.game.hooks
        made = self._audiences = (Audience(game, hooks.in_order("on_action")),
                                  Audience(game, hooks.in_order("after_action")))
        return made

    def _accept(self, plugin: str, where: str, answer: object) -> bool:
        """Whether an ``on_action`` hook's answer (not None) stands: VETO or an Action; else it is the
        plugin's failure, and the next hook is asked."""
        return answer is VETO or isinstance(answer, Action) or self.game.isolation.check(
            plugin, where, False, f"returned {safe_repr(answer)}, not an Action, VETO or None")

    def monsters_act(self) -> None:
        """Hand turns to monsters until the player has energy again (or is dead). A monster whose
        action does nothing still uses its turn: a monster never stalls the loop. Behaviours are
        plugins' code, given the game API and run under isolation. (This loop is the hot path with
        many awake monsters: it reads what it needs once, and guards the behaviour call inline.)"""
        game = self.game
        state, api, isolation = game.state, game.api, game.isolation
        scheduler, world, player = state.scheduler, state.world, state.player
        behaviours, declared = self._behaviours, game.declared
        while state.alive:
            entity = scheduler.next_ready()
            if entity is None or entity == player:
                break
            if declared:
                declared.pop(entity, None)  # what it declared last turn; its behaviour may say it again
            name = world.get(entity, Monster).behaviour
            fn, plugin, where = behaviours.get(name) or self._behaviour(name)
            action = None
            if plugin not in isolation.off:
                try:
                    action = fn(api, entity)
                except BaseException as e:  # noqa: BLE001 - the plugin's failure, reported by isolation
                    if players(e):  # the player's Ctrl-C; a plugin's own KeyboardInterrupt is its failure
                        raise
                    isolation.fail(plugin, where, e)
            cost = TURN_COST
            # the message is made only for a bad answer: a repr per monster turn is a crowd's cost
            if action is not None and (isinstance(action, Action) or isolation.check(
                    plugin, where, False, f"returned {safe_repr(action)}, not an Action or None")):
                try:
                    result = self.perform(entity, action)
                except BaseException as e:  # noqa: BLE001 - the action its behaviour chose (perhaps its own class) failed
                    if players(e) or isinstance(e, PluginFailure):
                        raise
                    isolation.fail(plugin, where, e)
                    result = None
                if result is not None and result.done:
                    cost = result.cost
            scheduler.spent(entity, cost)  # unless it died (or fell asleep) on its own turn

    def _behaviour(self, name: str) -> tuple:
        """A behaviour's function, its plugin and how a failure names it (made once per game)."""
        registry = self.game.registry
        plugin = registry.owners.get(("behaviours", name))
        entry = self._behaviours[name] = (registry.behaviours[name], plugin, f"behaviour {name!r}")
        return entry

