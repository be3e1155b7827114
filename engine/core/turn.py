"""One turn: a key becomes an action; the player's action is resolved; then the scheduler hands
turns to the monsters until the player has a full turn of energy again.

The order matters and is the game's contract:

1. A key that means nothing here, or an action that is not done (a wall bump where the preset
   says so, drinking with no potion), costs no time: no monster moves.
2. An action that changes the level or the run (stairs, an exit, a restart) ends the turn there:
   the player arrives with a full turn and nobody on the new level moves first.
3. Otherwise the player spends the action's energy and the monsters act, each dead monster having
   been cleared when it died; the loop stops the moment the player dies.
4. A preset with ``fov_timing = "turn_end"`` recomputes the view now; one with
   ``on_death = "new_run"`` starts the next run now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.actions import Action, ActionResult
from engine.core.components import Monster
from engine.core.keys import command_for
from engine.core.scheduler import TURN_COST

if TYPE_CHECKING:
    from engine.core.game import Game

MAX_ALTERNATES = 8  # a bump becomes an attack becomes ...: a longer chain is a plugin's bug


def perform(game: Game, entity: int, action: Action) -> ActionResult:
    """Perform an action, following alternates (a bump becomes an attack)."""
    for _ in range(MAX_ALTERNATES):
        result = action.perform(game, entity)
        if result.alternate is None:
            return result
        action = result.alternate
    raise RuntimeError(f"action chain too long at {action!r}")


def handle_key(game: Game, token: str) -> bool:
    """Play one key token; returns whether anything changed."""
    game.new_in_view = False
    command = command_for(game.rules, token)
    if command is None:
        return False
    if command.name == "quit":
        game.quit_requested = True
        game.emit("quit")
        return True
    if not game.alive:
        if command.name == "restart" and game.rules.restart:
            game.new_run(game.rules.message("new_run"))
            return True
        return False
    action = command.action()
    if action is None:
        return False
    before, run, epoch = len(game.messages), game.run, game.epoch
    result = perform(game, game.player, action)
    if not result.done:
        return len(game.messages) != before
    if game.run == run:
        game.turn += 1
    if game.epoch != epoch:
        return True
    game.scheduler.spend(game.player, result.cost)
    run_monsters(game)
    if game.rules.fov_timing == "turn_end" and game.alive:
        game.update_fov()
    if not game.alive and game.rules.on_death == "new_run":
        game.new_run(game.rules.message("die"))
    return True


def run_monsters(game: Game) -> None:
    """Hand turns to monsters until the player has energy again (or is dead)."""
    while game.alive:
        entity = game.scheduler.next_ready()
        if entity is None or entity == game.player:
            break
        behaviour = game.registry.behaviours[game.world.get(entity, Monster).behaviour]
        action = behaviour(game, entity)
        result = perform(game, entity, action) if action is not None else ActionResult.success()
        if entity in game.scheduler:
            # an action that did nothing still uses the turn: a monster never stalls the loop
            game.scheduler.spend(entity, result.cost if result.done else TURN_COST)
    if game.alive:
        game.registry.call("on_turn_end", game=game)
