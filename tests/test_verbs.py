"""Item verbs are registered kinds, and presets' loot tables take plugins' rows: a wand of a plugin
zapped until its charges run out, a verb of a plugin's own with its key and its pack menu, a row
joining the default game's floor at its depths, and bad names refused in one line each."""

import json
import types

import pytest

from engine import GameRules, ItemKind, LootRow, Verb, hookimpl, testing
from engine.cli.tools.catalog import entries
from engine.core.turn import verbkeys
from engine.frontend.helpscreen import help_rows
from engine.persist import runsave

HERE = "\n    #########\n    #@......#\n    #########\n"


def zapper(**loot):
    """A plugin module, as a third party writes it: a wand of 3 charges whose sparks land where it
    is zapped, a lamp rubbed with ``a`` (a verb of its own), and, given ``loot``, rows for the
    default game's tables."""
    module = types.ModuleType("zapper")

    def spark(game, entity, kind, amount, target=None):
        return f"Sparks fly at {target[0]},{target[1]}."

    def rub(game, entity, item, target):
        if game.data("zapper").get("rubbed"):
            game.log("The lamp is cold.")
            return False  # nothing done: no time passes
        game.data("zapper")["rubbed"] = True
        game.log("You rub the lamp: it glows.")
        return None

    module.register_items = hookimpl(lambda register: [
        register(ItemKind(name="wand of sparks", glyph="/", color=(250, 120, 250), effect="spark", use="zap",
                          charges=3, description="Sparks, three times.")),
        register(ItemKind(name="brass lamp", glyph="(", color=(230, 190, 60), effect="spark", use="rub",
                          description="Rub it."))])
    module.register_effects = hookimpl(lambda register: register("spark", spark))
    module.register_verbs = hookimpl(lambda register: register(Verb(name="rub", key="a", title="Rub what?",
                                                                    act=rub)))
    rows = loot.get("rows", [("undercroft", "floor", LootRow(item="wand of sparks", weight=1000, min_depth=2,
                                                                max_depth=3)),
                             ("undercroft", "rich", LootRow(item="brass lamp", weight=1))])
    module.register_loot = hookimpl(lambda register: [register(*row) for row in rows])
    return module


@pytest.fixture(scope="module")
def registry():
    registry = testing.load_plugin(zapper())
    testing.check_plugin(registry, "zapper")
    return registry


def test_a_wand_is_zapped_until_its_charges_run_out(registry):
    game = testing.game_from_map(registry, HERE)
    game.api.give("wand of sparks")
    for charge in range(3):
        s = testing.press(game, "z")  # the one wand: no menu, a cursor at once
        assert s["prompt"]["kind"] == "target" and s["prompt"]["title"] == "Aim the wand of sparks"
        s = testing.press(game, "l l l enter")
        assert s["prompt"] is None and s["turn"] == 1 + charge
        assert s["messages"][-1] == "Sparks fly at 4,1."
    s = testing.press(game, "z l enter")
    assert s["turn"] == 3 and s["messages"][-1] == "Nothing happens: the wand of sparks has no charges left."
    assert [(i["kind"], i["charges"]) for i in s["player"]["inventory"]] == [("wand of sparks", 0)]  # it stays


def test_charges_are_saved_and_a_wand_does_not_stack(registry):
    game = testing.game_from_map(registry, HERE)
    game.api.give("wand of sparks")
    testing.press(game, "z l l enter")
    game.api.give("wand of sparks")
    wands = [e for e in game.api.pack()]
    assert len(wands) == 2  # each wand keeps its own letter and charges
    resumed, _ = runsave.load(json.loads(json.dumps(runsave.capture(game))), game.registry)
    s = testing.press(resumed, "z")
    assert s["prompt"]["title"] == "Zap what?"
    assert [o["label"] for o in s["prompt"]["options"]] == ["wand of sparks (2 charges)", "wand of sparks (3 charges)"]


def test_a_plugins_own_verb_has_its_key_its_menu_and_its_act(registry):
    game = testing.game_from_map(registry, HERE)
    game.api.give("brass lamp")
    game.api.give("brass lamp")
    assert game.api.keys()["a"] == "rub" and game.api.keys()["z"] == "zap"
    s = testing.press(game, "a")
    assert s["prompt"]["title"] == "Rub what?" and [o["letter"] for o in s["prompt"]["options"]] == ["a", "b"]
    s = testing.press(game, "b")
    assert s["turn"] == 1 and s["messages"][-1] == "You rub the lamp: it glows."
    s = testing.press(game, "a b")
    assert s["turn"] == 1 and s["messages"][-1] == "The lamp is cold."  # act said False: no time passed
    rows = dict(help_rows(game))
    assert rows["rub"] == "a" and rows["zap"] == "z" and rows["drink"] == "q"


def test_a_plugin_presets_keys_line_says_the_verbs_its_items_use():
    """A preset with no keys line of its own gets the default one, which names the keys of the
    verbs its items use (it said "q drink" whatever they were: a plugin's "a rub" went unsaid)."""
    from engine.core.play.status import line

    module = zapper(rows=[])
    module.register_games = hookimpl(lambda register: register(GameRules(
        name="chapel", width=20, height=10, item_counts={"brass lamp": (1, 1), "potion": (1, 1)})))
    game = testing.game_from_map(testing.load_plugin(module), HERE, game="chapel")
    assert line(game, "keys") == "arrows/hjklyubn move   . wait   > descend   q quaff  a rub   ? help   Esc quit"


def test_a_verb_no_item_of_the_preset_uses_leaves_its_key_alone():
    registry = testing.load_plugin(zapper(rows=[]))
    game = testing.game_from_map(registry, HERE)
    assert "a" not in game.api.keys()  # (z and t: the default game's own wands and darts, plugins/depths/ranged.py)
    assert verbkeys.line(registry, game.rules) == "q quaff  r read  w wear  z zap  t throw"
    s = testing.press(game, "a")
    assert s["prompt"] is None and s["turn"] == 0


def test_a_loot_row_joins_the_default_games_floor_at_its_depths(registry):
    lines = [line for line in entries(range(1, 4), range(1, 5), registry=registry)
             if not line.startswith("loot ") or "(plugin zapper)" in line]  # (the built-in depths add rows too)
    assert lines[:2] == ["loot floor + wand of sparks weight 1000 per_depth 0 depths 2-3 (plugin zapper)",
                         "loot rich + brass lamp weight 1 per_depth 0 depths 1+ (plugin zapper)"]
    wands = {}
    depth = None
    for line in lines[2:]:
        if line.startswith("seed "):
            depth = int(line.split()[3].rstrip(":"))
        elif "wand of sparks" in line:
            wands[depth] = wands.get(depth, 0) + 1
    assert set(wands) == {2, 3}
    assert verbkeys.line(registry, registry.games["undercroft"]) == "q quaff  r read  w wear  z zap  t throw  a rub"
    built_in = [line for line in entries([1], [2], registry=testing.load_plugin()) if line.startswith("loot ")]
    assert all("(plugin depths_" in line for line in built_in)  # no rows added but the default game's own


@pytest.mark.parametrize(("row", "line"), [
    (("crypt", "floor"), "no game named 'crypt' (valid: "),
    (("undercroft", "flor"), "game 'undercroft' has no loot table 'flor' (its tables: drop, floor, rich)"),
    (("lesson28", "floor"), "game 'lesson28' has no loot table 'floor' (its tables: none: it rolls no loot)"),
])
def test_a_row_for_a_table_that_is_not_there_is_skipped_in_one_line(row, line):
    registry = testing.load_plugin(zapper(rows=[(*row, LootRow(item="wand of sparks", weight=5))]))
    [skipped] = registry.plugin("zapper").skipped
    assert skipped.line.startswith(f"skipped loot row '{row[0]}/{row[1]}/wand of sparks': {line}")
    assert "wand of sparks" not in str(registry.games["undercroft"].loot)


def test_bad_rows_verbs_and_uses_are_refused_at_load():
    bad = types.ModuleType("bad")
    bad.register_items = hookimpl(lambda register: register(ItemKind(
        name="odd stone", glyph="*", color=(1, 2, 3), effect="heal", use="juggle")))
    bad.register_verbs = hookimpl(lambda register: [register(Verb(name="tap", key="travel:1,1", title="Tap?")),
                                                    register(Verb(name="pat", key="p", title="")),
                                                    register(Verb(name="look", key="L", title="Look at what?"))])
    bad.register_loot = hookimpl(lambda register: [register("undercroft", "floor", LootRow(item="potion", weight=-1)),
                                                   register("undercroft", "floor", LootRow(item="nothing", weight=1))])
    registry = testing.load_plugin(bad)
    said = [s.line for s in registry.plugin("bad").skipped]
    assert any(line.startswith("skipped verb 'tap': register_verbs: 'tap': key must be a key token") for line in said)
    assert any("skipped verb 'pat'" in line and "title must not be empty" in line for line in said)
    assert any("skipped verb 'look'" in line and "is a command's" in line for line in said)
    assert any(line.startswith("skipped item 'odd stone': item 'odd stone' names verb 'juggle', which no plugin "
                               "registers") for line in said)
    assert any("skipped loot row 'undercroft/floor/potion'" in line and "weight" in line for line in said)
    assert any(line.startswith("skipped loot row 'undercroft/floor/nothing': no item named 'nothing'")
               for line in said)


def test_a_keys_line_may_say_the_verbs_the_games_items_use(registry):
    import dataclasses

    from engine.core.kinds import rules as presets
    from engine.core.play import status

    undercroft = registry.games["undercroft"]
    said = dataclasses.replace(undercroft, messages={**undercroft.messages, "keys": "{verbs}   ? keys"})
    presets.validate(said)  # a preset may write {verbs}
    registry.games["said"] = dataclasses.replace(said, name="said", default=False)
    try:
        game = testing.game_from_map(registry, HERE, game="said")
        assert status.line(game, "keys") == "q quaff  r read  w wear  z zap  t throw  a rub   ? keys"
    finally:
        del registry.games["said"]


def test_a_kinds_stack_size_is_data():
    flasks = types.ModuleType("flasks")
    flasks.register_items = hookimpl(lambda register: register(ItemKind(
        name="flask of oil", glyph="%", color=(200, 160, 40), effect="heal", use="quaff", stack=2)))
    registry = testing.load_plugin(flasks)
    game = testing.game_from_map(registry, HERE)
    for _ in range(3):
        game.api.give("flask of oil")
    s = testing.press(game, "")
    assert [(i["letter"], i["count"]) for i in s["player"]["inventory"]] == [("a", 2), ("b", 1)]


def test_a_preset_with_keys_of_its_own_gets_no_verb_keys(registry):
    rogue = registry.games["rogue-sdl"]  # drinks with h, places potions: q meant nothing there, and still does
    assert verbkeys.in_use(registry, rogue)[0].name == "quaff" and verbkeys.keys(registry, rogue) == {}
    game = testing.game_from_map(registry, HERE, game="rogue-sdl")
    game.api.give("potion")
    s = testing.press(game, "q")
    assert s["prompt"] is None and s["turn"] == 0 and "q" not in game.api.keys()
