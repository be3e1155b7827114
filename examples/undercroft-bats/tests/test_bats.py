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
