"""Making a run's state and entering its levels: what the turn loop calls to apply a change.

Order matters when a level is entered, and is kept: everything of the old level goes (the player
and the pack stay), the new level is made from its own stream (``level:<depth>``, so depth 3 is
the same whether or not depths 1 and 2 were played), the player is put on its start, the level is
populated from the stream ``spawn:<depth>``, the view is computed (waking whoever notices the
player), and only then does ``on_level_generated`` fire.

A game whose ruleset keeps its levels (``Ruleset.keeps_levels``) keeps the old level instead of
throwing it away (:class:`~engine.core.model.state.KeptLevel`: its map, what was seen and the items remembered there,
its things with their energy), and finds a kept level as it was: nothing is made, populated or fired then. Such a
game has stairs up on every level, on its start; the player going down arrives there, going up
arrives on the stairs down; falling (a chasm, a trapdoor) lands on a random free floor cell
reachable from the start (the run's stream ``fall``). Time stands still on a kept level. At
most ``MAX_KEPT_LEVELS`` levels of ``MAX_KEPT_CELLS`` cells in all are kept, and the run's things
(in play and kept) are at most ``MAX_ENTITIES``: past that the one farthest from the player's depth
is forgotten (a new level is populated up to the limit first; :mod:`engine.core.model.bounds`).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from engine.core.model import bounds
from engine.core.model import rng as rngmod
from engine.core.model.components import Actor, Dead, Fighter, Inventory, Player, Position
from engine.core.model.scheduler import TURN_COST
from engine.core.model.state import KeptLevel, MessageLog, RunState, Streams, View
from engine.core.model.world import World
from engine.core.turn.generate import run_generator
from engine.core.turn.looks import player_look
from engine.core.turn.placement import populate
from engine.kit import limits, regions
from engine.kit.mapgen import FLOOR, UPSTAIRS, Level

if TYPE_CHECKING:
    from engine.core.turn.run import Run


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
    state = RunState(seed=seed, first_seed=game.first_seed, run_number=run, world=world, player=player,
                     log=MessageLog(game.rules.log_size), streams=Streams(seed))
    # the player starts with a full turn of energy: the first move of a run is always theirs
    state.scheduler.add(player, speed, TURN_COST, player=True)
    return state


def make_level(game: Run, depth: int) -> Level:
    if depth == 1 and game.state.run_number == 1 and game.level_source is not None:
        return game.level_source
    name = game.choices.generator or game.rules.generator_for(depth)
    info = game.registry.choose("generator", name)
    params = game.rules.generator_params.get(name, {})
    stream = rngmod.stream(game.state.seed, f"level:{depth}")
    # a generator is a chosen plugin: its failure (a bad level included) stops the game in one line
    kinds = {*game.registry.monsters, *game.rules.monster_kinds, *game.registry.items}  # what its spawns may name
    return game.isolation.call(game.registry.owners.get(("generators", name)), f"generator {name!r}", run_generator,
                               info, game.rules.width, game.rules.height, depth, stream, params, kinds,
                               game.registry.terrain)


def enter(game: Run, depth: int, *, up: bool = False, fall: bool = False) -> None:
    """Leave the current level (if any) for level ``depth`` (``up``: climbing to it; ``fall``:
    falling to it, landing anywhere)."""
    state = game.state
    keep = state.level is not None and game.ruleset.keeps_levels(game.api)
    if keep:
        game.sight.remember_in_view()
        stash(state)
    else:
        for entity in _things(state):
            state.spatial.remove(entity)
            state.scheduler.remove(entity)
            state.world.delete(entity)
    # the player off the map while the levels change: the cell it stood on belongs to the level
    # left, and on the next one it stood in a kept monster's way (a crash as that monster came back
    # where the player had stood) and kept a fall from landing on one cell
    state.spatial.remove(state.player)
    kept = state.kept.pop(depth, None)
    level = kept.level if kept is not None else make_level(game, depth)
    if kept is None and game.ruleset.keeps_levels(game.api):
        level = _furnish(game, level, depth)
    state.level, state.depth = level, depth
    state.view = View.blank(level.terrain.shape)
    if kept is not None:
        state.view.seen, state.view.items = kept.seen, kept.items
        restore(state, kept)
    arrival = level.stairs if up and level.stairs is not None else level.upstairs or level.start
    if fall:
        arrival = _landing(game, arrival)
    _make_room(game, arrival)
    state.spatial.place(state.player, *arrival)
    if kept is None:
        # a stream of its own, not kept in the run's streams: it is used up here (a depth is made
        # once), and keeping one per depth would grow every save with the depth reached
        populate(game, level, depth, rngmod.stream(state.seed, f"spawn:{depth}"))
        bounds.fit_things(state)  # the new level's things first: kept levels make room for them
    game.update_view()
    if kept is None:
        game.hook("on_level_generated", level=level)


def _landing(game: Run, start: tuple[int, int]) -> tuple[int, int]:
    """Where a fall lands: a random floor cell reachable from ``start`` with nobody on it (not
    ``start`` itself), from the run's stream ``fall``; ``start`` when there is none."""
    state = game.state
    floor = regions.flood(game.ground.walkable, start) & (state.level.terrain == FLOOR)
    ys, xs = floor.nonzero()
    spatial = state.spatial
    cells = [(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)
             if (x, y) != start and spatial.blocker_at(x, y) is None]
    return cells[game.rng("fall").randrange(len(cells))] if cells else start


def _things(state: RunState) -> list[int]:
    """The entities that belong to the current level: all with a position, but the player."""
    world = state.world
    return [e for e in world.entities() if e != state.player and world.has(e, Position)]


def _furnish(game: Run, level: Level, depth: int) -> Level:
    """A new level of a game that keeps its levels: stairs up on its start, and none down on the
    deepest (the preset's ``max_depth``). A copy: the level may be a ``--map`` file's, kept as read."""
    level = dataclasses.replace(level, terrain=level.terrain.copy(), kinds=list(level.kinds))
    x, y = level.start
    level.terrain[y, x] = UPSTAIRS
    level.upstairs = level.start
    deepest = game.rules.max_depth
    if deepest is not None and depth >= deepest and level.stairs is not None:
        sx, sy = level.stairs
        level.terrain[sy, sx] = FLOOR
        level.stairs = None
    return level


def stash(state: RunState) -> None:
    """Keep the current level and take its things out of the world (and the scheduler)."""
    things = []
    present = _things(state)  # read once: the first loop changes nothing
    for entity in present:
        if state.world.has(entity, Dead):
            continue  # killed this turn: the reap system would have deleted it
        energy = state.scheduler.energy.get(entity)
        things.append((list(state.world.components(entity)), energy))
    for entity in present:
        state.spatial.remove(entity)
        state.scheduler.remove(entity)
        state.world.delete(entity)
    # Rooms and fixed spawns only guide populating a new level: a kept one is found as it was left,
    # so it keeps neither (and its save is bounded by its cells, MAX_KEPT_CELLS, and its things).
    # A level kept before is kept as it is: it has neither already (a copy would be the same).
    level = state.level
    if level.rooms or level.spawns or level.populate:
        level = dataclasses.replace(level, rooms=[], spawns=[], populate=False)
    state.kept[state.depth] = KeptLevel(level, state.view.seen, things, state.view.items)
    _forget_past_limits(state)


def restore(state: RunState, kept: KeptLevel) -> None:
    """Put a kept level's things back in the world as they were (awake ones scheduled again)."""
    for components, energy in kept.things:
        pos = next(c for c in components if isinstance(c, Position))
        entity = state.world.create(*[c for c in components if not isinstance(c, Position)])
        state.spatial.place(entity, pos.x, pos.y)
        if energy is not None:
            state.scheduler.add(entity, state.world.get(entity, Actor).speed, energy)


def _forget_past_limits(state: RunState) -> None:
    """Forget the kept levels farthest from the player's depth while past the limits."""
    while state.kept and (len(state.kept) > limits.MAX_KEPT_LEVELS
                          or sum(k.cells for k in state.kept.values()) > limits.MAX_KEPT_CELLS):
        del state.kept[max(state.kept, key=lambda d: (abs(d - state.depth), d))]


def _make_room(game: Run, cell: tuple[int, int]) -> None:
    """A creature standing where the player arrives steps aside, to the nearest free cell."""
    spatial = game.state.spatial
    blocker = spatial.blocker_at(*cell)
    if blocker is None or blocker == game.state.player:
        return
    terrain = game.level.terrain
    h, w = terrain.shape
    frontier, seen = [cell], {cell}
    while frontier:
        nxt = []
        for x, y in frontier:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    c = (x + dx, y + dy)
                    if c in seen or not (0 <= c[0] < w and 0 <= c[1] < h) or terrain[c[1], c[0]] != FLOOR:
                        continue
                    seen.add(c)
                    if spatial.blocker_at(*c) is None:
                        spatial.move(blocker, *c)
                        return
                    nxt.append(c)
        frontier = nxt
