"""Readable items: conventional glyph classes told apart by colour and name, a
one-line description for every kind (look, the pack and the menus say it), menus that compare a
thing to wear with what is worn, and ``--map`` files that still name every kind."""

from __future__ import annotations

import dataclasses
import types

import pytest

from engine import GameRules, ItemKind, MonsterKind, hookimpl, load_registry, testing
from engine.core.errors import UsageError
from engine.core.kinds.content import ContentError, load_kinds
from engine.core.play import commands
from engine.core.play.setup import Setup, new_game

CLASSES = {"quaff": "!", "read": "?"}  # by use; things to wear by slot
SLOTS = {"weapon": ")", "armour": "["}


@pytest.fixture(scope="module")
def registry():
    return load_registry(entry_points=False)


def test_every_item_kind_has_a_one_line_description(registry):
    assert len(registry.items) >= 16
    for kind in registry.items.values():
        assert kind.description.strip(), f"item {kind.name!r} has no description"
        assert "\n" not in kind.description and len(kind.description) <= 200
    for kind in registry.monsters.values():  # the default game's monsters too: look says it
        assert kind.description.strip(), f"monster {kind.name!r} has no description"


def test_a_description_of_two_lines_is_refused_in_one_line(tmp_path):
    path = tmp_path / "items.toml"
    path.write_text('[elixir]\nglyph = "!"\ncolor = [1, 2, 3]\neffect = "heal"\ndescription = "one\\ntwo"\n')
    with pytest.raises(ContentError, match=r"^.*items.toml: \[elixir\] description: expected one line of at most "
                                           r"200 characters \(no line break\), got 'one\\ntwo'$"):
        load_kinds(path, ItemKind)


def test_items_wear_the_glyph_of_their_class(registry):
    for kind in registry.items.values():
        if kind.use in CLASSES:
            assert kind.glyph == CLASSES[kind.use], kind.name
        elif kind.use == "wear":
            assert kind.glyph == SLOTS[kind.slot], kind.name
    glyphs = [k.glyph for k in registry.items.values()]
    assert glyphs.count("!") == 3 and glyphs.count("?") == 6 and glyphs.count(")") == 5 and glyphs.count("[") == 3
    assert glyphs.count("/") == 3  # the wands (plugins/depths/ranged.py), as darts and javelins are weapons
    assert registry.warnings == []  # a class is not a clash


def test_a_map_reads_a_class_glyph_as_its_first_kind_and_legend_lines_name_any_kind(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@!1?2)3[#
        ####4#####

        1: potion of haste
        2: scroll of fireball
        3: war axe
        4: troll
    """)
    state = testing.press(game, "")
    assert [(i["kind"], i["x"]) for i in state["items"]] == [
        ("potion", 2), ("potion of haste", 3), ("scroll of lightning", 4), ("scroll of fireball", 5),
        ("dagger", 6), ("war axe", 7), ("leather armour", 8)]
    assert [(m["kind"], m["x"], m["y"]) for m in state["monsters"]] == [("troll", 4, 2)]
    with pytest.raises(UsageError, match=r":5: no kind named 'potion of hast' \(valid: Amulet of the Undercroft, "):
        testing.game_from_map(registry, "#####\n#@1.#\n#####\n\n1: potion of hast")
    with pytest.raises(UsageError, match=r":5: '#' is one of a map's own characters \(# \. > @ <\): give 'dagger' "
                                         r"another character$"):
        testing.game_from_map(registry, "#####\n#@..#\n#####\n\n#: dagger")
    # a picture without a legend: a line that only looks like one is the picture's (and refused)
    with pytest.raises(UsageError, match=r":4:1: unknown character '1'"):
        testing.game_from_map(registry, "#####\n#@..#\n#####\n1: dagger")


def test_an_item_sharing_a_class_glyph_is_no_clash_but_a_monster_sharing_it_is(tmp_path):
    plugin = types.SimpleNamespace(register_items=hookimpl(lambda register: register(ItemKind(
        name="potion of frost", glyph="!", color=(150, 230, 255), effect="heal", use="quaff",
        description="Cold."))), register_monsters=hookimpl(lambda register: register(MonsterKind(
            name="imp", glyph="?", color=(255, 0, 0), hp=1, attack=1))))
    registry = testing.load_plugin(plugin)
    [warning] = registry.warnings  # the potions' class says nothing
    assert warning.startswith("glyph '?' is shared by item 'scroll of lightning' (plugin content) and ")
    assert warning.endswith("and monster 'imp' (plugin SimpleNamespace): --map reads '?' as monster 'imp'")


def test_the_palette_holds_the_items_of_a_class_apart(registry):
    """A preset that places two potions a player could not tell apart by colour fails the check."""
    murky = ItemKind(name="murky potion", glyph="!", color=(215, 65, 215), effect="heal", use="quaff",
                     description="Murky.")
    game = dataclasses.replace(registry.games["undercroft"], name="murky", default=False,
                               item_counts={**registry.games["undercroft"].item_counts, "murky potion": (1, 1)})
    mine = testing.load_plugin(types.SimpleNamespace(register_items=hookimpl(lambda register: register(murky)),
                                                     register_games=hookimpl(lambda register: register(game))))
    with pytest.raises(testing.ContractError, match=r"lit: items sharing '!': potion \(220, 60, 220\) and murky "
                                                    r"potion \(215, 65, 215\) are [0-9.]+ apart \(at least 20\)"):
        testing.check_palette(mine, "murky")
    testing.check_palette(registry, "undercroft")  # the built-in classes hold
    assert isinstance(game, GameRules)


def test_menus_say_what_a_thing_adds_against_what_is_worn(registry):
    game = new_game(Setup(seed=1), registry)
    dagger, sword, mail = (game.give(name) for name in ("dagger", "long sword", "chain mail"))
    game.give("potion", 2)
    s = testing.press(game, "w")
    notes = {o["label"]: (o["note"], o["about"]) for o in s["prompt"]["options"]}
    assert notes["long sword"] == ("attack +4 (none worn)", "A knight's blade, long and true.")
    s = testing.press(game, "a w")  # wield the dagger: the sword now compares with it
    notes = {o["label"]: o["note"] for o in s["prompt"]["options"]}
    assert notes == {"long sword": "attack +4 (your dagger: +2)", "chain mail": "defense +3 (none worn)"}
    s = testing.press(game, "esc i")
    lines = {o["label"]: (o["note"], o["about"]) for o in s["prompt"]["options"]}
    assert lines["dagger (in use)"] == ("attack +2", "A short, quick blade: better than bare hands.")
    assert lines["potion (2)"] == ("", "A healing draught: 8 HP back at once.")
    assert commands.describe_item(game, sword) == ("long sword: attack +4 (your dagger: +2). A knight's blade, long "
                                                   "and true. Slot: weapon.")
    assert (dagger, mail) and s["turn"] == 1
    game.close()


def test_look_says_what_a_monster_and_an_item_are(registry):
    game = testing.game_from_map(registry, """
        #######
        #@.)r.#
        #######
    """)
    s = testing.press(game, "x l l")
    assert s["prompt"]["detail"] == ("dagger: attack +2 (none worn). A short, quick blade: better than bare hands; "
                                     "floor")
    s = testing.press(game, "l")
    state = "awake" if s["monsters"][0]["awake"] else "asleep"
    assert s["prompt"]["detail"] == f"a rat (4/4 HP, {state}): A filthy cave rat: weak alone, quick to bite; floor"
