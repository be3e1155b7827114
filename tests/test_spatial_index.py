"""The spatial index is kept step by step, never rebuilt: after moves, blows and deaths, spawns,
doors opened and closed, swaps, teleports and level changes its tables are the ones a save's
loading builds from the positions (``SpatialIndex.rebuild``), and the ground's cells whose kinds
hear steps (``Ground.listening``) follow the terrain as it changes."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import testing
from engine.core.model.components import Fighter, Position
from engine.core.model.spatial import SpatialIndex
from engine.core.play.session import Session
from engine.core.play.setup import default_game
from engine.core.turn import terrain as terrainrun
from engine.core.turn.game import Game
from engine.core.turn.keys import DEFAULT_KEYS

MOVES = sorted(t for t, c in DEFAULT_KEYS.items() if c.startswith("move") or c == "wait")


@pytest.fixture(scope="module")
def registry():
    return testing.load_plugin()


def agrees(game) -> None:
    """The index's tables are what the components say, as a loaded save's index would be built."""
    spatial, world = game.state.spatial, game.world
    rebuilt = SpatialIndex.rebuild(world)
    assert spatial.blockers() == rebuilt.blockers()
    assert {c: sorted(p) for c, p in spatial.piles().items()} == {c: sorted(p) for c, p in rebuilt.piles().items()}
    for (x, y), e in spatial.blockers().items():
        pos = world.get(e, Position)
        assert (pos.x, pos.y) == (x, y) and world.has(e, Fighter)
    ground = game.ground
    hears = np.array([k.on_enter is not None or k.on_leave is not None for k in ground.kinds])[game.level.terrain]
    assert ground.listening == {(int(x), int(y)) for y, x in zip(*np.nonzero(hears), strict=True)}


def _awake_game(registry, seed: int, depth: int = 3) -> Game:
    game = Game(registry, default_game(registry), seed=seed).start()
    game.enter_level(depth)
    fighter = game.world.get(game.player, Fighter)
    fighter.hp = fighter.max_hp = 10**6  # the player lives through the test
    for m in game.api.monsters():
        game.api.wake(m)
    return game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_index_agrees_with_the_positions_through_a_game_of_moves_blows_and_deaths(registry, seed):
    game = _awake_game(registry, seed)
    session, keys = Session.of(game), random.Random(seed)
    agrees(game)
    before = len(game.api.monsters())
    for _ in range(150):
        session.press(keys.choice(MOVES))
        agrees(game)
        if game.state.depth != 3:  # the player took the stairs: still agreed, on the new level
            break
    assert game.turn > 50 and len(game.api.monsters()) <= before


def test_spawns_kills_removals_swaps_and_teleports_keep_the_index(registry):
    game = _awake_game(registry, 4)
    api = game.api
    px, py = api.position(api.player)
    free = [(x, y) for y in range(py - 6, py + 7) for x in range(px - 6, px + 7) if api.passable(x, y)]
    spawned = [api.spawn("rat", x, y) for x, y in free[:6]]
    assert all(e is not None for e in spawned)
    agrees(game)
    api.kill(spawned[0])
    agrees(game)
    api.damage(spawned[1], 10**6)
    agrees(game)
    api.remove(spawned[2])
    agrees(game)
    assert api.swap(api.player, spawned[3])
    agrees(game)
    assert api.swap(spawned[4], spawned[5])
    agrees(game)
    assert api.teleport(spawned[3]) is not None
    agrees(game)
    item = api.spawn("potion", *api.position(api.player))
    assert item is not None
    agrees(game)
    for m in api.monsters():  # the crowd steps around each other and the player
        step = api.step_toward(m, api.position(api.player))
        if step is not None:
            x, y = api.position(m)
            api.move(m, x + step[0], y + step[1])
            agrees(game)


def test_level_changes_and_returns_keep_the_index(registry):
    game = _awake_game(registry, 5, depth=1)
    agrees(game)
    for depth in (2, 3, 2, 1, 4):
        game.enter_level(depth, up=depth < game.state.depth)
        agrees(game)
        session, keys = Session.of(game), random.Random(depth)
        for _ in range(10):
            session.press(keys.choice(MOVES))
            agrees(game)


HALL = """
    #########
    #.@.#...#
    #...+...#
    #...#.g>#
    #########
"""


def test_doors_opened_by_a_goblin_and_closed_by_the_player_keep_the_index(registry):
    game = testing.game_from_map(registry, HALL)
    api = game.api
    (goblin,) = api.monsters()
    api.wake(goblin)
    api.add_status(goblin, "alerted", None, x=2, y=1)
    agrees(game)
    opened = False
    for _ in range(8):
        testing.press(game, ".")
        agrees(game)
        opened = opened or api.terrain(4, 2).name == "open-door"
    assert opened
    api.kill(goblin)
    testing.press(game, "j l l l c")  # through the door and shut it behind
    agrees(game)
    assert api.terrain(4, 2).name == "door" and api.position(api.player) == (5, 2)


POOL = """
    ##########
    #.@..≈≈..#
    #....≈≈.>#
    ##########
"""


def test_the_cells_whose_kinds_hear_steps_follow_the_terrain(registry):
    game = testing.game_from_map(registry, POOL)
    api, ground = game.api, game.ground
    assert ground.listening == {(5, 1), (6, 1), (5, 2), (6, 2)}
    agrees(game)
    api.set_terrain(3, 2, "deep-water")
    assert (3, 2) in game.ground.listening
    api.set_terrain(5, 1, "floor")
    assert (5, 1) not in game.ground.listening
    agrees(game)
    heard = []
    real = terrainrun._call

    def told(run, kind, hook, entity, x, y):
        heard.append((kind.name, hook, x, y))
        real(run, kind, hook, entity, x, y)

    with pytest.MonkeyPatch.context() as monkey:  # a step into the water and out of it is heard; between floors, not
        monkey.setattr(terrainrun, "_call", told)
        testing.press(game, "l l")  # (2, 1) -> (4, 1)
        assert heard == [] and api.position(api.player) == (4, 1)
        testing.press(game, "j h")  # (4, 2), then into the water at (3, 2)
        assert heard == [("floor", "on_leave", 4, 2), ("deep-water", "on_enter", 3, 2)]
        testing.press(game, "h")  # out of it
        assert heard[2:] == [("deep-water", "on_leave", 3, 2), ("floor", "on_enter", 2, 2)]
    agrees(game)
