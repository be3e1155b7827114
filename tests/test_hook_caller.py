"""One hook caller: every call of the plugins' hook implementations in play goes through
engine.core.plugin.hooks, in pluggy's order, each under isolation, given the arguments it names."""

from __future__ import annotations

import re
from pathlib import Path

import pluggy
import pytest

from engine import hookimpl, hookspecs, player_only
from engine.core.plugin.hooks import Hooks
from engine.core.plugin.isolation import Isolation, PluginFailure
from engine.core.plugin.registry import PROJECT, Hearing, Registry

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


class Backward(Ear):
    @hookimpl
    def after_action(self, result, entity):  # its own order, as pluggy allows: given by name
        self.heard.append(("backward", result, entity))


class Whole(Ear):
    @hookimpl
    def after_action(self, game, entity, action, result):
        self.heard.append(("whole", game, entity, action, result))


class Sulks:
    @hookimpl
    def on_action(self, game, entity, action):
        raise RuntimeError("sulks")


def test_first_and_tell_give_each_implementation_the_arguments_it_names_in_the_hooks_order():
    heard: list = []
    hooks = _hooks(("whole", Whole(heard)), ("backward", Backward(heard)))
    hooks.tell("after_action", "api", 4, "step", "done")
    assert heard == [("backward", "done", 4), ("whole", "api", 4, "step", "done")]
    heard.clear()
    hooks = _hooks(("first", Full(heard)), ("second", Few(heard)))
    assert hooks.first("on_action", lambda *_: True, "api", 7, "step") is None  # nobody answered
    assert heard == [("few", 7), ("full", "api", 7, "step")]
    assert Hooks(Registry(), Isolation(set())).first("on_action", lambda *_: True, 1, 2, 3) is None


def test_first_stops_at_the_first_answer_its_judge_takes_and_asks_on_past_a_bad_one_or_a_failure(capsys):
    heard: list = []
    judged: list = []

    def judge(plugin, where, answer):
        judged.append((plugin, where, answer))
        return answer != "bad"

    hooks = _hooks(("last", Full(heard, answer="never")), ("good", Full(heard, answer="good")),
                   ("bad", Few(heard, answer="bad")), ("sulks", Sulks()))
    assert hooks.first("on_action", judge, "api", 5, "hit") == "good"
    assert judged == [("bad", "hook on_action", "bad"), ("good", "hook on_action", "good")]
    assert heard == [("few", 5), ("full", "api", 5, "hit")]  # "last" was never asked
    assert [f.plugin for f in hooks.isolation.failures] == ["sulks"] and "switched off" in capsys.readouterr().err
    heard.clear()
    assert hooks.first("on_action", judge, "api", 6, "hit") == "good"  # the one switched off is not asked
    assert heard == [("few", 6), ("full", "api", 6, "hit")]
    with pytest.raises(PluginFailure, match="plugin 'sulks' failed in hook on_action"):
        _hooks(("sulks", Sulks()), chosen={"sulks"}).first("on_action", judge, "api", 1, "hit")


class Marked(Ear):
    """Hears the player's actions only (engine.player_only), before and after."""

    @hookimpl
    @player_only
    def on_action(self, entity, action):
        self.heard.append(("marked before", entity, action))
        return self.answer

    @player_only  # above or below @hookimpl: the same mark
    @hookimpl
    def after_action(self, entity, action):
        self.heard.append(("marked after", entity, action))


class Unmarked(Ear):
    """Hears every action, before and after."""

    @hookimpl
    def on_action(self, entity, action):
        self.heard.append(("unmarked before", entity, action))
        return self.answer

    @hookimpl
    def after_action(self, entity, action):
        self.heard.append(("unmarked after", entity, action))


def _player_s(mark, api, entity, *_):
    """A judge of marks as the game's (engine.core.turn.hearing) for these tests: entity 1 is the player."""
    return mark.player and entity == 1


def test_an_implementation_marked_player_only_is_left_out_when_the_judge_says_it_does_not_hear_the_action():
    heard: list = []
    hooks = _hooks(("unmarked", Unmarked(heard)), ("marked", Marked(heard)), ("full", Full(heard)))
    assert hooks.first("on_action", lambda *_: True, "api", 1, "step", heard=_player_s) is None  # the player's: all
    hooks.tell("after_action", "api", 1, "step", "done", heard=_player_s)
    assert heard == [("full", "api", 1, "step"), ("marked before", 1, "step"), ("unmarked before", 1, "step"),
                     ("marked after", 1, "step"), ("unmarked after", 1, "step")]
    heard.clear()
    assert hooks.first("on_action", lambda *_: True, "api", 9, "step", heard=_player_s) is None  # a monster's
    hooks.tell("after_action", "api", 9, "step", "done", heard=_player_s)
    assert heard == [("full", "api", 9, "step"), ("unmarked before", 9, "step"), ("unmarked after", 9, "step")]
    assert [(plugin, mark) for plugin, *_, mark in hooks.in_order("on_action")] == [
        ("full", None), ("marked", Hearing(player=True)), ("unmarked", None)]
    heard.clear()  # with no judge, every one is called
    hooks.tell("after_action", "api", 9, "step", "done")
    assert heard == [("marked after", 9, "step"), ("unmarked after", 9, "step")]
    heard.clear()  # a marked one's answer still wins the player's action, and only the player's
    hooks = _hooks(("unmarked", Unmarked(heard, answer="theirs")), ("marked", Marked(heard, answer="mine")))
    assert hooks.first("on_action", lambda *_: True, "api", 1, "step", heard=_player_s) == "mine"
    assert hooks.first("on_action", lambda *_: True, "api", 9, "step", heard=_player_s) == "theirs"


def test_in_a_game_a_marked_hook_hears_the_player_s_actions_and_never_a_monster_s():
    from engine import Move, Wait, testing

    heard: list = []
    registry = testing.load_plugin(Marked(heard), Unmarked(heard))
    assert registry.plugin("Marked").error is None and registry.plugin("Unmarked").error is None
    game = testing.game_from_map(registry, """
        ######
        #@.r.#
        ######
    """)
    try:
        player, (rat,) = game.api.player, game.api.monsters()
        game.acting.perform(player, Wait())
        game.acting.perform(rat, Move(-1, 0))
        game.acting.perform(rat, Move(-1, 0))  # into the player: a bump, then the attack it becomes
        by = {(who, entity) for who, entity, _ in heard}
        assert by == {("marked before", player), ("marked after", player), ("unmarked before", player),
                      ("unmarked after", player), ("unmarked before", rat), ("unmarked after", rat)}
        assert [type(action).__name__ for who, entity, action in heard if who == "unmarked before" and entity == rat] \
            == ["Move", "Move", "Attack"]  # every alternate of a monster's is heard by the unmarked
        heard.clear()
        testing.press(game, ". .")  # a turn the player waits and the rat, awake beside them, strikes
        assert {entity for who, entity, _ in heard if who.startswith("marked")} == {player}
        assert rat in {entity for who, entity, _ in heard if who.startswith("unmarked")}
    finally:
        game.close()


class Misplaced:
    @hookimpl
    @player_only
    def on_death(self, entity):
        pass


def test_player_only_on_a_hook_that_does_not_hear_an_action_breaks_the_plugin_in_one_line():
    from engine import testing

    registry = testing.load_plugin(Misplaced())
    (broken,) = [p for p in registry.plugins if p.name == "Misplaced"]
    assert broken.error == ("hook 'on_death' is marked engine.hears (or engine.player_only), which only on_action "
                            "and after_action may be (the hooks that hear whose action it is)")
