"""Doors (plugins/depths/doors.py) and searching (plugins/depths/search.py) in the default game: a
closed door blocks sight and opens when walked into (the step goes in, as in Brogue); ``c`` closes
an open door beside you and refuses while something is in it; goblins open doors, animals cannot;
a secret door is a wall until searching finds it (surely by the fifth search in a row); generated
levels keep their stairs reachable; the classic presets have none of it."""

import numpy as np
import pytest

from engine import testing
from engine.core.play.setup import default_game
from engine.core.turn.game import Choices, Game

HALL = """
    #########
    #.@.#...#
    #...+...#
    #...#..>#
    #########
"""


@pytest.fixture(scope="module")
def registry():
    return testing.load_plugin()


def test_a_closed_door_blocks_sight_and_walking_into_it_opens_it_and_steps_in(registry):
    game = testing.game_from_map(registry, HALL)
    api = game.api
    assert api.terrain(4, 2).name == "door" and not api.sees(6, 2)
    testing.press(game, "j l")
    s = testing.press(game, "l")  # (3, 2) -> into the door
    assert s["turn"] == 3 and api.position(api.player) == (4, 2) and api.terrain(4, 2).name == "open-door"
    assert api.sees(6, 2) and "You open the door." in s["messages"]
    assert s["map"][2][4] == "'"


def test_c_closes_an_open_door_beside_you_as_a_turn(registry):
    game = testing.game_from_map(registry, HALL)
    api = game.api
    s = testing.press(game, "c")
    assert s["turn"] == 0 and s["messages"][-1] == "There is no open door beside you."
    testing.press(game, "j l l l")  # through the door, beside it on the east
    assert api.position(api.player) == (5, 2) and api.sees(1, 1)
    s = testing.press(game, "c")
    assert s["turn"] == 5 and api.terrain(4, 2).name == "door" and s["messages"][-1] == "You close the door."
    assert not api.sees(1, 1)  # closed: the west room out of view


def test_c_refuses_while_something_stands_or_lies_in_the_doorway(registry):
    game = testing.game_from_map(registry, HALL.replace("+", "!"))
    api = game.api
    api.set_terrain(4, 2, "open-door")
    testing.press(game, "j l")
    s = testing.press(game, "c")
    assert s["turn"] == 2 and api.terrain(4, 2).name == "open-door"
    assert s["messages"][-1] == "The door cannot close: the potion lies in the doorway."
    game = testing.game_from_map(registry, HALL.replace("+", "r").replace(".@.", "...").replace("#...r", "#..@r"))
    api = game.api
    api.set_terrain(4, 2, "open-door")
    s = testing.press(game, "c")
    assert api.terrain(4, 2).name == "open-door" and s["turn"] == 0
    assert s["messages"][-1] == "The door cannot close: the rat stands in the doorway."


@pytest.mark.parametrize(("monster", "opens"), [("r", False), ("j", False), ("g", True)])
def test_animals_cannot_open_doors_and_go_around_them_a_goblin_opens_them(registry, monster, opens):
    game = testing.game_from_map(registry, HALL.replace("..>", f".{monster}>"))
    api = game.api
    (beast,) = api.monsters()
    assert api.kind_of(beast).params.get("animal", False) is not opens
    api.wake(beast)
    api.add_status(beast, "alerted", None, x=2, y=1)  # told where the player is: it comes
    for _ in range(6):
        testing.press(game, ".")
        x, _y = api.position(beast)
        assert opens or x > 4  # never in the doorway, never through it
    assert (api.terrain(4, 2).name == "open-door") is opens


def test_a_secret_door_is_a_wall_until_searching_finds_it_surely_by_the_fifth_search(registry):
    for seed in range(6):
        game = testing.game_from_map(registry, HALL, seed=seed)
        api = game.api
        api.set_terrain(4, 2, "secret-door")
        s = testing.press(game, "j l")  # beside it
        assert s["map"][2][4] == "#" and api.terrain(4, 2).shown == "wall" and api.is_wall(4, 2)
        s = testing.press(game, "l")  # a wall: no step, no time
        assert api.position(api.player) == (3, 2) and s["turn"] == 2
        found_at = None
        for n in range(1, 6):
            s = testing.press(game, "s")
            if found_at is None and api.terrain(4, 2).name == "door":
                found_at = n
        assert found_at is not None and s["turn"] == 7
        assert "You find a closed door." in s["messages"]
        assert s["map"][2][4] == "+"


def test_a_search_finds_nothing_out_of_its_reach(registry):
    game = testing.game_from_map(registry, HALL.replace(".@.", "@.."))
    api = game.api
    api.set_terrain(7, 0, "secret-door")  # six cells from the player: beyond the radius of 3
    s = testing.press(game, "s s s s s s s s s s")
    assert s["turn"] == 10 and api.terrain(7, 0).name == "secret-door"
    assert "You finish a thorough search: nothing is hidden near you." in s["messages"]


def test_the_magic_mapping_scroll_finds_secret_doors(registry):
    game = testing.game_from_map(registry, HALL)
    api = game.api
    api.set_terrain(4, 2, "secret-door")
    api.give("scroll of magic mapping")
    s = testing.press(game, "r")
    if s["prompt"] is not None:  # a menu of what to read: the scroll's letter
        s = testing.press(game, next(o["letter"] for o in s["prompt"]["options"] if "mapping" in o["label"]))
    assert "A map of the level forms in your mind." in s["messages"]
    assert api.terrain(4, 2).name == "door"


def _levels(registry, rules, seed, depths):
    game = Game(registry, rules, seed, Choices()).start()
    try:
        for depth in range(1, depths + 1):
            if depth > 1:
                game.enter_level(depth)
            yield game
    finally:
        game.close()


def test_generated_levels_have_doors_and_secret_doors_and_their_stairs_stay_reachable(registry):
    rules = default_game(registry)
    counts = {"door": 0, "secret-door": 0}
    for seed in range(1, 7):
        for game in _levels(registry, rules, seed, 5):
            api, level = game.api, game.level
            names = np.array(level.kinds)[level.terrain]
            for name in counts:
                counts[name] += int((names == name).sum())
            # secret doors are walls to the player: the stairs are reached without them
            dist = api.distance_map([api.position(api.player)])
            for cell in (level.stairs, level.upstairs):
                if cell is not None:
                    assert np.isfinite(dist[cell[1], cell[0]]), (seed, game.api.depth, cell)
            assert not (names == "secret-door").any() or api.depth >= 2
    assert counts["door"] > 50 and counts["secret-door"] >= 1


@pytest.mark.parametrize("preset", ["lesson28", "rogue-sdl", "bunyip"])
def test_the_classic_presets_have_no_doors_and_no_search_or_close_keys(registry, preset):
    rules = registry.games[preset]
    for game in _levels(registry, rules, 3, 1):
        names = set(np.array(game.level.kinds)[game.level.terrain].ravel().tolist())
        assert not names & {"door", "open-door", "secret-door"}
        keys = game.api.keys()
        assert "search" not in keys.values() and "close" not in keys.values()
