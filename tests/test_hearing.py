"""engine.hears: an action hook marked with whose actions it hears is called for those and passed by
for every other (engine.core.turn.hearing); an unmarked one hears every action; the default game's
own action hooks are marked, so a monster's step across plain floor calls none."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine import Move, StatusKind, Wait, hears, hookimpl, testing
from engine.core.plugin.registry import HEARS, Hearing

DEEP = "deep-water"  # the default game's (plugins/depths/terrain.py)


@dataclass
class Tag:
    """A component a test puts on a monster."""


class Ear:
    def __init__(self, heard: list) -> None:
        self.heard = heard


class Having(Ear):
    @hookimpl
    def register_components(self, register):
        register(Tag)

    @hookimpl
    @hears(having=[Tag])
    def on_action(self, entity, action):
        self.heard.append(("having", entity))


class Statused(Ear):
    @hookimpl
    def register_statuses(self, register):
        register(StatusKind(name="listened", label="Listened"))

    @hookimpl
    @hears(statuses="listened")  # one name, as a list of one
    def on_action(self, entity, action):
        self.heard.append(("statuses", entity))


class Present(Ear):
    @hookimpl
    @hears(present=Tag)
    def on_action(self, entity, action):
        self.heard.append(("present", entity))


class Steps(Ear):
    @hookimpl
    @hears(steps=[DEEP])
    def on_action(self, entity, action):
        self.heard.append(("steps", entity))


class Marker(Ear):
    """Unmarked: hears every action, and marks the actor 'listened' (called before the others)."""

    @hookimpl
    def on_action(self, game, entity, action):
        self.heard.append(("unmarked", entity))
        if game.kind_of(entity) is not None and not game.has_status(entity, "listened"):
            game.add_status(entity, "listened", None)


MAP = """
    ##########
    #@.r....r#
    #........#
    ##########
"""


def _game(*plugins):
    registry = testing.load_plugin(*plugins)
    for plugin in plugins:
        assert registry.plugin(type(plugin).__name__).error is None
    return testing.game_from_map(registry, MAP)


def test_each_mark_names_whose_actions_its_hook_hears_and_no_other_s():
    heard: list = []
    game = _game(Having(heard), Statused(heard), Present(heard), Steps(heard))
    try:
        api = game.api
        player, (rat, far) = api.player, api.monsters()
        for entity in (player, rat, far):
            game.acting.perform(entity, Wait())
        assert heard == []  # nobody's actions are named yet: no hook was called
        api.add_component(rat, Tag())
        game.acting.perform(rat, Wait())
        game.acting.perform(far, Wait())
        assert heard == [("present", rat), ("having", rat), ("present", far)]  # while a Tag is on the level
        heard.clear()
        api.remove_component(rat, Tag)
        api.add_status(far, "listened", None)
        game.acting.perform(rat, Wait())
        game.acting.perform(far, Wait())
        assert heard == [("statuses", far)]
        heard.clear()
        api.remove_status(far, "listened")
        x, y = api.position(rat)
        api.set_terrain(x + 2, y, DEEP)  # the kinds' cells follow the terrain as it changes
        game.acting.perform(rat, Move(1, 0))  # onto the floor beside the water: not heard
        assert heard == []
        game.acting.perform(rat, Move(1, 0))  # into it (refused to a rat: it does not swim)
        assert heard == [("steps", rat)]
        heard.clear()
        api.set_terrain(x + 1, y, DEEP)  # now the rat stands in water: a step off it is heard too
        game.acting.perform(rat, Move(0, 1))
        assert heard == [("steps", rat)]
    finally:
        game.close()


def test_a_mark_is_judged_when_its_hook_s_turn_comes_on_the_run_as_the_hooks_before_left_it():
    heard: list = []
    # pluggy calls the last registered first: the unmarked Marker gives the status, then the marked
    # one hears the very action that got it
    game = _game(Statused(heard), Marker(heard))
    try:
        rat = game.api.monsters()[0]
        game.acting.perform(rat, Wait())
        assert heard == [("unmarked", rat), ("statuses", rat)]
    finally:
        game.close()


def test_a_monster_s_step_across_plain_floor_in_the_default_game_calls_no_action_hook():
    game = testing.game_from_map(testing.load_plugin(), MAP)
    try:
        asked: list = []
        first = game.hooks.first

        def counted(name, *args, **kwargs):
            asked.append((name, args[2]))  # (hook, entity)
            return first(name, *args, **kwargs)

        game.hooks.first = counted
        api = game.api
        player, (rat, _) = api.player, api.monsters()
        game.acting.perform(rat, Move(0, 1))
        assert asked == []  # confusion's, the water's, the vaults' and the allies' hooks are all marked
        game.acting.perform(player, Move(0, 1))
        assert ("on_action", player) in asked  # the player's actions are heard as ever
        api.add_status(rat, "confused", 5)
        game.acting.perform(rat, Move(0, -1))
        assert ("on_action", rat) in asked  # a confused monster's step is heard (and staggers)
    finally:
        game.close()


def test_hears_takes_what_it_names_and_refuses_the_rest_at_once():
    marked = hears(player=True, having=Tag, statuses=["a", "b"])(lambda: None)
    assert getattr(marked, HEARS) == Hearing(player=True, having=(Tag,), statuses=frozenset({"a", "b"}))
    with pytest.raises(TypeError, match="name whose actions"):
        hears()
    with pytest.raises(TypeError, match="having takes component types"):
        hears(having=["Tag"])
    with pytest.raises(TypeError, match="steps takes names"):
        hears(steps=[Tag])
    with pytest.raises(TypeError, match="player is True or False"):
        hears(player=1)


class StepsAfter:
    @hookimpl
    @hears(steps=[DEEP])
    def after_action(self, entity, action, result):
        pass


def test_steps_on_after_action_breaks_the_plugin_in_one_line():
    registry = testing.load_plugin(StepsAfter())
    assert registry.plugin("StepsAfter").error == (
        "hook 'after_action' is marked engine.hears(steps=...), which only on_action may be "
        "(a step's cells are judged before it is taken)")
