"""The bats plugin's own tests: the contracts of Undercroft's test kit (``engine.testing``), the
same functions Undercroft's tests hold its built-in plugins to."""

import undercroft_bats
from engine import testing


def test_it_loads_with_no_error_and_no_warning():
    testing.check_plugin(testing.load_plugin(undercroft_bats), "undercroft_bats")


def test_the_installed_entry_point_is_found():
    registry = testing.load_plugin(entry_point="bats")
    testing.check_plugin(registry, "bats")
    assert registry.monsters["bat"].speed == 200


def test_flutter_keeps_the_behaviour_contract():
    testing.check_behaviour(testing.load_plugin(undercroft_bats), "flutter")


def test_the_default_game_plays_with_bats_in_it():
    registry = testing.load_plugin(undercroft_bats)
    game = next(g for g in registry.games.values() if g.default)
    testing.check_preset(game, registry)


# --- the status, the verb and the loot row ------------------------------------------------------------

CAVE = """
    ##########
    #@.......#
    #......b.#
    #........#
    ##########
"""


def bats_of(game):
    return [m for m in game.api.monsters() if game.api.name_of(m) == "bat"]


def test_the_whistle_dazes_the_bats_in_sight_and_is_kept():
    registry = testing.load_plugin(undercroft_bats)
    game = testing.game_from_map(registry, CAVE, game="belfry")
    game.api.give("bat whistle")
    assert game.api.keys()["B"] == "blow"
    state = testing.press(game, "B")  # the one whistle: no menu
    assert state["turn"] == 1 and "You blow the bat whistle: the bat reels." in state["messages"]
    [bat] = bats_of(game)
    assert game.api.statuses(bat)["dazed"].turns == 4  # 5 turns, one of them ticked at the end of this one
    assert [i["kind"] for i in state["player"]["inventory"]] == ["bat whistle"]  # not used up


def test_with_no_bat_in_sight_the_whistle_does_nothing_and_takes_no_time():
    registry = testing.load_plugin(undercroft_bats)
    game = testing.game_from_map(registry, "\n    #####\n    #@..#\n    #####\n", game="belfry")
    game.api.give("bat whistle")
    state = testing.press(game, "B")
    assert state["turn"] == 0 and state["messages"][-1] == "No bat is in sight to hear it."


def test_a_dazed_bat_never_chases():
    registry = testing.load_plugin(undercroft_bats)
    game = testing.game_from_map(registry, CAVE, game="belfry")
    [bat] = bats_of(game)
    chased = []
    chase = registry.behaviours["chase"]
    registry.behaviours["chase"] = lambda g, e: chased.append(e) or chase(g, e)
    try:
        for _ in range(20):
            undercroft_bats.flutter(game.api, bat)
        assert chased  # awake and not dazed, it chases half the time
        chased.clear()
        game.api.add_status(bat, "dazed", 5)
        for _ in range(20):
            assert undercroft_bats.flutter(game.api, bat) is not None  # a random step
        assert chased == []
    finally:
        registry.behaviours["chase"] = chase


def test_the_whistle_lies_on_the_belfrys_floors_and_not_the_default_games():
    registry = testing.load_plugin(undercroft_bats)
    belfry, default = registry.games["belfry"], next(g for g in registry.games.values() if g.default)
    assert "bat whistle" in [row.item for row in belfry.loot["floor"].items]
    assert all("bat whistle" not in [row.item for row in table.items] for table in default.loot.values())
    assert "B" not in testing.game_from_map(registry, CAVE).api.keys()  # the default game: B means nothing
    testing.check_preset(belfry, registry)
    testing.check_effect(registry, "daze")


# --- the rule, the system, the bot and the terrain ----------------------------------------------------


def test_in_the_belfry_a_wall_bump_takes_the_turn_and_not_elsewhere():
    registry = testing.load_plugin(undercroft_bats)
    belfry = testing.press(testing.game_from_map(registry, CAVE, game="belfry"), "k")
    assert belfry["turn"] == 1 and belfry["messages"][-1] == "You grope at the cold rock."
    assert testing.press(testing.game_from_map(registry, CAVE), "k")["turn"] == 0  # the default game's rule


TWO_CAVES = """
    ###########
    #@..#.....#
    #...#.....#
    #.........#
    ###########
"""


def test_the_roost_sends_a_bat_out_of_sight_every_20_turns():
    registry = testing.load_plugin(undercroft_bats)
    game = testing.game_from_map(registry, TWO_CAVES, game="belfry")
    testing.press(game, " ".join(["."] * 19))
    assert bats_of(game) == []
    testing.press(game, ".")
    [bat] = bats_of(game)
    assert not game.api.sees(*game.api.position(bat))
    default = testing.game_from_map(registry, TWO_CAVES)
    testing.press(default, " ".join(["."] * 20))
    assert bats_of(default) == []  # the roost is the belfry's alone


def test_the_bat_hunter_blows_the_whistle_at_a_bat_in_sight():
    registry = testing.load_plugin(undercroft_bats)
    game = testing.game_from_map(registry, CAVE, game="belfry")
    game.api.give("bat whistle")
    hunter = undercroft_bats.hunter()
    assert hunter(game.api) == "B"
    testing.press(game, "B")
    assert hunter(game.api) != "B"  # the bat is dazed: it does not blow again at once


def test_the_bat_hunter_plays_the_belfry():
    registry = testing.load_plugin(undercroft_bats)
    game = testing.game_from_map(registry, CAVE.replace("#........#", "#.......>#"), game="belfry")
    game.api.give("bat whistle")
    game.api.give("bat whistle")  # two: "Blow what?" asks which
    hunter, keys = undercroft_bats.hunter(), []
    while game.api.depth == 1 and len(keys) < 100:
        keys.append(hunter(game.api))
        testing.press(game, keys[-1])
    assert game.api.depth == 2 and "B" in keys  # it blew the whistle at the bat, and went down
    assert any("You blow the bat whistle" in line for line in game.api.messages())
    testing.check_invariants(game)


def test_guano_says_the_feet_slip_when_the_player_steps_on_it():
    registry = testing.load_plugin(undercroft_bats)
    game = testing.game_from_map(registry, "\n    ######\n    #@,..#\n    ######\n", game="belfry")
    assert game.api.terrain(2, 1).name == "guano"
    assert testing.press(game, "l")["messages"][-1] == "Your feet slip in the guano."
    state = testing.press(game, "l")  # leaving it says nothing
    assert state["turn"] == 2 and state["messages"].count("Your feet slip in the guano.") == 1


STAIRS = "\n    #####\n    #@>.#\n    #####\n"


def test_the_belfrys_caves_have_guano_and_the_default_games_levels_none():
    registry = testing.load_plugin(undercroft_bats)
    belfry = testing.press(testing.game_from_map(registry, STAIRS, game="belfry"), "l >")
    default = testing.press(testing.game_from_map(registry, STAIRS), "l >")
    assert belfry["depth"] == default["depth"] == 2
    assert any("," in row for row in belfry["map"])
    assert not any("," in row for row in default["map"])
