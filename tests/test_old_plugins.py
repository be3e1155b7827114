"""Old plugins degrade, never vanish: a plugin written for the previous plugin API still loads and
plays, told in one line per moved key what to write instead; one bad preset, kind or file of a
plugin skips that thing alone, in one line naming the plugin, the thing and why, and the rest of
the plugin stays."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from engine import load_registry, load_rules
from engine.core.kinds.content import ContentError
from engine.core.loading.loader import announcement
from engine.testing import ContractError, check_plugin

ROOT = Path(__file__).resolve().parent.parent
# The crypt package as written for plugin API 1 (its bats are examples/undercroft-bats at 83225a7).
API1 = Path(__file__).resolve().parent / "fixtures" / "plugin_api1"


def engine(*args: str, site: Path = API1, home: Path) -> subprocess.CompletedProcess:
    """``python -m engine ARGS`` with the package in ``site`` installed (its entry point, alone)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)]), "UNDERCROFT_LOAD_PLUGINS": "crypt",
           "UNDERCROFT_HOME": str(home), "ARCADE_HEADLESS": "1"}
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, env=env,
                          timeout=120, cwd=site)


def test_a_package_written_for_the_previous_plugin_api_lists_everything_and_says_each_moved_key(tmp_path):
    r = engine("plugins", home=tmp_path)
    assert r.returncode == 0, r.stderr
    crypt = next(line for line in r.stdout.splitlines() if line.startswith("  crypt "))
    assert "BROKEN" not in r.stdout
    for kept in ("fov: lantern", "generators: vault", "games: crypt", "monsters: bat", "behaviours: flutter"):
        assert kept in crypt
    said = [line for line in r.stdout.splitlines() if line.startswith("Warning: plugin 'crypt'")]
    toml = API1 / "undercroft_crypt" / "games" / "crypt.toml"
    ruleset = "legacy:no-restart+wall-bump-takes-turn"
    assert said == [
        f"Warning: plugin 'crypt': {toml}: wall_bump_costs_turn = true is deprecated (moved in plugin API 2, refused "
        f"from API 3): played as ruleset '{ruleset}'; write a ruleset whose bump_wall returns ActionResult.success() "
        f"instead",
        f"Warning: plugin 'crypt': {toml}: restart = false is deprecated (moved in plugin API 2, refused from API 3): "
        f"played as ruleset '{ruleset}'; write a ruleset whose restart returns None instead"]
    listing = json.loads(engine("plugins", "--json", home=tmp_path).stdout)
    assert {"lantern", "diamond"} <= set(listing["available"]["fov"])
    assert "vault" in listing["available"]["generator"] and "crypt" in listing["available"]["game"]


def test_the_old_preset_plays_as_it_did_a_wall_bump_takes_the_turn(tmp_path):
    def turns_after_bumps(site: Path) -> int:
        r = engine("--headless", "--new", "--game", "crypt", "--keys", "h h h", "--dump", "json", site=site,
                   home=tmp_path / site.name)
        assert r.returncode == 0, r.stderr
        state = json.loads(r.stdout)
        assert (state["player"]["x"], state["player"]["y"]) == (1, 4)  # the start, against the west wall
        return state["turn"]

    assert turns_after_bumps(API1) == 3  # what plugin API 1's wall_bump_costs_turn = true did
    today = tmp_path / "today"
    shutil.copytree(API1, today)
    preset = today / "undercroft_crypt" / "games" / "crypt.toml"
    preset.write_text(preset.read_text().replace("wall_bump_costs_turn = true", ""))
    assert turns_after_bumps(today) == 0  # without it, today's default: a bump takes no time


def test_the_previous_api_s_bats_still_flutter(tmp_path):
    """The example package's bats as they were: ``game.registry.behaviours["chase"]`` still reaches
    a behaviour, with one deprecation line, and no failure switches the plugin off."""
    cave = tmp_path / "cave.txt"
    cave.write_text("#########\n#@..b..>#\n#.......#\n#########\n")
    r = engine("--headless", "--new", "--seed", "1", "--map", str(cave), "--keys", ". . . . . .", "--dump", "json",
               home=tmp_path)
    assert r.returncode == 0 and "failed in" not in r.stderr, r.stderr
    # it flew in (and was seen), then bit
    assert json.loads(r.stdout)["messages"][1:] == ["You see a bat.", *["The bat hits you for 1."] * 4]
    said = [line for line in r.stderr.splitlines() if "game.registry" in line]
    assert said == ["undercroft: deprecated: game.registry is plugin API 1's (refused from API 3): write "
                    "game.behaviour(name) instead of game.registry.behaviours[name]"]


BAD_PRESET = '''
from pathlib import Path

from engine import MonsterKind, hookimpl, load_rules, radius_mask


@hookimpl
def register_fov_algorithms(register):
    register("lamp", lambda t, o, r: radius_mask(t.shape, o, r))


@hookimpl
def register_monsters(register):
    register(MonsterKind(name="moth", glyph="m", color=(200, 200, 90), hp=1, attack=1))


@hookimpl
def register_games(register):
    for path in sorted(Path(__file__).with_name("moth_games").glob("*.toml")):
        register(load_rules(path))
'''
GOOD = 'name = "{name}"\ngenerators = [[1, "bsp"]]\nfov = "lamp"\n'


def moth_plugin(tmp_path: Path) -> Path:
    """A plugin with an FOV, a monster and two presets, the first of which is bad."""
    folder = tmp_path / "plugins"
    (folder / "moth_games").mkdir(parents=True)
    (folder / "moth.py").write_text(BAD_PRESET)
    (folder / "moth_games" / "a_dusk.toml").write_text(GOOD.format(name="dusk") + "colour = 3\n")
    (folder / "moth_games" / "b_dawn.toml").write_text(GOOD.format(name="dawn"))
    return folder


def test_one_bad_preset_is_skipped_alone_and_the_plugin_keeps_its_monsters_and_fov(tmp_path, capsys):
    folder = moth_plugin(tmp_path)
    registry = load_registry(plugins_dirs=[folder], entry_points=False)
    assert "moth" not in registry.broken
    assert "lamp" in registry.fov and "moth" in registry.monsters and "dawn" in registry.games
    assert "dusk" not in registry.games
    bad = folder / "moth_games" / "a_dusk.toml"
    why = f"{bad}: colour: unknown key"
    lines = [line for line in announcement(registry) if "moth" in line]
    assert len(lines) == 1 and lines[0].startswith(
        f"plugin 'moth' ({folder / 'moth.py'}) is partly broken: skipped game 'a_dusk': {why}")
    from engine.cli.main import main
    assert main(["plugins", "--plugins-dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "PARTLY BROKEN: 1 skipped, the rest kept" in out and f"skipped game 'a_dusk': {why}" in out
    assert "fov: lamp" in out and "monsters: moth" in out and "games: dawn" in out


def test_one_bad_row_of_a_content_file_skips_that_kind_alone(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "newts.toml").write_text('[newt]\nglyph = "n"\ncolor = [1, 2, 3]\nhp = 1\nattack = 1\n\n'
                                       '[eft]\nglyph = "e"\ncolor = [4, 5, 6]\nhp = -1\nattack = 1\n\n'
                                       '[salamander]\nglyph = "s"\ncolor = [7, 8, 9]\nhp = 2\nattack = 1\n')
    (folder / "newts.py").write_text(textwrap.dedent('''
        from pathlib import Path

        from engine import MonsterKind, hookimpl, load_kinds


        @hookimpl
        def register_monsters(register):
            for kind in load_kinds(Path(__file__).with_name("newts.toml"), MonsterKind):
                register(kind)
    '''))
    registry = load_registry(plugins_dirs=[folder], entry_points=False)
    assert {"newt", "salamander"} <= set(registry.monsters) and "eft" not in registry.monsters
    [skipped] = registry.plugin("newts").skipped
    assert skipped.line.startswith(f"skipped monster 'eft': {folder / 'newts.toml'}: [eft] hp: ")


def test_a_register_hook_that_raises_loses_its_own_registrations_alone(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "half.py").write_text(textwrap.dedent('''
        from engine import MonsterKind, hookimpl, radius_mask


        @hookimpl
        def register_fov_algorithms(register):
            register("candle", lambda t, o, r: radius_mask(t.shape, o, r))


        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="wisp", glyph="w", color=(1, 2, 3), hp=1, attack=1))
            raise RuntimeError("out of wisps")
    '''))
    registry = load_registry(plugins_dirs=[folder], entry_points=False)
    assert "candle" in registry.fov and "wisp" not in registry.monsters and "half" not in registry.broken
    assert [s.line for s in registry.plugin("half").skipped] == [
        "skipped hook register_monsters (dropping what it registered: monster 'wisp'): RuntimeError: out of wisps"]


def test_a_moved_key_outside_a_plugin_is_a_deprecation_warning_and_a_preset_s_own_ruleset_decides(tmp_path):
    preset = tmp_path / "old.toml"
    preset.write_text('name = "old"\ngenerators = [[1, "bsp"]]\nfov = "symmetric"\nfov_timing = "turn_end"\n'
                      'on_exit = "new_run"\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rules = load_rules(preset)
    assert rules.ruleset == "legacy:view-at-turn-end"
    assert [str(w.message).split(" is deprecated")[0] for w in caught] == [
        f"{preset}: fov_timing = \"turn_end\"", f"{preset}: on_exit = \"new_run\""]
    assert all(w.category is DeprecationWarning for w in caught)
    preset.write_text(preset.read_text() + 'ruleset = "bunyip"\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert load_rules(preset).ruleset == "bunyip"
    assert "ignored: the preset's ruleset 'bunyip' decides" in str(caught[0].message)
    preset.write_text(preset.read_text().replace('"turn_end"', '"later"'))
    with pytest.raises(ContentError, match=r"fov_timing: expected one of 'move', 'turn_end', got 'later' \(a key "
                                           r"moved in plugin API 2: write a ruleset whose view_phase"):
        load_rules(preset)


def test_two_plugins_with_the_same_old_flags_share_their_legacy_ruleset_without_a_word(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    for name in ("one", "two"):
        (folder / f"{name}.toml").write_text(f'name = "{name}"\ngenerators = [[1, "bsp"]]\nfov = "symmetric"\n'
                                             'wall_bump_costs_turn = true\n')
        (folder / f"{name}.py").write_text(textwrap.dedent(f'''
            from pathlib import Path

            from engine import hookimpl, load_rules


            @hookimpl
            def register_games(register):
                register(load_rules(Path(__file__).with_name("{name}.toml")))
        '''))
    registry = load_registry(plugins_dirs=[folder], entry_points=False)
    assert registry.games["one"].ruleset == registry.games["two"].ruleset == "legacy:wall-bump-takes-turn"
    assert registry.owners[("rulesets", "legacy:wall-bump-takes-turn")] == "one"
    assert not registry.plugin("two").skipped and not registry.broken


def test_check_plugin_fails_a_partly_broken_plugin_naming_what_was_skipped(tmp_path):
    registry = load_registry(plugins_dirs=[moth_plugin(tmp_path)], entry_points=False)
    with pytest.raises(ContractError, match=r"plugin 'moth': loads whole: skipped game 'a_dusk': .*colour"):
        check_plugin(registry, "moth")


def test_a_preset_built_in_python_as_plugin_api_1_documented_it_still_registers_and_plays(tmp_path, capsys):
    """``register(GameRules(...))`` with API 1's keywords: a moved flag, and no ``fov`` or
    ``generators`` (API 1 read them as symmetric and bsp)."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "oldpy.py").write_text(textwrap.dedent('''
        from engine import GameRules, hookimpl


        @hookimpl
        def register_games(register):
            register(GameRules(name="oldpy", wall_bump_costs_turn=True, on_death="new_run"))
    '''))
    registry = load_registry(plugins_dirs=[folder], entry_points=False)
    rules = registry.games["oldpy"]
    assert (rules.fov, rules.generators) == ("symmetric", ((1, "bsp"),))
    assert rules.ruleset == "legacy:new-run-on-death+wall-bump-takes-turn" in registry.rulesets
    said = [w for w in registry.warnings if w.startswith("plugin 'oldpy': ")]
    assert [line.split(": ", 3)[2] for line in said] == [
        "generators is missing", "fov is missing", "wall_bump_costs_turn = true is deprecated (moved in plugin API 2, "
        "refused from API 3)", "on_death = \"new_run\" is deprecated (moved in plugin API 2, refused from API 3)"]
    cave = tmp_path / "cave.txt"
    cave.write_text("######\n#@..>#\n######\n")
    from engine.cli.main import main
    assert main(["--headless", "--new", "--plugins-dir", str(folder), "--game", "oldpy", "--map", str(cave),
                 "--keys", "h h", "--dump", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["turn"] == 2  # two wall bumps, two turns, as API 1 played it


def test_the_project_s_own_presets_as_api_1_wrote_them_play_by_the_rules_their_rulesets_have_now():
    """bunyip and lesson28 as the previous release wrote them (content/games at 16a2fe3^, copied
    into the fixture as they were): their flags become legacy rulesets that answer as the
    built-in rulesets bunyip and lesson28 answer today."""
    from types import SimpleNamespace

    from engine.core.loading.legacy import legacy_ruleset

    registry = load_registry(entry_points=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old_bunyip, old_lesson = (load_rules(API1 / "presets" / f"{name}.toml") for name in ("bunyip", "lesson28"))
    bunyip, legacy = registry.rulesets["bunyip"], legacy_ruleset(old_bunyip.ruleset)
    assert legacy.view_phase == bunyip.view_phase and legacy.restart(None) is bunyip.restart(None) is None
    assert legacy.bump_wall(None, 1) == bunyip.bump_wall(None, 1)
    lesson, legacy = registry.rulesets["lesson28"], legacy_ruleset(old_lesson.ruleset)
    killed = []
    game = SimpleNamespace(rules=old_lesson, player=1, kill=lambda victim, by: killed.append((victim, by)))
    assert legacy.player_died(game) == lesson.player_died(game) and legacy.restart(game) is None
    assert legacy.touch(game, 1, 7) == lesson.touch(game, 1, 7) and killed == [(1, 7), (1, 7)]


def test_a_bad_file_a_plugin_never_registers_is_still_said(tmp_path):
    """The stand-in for a bad file that a plugin filters out, or trips over, is said all the same."""
    folder = moth_plugin(tmp_path)
    (folder / "moth.py").write_text(BAD_PRESET.replace("register(load_rules(path))", "rules = load_rules(path)\n"
                                                       "        if isinstance(rules, GameRules):\n"
                                                       "            register(rules)")
                                    .replace("load_rules, radius_mask", "GameRules, load_rules, radius_mask"))
    (folder / "picky.py").write_text(textwrap.dedent('''
        import dataclasses
        from pathlib import Path

        from engine import hookimpl, load_rules


        @hookimpl
        def register_games(register):
            for path in sorted(Path(__file__).with_name("moth_games").glob("*.toml")):
                register(dataclasses.replace(load_rules(path), name="picky-" + path.stem))
    '''))
    registry = load_registry(plugins_dirs=[folder], entry_points=False)
    why = f"{folder / 'moth_games' / 'a_dusk.toml'}: colour: unknown key"
    [moth] = [s.line for s in registry.plugin("moth").skipped]
    assert moth.startswith(f"skipped game 'a_dusk': {why}") and {"dawn", "lamp"} <= {*registry.games, *registry.fov}
    assert registry.broken["picky"].startswith(why)  # what it tripped over, not the TypeError it tripped with


def test_keys_without_a_replacement_are_read_and_said(tmp_path):
    preset = tmp_path / "settled.toml"
    preset.write_text('name = "settled"\ngenerators = [[1, "bsp"]]\nfov = "symmetric"\nkeep_saves = true\n'
                      '[settings]\nspeed = 3\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert load_rules(preset).ruleset is None
    assert [str(w.message).split(": ", 1)[1] for w in caught] == [
        "keep_saves = true is deprecated (moved in plugin API 2, refused from API 3): ignored (nothing plays it "
        "now); write nothing: a death ends the run (a ruleset's saves says whether it is saved) instead",
        'settings = {"speed": 3} is deprecated (moved in plugin API 2, refused from API 3): ignored (nothing plays '
        "it now); write params (one table per plugin) instead"]


OLD_RULESET = '''
from engine import ActionResult, Fighter, GameRules, Phase, Ruleset, System, hookimpl


class Stubborn(Ruleset):
    """A ruleset as the previous release gave it the run: it reads game.state."""

    name = "stubborn"

    def bump_wall(self, game, player):
        game.log(f"Bump on turn {game.state.turn}.")
        return ActionResult.success()


class Mend(System):
    """A system as the previous release gave it the run: it walks game.world."""

    name = "mend"
    phases = (Phase.END_OF_TURN,)

    def run(self, game):
        for entity, fighter in game.world.query(Fighter):
            fighter.hp = fighter.max_hp


@hookimpl
def register_rulesets(register):
    register(Stubborn())


@hookimpl
def register_systems(register):
    register(Mend())


@hookimpl
def register_games(register):
    register(GameRules(name="stubborn", generators=((1, "bsp"),), fov="symmetric", ruleset="stubborn",
                       monster_count=(0, 0, 0, 0)))
'''


def test_a_ruleset_and_a_system_that_read_the_run_keep_working_with_one_line_per_name(tmp_path):
    """Plugin API 1 gave a ruleset's methods and a system's ``run`` the run itself; they get the
    game API now, which still gives what they read of the run (``game.state``, ``game.world``,
    ``game.api``), each name said once in one line."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "stubborn.py").write_text(OLD_RULESET)
    (tmp_path / "map.txt").write_text("#####\n#@..#\n#####\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "UNDERCROFT_HOME": str(tmp_path / "home"), "ARCADE_HEADLESS": "1"}
    r = subprocess.run([sys.executable, "-m", "engine", "--headless", "--new", "--plugins-dir", str(folder), "--game",
                        "stubborn", "--map", str(tmp_path / "map.txt"), "--keys", "h h l", "--dump", "json"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "failed in" not in r.stderr, r.stderr
    state = json.loads(r.stdout)
    assert state["turn"] == 3 and state["messages"][-2:] == ["Bump on turn 0.", "Bump on turn 1."]
    said = [line for line in r.stderr.splitlines() if "deprecated" in line]
    assert [line.split(":")[2].strip() for line in said] == ["game.state", "game.world"]
    assert all(line.startswith("undercroft: deprecated: game.") and "(refused from API 3)" in line for line in said)
    assert "write game.query(*types)" in said[1]
