"""Aiming where the player means: the cursor starts on the monster last aimed
at (while in view), else the nearest, and an aim whose reach includes the player asks for a
second Enter before it fires."""

import json

from test_pack import kit, pack, play  # noqa: F401

from engine import testing
from engine.core.play.snapshot import snapshot
from engine.persist import runsave
from engine.plugins.depths import identify

WARNING = "That would reach you too: Enter again to do it anyway, or move the cursor."


def test_a_blast_that_would_reach_the_player_asks_for_a_second_enter(tmp_path, kit):  # noqa: F811
    g = play(tmp_path, kit, """
        #########
        #@r.....#
        #########
    """)
    g.give("blast scroll", 2)
    s = testing.press(g, "r")
    assert s["prompt"]["cursor"] == [2, 1] and [1, 1] in s["prompt"]["affected"]  # the rat, and you
    s = testing.press(g, "enter")
    assert s["prompt"]["detail"] == WARNING and s["turn"] == 0 and len(s["monsters"]) == 1
    s = testing.press(g, "l h enter")  # moved away and back: it asks again
    assert s["prompt"]["detail"] == WARNING and s["turn"] == 0
    s = testing.press(g, "enter")
    assert s["prompt"] is None and s["turn"] == 1 and s["monsters"] == []
    assert "blast of 3 cells" in s["messages"] and pack(s) == [("a", "blast scroll", 1, False)]


def test_a_blast_clear_of_the_player_fires_at_once_and_a_click_confirms(tmp_path, kit):  # noqa: F811
    g = play(tmp_path, kit, """
        #########
        #@......#
        #########
    """)
    g.give("blast scroll", 2)
    s = testing.press(g, "r")
    assert s["prompt"]["cursor"] == [1, 1]  # no monster in view: on the player, who must confirm
    s = testing.press(g, "l l l enter")
    assert s["prompt"] is None and s["turn"] == 1  # clear of the player: no question
    s = testing.press(g, "r travel:2,1")
    assert s["prompt"]["detail"] == WARNING and s["turn"] == 1
    s = testing.press(g, "travel:2,1")  # the same cell clicked again
    assert s["prompt"] is None and s["turn"] == 2


def test_the_aim_starts_on_the_monster_last_aimed_at_while_it_is_in_view(tmp_path, kit):  # noqa: F811
    g = play(tmp_path, kit, """
        ##########
        #@..r....#
        #.......r#
        ##########
    """)
    g.give("charm scroll", 3)
    identify.learn_all(g.api)  # said "It was a charm scroll." after the bolt otherwise
    s = testing.press(g, "r")
    assert s["prompt"]["cursor"] == [4, 1]  # the nearest
    s = testing.press(g, "tab enter")  # the far one
    assert s["turn"] == 1 and s["messages"][-1].startswith("bolt at ")
    far = g.state.last_target
    assert far is not None and far in g.visible_monsters()
    # saved and resumed, the next aim starts on it all the same
    resumed, _ = runsave.load(json.loads(json.dumps(runsave.capture(g))), g.registry)
    for game in (g, resumed):
        nearest = min(game.visible_monsters(), key=lambda e: max(abs(a - b) for a, b in
                                                                 zip(game.position(e), game.position(game.player),
                                                                     strict=True)))
        target = game.state.last_target
        assert target != nearest and game.position(target) != game.position(nearest)
        assert testing.press(game, "r")["prompt"]["cursor"] == list(game.position(target))
    assert snapshot(g)["prompt"] == snapshot(resumed)["prompt"]
