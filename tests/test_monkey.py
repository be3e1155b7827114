"""A monkey at the keyboard: 20 seeds x 2,000 random keys, and the rules still hold."""

import random

import pytest

from engine.core import invariants
from engine.core.components import Fighter, Position
from engine.core.keys import DEFAULT_KEYS
from engine.core.setup import Setup, new_game

TOKENS = sorted(t for t in DEFAULT_KEYS if t != "esc")  # esc quits; R restarts after a death


def check_invariants(g):
    cells = {}
    blockers = g.state.spatial.blockers()
    for entity, (pos, fighter) in g.world.query(Position, Fighter):
        assert 0 <= fighter.hp <= fighter.max_hp
        assert (pos.x, pos.y) not in cells, f"two blockers on {(pos.x, pos.y)}"
        cells[(pos.x, pos.y)] = entity
        assert blockers[(pos.x, pos.y)] == entity
        assert g.level.walkable[pos.y, pos.x]
    assert len(blockers) == len(cells)
    if g.alive:  # the invariants every loaded save is held to hold after every key
        invariants.check(g.state, g.registry, g.rules)


@pytest.mark.parametrize("seed", range(1, 21))
def test_monkey(seed):
    g = new_game(Setup(seed=seed))
    keys = random.Random(seed)
    for _ in range(2000):
        g.press(keys.choice(TOKENS))
        check_invariants(g)
    g.close()


@pytest.mark.parametrize("preset", ["bunyip", "rogue-sdl", "lesson28"])
@pytest.mark.parametrize("seed", range(1, 6))
def test_monkey_plays_every_preset(preset, seed):
    g = new_game(Setup(game=preset, seed=seed))
    tokens = sorted(t for t in {*DEFAULT_KEYS, *g.rules.keys} if t != "esc")
    keys = random.Random(seed)
    for _ in range(1000):
        g.press(keys.choice(tokens))
        check_invariants(g)
    g.close()
