"""A log that speaks: every message carries the kind of event it says from
where it is logged, the window colours the log and the history by it, kills are said before the
level-up they earn, and an archer's shot reads apart from a blow."""

from __future__ import annotations

import json
import types

import pytest

from engine import Monster, hookimpl, load_registry, testing
from engine.core.kinds.saying import KINDS, Message, kind_of
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.persist import runsave
from engine.plugins.depths import identify
from engine.plugins.rules.growth import Experience


@pytest.fixture(scope="module")
def registry():
    return load_registry(entry_points=False)


def game_with(registry, picture: str, seed: int = 1):
    """A started default game whose first level is ``picture`` (seed 1, as these tests were written for)."""
    game = testing.game_from_map(registry, picture, seed=seed)
    identify.learn_all(game.api)  # no "It was a scroll of lightning." after the level-up
    return game


def wake(game) -> None:
    """The level's one monster, as if it had just seen the player."""
    monster = game.api.monsters()[0]
    game.world.get(monster, Monster).awake = True
    game.scheduler.add(monster, 100)


def said(game) -> list[tuple[str, str]]:
    """The log as (text, kind), oldest first."""
    return [(str(m), kind_of(m)) for m in game.messages]


def test_a_template_says_its_keys_kind_and_a_plugin_says_its_own(registry):
    game = new_game(Setup(seed=1), registry)
    rules = game.rules
    assert [kind_of(rules.message(key, attacker="rat", target="rat", damage=2, item="potion", letter="a",
                                  amount=3, depth=2))
            for key in ("monster_hit", "player_hit", "player_kill", "pickup", "no_target", "descend")] == \
        ["hurt", "hit", "kill", "item", "warn", ""]
    game.api.log("A chill rises.", kind="warn")
    game.api.log(rules.message("player_kill", attacker="you", target="rat", damage=4))  # its own kind
    game.api.log("Nothing much.")
    assert said(game)[-3:] == [("A chill rises.", "warn"), ("You kill the rat!", "kill"), ("Nothing much.", "")]
    with pytest.raises(ValueError, match=r"^log: kind 'loud' is not a kind of message \(valid: '', 'hurt', "):
        game.api.log("Boom.", kind="loud")
    assert set(KINDS) == {"", "hurt", "hit", "kill", "level", "item", "warn"}
    game.close()


def test_a_blow_a_kill_and_what_hurts_you_are_said_as_such(registry):
    g = game_with(registry, "#######\n#@r...#\n#######\n")
    g.give("potion")
    testing.press(g, "l l")  # the sleeping rat: a blow kills it (attack 4, 4 HP)
    assert said(g)[-1] == ("You kill the rat!", "kill")
    testing.press(g, "q")
    assert said(g)[-1] == ("You drink the potion and feel better.", "item")
    testing.press(g, "q")
    assert said(g)[-1] == ("You have nothing to drink.", "warn")


def test_an_archers_shot_is_said_apart_from_a_blow(registry):
    g = game_with(registry, """
        ###########
        #@...a....#
        ###########
    """)
    wake(g)
    testing.press(g, ".")
    assert said(g)[-1] == ("The goblin archer shoots you for 3.", "hurt")
    # cornered beside the player, with nowhere to step back to, it strikes: a blow
    g = game_with(registry, "#####\n#@a##\n#####\n")
    wake(g)
    testing.press(g, ".")
    assert said(g)[-1] == ("The goblin archer hits you for 3.", "hurt")


def test_a_kill_is_said_before_the_level_up_it_earns(registry):
    g = game_with(registry, "#######\n#@r...#\n#######\n")
    g.api.component(g.player, Experience).xp = 9
    testing.press(g, "l")
    assert said(g)[-2:] == [("You kill the rat!", "kill"), ("You feel more experienced: level 2.", "level")]


def test_a_fireball_says_every_kill_in_order_before_the_level_up(registry):
    """Today's trap: the level-up was said by the first death, inside the blast, before the burst
    and before the second kill. Now: the burst, each kill, then the level-up, then the question."""
    g = game_with(registry, """
        ###########
        #@........#
        #......rr.#
        #.........#
        ###########
    """)
    g.api.component(g.player, Experience).xp = 8  # two rats (2 xp each) make level 2
    g.give("scroll of fireball")
    s = testing.press(g, "r enter")
    assert s["monsters"] == [] and s["player"]["level"] == 2
    tail = said(g)[-4:]
    assert tail == [("The fireball bursts: it burns the rat (4), the rat (4).", "hit"),
                    ("You kill the rat!", "kill"), ("You kill the rat!", "kill"),
                    ("You feel more experienced: level 2.", "level")]
    assert s["prompt"]["kind"] == "question"


def test_lightning_says_its_kill_before_the_level_up(registry):
    g = game_with(registry, "#########\n#@....O.#\n#########\n")
    ogre = next(iter(g.api.monsters()))
    g.api.damage(ogre, g.api.hp(ogre)[0] - 10)  # 10 HP left: the bolt (14) kills it
    g.api.component(g.player, Experience).xp = 0
    g.give("scroll of lightning")
    testing.press(g, "r")
    assert said(g)[-3:] == [("Lightning strikes the ogre for 10!", "hit"), ("You kill the ogre!", "kill"),
                            ("You feel more experienced: level 2.", "level")]


def test_the_level_up_question_states_its_amounts_and_its_heal(registry):
    g = game_with(registry, "#######\n#@r...#\n#######\n")
    g.api.component(g.player, Experience).xp = 9
    g.api.damage(g.player, 10)
    s = testing.press(g, "l")
    growth = g.rules.params["growth"]
    assert s["prompt"]["title"] == f"Level 2: you regain {growth['heal']} HP. What grows?"
    assert s["player"]["hp"] == 10 + growth["heal"]
    assert [o["label"] for o in s["prompt"]["options"]] == [
        f"More HP: +{growth['hp']} max HP (and {growth['hp']} HP now)", f"More attack: +{growth['attack']} attack",
        f"More defense: +{growth['defense']} defense"]
    s = testing.press(g, "a")
    assert said(g)[-1] == (f"You feel tougher: +{growth['hp']} max HP ({20 + growth['hp']} in all).", "level")
    assert s["player"]["max_hp"] == 20 + growth["hp"]


def test_a_save_keeps_each_messages_kind_and_an_older_save_reads_as_plain(registry):
    g = game_with(registry, "#######\n#@r...#\n#######\n")
    testing.press(g, "l")
    data = json.loads(json.dumps(runsave.capture(g)))
    assert data["message_kinds"][-1] == "kill"
    resumed, _ = runsave.load(data, g.registry)
    assert said(resumed) == said(g)
    del data["message_kinds"]  # a save from before kinds
    older, _ = runsave.load(data, g.registry)
    assert [kind_of(m) for m in older.messages] == [""] * len(g.messages)
    data["message_kinds"] = ["loud"] * len(g.messages)
    with pytest.raises(ValueError, match=r"message_kinds\[0\]"):
        runsave.load(data, g.registry)


def test_a_message_keeps_its_kind_through_a_copy():
    import copy
    import pickle

    m = Message("You kill the rat!", "kill")
    assert kind_of(pickle.loads(pickle.dumps(m))) == "kill" and kind_of(copy.deepcopy(m)) == "kill"
    assert m == "You kill the rat!" and json.dumps([m]) == '["You kill the rat!"]'


# --- the window ----------------------------------------------------------------------------------


def test_the_palette_tells_the_kinds_apart_and_the_check_says_when_not(registry, monkeypatch):
    from engine.frontend import palette

    assert testing.palette_problems(registry) == []
    colours = [palette.message_colour(kind, fresh) for kind in KINDS for fresh in (True, False)]
    assert len(set(colours)) == 2 * len(KINDS)
    monkeypatch.setitem(palette.MESSAGE_COLOURS, "hit", (165, 165, 168))  # damage dealt as grey as plain
    with pytest.raises(testing.ContractError, match=r"log: plain \(160, 160, 165\) and hit \(165, 165, 168\) are "
                                                    r"[0-9.]+ apart \(at least 20\)"):
        testing.check_palette(registry, "undercroft")


def test_the_log_shows_eight_lines_coloured_by_kind_and_the_history_too(registry):
    pytest.importorskip("arcade")
    from engine.frontend import palette
    from engine.frontend.launch import open_window
    from engine.frontend.settings import Settings

    g = game_with(registry, "#########\n#@r.....#\n#########\n")
    for i in range(10):
        g.log(f"Line {i}.")
    g.give("potion")
    testing.press(g, "l g q")  # a kill, nothing to pick up (a warning), a drink (an item)
    window = open_window(g, headless=True, settings=Settings({"window_size": [1120, 640]}))
    try:
        window.frames.draw()
        lines, colours = window.log.lines(), window.log.colours()
        assert len(lines) >= 8
        assert lines[-3:] == ["You kill the rat!", "There is nothing here to pick up.",
                              "You drink the potion and feel better."]
        # the key press's lines bright (a key each here: only the last is fresh), older ones dimmer
        assert colours[-3:] == [palette.message_colour("kill", False), palette.message_colour("warn", False),
                                palette.message_colour("item", True)]
        assert colours[0] == palette.message_colour("", False)
        Session.of(g).press("v")
        window.frames.draw()
        box = window.prompt_view.box
        shown = {text: colour for text, colour, _ in box.lines}
        assert shown["You kill the rat!"] == palette.message_colour("kill")
        assert shown["There is nothing here to pick up."] == palette.message_colour("warn")
    finally:
        window.close()


def test_a_plugin_kind_colours_its_line(tmp_path):
    plugin = types.SimpleNamespace(on_turn_end=hookimpl(lambda game: game.log("A chill rises.", kind="warn")))
    registry = testing.load_plugin(plugin)
    game = new_game(Setup(seed=2), registry)
    testing.press(game, ".")
    assert said(game)[-1] == ("A chill rises.", "warn")
    game.close()
