"""One hook caller: every call of the plugins' hook implementations in play goes through
engine.core.plugin.hooks, in pluggy's order, each under isolation, given the arguments it names."""

from __future__ import annotations

import re
from pathlib import Path

import pluggy
import pytest

from engine import hookimpl, hookspecs
from engine.core.plugin.hooks import Hooks
from engine.core.plugin.isolation import Isolation, PluginFailure
from engine.core.plugin.registry import PROJECT, Registry

ROOT = Path(__file__).resolve().parent.parent
# The modules that may reach pluggy's implementations themselves: the hook caller, and loading (the
# register hooks, called once per plugin into its intake, and the checks of what a plugin implements).
READERS = {"engine/core/plugin/hooks.py", "engine/core/loading/loader.py", "engine/core/plugin/checks.py"}


def test_nothing_but_the_hook_caller_calls_the_plugins_hooks_in_play():
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "engine").rglob("*.py"))
             if str(path.relative_to(ROOT)) not in READERS
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"get_hookimpls|\bmanager\.hook\b|\.hook\.\w+\(", line)]
    assert found == []


def _hooks(*plugins: tuple[str, object], chosen: set[str] = frozenset()) -> Hooks:
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(hookspecs)
    for name, plugin in plugins:
        manager.register(plugin, name=name)
    return Hooks(Registry(manager=manager), Isolation(set(chosen)))


class Ear:
    def __init__(self, heard: list, answer=None) -> None:
        self.heard, self.answer = heard, answer


class Full(Ear):
    @hookimpl
    def on_action(self, game, entity, action):
        self.heard.append(("full", game, entity, action))
        return self.answer


class Few(Ear):
    @hookimpl
    def on_action(self, entity):  # fewer arguments than the hook passes, as pluggy allows
        self.heard.append(("few", entity))
        return self.answer


class Broken:
    @hookimpl
    def on_turn_end(self, game):
        raise RuntimeError("snapped")


class Steady(Ear):
    @hookimpl
    def on_turn_end(self, game):
        self.heard.append(("steady", game))


def test_each_implementation_is_called_in_pluggy_s_order_with_the_arguments_it_names():
    heard: list = []
    hooks = _hooks(("first", Full(heard)), ("second", Few(heard)))
    hooks.call("on_action", game="api", entity=7, action="step")
    assert heard == [("few", 7), ("full", "api", 7, "step")]  # the last registered first
    assert [(plugin, where) for plugin, where, _, _ in hooks.implementations("on_action")] == [
        ("second", "hook on_action"), ("first", "hook on_action")]


def test_answers_are_asked_one_at_a_time_so_the_first_that_counts_stops_the_rest():
    heard: list = []
    hooks = _hooks(("first", Full(heard, answer="late")), ("second", Few(heard, answer="veto")))
    for plugin, where, answer in hooks.answers("on_action", game="api", entity=3, action="hit"):
        assert (plugin, where, answer) == ("second", "hook on_action", "veto")
        break
    assert heard == [("few", 3)]


def test_a_failing_hook_is_switched_off_in_one_line_and_the_others_are_still_heard(capsys):
    heard: list = []
    hooks = _hooks(("steady", Steady(heard)), ("broken", Broken()))
    hooks.call("on_turn_end", game="api")
    hooks.call("on_turn_end", game="api")
    assert heard == [("steady", "api")] * 2
    assert [str(f) for f in hooks.isolation.failures] == [
        "plugin 'broken' failed in hook on_turn_end (RuntimeError: snapped)"]
    assert capsys.readouterr().err.count("switched off") == 1
    with pytest.raises(PluginFailure, match="plugin 'broken' failed in hook on_turn_end"):
        _hooks(("broken", Broken()), chosen={"broken"}).call("on_turn_end", game="api")


def test_the_implementations_are_found_once_per_game():
    """A game's hook caller is made with the game, after every plugin registered: a plugin
    registered later is heard by the next game."""
    heard: list = []
    hooks = _hooks(("steady", Steady(heard)))
    hooks.call("on_turn_end", game=1)
    hooks.registry.manager.register(Steady(heard), name="another")
    hooks.call("on_turn_end", game=2)
    assert heard == [("steady", 1), ("steady", 2)]
    Hooks(hooks.registry, hooks.isolation).call("on_turn_end", game=3)
    assert heard[2:] == [("steady", 3), ("steady", 3)]
    assert _hooks().implementations("on_death") == []
    assert Hooks(Registry(), Isolation(set())).implementations("on_death") == []  # no manager: no plugins
