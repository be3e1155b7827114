"""The params of monster and item kinds that the built-in plugins read are checked where the kind
loads: a value its reader cannot take refuses the kind in one line, naming the param. Before, a
third-party rat with ``regen = "x"`` loaded, and in play the built-in ``monster_ai`` failed reading
it and was switched off for the run: every monster stopped hunting, for one bad row of another
plugin (and a scroll of the fireball's effect with ``damage = "lots"`` switched the effects off)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import ItemKind, MonsterKind
from engine.core.kinds.content import ContentError, load_kinds, validate
from engine.core.kinds.kindparams import MONSTERS as BUILTIN

ONLY_MONSTER = "params.shoot: expected a line whose only field is {monster}"
BAD = [  # (param, its value, the behaviour of the kind, what is said)
    ("xp", -3, "chase", "params.xp: expected"),
    ("xp", "lots", "chase", "params.xp: expected"),
    ("regen", "x", "chase", "params.regen: expected [hp, turns]"),
    ("regen", [1, 0], "hunt", "params.regen: expected [hp, turns] (turns at least 1), got [1, 0]"),
    ("drops", "", "chase", "params.drops: expected"),
    ("flee", 150, "coward", "params.flee: expected"),
    ("range", 0, "archer", "params.range: expected"),
    ("shoot", "The {monster} aims at {target}.", "archer", ONLY_MONSTER),
    ("shoot", "{", "archer", ONLY_MONSTER),
    ("calls", [], "summoner", "params.calls: expected"),
    ("count", [3, 1], "summoner", "params.count: expected [least, most] with least <= most"),
    ("venom", 0, "venomous", "params.venom: expected"),
]


@pytest.mark.parametrize(("name", "value", "behaviour", "said"), BAD)
def test_a_plugin_kind_with_a_bad_builtin_param_is_refused_in_one_line(name, value, behaviour, said):
    kind = MonsterKind(name="weird rat", glyph="R", color=(200, 100, 100), hp=3, attack=1, behaviour=behaviour,
                       params={name: value})
    with pytest.raises(ContentError) as e:
        validate(kind)
    assert said in str(e.value) and "\n" not in str(e.value) and "weird rat" in str(e.value)


def test_a_name_a_built_in_behaviour_reads_is_free_on_another_behaviours_kind():
    """``range`` and ``count`` mean what the archer and the summoner say only on their kinds: a
    plugin's behaviour may read its own ``count``."""
    validate(MonsterKind(name="newt", glyph="n", color=(90, 200, 90), hp=3, attack=1, behaviour="mine",
                         params={"range": "near", "count": 7, "shoot": "{x}", "flee": "always"}))


def test_a_content_row_with_a_bad_builtin_param_is_refused_naming_its_file_and_row(tmp_path):
    path = tmp_path / "monsters.toml"
    path.write_text('[newt]\nglyph = "n"\ncolor = [90, 200, 90]\nhp = 3\nattack = 1\nparams = { regen = [1, 0] }\n')
    with pytest.raises(ContentError, match=r"monsters.toml: \[newt\] params.regen: expected \[hp, turns\]"):
        load_kinds(path, MonsterKind)


def test_a_plugins_own_params_stay_free_and_the_built_in_kinds_pass(registry):
    validate(MonsterKind(name="newt", glyph="n", color=(90, 200, 90), hp=3, attack=1,
                         params={"xp": 4, "sparkles": "yes", "mood": [1, "x"]}))
    for kind in registry.monsters.values():  # the shipped kinds meet their readers' specs
        validate(kind)
    assert {"xp", "drops", "regen", "flee", "search", "range", "shoot"} <= set(BUILTIN)


def test_a_bad_kind_disables_its_own_plugin_not_the_built_in_hunters(tmp_path):
    (tmp_path / "badrat.py").write_text(
        "from engine import MonsterKind, hookimpl\n\n@hookimpl\ndef register_monsters(register):\n"
        "    register(MonsterKind(name='weird rat', glyph='R', color=(200, 100, 100), hp=3, attack=1,\n"
        "                         params={'regen': 'x'}, min_depth=1, weight=1000))\n")
    done = subprocess.run([sys.executable, "-m", "engine", "--headless", "--new", "--seed", "3", "--plugins-dir",
                           str(tmp_path), "--keys", "o o o o o o"], capture_output=True, text=True,
                          env={**__import__("os").environ, "UNDERCROFT_HOME": str(tmp_path / "home"),
                               "UNDERCROFT_LOAD_PLUGINS": ""})
    assert done.returncode == 0, done.stderr
    assert "badrat" in done.stderr and "params.regen" in done.stderr
    assert "monster_ai" not in done.stderr  # the hunters' plugin is untouched


ITEM_BAD = [  # (param, its value, the item's effect, what is said)
    ("damage", "lots", "fireball", "params.damage: expected"),
    ("turns", 0, "haste", "params.turns: expected"),
    ("amount", -5, "heal", "params.amount: expected"),
    ("reach", 0, "dig_bolt", "params.reach: expected"),
    ("breaks", 150, "inert", "params.breaks: expected"),
    ("message", ["not", "a line"], "teleport", "params.message: expected"),
]


@pytest.mark.parametrize(("name", "value", "effect", "said"), ITEM_BAD)
def test_an_item_kind_with_a_bad_builtin_param_is_refused_in_one_line(name, value, effect, said):
    """An item of the fireball's effect with ``damage = "lots"``: the effects plugin failed in play,
    the turn it was read, and was switched off (every potion and scroll with it)."""
    kind = ItemKind(name="odd scroll", glyph="?", color=(200, 200, 100), effect=effect, use="read",
                    params={name: value})
    with pytest.raises(ContentError) as e:
        validate(kind)
    assert said in str(e.value) and "\n" not in str(e.value) and "odd scroll" in str(e.value)


def test_an_item_param_is_free_on_another_effects_kind_and_the_built_in_items_pass(registry):
    validate(ItemKind(name="odd scroll", glyph="?", color=(200, 200, 100), effect="mine", use="read",
                      params={"damage": "lots", "turns": "forever"}))
    for kind in registry.items.values():
        validate(kind)


def test_a_monster_dropping_from_a_loot_table_no_game_has_is_skipped_naming_the_near_one(tmp_path):
    """``drops = "rihc"``: its deaths dropped nothing, unsaid. The kind is skipped as it loads, the
    table's near name said; the plugin keeps its other kinds."""
    from engine import load_registry

    (tmp_path / "richrat.py").write_text(
        "from engine import MonsterKind, hookimpl\n\n@hookimpl\ndef register_monsters(register):\n"
        "    register(MonsterKind(name='rich rat', glyph='R', color=(200, 100, 100), hp=3, attack=1,\n"
        "                         params={'drops': 'rihc'}))\n"
        "    register(MonsterKind(name='plain rat', glyph='P', color=(100, 200, 100), hp=3, attack=1))\n")
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    assert "plain rat" in registry.monsters and "rich rat" not in registry.monsters
    (info,) = [p for p in registry.plugins if p.name == "richrat"]
    (skipped,) = [str(s) for s in info.skipped]
    assert "params.drops names loot table 'rihc', which no game has (did you mean 'rich'?" in skipped
