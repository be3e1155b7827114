"""The built-in verbs past drinking, reading, wearing and zapping (plugins/rules/verbs.py): darts
thrown along a line to the first creature or wall and picked up again, food eaten, tools applied
and kept (a charged one spends its charges), a club wielded; none of their keys in a game whose
items do not use them."""

import types

import pytest

from engine import Fighter, ItemKind, LootRow, hookimpl, testing
from engine.core.turn import verbkeys
from engine.core.turn.item_actions import flight
from engine.frontend.helpscreen import help_rows

CORRIDOR = "\n    ##########\n    #@..o..r.#\n    ##########\n"
EMPTY = "\n    ########\n    #@.....#\n    ########\n"


def kit():
    """A plugin's items of each verb: rations to eat, a lamp and a horn of two charges to apply, a
    club to wield; each joins the default game's ``rich`` table, so that the game's items use the
    verbs (a verb's key means it only then). Darts to throw are the default game's own
    (plugins/depths/ranged.py: they hit for 2)."""
    module = types.ModuleType("kit")

    def glow(game, entity, kind, amount, target=None):
        return f"The {kind.name} sounds." if kind.charges else f"The {kind.name} glows."

    module.register_effects = hookimpl(lambda register: register("kit-glow", glow))
    module.register_items = hookimpl(lambda register: [register(kind) for kind in (
        ItemKind(name="ration", glyph="%", color=(200, 150, 90), effect="heal", params={"amount": 5}, use="eat"),
        ItemKind(name="lamp", glyph="(", color=(230, 200, 80), effect="kit-glow", use="apply"),
        ItemKind(name="horn", glyph="(", color=(200, 120, 60), effect="kit-glow", use="apply", charges=2),
        ItemKind(name="club", glyph=")", color=(150, 110, 70), effect="heal", use="wield", slot="weapon", attack=2),
    )])
    module.register_loot = hookimpl(lambda register: [register("undercroft", "rich", LootRow(item=name, weight=1))
                                                      for name in ("ration", "lamp", "horn", "club")])
    return module


@pytest.fixture(scope="module")
def registry():
    registry = testing.load_plugin(kit())
    testing.check_plugin(registry, "kit")
    return registry


def items(state):
    return [(i["kind"], i["x"], i["y"], i.get("amount", 1)) for i in state["items"]]


def test_a_dart_stops_at_the_first_creature_on_its_line_and_lands_under_it(registry):
    game = testing.game_from_map(registry, CORRIDOR)
    game.api.give("dart", 3)
    s = testing.press(game, "t")  # one stack: no menu, the scrolls' cursor at once, on the nearest monster
    assert s["prompt"]["kind"] == "target" and s["prompt"]["title"] == "Aim the dart"
    assert s["prompt"]["cursor"] == [4, 1]
    s = testing.press(game, "l l l enter")  # aimed at the rat: the orc is in the way
    orc, rat = s["monsters"]
    assert s["turn"] == 1 and (orc["kind"], orc["hp"], rat["hp"]) == ("orc", 12, 4)
    assert "The dart hits the orc for 2." in s["messages"]
    assert [(i["kind"], i["x"], i["y"]) for i in s["items"]] == [("dart", 4, 1)]  # where it stopped
    assert [(i["kind"], i["count"]) for i in s["player"]["inventory"]] == [("dart", 2)]  # one of the stack


def test_a_thrown_kill_is_the_throwers_and_a_dart_lands_before_a_wall(registry):
    game = testing.game_from_map(registry, "\n    #######\n    #@.r..#\n    #######\n")
    game.api.give("dart", 2)
    rat = game.api.monsters()[0]
    game.api.component(rat, Fighter).hp = 2
    s = testing.press(game, "t enter")
    assert s["monsters"] == [] and "The dart kills the rat!" in s["messages"] and s["player"]["xp"] > 0
    s = testing.press(game, "t l l l l l enter enter")  # at the far wall: it stops on the floor before it
    assert [(i["kind"], i["x"], i["y"]) for i in s["items"]] == [("dart", 3, 1), ("dart", 5, 1)]
    assert s["player"]["inventory"] == [] and s["turn"] == 2
    s = testing.press(game, "l l g l l g")  # both picked up again, onto one stack
    assert s["items"] == [] and [(i["kind"], i["count"]) for i in s["player"]["inventory"]] == [("dart", 2)]


def test_a_dart_aimed_at_an_empty_cell_lands_there_and_not_at_ones_feet(registry):
    game = testing.game_from_map(registry, EMPTY)
    game.api.give("dart")
    s = testing.press(game, "t l l l enter")
    assert [(i["kind"], i["x"], i["y"]) for i in s["items"]] == [("dart", 4, 1)]
    assert "The dart lands." in s["messages"]
    game.api.give("dart")
    s = testing.press(game, "t enter enter")  # the cursor on the player: not thrown, no time passes
    assert s["turn"] == 1 and s["messages"][-1] == "Aim the dart away from you."


def test_a_thrown_line_is_straight_and_the_same_every_time():
    assert flight((1, 1), (5, 1)) == [(2, 1), (3, 1), (4, 1), (5, 1)]
    assert flight((0, 0), (3, 3)) == [(1, 1), (2, 2), (3, 3)]
    assert flight((0, 0), (5, 2)) == [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2)]
    assert flight((2, 2), (2, 2)) == []


def test_food_is_eaten_one_at_a_time_and_its_effect_applies(registry):
    game = testing.game_from_map(registry, EMPTY)
    game.api.give("ration", 2)
    game.api.damage(game.api.player, 8)
    s = testing.press(game, "e")
    share = game.rules.params["healing"]["share"]  # the default game heals a share of max HP at least
    assert s["player"]["hp"] == 12 + max(5, 20 * share // 100) and s["turn"] == 1
    assert s["messages"][-1] == "You eat the ration and feel better."
    assert [(i["kind"], i["count"]) for i in s["player"]["inventory"]] == [("ration", 1)]


def test_a_tool_is_applied_and_kept_unless_it_spends_charges(registry):
    game = testing.game_from_map(registry, EMPTY)
    game.api.give("lamp")
    for turn in (1, 2):
        s = testing.press(game, "a")
        assert s["turn"] == turn and s["messages"][-1] == "The lamp glows."
    assert [i["kind"] for i in s["player"]["inventory"]] == ["lamp"]
    game.api.give("horn")
    s = testing.press(game, "a")
    assert s["prompt"]["title"] == "Apply what?"
    s = testing.press(game, "b a b")
    assert s["messages"][-1] == "The horn sounds." and s["turn"] == 4
    s = testing.press(game, "a b")
    assert s["turn"] == 4 and s["messages"][-1] == "Nothing happens: the horn has no charges left."
    assert [i["kind"] for i in s["player"]["inventory"]] == ["lamp", "horn"]


def test_a_club_is_wielded_as_a_weapon_is_worn(registry):
    game = testing.game_from_map(registry, EMPTY)
    game.api.give("club")
    assert game.api.keys()["W"] == "wield"
    s = testing.press(game, "W")
    assert s["player"]["attack"] == 6 and s["messages"][-1] == "You are now using the club."
    s = testing.press(game, "W")
    assert s["turn"] == 1 and s["messages"][-1] == "You have nothing to wield."  # only what is not in use
    s = testing.press(game, "T")
    assert s["player"]["attack"] == 4


def test_each_verbs_key_and_help_row_only_where_its_items_are_placed(registry):
    default = testing.load_plugin()
    game = testing.game_from_map(default, EMPTY)
    keys = game.api.keys()
    assert not {"W", "e", "a"} & set(keys)
    assert (keys["z"], keys["t"]) == ("zap", "throw")  # the default game's wands and darts (plugins/depths/ranged.py)
    assert verbkeys.line(default, game.rules) == "q quaff  r read  w wear  z zap  t throw"
    rows = dict(help_rows(game))
    assert not {"wield", "eat", "apply"} & set(rows)
    s = testing.press(game, "e a W")
    assert s["turn"] == 0 and s["prompt"] is None


def test_the_help_and_the_keys_line_say_the_verbs_the_games_items_use(registry):
    game = testing.game_from_map(registry, EMPTY)
    rows = dict(help_rows(game))
    assert (rows["wield"], rows["eat"], rows["apply"], rows["throw"]) == ("W", "e", "a", "t")
    assert verbkeys.line(registry, game.rules) == "q quaff  r read  w wear  z zap  W wield  e eat  a apply  t throw"
    assert all(registry.items[name].stacks for name in ("dart", "ration"))


def test_a_dart_says_what_it_hits_for(registry):
    game = testing.game_from_map(registry, EMPTY)
    game.api.give("dart", 2)
    s = testing.press(game, "i")
    assert s["prompt"]["options"][0]["note"] == "thrown, hits for 2"


def test_a_dart_never_lands_on_the_stairs_it_would_hide(registry):
    game = testing.game_from_map(registry, "\n    #######\n    #@.>..#\n    #######\n")
    game.api.give("dart")
    s = testing.press(game, "t l l enter")
    assert [(i["kind"], i["x"], i["y"]) for i in s["items"]] == [("dart", 2, 1)]  # the cell before them


def test_a_throw_is_announced_as_a_shot_before_its_hit(registry):
    from engine.core.model.events import Hurt, Shot

    game = testing.game_from_map(registry, CORRIDOR)
    game.api.give("dart")
    heard = []
    game.listeners.append(lambda event, g: heard.append(event))
    testing.press(game, "t enter")
    shots, hurt = [e for e in heard if isinstance(e, Shot)], [e for e in heard if isinstance(e, Hurt)]
    assert shots == [Shot((1, 1), (4, 1))] and heard.index(shots[0]) < heard.index(hurt[0])
