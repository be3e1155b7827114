"""A monkey at the keyboard: 20 seeds x 2,000 random keys, and the rules still hold
(``engine.testing.check_invariants``, the kit's definition of what holds between turns)."""

import random

import pytest

from engine import testing
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.turn.keys import DEFAULT_KEYS

TOKENS = sorted(t for t in DEFAULT_KEYS if t != "esc")  # esc quits; R restarts after a death


@pytest.mark.parametrize("seed", range(1, 21))
def test_monkey(seed):
    g = new_game(Setup(seed=seed))
    keys = random.Random(seed)
    for _ in range(2000):
        Session.of(g).press(keys.choice(TOKENS))
        testing.check_invariants(g)
    g.close()


@pytest.mark.parametrize("preset", ["bunyip", "rogue-sdl", "lesson28"])
@pytest.mark.parametrize("seed", range(1, 6))
def test_monkey_plays_every_preset(preset, seed):
    g = new_game(Setup(game=preset, seed=seed))
    tokens = sorted(t for t in {*DEFAULT_KEYS, *g.rules.keys} if t != "esc")
    keys = random.Random(seed)
    for _ in range(1000):
        Session.of(g).press(keys.choice(tokens))
        testing.check_invariants(g)
    g.close()


def test_every_preset_keeps_the_kits_contract(registry, game_name):
    """``engine.testing.check_preset``, as a plugin's own test calls it for the preset it adds."""
    testing.check_preset(registry.games[game_name], registry)


def test_every_behaviour_and_effect_keeps_the_kits_contract(registry):
    for name in sorted(registry.behaviours):
        testing.check_behaviour(registry, name)
    for name in sorted(registry.effects):
        testing.check_effect(registry, name)
