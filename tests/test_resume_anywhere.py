"""A run resumed from its save plays on as the unbroken run does, whatever key it was saved after:
random keys of the default game (walks, explore, rests, the pack, the stairs), the run saved and
resumed every third key, its state compared with the unbroken run's after every key. What the
game keeps outside the save and reads in play would part them (a monster's declared "fleeing" did:
too rare for random keys, it has its own test in test_travel)."""

from __future__ import annotations

import json
import random

import pytest

from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import snapshot
from engine.persist import runsave

KEYS = "h j k l y u b n o o o Z . g q r w x > < s c i a b".split()  # no Escape: it quits


def state_of(game) -> dict:
    seen = snapshot(game)
    seen.pop("plugins", None)  # where the plugins were loaded from, not the game
    return seen


@pytest.mark.parametrize("seed", [3, 8, 17, 24, 31, 52])
def test_a_run_resumed_after_any_key_plays_as_the_unbroken_one(registry, seed):
    rng = random.Random(seed)
    keys = [rng.choice(KEYS) for _ in range(150)]
    unbroken, resumed = new_game(Setup(seed=seed), registry), new_game(Setup(seed=seed), registry)
    for i, key in enumerate(keys):
        Session.of(unbroken).press(key)
        Session.of(resumed).press(key)
        if i % 3 == 0 and Session.of(resumed).prompt is None and resumed.state.alive:
            data = json.loads(json.dumps(runsave.capture(resumed)))
            resumed.close()
            resumed, _ = runsave.load(data, registry)
        assert state_of(resumed) == state_of(unbroken), f"seed {seed}: parted at key {i} ({key!r})"
