"""Terrain with rules (plugins/depths/terrain.py, issue #25 item 2): deep water weighs down a swimmer
in heavy armour and keeps monsters out, shallow water and rubble cost more to cross, tall grass
blocks sight, a chasm drops the player a level; the features the default game's levels get keep them
connected, and the classic presets get none of them."""

from __future__ import annotations

import dataclasses
import types

import numpy as np
import pytest

from engine import Move, Wear, hookimpl, testing
from engine.core.play.setup import Setup, prepare
from engine.kit import regions

LAKE = """
    ##########
    #@≈≈≈....#
    #........#
    #.......>#
    ##########
"""


def _wearing(registry, armour):
    game = testing.game_from_map(registry, LAKE)
    api = game.api
    game.perform(api.player, Wear(api.give(armour)))
    return game, api


@pytest.mark.parametrize(("armour", "heavy"), [("plate armour", True), ("chain mail", True),
                                               ("leather armour", False)])
def test_deep_water_weighs_down_a_swimmer_in_heavy_armour_only(registry, armour, heavy):
    game, api = _wearing(registry, armour)
    state = testing.press(game, "l")  # into the deep water: a step like any other
    assert api.terrain(*api.position(api.player)).name == "deep-water"
    assert ("weighed-down" in state["player"]["statuses"]) is heavy
    result = game.perform(api.player, Move(1, 0))  # a stroke out of a deep-water cell
    assert result.done and result.cost == (200 if heavy else 100)
    assert api.has_status(api.player, "weighed-down") is heavy  # still in the water
    testing.press(game, "l l")  # onto the floor beyond
    assert api.terrain(*api.position(api.player)).name == "floor"
    assert not api.has_status(api.player, "weighed-down")


def test_the_sidebar_says_weighed_down(registry):
    from engine.frontend import sidebar

    game, _ = _wearing(registry, "plate armour")
    testing.press(game, "l")
    assert any(row.text == "Weighed down" for row in sidebar.statuses(game))


MOAT = """
    #########
    #.......#
    #.≈≈≈≈≈.#
    #.≈...≈.#
    #.≈≈≈≈≈.#
    #@......#
    #......>#
    #########
"""


def test_monsters_go_round_deep_water_and_never_step_in_unless_they_swim(registry):
    game = testing.game_from_map(registry, MOAT)
    api = game.api
    assert api.walk_cost()[2, 2] == 8 and api.walk_cost()[1, 2] == 1
    path = api.path((1, 1), (7, 3))
    assert path is not None and all(api.terrain(*cell).name != "deep-water" for cell in path)
    rat = api.spawn("rat", 1, 2)
    assert game.perform(rat, Move(1, 0)).done  # its turn is spent...
    assert api.position(rat) == (1, 2)  # ...on the shore
    eel = api.spawn("eel", 3, 2)
    game.perform(eel, Move(1, 0))
    assert api.position(eel) == (4, 2)  # a swimmer swims


def test_the_eel_strikes_from_the_water_and_never_leaves_it(registry):
    game = testing.game_from_map(registry, MOAT)
    api = game.api
    eel = api.spawn("eel", 2, 4)
    hp = api.hp(api.player)[0]
    behaviour = api.behaviour("lurk")
    for _ in range(6):  # the player beside its water: it strikes
        action = behaviour(api, eel)
        if action is not None:
            game.perform(eel, action)
    assert api.hp(api.player)[0] < hp and api.position(eel) == (2, 4)
    api.move(api.player, 7, 6)  # away from the water: it swims nearer, through deep water only
    for _ in range(8):
        action = behaviour(api, eel)
        if action is not None:
            game.perform(eel, action)
        assert api.terrain(*api.position(eel)).name == "deep-water"
    assert api.position(eel) in ((5, 4), (6, 4))  # as near as its water goes (two cells off)


def test_tall_grass_blocks_sight_and_is_trampled_flat(registry):
    game = testing.game_from_map(registry, """
        #########
        #@......#
        #.......#
        #......>#
        #########
    """)
    api = game.api
    assert api.sees(5, 1)
    api.set_terrain(3, 1, "grass")
    assert api.sees(3, 1) and not api.sees(5, 1)  # the grass is seen, not what lies beyond it
    testing.press(game, "l l")  # through it
    assert api.terrain(3, 1).name == "floor" and api.sees(5, 1)


def test_shallow_water_and_rubble_cost_paths_more_and_rubble_costs_time(registry):
    game = testing.game_from_map(registry, """
        ########
        #@~~~:.#
        #......#
        #.....>#
        ########
    """)
    api = game.api
    cost = api.walk_cost()
    assert cost[1, 2] == 2 and cost[1, 5] == 2 and cost[2, 2] == 1
    path = api.path((1, 1), (6, 1))
    assert all(api.terrain(*cell).name not in ("shallow-water", "rubble") for cell in path)
    assert game.perform(api.player, Move(1, 0)).cost == 100  # shallow water: walked as floor
    api.move(api.player, 4, 1)
    assert game.perform(api.player, Move(1, 0)).cost == 150  # onto rubble: slower
    assert game.perform(api.player, Move(1, 0)).cost == 100  # off it


CHASM = """
    #########
    #@░░....#
    #.░░....#
    #......>#
    #########
"""


def test_walking_into_a_chasm_drops_the_player_a_level(registry):
    game = testing.game_from_map(registry, CHASM)
    api = game.api
    hp = api.hp(api.player)[0]
    state = testing.press(game, "l")
    assert state["depth"] == 2 and state["player"]["hp"] < hp
    assert any("fall into the chasm" in m for m in state["messages"])
    here = api.position(api.player)
    assert api.terrain(*here).name == "floor" and here != game.level.upstairs  # landed anywhere, not on the stairs


def test_monsters_never_step_into_a_chasm(registry):
    game = testing.game_from_map(registry, CHASM)
    api = game.api
    rat = api.spawn("rat", 1, 2)
    assert not game.perform(rat, Move(1, 0)).done and api.position(rat) == (1, 2)
    assert api.is_wall(2, 1) and api.path((1, 3), (4, 1)) is not None  # paths go round


def _shallow_game(registry):
    """The default game with one level: its first is its deepest."""
    rules = registry.games["undercroft"]
    one = dataclasses.replace(rules, name="one-level", default=False, max_depth=1)
    return testing.load_plugin(types.SimpleNamespace(register_games=hookimpl(lambda register: register(one))))


def test_no_fall_from_the_deepest_level(registry):
    game = testing.game_from_map(_shallow_game(registry), CHASM, game="one-level")
    api = game.api
    state = testing.press(game, "l")
    assert state["depth"] == 1 and api.position(api.player) == (1, 1)


def _walked(game):
    level = game.level
    walk = ~game.api.walls()
    if "deep-water" in level.kinds:
        walk &= level.terrain != level.kinds.index("deep-water")
    for door in ("vault-door", "secret-door"):  # they open (with the level's key, by searching)
        if door in level.kinds:
            walk |= level.terrain == level.kinds.index(door)
    return walk


def test_generated_levels_keep_connected_and_the_deepest_has_no_chasm(registry):
    found = {}
    for seed in (1, 2, 3):
        game = prepare(Setup(seed=seed), registry).start()
        for depth in range(1, 11):
            if depth > 1:
                game.enter_level(depth)
            level = game.level
            for name in level.kinds[4:]:
                found[name] = found.get(name, 0) + 1
            _, count = regions.label_regions(_walked(game))
            assert count == 1, f"seed {seed} depth {depth}: {count} regions"
            assert depth >= 3 or "chasm" not in level.kinds
            assert depth < 10 or "chasm" not in level.kinds
            for monster in game.api.monsters():
                if game.api.kind_of(monster).name == "eel":
                    assert game.api.terrain(*game.api.position(monster)).name == "deep-water"
    assert {"deep-water", "shallow-water", "rubble", "grass", "chasm"} <= set(found)


@pytest.mark.parametrize("preset", ["lesson28", "rogue-sdl", "bunyip"])
def test_the_classic_presets_get_none_of_it(registry, preset):
    for seed in (1, 2):
        game = prepare(Setup(game=preset, seed=seed), registry).start()
        assert game.level.kinds[4:] == []
        assert all(game.api.kind_of(m).name != "eel" for m in game.api.monsters())
        assert not np.isin(game.level.terrain, range(4, 16)).any()


def test_a_level_drawn_with_map_is_played_as_drawn(registry):
    """A --map level is complete as drawn: no lake, chasm, rubble or grass is added to it (some
    of these seeds drew a lake over a drawn room), as no door or trap is."""
    picture = """
        ##############
        #@...........#
        #............#
        #.........o..#
        #............#
        ##############
    """
    for seed in range(12):
        game = testing.game_from_map(registry, picture, seed=seed)
        level = game.level
        kinds = {level.kind_at(x, y) for y in range(level.terrain.shape[0]) for x in range(level.terrain.shape[1])}
        assert kinds <= {"wall", "floor", "upstairs"}, (seed, kinds)  # the start: the way back up


def test_an_eel_as_near_as_its_water_goes_lurks_and_explore_walks_on(registry):
    """An awake eel in view kept explore from starting for as long as its lake was in sight, though
    it can never leave the water: as near as its water goes it declares itself lurking, and a walk
    does not wait for it (one still swimming nearer does keep a walk from starting)."""
    game = testing.game_from_map(registry, MOAT)
    api = game.api
    eel = api.spawn("eel", 6, 4)  # in the moat's corner nearest the player's corner
    api.wake(eel)
    api.move(api.player, 7, 6)  # two cells off: no deep water comes nearer
    assert api.notices(eel) and testing.press(game, "o")["messages"][-1] == "Not with the eel in view."
    assert api.behaviour("lurk")(api, eel) is None  # its turn: as near as its water goes, lurking
    assert api.declared(eel) == "lurking"
    turn = game.turn
    state = testing.press(game, "o")
    assert state["turn"] > turn and "Not with the eel in view." not in state["messages"][-1:]
