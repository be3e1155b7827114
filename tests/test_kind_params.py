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
    registry = _registry_with(tmp_path, richrat=(
        "from engine import MonsterKind, hookimpl\n\n@hookimpl\ndef register_monsters(register):\n"
        "    register(MonsterKind(name='rich rat', glyph='R', color=(200, 100, 100), hp=3, attack=1,\n"
        "                         params={'drops': 'rihc'}))\n"
        "    register(MonsterKind(name='plain rat', glyph='P', color=(100, 200, 100), hp=3, attack=1))\n"))
    assert "plain rat" in registry.monsters and "rich rat" not in registry.monsters
    (info,) = [p for p in registry.plugins if p.name == "richrat"]
    (skipped,) = [str(s) for s in info.skipped]
    assert "params.drops names loot table 'rihc', which no game has (did you mean 'rich'?" in skipped


def _registry_with(tmp_path, **plugins):
    """The registry with these plugin files (name: source) in a folder of their own."""
    from engine import load_registry

    for name, source in plugins.items():
        (tmp_path / f"{name}.py").write_text(source)
    return load_registry(plugins_dirs=[tmp_path], entry_points=False)


SKITTER = '''from engine import ItemKind, MonsterKind, Move, hookimpl

def skitter(game, entity):
    leap = game.kind_of(entity).params.get("leap", 2)
    return Move(min(leap, 1), 0)

def mend(game, entity, kind, amount):
    game.heal(entity, kind.params.get("amount", 5) * amount)
    return "You feel mended."

@hookimpl
def register_behaviours(register):
    register("skitter", skitter, params={"leap": 2, "mood": None, "path": [1, 2]})

@hookimpl
def register_effects(register):
    register("mend", mend, params={"amount": 5})
'''
KINDS = '''from engine import ItemKind, MonsterKind, hookimpl

@hookimpl
def register_monsters(register):
    for name, params in {MONSTERS}:
        register(MonsterKind(name=name, glyph="s", color=(90, 200, 90), hp=3, attack=1, behaviour="skitter",
                             params=params))

@hookimpl
def register_items(register):
    for name, params in {ITEMS}:
        register(ItemKind(name=name, glyph="!", color=(90, 90, 200), effect="mend", params=params))
'''


def _load(tmp_path, monsters, items=()):
    registry = _registry_with(tmp_path, skitterers=SKITTER, zkinds=KINDS.replace(
        "{MONSTERS}", repr(list(monsters))).replace("{ITEMS}", repr(list(items))))
    (info,) = [p for p in registry.plugins if p.name == "zkinds"]
    return registry, [str(s) for s in info.skipped]


def test_a_kind_of_a_plugins_behaviour_is_held_to_the_params_it_declares(tmp_path):
    """A third-party behaviour declares its params with its registration, as the built-in ones have
    theirs checked: a kind of it with ``leap = "far"`` would fail in the behaviour's hands in play
    (its plugin switched off, every kind of it still); it is skipped as it loads, in one line."""
    registry, skipped = _load(tmp_path, [("far newt", {"leap": "far"}), ("newt", {"leap": 3, "mood": [1, "x"]}),
                                         ("odd newt", {"path": {"a": 1}}), ("free newt", {"colour": "red"})])
    assert {"newt", "free newt"} <= set(registry.monsters)
    assert "far newt" not in registry.monsters and "odd newt" not in registry.monsters
    assert "skitter" in registry.behaviours  # the behaviour and its plugin are untouched
    far = next(s for s in skipped if "far newt" in s)
    assert ("params.leap: expected a number (like 2), as behaviour 'skitter' (plugin 'skitterers') declares it, "
            "got 'far'") in far and "\n" not in far
    assert "params.path: expected a list (like [1, 2])" in next(s for s in skipped if "odd newt" in s)


def test_an_item_of_a_plugins_effect_is_held_to_the_params_it_declares(tmp_path):
    registry, skipped = _load(tmp_path, [], [("lots draught", {"amount": "lots"}), ("draught", {"amount": 7})])
    assert "draught" in registry.items and "lots draught" not in registry.items
    (said,) = skipped
    assert "item 'lots draught': params.amount: expected a number (like 5), as effect 'mend'" in said


def test_a_game_of_its_own_monster_kind_is_held_to_its_behaviours_params(tmp_path):
    """A preset's own monster kind (``monster_kinds``) is checked as a registered one: the preset is
    skipped, named, and the behaviour's plugin keeps its registrations."""
    registry = _registry_with(tmp_path, skitterers=SKITTER, zgame=(
        "from engine import GameRules, MonsterKind, hookimpl\n\n@hookimpl\ndef register_games(register):\n"
        "    newt = MonsterKind(name='newt', glyph='n', color=(90, 200, 90), hp=3, attack=1, behaviour='skitter',\n"
        "                       params={'leap': True})\n"
        "    register(GameRules(name='newts', monsters=('newt',), monster_kinds={'newt': newt}))\n"))
    assert "newts" not in registry.games and "skitter" in registry.behaviours
    (info,) = [p for p in registry.plugins if p.name == "zgame"]
    assert "game 'newts': monster 'newt': params.leap: expected a number (like 2)" in info.error


@pytest.mark.parametrize(("params", "said"), [
    ("'leap'", "params: expected a table of param names to their defaults"),
    ("{'': 1}", "params: expected a string of 1..100 characters"),
    ("{'a\\nb': 1}", "params: expected a param name of 1..100 printable characters, got 'a\\nb'"),
    ("{'leap': float('nan')}", "params.leap: expected a finite number"),
    ("{'leap': object()}", "params.leap: expected a JSON value"),
])
def test_a_declaration_that_is_not_a_table_of_json_defaults_skips_that_behaviour_in_one_line(tmp_path, params, said):
    registry = _registry_with(tmp_path, badskit=(
        "from engine import Wait, hookimpl\n\ndef skitter(game, entity):\n    return Wait()\n\n"
        "def hop(game, entity):\n    return Wait()\n\n"
        f"@hookimpl\ndef register_behaviours(register):\n    register('skitter', skitter, params={params})\n"
        "    register('hop', hop)\n"))
    assert "hop" in registry.behaviours and "skitter" not in registry.behaviours
    (info,) = [p for p in registry.plugins if p.name == "badskit"]
    (skipped,) = [s.line for s in info.skipped]
    assert f"register_behaviours: 'skitter': {said}" in skipped and "\n" not in skipped


def test_plugins_says_the_params_each_behaviour_and_effect_declares(tmp_path, capsys):
    """What a content author writing a kind for another plugin's behaviour may set, and of what
    kind: listed with the plugin, and in the JSON beside the names."""
    import json

    from engine.cli.main import main

    _load(tmp_path, [("newt", {"leap": 3})], [("draught", {"amount": 7})])
    assert main(["plugins", "--plugins-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert 'params: skitter: leap = 2, mood = null, path = [1, 2]; mend: amount = 5' in out
    assert main(["plugins", "--json", "--plugins-dir", str(tmp_path)]) == 0
    declared = json.loads(capsys.readouterr().out)["available"]["params"]
    assert declared == {"behaviours": {"skitter": {"leap": 2, "mood": None, "path": [1, 2]}},
                        "effects": {"mend": {"amount": 5}}}
