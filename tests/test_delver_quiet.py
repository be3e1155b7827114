"""The delver passes by the concerns that act only on a foe in view when none is (``_delver_bot.quiet``):
key after key, it presses what a delver that asks every concern at every key presses."""

from __future__ import annotations

import pytest

from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game


@pytest.mark.parametrize(("preset", "seed"), [("undercroft", 3), ("undercroft", 7), ("rogue-sdl", 2), ("bunyip", 1)])
def test_the_delver_passing_by_the_foes_concerns_presses_the_keys_of_one_that_asks_them_all(registry, preset, seed):
    from engine.plugins.bots import _delver_bot
    from engine.plugins.bots.delver import Delver

    game = new_game(Setup(game=preset, seed=seed), registry)
    quiet, every = Delver(), Delver()
    run, passed = game.state.run_number, 0
    for n in range(1500):
        key = quiet(game.api)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_delver_bot, "quiet", lambda concerns, leaving: concerns)  # every concern, every key
            assert every(game.api) == key, f"key {n}"
        passed += game.api.prompt() is None and not game.api.visible_monsters()
        if key is None or not game.alive or game.state.run_number != run:
            break
        Session.of(game).press(key)
    assert n > (300 if preset == "undercroft" else 30) and passed > 10


def test_the_foes_concerns_answer_none_and_change_nothing_with_no_foe_in_view(registry):
    """What passing them by stands on: with no foe in view (and no flight under way), each of them
    answers None and leaves the delver's memory as it was."""
    from engine.plugins.bots import _delver_bot
    from engine.plugins.bots._delver_look import DelverView
    from engine.plugins.bots.delver import Delver

    game = new_game(Setup(seed=3), registry)
    bot, asked = Delver(), 0
    for _ in range(600):
        memory = bot.memory
        if not DelverView(game.api, memory).monsters:
            for concern in (*_delver_bot.FOES_ONLY, _delver_bot.flee):
                if concern is _delver_bot.flee and memory.leaving:
                    continue
                before = {k: v for k, v in vars(memory).items() if k not in ("maps", "reach", "pack", "trail")}
                assert concern(DelverView(game.api, memory)) is None, concern.__name__
                assert {k: v for k, v in vars(memory).items() if k not in ("maps", "reach", "pack", "trail")} \
                    == before, concern.__name__
                asked += 1
        key = bot(game.api)
        if key is None or not game.alive:
            break
        Session.of(game).press(key)
    assert asked > 100
