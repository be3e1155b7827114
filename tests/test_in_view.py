"""A monster that comes into view is said once ("You see an orc.", the default game's ``in_view``
message; the classic games say nothing), nearest first, and marked Sighted, which a save keeps:
coming back into view it stops a walk again, unsaid."""

from __future__ import annotations

import json

from engine import Monster, testing
from engine.core.kinds.messages import listed
from engine.core.model.components import Sighted
from engine.core.play.session import Session
from engine.persist import runsave
from engine.plugins.rules.monster_ai import Hunting

CORRIDOR = """
    ###########
    #@....#####
    #.....#####
    #.....#####
    #.........o
    ###########
"""


def hunting_orc(registry):
    game = testing.game_from_map(registry, CORRIDOR)
    orc = game.api.monsters()[0]
    game.world.get(orc, Monster).awake = True
    game.scheduler.add(orc, 100)
    game.api.add_component(orc, Hunting(1, 1, 50))
    return game, orc


def test_a_monster_coming_into_view_is_said_once(registry):
    game, orc = hunting_orc(registry)
    session = Session.of(game)
    while not game.api.sees(*game.api.position(orc)):
        session.press(".")
    assert game.messages[-1] == "You see an orc." and game.world.has(orc, Sighted)
    game.sight.watched.clear()  # as if it had stepped out of view
    assert session.press(".").noticed  # back in view: news that stops a walk
    assert game.messages.count("You see an orc.") == 1  # but not said again


def test_the_monsters_in_view_on_arrival_are_said_nearest_first(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@.r....o#
        ##########
    """)
    assert game.messages[-1] == "You see a rat and an orc."


def test_a_list_of_names_reads_as_a_sentence():
    assert listed(["a rat"]) == "a rat"
    assert listed(["a rat", "an orc"]) == "a rat and an orc"
    assert listed(["a rat", "an orc", "a goblin", "a kobold", "an ogre"]) == "a rat, an orc, a goblin and 2 more"


def test_the_classic_presets_say_nothing(registry):
    for preset in ("rogue-sdl", "lesson28", "bunyip"):
        game = testing.game_from_map(registry, "##########\n#@......g#\n##########", game=preset)
        assert game.api.visible_monsters()  # a goblin in view from the start
        assert not any(m.startswith("You see a") for m in game.messages), preset


def test_a_save_keeps_who_was_said(registry):
    game, orc = hunting_orc(registry)
    session = Session.of(game)
    while not game.api.sees(*game.api.position(orc)):
        session.press(".")
    resumed, _ = runsave.load(json.loads(json.dumps(runsave.capture(game))), game.registry)
    assert resumed.world.has(orc, Sighted)
    resumed.sight.watched.clear()
    Session.of(resumed).press(".")
    assert resumed.messages.count("You see an orc.") == 1


def test_a_new_runs_monsters_are_news_whatever_their_ids(registry):
    """A new run numbers its entities anew: a monster with the id of one the last run's player saw
    comes into view all the same."""
    game = testing.game_from_map(registry, "##########\n#@.r.....#\n##########")
    rat = game.api.visible_monsters()[0]
    game.sight._watched = (object(), {rat})  # the last run's world saw an entity of that id
    game.new_in_view = False
    game.sight.watch()
    assert game.new_in_view
