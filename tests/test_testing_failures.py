"""The test kit fails a test on a plugin's error that play would only switch off: a plugin nobody
chose that raises (its ``on_turn_end`` every turn, say) is one stderr line in play, and a failed
test in ``engine.testing``, naming the plugin and where it failed; ``allow_plugin_errors=True``
lets a test of that isolation itself go on."""

from __future__ import annotations

import types

import pytest

from engine import hookimpl, testing
from engine.testing import ContractError

PLAIN = """
    #######
    #@...>#
    #######
"""


def crashing(name: str, **hooks) -> types.ModuleType:
    module = types.ModuleType(name)
    for hook, fn in hooks.items():
        setattr(module, hook, hookimpl(fn))
    return module


def every_turn_end(game):
    raise RuntimeError("the fog thickens")


@pytest.fixture(scope="module")
def foggy():
    return testing.load_plugin(crashing("foggy", on_turn_end=every_turn_end))


def test_press_fails_on_a_plugin_that_raises_in_a_hook(foggy, capsys):
    game = testing.game_from_map(foggy, PLAIN)
    with pytest.raises(ContractError) as e:
        testing.press(game, ". . .")
    message = str(e.value)
    assert message.startswith("plugin 'foggy': fails in hook on_turn_end: RuntimeError: the fog thickens (key 1 of 3")
    assert "allow_plugin_errors=True" in message and "\n" not in message


def test_press_allows_plugin_errors_when_asked_and_the_game_goes_on(foggy, capsys):
    game = testing.game_from_map(foggy, PLAIN)
    state = testing.press(game, ". . .", allow_plugin_errors=True)
    assert state["turn"] == 3  # switched off after the first turn; every key played
    assert [(f.plugin, f.where) for f in game.isolation.failures] == [("foggy", "hook on_turn_end")]
    assert "plugin 'foggy' failed in hook on_turn_end" in capsys.readouterr().err  # play's own line, unchanged


def test_a_failure_while_the_game_starts_is_named_at_the_first_key(capsys):
    registry = testing.load_plugin(crashing("sour", on_level_generated=lambda game, level: {}["x"]))
    game = testing.game_from_map(registry, PLAIN)
    with pytest.raises(ContractError, match=r"^plugin 'sour': fails in hook on_level_generated: KeyError: 'x' "
                                            r"\(before the first key;"):
        testing.press(game, ".")


def test_check_preset_fails_on_a_plugin_nobody_chose(foggy, capsys):
    rules = foggy.games["undercroft"]
    with pytest.raises(ContractError, match=r"^plugin 'foggy': fails in hook on_turn_end: RuntimeError: the fog "
                                            r"thickens \(seed 1, key \d+ of 20, "):
        testing.check_preset(rules, foggy, seeds=1, keys=20)
    testing.check_preset(rules, foggy, seeds=1, keys=20, depths=1, allow_plugin_errors=True)


def test_check_behaviour_and_check_effect_fail_on_another_plugins_error(capsys):
    def on_action(game, entity, action):
        raise ValueError("no moving today")

    registry = testing.load_plugin(crashing("grumpy", on_action=on_action))
    with pytest.raises(ContractError, match=r"^plugin 'grumpy': fails in hook on_action: ValueError: no moving "
                                            r"today \(situation 0, monster"):
        testing.check_behaviour(registry, "chase", situations=2)
    testing.check_behaviour(registry, "chase", situations=2, allow_plugin_errors=True)
    sour = testing.load_plugin(crashing("sour", on_level_generated=lambda game, level: 1 / 0))
    with pytest.raises(ContractError, match=r"^plugin 'sour': fails in hook on_level_generated: ZeroDivisionError"):
        testing.check_effect(sour, "heal", cases=2)
    testing.check_effect(sour, "heal", cases=2, allow_plugin_errors=True)
