"""Making a run's state and entering its levels: what the turn loop calls to apply a change.

Order matters when a level is entered, and is kept: everything of the old level goes (the player
stays), the new level is made from its own stream (``level:<depth>``, so depth 3 is the same
whether or not depths 1 and 2 were played), the player is put on its start, the level is populated
from the stream ``spawn:<depth>``, the view is computed (waking whoever notices the player), and
only then does ``on_level_generated`` fire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import rng as rngmod
from engine.core.components import Actor, Fighter, Inventory, Player, Position
from engine.core.generate import run_generator
from engine.core.looks import player_look
from engine.core.placement import populate
from engine.core.scheduler import TURN_COST
from engine.core.state import MessageLog, RunState, Streams, View
from engine.core.world import World
from engine.kit.mapgen import Level

if TYPE_CHECKING:
    from engine.core.run import Run


def new_state(game: Run, seed: int, run: int) -> RunState:
    """A run before its first level: a new world with a fresh player, who acts first."""
    p = game.rules.player
    world = World()
    speed = int(p.get("speed", 100))
    player = world.create(
        Player(),
        player_look(game.rules),
        Actor(speed=speed),
        Fighter(int(p["hp"]), int(p["hp"]), int(p["attack"]), int(p.get("defense", 0))),
        Inventory(),
    )
    state = RunState(seed=seed, first_seed=game.first_seed, run=run, world=world, player=player,
                     log=MessageLog(game.rules.log_size), streams=Streams(seed))
    # the player starts with a full turn of energy: the first move of a run is always theirs
    state.scheduler.add(player, speed, TURN_COST, player=True)
    return state


def make_level(game: Run, depth: int) -> Level:
    if depth == 1 and game.state.run == 1 and game.level_source is not None:
        return game.level_source
    name = game.choices.generator or game.rules.generator_for(depth)
    info = game.registry.choose("generator", name)
    params = game.rules.generator_params.get(name, {})
    stream = rngmod.stream(game.state.seed, f"level:{depth}")
    # a generator is a chosen plugin: its failure (a bad level included) stops the game in one line
    return game.isolation.call(game.registry.owners.get(("generators", name)), f"generator {name!r}", run_generator,
                               info, game.rules.width, game.rules.height, depth, stream, params)


def enter(game: Run, depth: int) -> None:
    """Leave the current level (if any) for level ``depth``."""
    state = game.state
    for entity in state.world.entities():
        if entity != state.player:
            state.spatial.remove(entity)
            state.scheduler.remove(entity)
            state.world.delete(entity)
    level = make_level(game, depth)
    state.level, state.depth = level, depth
    state.view = View.blank(level.terrain.shape)
    if state.world.has(state.player, Position):
        state.spatial.move(state.player, *level.start)
    else:
        state.spatial.place(state.player, *level.start)
    # a stream of its own, not kept in the run's streams: it is used up here (a depth is entered
    # once), and keeping one per depth would grow every save with the depth reached
    populate(game, level, depth, rngmod.stream(state.seed, f"spawn:{depth}"))
    game.update_view()
    game.hook("on_level_generated", level=level)
