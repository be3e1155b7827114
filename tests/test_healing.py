"""Healing that scales with max HP (plugins/rules/effects.py ``heal_amount``, #25 item 10): in a
preset with ``[params.healing] share = P`` a healing item gives back at least P percent of the
drinker's max HP; elsewhere (the classic presets) exactly its ``params.amount``; the delver bot
counts on what a drink gives now."""

import pytest

from engine import Fighter, testing
from engine.plugins.bots._delver_look import DelverView, Memory

ROOM = "\n    ########\n    #@....>#\n    ########\n"


@pytest.fixture(scope="module")
def registry():
    return testing.load_plugin()


def hurt_then_drink(game, max_hp, hp):
    fighter = game.api.component(game.api.player, Fighter)
    fighter.max_hp, fighter.hp = max_hp, hp
    game.api.give("potion")
    testing.press(game, "q")
    return game.api.hp(game.api.player)[0] - hp


def test_a_potion_heals_a_share_of_max_hp_when_that_is_more_than_its_amount(registry):
    share = registry.games["undercroft"].params["healing"]["share"]
    amount = registry.items["potion"].params["amount"]
    low = testing.game_from_map(registry, ROOM)
    assert hurt_then_drink(low, 20, 2) == max(amount, 20 * share // 100)
    high = testing.game_from_map(registry, ROOM)
    assert hurt_then_drink(high, 80, 2) == 80 * share // 100 > amount  # at depth 10's HP it still matters


def test_without_the_healing_table_a_potion_heals_its_amount(registry):
    import dataclasses

    undercroft = registry.games["undercroft"]
    params = {name: table for name, table in undercroft.params.items() if name != "healing"}
    registry.games["flat"] = dataclasses.replace(undercroft, name="flat", default=False, params=params)
    try:
        game = testing.game_from_map(registry, ROOM, game="flat")
        assert hurt_then_drink(game, 80, 2) == registry.items["potion"].params["amount"]
    finally:
        del registry.games["flat"]


def test_the_delver_counts_on_what_a_drink_gives_now(registry):
    share = registry.games["undercroft"].params["healing"]["share"]
    game = testing.game_from_map(registry, ROOM)
    game.api.give("potion")
    fighter = game.api.component(game.api.player, Fighter)
    fighter.max_hp = 90
    assert DelverView(game.api, Memory()).heal == 90 * share // 100


def test_a_potions_description_says_what_it_gives_back_now(registry):
    share = registry.games["undercroft"].params["healing"]["share"]
    game = testing.game_from_map(registry, ROOM)
    game.api.give("potion")
    potion = game.api.pack()[0]
    kind = registry.items["potion"]
    assert game.api.item_description(potion) == kind.description  # 8 is more than a share of 20
    game.api.component(game.api.player, Fighter).max_hp = 80
    now = f"Now {80 * share // 100} HP: {share}% of your max HP."
    assert game.api.item_description(potion) == f"{kind.description} {now}"
