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
