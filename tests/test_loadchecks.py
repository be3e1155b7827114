"""Mistakes in a plugin are found when it loads (or when its function returns), each in one line
naming the plugin: misspelled hooks, wrong hook arguments, a name a built-in has, kinds sharing a
glyph, FOV arrays and levels of the wrong shape, dtype or tile codes, ``UNDERCROFT_LOAD_PLUGINS``
names that match nothing, and a chosen name that a broken plugin was to provide."""

from __future__ import annotations

import io
import json
import textwrap

import numpy as np
import pytest
from fakedist import forget_modules, make_dist

from engine import load_registry
from engine.cli.main import main
from engine.core.loading.loader import announce
from engine.core.plugin.registry import BadLevel, BadResult, PluginError
from engine.kit.mapgen import GenContext


def plugins_dir(tmp_path, **sources: str):
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    for name, body in sources.items():
        (folder / f"{name}.py").write_text("import numpy as np\nfrom engine import *\n" + textwrap.dedent(body))
    return folder


def load(folder):
    return load_registry(plugins_dirs=[folder], entry_points=False)


def one_line_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


# --- hooks ---------------------------------------------------------------------------------------------


def test_misspelled_hooks_break_the_plugin_and_say_what_was_meant(tmp_path):
    registry = load(plugins_dir(tmp_path, typos="""
        @hookimpl
        def register_monster(register):
            register(MonsterKind(name="newt", glyph="n", color=(1, 2, 3), hp=1, attack=1))

        @hookimpl
        def on_turn_ended(game):
            pass
    """))
    assert registry.broken["typos"] == ("hooks 'on_turn_ended' (did you mean 'on_turn_end'?), 'register_monster' "
                                        "(did you mean 'register_monsters'?) are not Undercroft hooks")
    assert "newt" not in registry.monsters and registry.manager.get_plugin("typos") is None


def test_an_optional_hook_of_another_project_is_allowed(tmp_path):
    registry = load(plugins_dir(tmp_path, extra="""
        @hookimpl(optionalhook=True)
        def some_other_programs_hook():
            pass
    """))
    assert "extra" not in registry.broken


def test_wrong_hook_arguments_show_the_hooks_signature(tmp_path):
    registry = load(plugins_dir(tmp_path, args="""
        @hookimpl
        def register_monsters(reg):
            pass
    """))
    assert registry.broken["args"] == ("hook 'register_monsters': register_monsters(reg) takes argument(s) {'reg'} "
                                       "that the hook does not pass: the hook is register_monsters(register)")


def test_a_plugin_that_exits_while_loading_is_broken_and_plugins_still_lists(tmp_path, capsys):
    folder = plugins_dir(tmp_path, quitter="raise SystemExit(3)\n")
    where = f"{folder / 'quitter.py'}:3"  # the line plugins_dir's two imports push it to
    assert load(folder).broken["quitter"] == f"raised SystemExit(3) while loading at {where}"
    assert main(["plugins", "--plugins-dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "quitter  [" in out and f"BROKEN: raised SystemExit(3) while loading at {where}" in out


def test_a_plugin_that_exits_in_a_register_hook_or_an_imported_module_says_its_line(tmp_path, monkeypatch):
    (tmp_path / "helper_exits.py").write_text("import sys\n\n\ndef bail():\n    sys.exit('no')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    folder = plugins_dir(tmp_path, hooked="""
        import helper_exits

        @hookimpl
        def register_monsters(register):
            helper_exits.bail()
    """)
    try:
        said = load(folder).broken["hooked"]
    finally:
        forget_modules("helper_exits")
    assert said == f"raised SystemExit('no') while loading at {tmp_path / 'helper_exits.py'}:5"


def test_an_unknown_behaviour_or_effect_suggests_the_nearest_names(tmp_path, capsys):
    registry = load(plugins_dir(tmp_path, typo_kinds="""
        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="newt", glyph="n", color=(1, 2, 3), hp=1, attack=1, behaviour="chace"))
    """, typo_items="""
        @hookimpl
        def register_items(register):
            register(ItemKind(name="tonic", glyph="~", color=(1, 2, 3), effect="heel", use="quaff"))
    """))
    assert registry.broken["typo_kinds"].startswith(
        "monster 'newt' names behaviour 'chace', which no plugin registers (did you mean 'chase'? valid: ")
    assert registry.broken["typo_items"].startswith(
        "item 'tonic' names effect 'heel', which no plugin registers (did you mean 'heal'? valid: ")
    line = one_line_error(capsys, ["--headless", "--new", "--plugin", "fov=symetric"])
    assert "no fov named 'symetric' (did you mean 'symmetric'? valid: diamond, everything, " in line


# --- names ---------------------------------------------------------------------------------------------

DIAMOND = """
    @hookimpl
    def register_fov_algorithms(register):
        register("diamond", lambda t, o, r: np.ones(t.shape, dtype=bool))
        register("lantern", lambda t, o, r: np.ones(t.shape, dtype=bool))
"""


def test_a_built_in_keeps_its_name_and_the_newcomer_loses_that_name_alone_saying_so(tmp_path, capsys):
    folder = plugins_dir(tmp_path, frost=DIAMOND)
    registry = load(folder)
    why = "fov 'diamond' is already registered by the built-in plugin 'fov_diamond', which keeps the name (it loaded " \
          "first): rename yours"
    assert "frost" not in registry.broken and [s.line for s in registry.plugin("frost").skipped] == [
        f"skipped fov 'diamond': {why}"]
    assert registry.owners[("fov", "diamond")] == "fov_diamond" and registry.owners[("fov", "lantern")] == "frost"
    # --plugin fov=diamond plays the built-in, and the skipped name is said at start, in one line
    assert main(["--headless", "--new", "--seed", "1", "--plugins-dir", str(folder), "--plugin", "fov=diamond"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [f"undercroft: plugin 'frost' ({folder / 'frost.py'}) is partly broken: skipped fov 'diamond': {why}"]


def test_between_third_party_plugins_the_first_loaded_keeps_the_name(tmp_path):
    folder = plugins_dir(tmp_path, a_first="""
        @hookimpl
        def register_behaviours(register):
            register("dance", lambda game, entity: None)
    """, b_second="""
        @hookimpl
        def register_behaviours(register):
            register("dance", lambda game, entity: None)
    """)
    registry = load(folder)
    assert "a_first" not in registry.broken and registry.owners[("behaviours", "dance")] == "a_first"
    assert registry.broken["b_second"] == ("behaviour 'dance' is already registered by plugin 'a_first', which keeps "
                                           "the name (it loaded first): rename yours")


def test_a_name_a_plugin_offered_and_lost_says_which_plugin_and_why(tmp_path, capsys):
    folder = plugins_dir(tmp_path, icy="""
        @hookimpl
        def register_generators(register):
            register("glacier", lambda ctx: None)
            raise RuntimeError("out of ice")

        @hookimpl
        def register_games(register):
            register(GameRules(name="icy", generators=((1, "glacier"),), fov="symmetric"))
    """)
    registry = load(folder)
    with pytest.raises(PluginError) as e:
        registry.choose("generator", "glacier")
    # the hook that raised loses what it registered; the plugin's other hook keeps its game
    why = ("plugin 'icy' registers it but it was skipped hook register_generators (dropping what it registered: "
           "generator 'glacier'): RuntimeError: out of ice")
    assert str(e.value).endswith(f"; {why}") and "icy" in registry.games and "icy" not in registry.broken
    line = one_line_error(capsys, ["--headless", "--new", "--plugins-dir", str(folder), "--game", "icy"])
    assert line.startswith("undercroft: game icy: generators: no generator named 'glacier' (valid: ")
    assert line.endswith(why)


def test_a_preset_naming_a_missing_generator_blames_the_preset_not_a_flag(tmp_path, capsys):
    folder = plugins_dir(tmp_path, thaw="""
        @hookimpl
        def register_games(register):
            register(GameRules(name="thaw", generators=((1, "glacier"),), fov="symmetric"))
    """, icy="""
        @hookimpl
        def register_generators(register):
            register("glacier", lambda ctx: None)
            raise RuntimeError("out of ice")
    """)
    line = one_line_error(capsys, ["--headless", "--new", "--plugins-dir", str(folder), "--game", "thaw"])
    assert line.startswith("undercroft: game thaw: generators: no generator named 'glacier' (valid: ")
    assert "--plugin" not in line and line.endswith("plugin 'icy' registers it but is broken: RuntimeError: out of ice")


# --- glyphs --------------------------------------------------------------------------------------------


def test_kinds_sharing_a_glyph_are_warned_with_what_map_reads(tmp_path, capsys):
    folder = plugins_dir(tmp_path, geckos="""
        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="gecko", glyph="g", color=(1, 2, 3), hp=1, attack=1))
            register(MonsterKind(name="wallcrawler", glyph="#", color=(1, 2, 3), hp=1, attack=1))
    """)
    registry = load(folder)
    assert registry.warnings == [
        "glyph 'g' is shared by monster 'goblin' (plugin content) and monster 'gecko' (plugin geckos): --map reads "
        "'g' as monster 'gecko'",
        "glyph '#' of monster 'wallcrawler' (plugin geckos) is the wall in a --map file: --map reads '#' as the wall",
    ]
    # and that is what --map does
    (tmp_path / "m.txt").write_text("#####\n#@.g#\n#####\n")
    assert main(["--headless", "--new", "--plugins-dir", str(folder), "--map", str(tmp_path / "m.txt"),
                 "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert [m["kind"] for m in json.loads(out)["monsters"]] == ["gecko"]
    assert err.count("\n") == 2 and "undercroft: warning: glyph 'g' is shared by" in err
    # python -m engine plugins lists them too
    assert main(["plugins", "--plugins-dir", str(folder)]) == 0
    assert f"Warning: {registry.warnings[0]}" in capsys.readouterr().out
    assert main(["plugins", "--json", "--plugins-dir", str(folder)]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == registry.warnings


def test_the_built_ins_share_no_glyph(registry):
    assert registry.warnings == []


def test_a_presets_own_kind_sharing_a_glyph_is_warned_for_that_preset(tmp_path):
    registry = load(plugins_dir(tmp_path, eels="""
        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="lamprey", glyph="e", color=(1, 2, 3), hp=1, attack=1))
    """))
    assert registry.warnings == [
        "glyph 'e' is shared by monster 'lamprey' (plugin eels) and monster 'enemy' of game 'lesson28' "
        "(plugin content): --map in game 'lesson28' reads 'e' as monster 'enemy' of game 'lesson28'"]


# --- results -------------------------------------------------------------------------------------------

BAD_FOVS = """
    @hookimpl
    def register_fov_algorithms(register):
        register("transposed", lambda t, o, r: np.ones(t.shape[::-1], dtype=bool))
        register("bytes", lambda t, o, r: np.ones(t.shape, dtype=np.uint8))
        register("nothing", lambda t, o, r: None)
        register("words", lambda t, o, r: "all of it")
"""


@pytest.mark.parametrize("name, got", [
    ("transposed", "a bool array of shape (3, 4)"),
    ("bytes", "a uint8 array of shape (4, 3)"),
    ("nothing", "None"),
    ("words", "a str"),
])
def test_an_fov_result_of_the_wrong_shape_or_type_is_refused_naming_the_plugin(tmp_path, capsys, name, got):
    folder = plugins_dir(tmp_path, lamps=BAD_FOVS)
    with pytest.raises(BadResult) as e:
        load(folder).fov[name](np.ones((4, 3), dtype=bool), (1, 1), None)
    assert str(e.value) == (f"fov {name!r} (plugin lamps) returned {got} for a map of shape (4, 3): expected a bool "
                            f"array of that shape, indexed [y, x]")
    line = one_line_error(capsys, ["--headless", "--new", "--plugins-dir", str(folder), "--plugin", f"fov={name}"])
    assert line.startswith("undercroft: ") and f"fov {name!r} (plugin lamps) returned " in line


BAD_GENERATORS = """
    def hall(ctx, code=1, dtype=np.uint8, shape=None):
        t = np.zeros(shape or (ctx.height, ctx.width), dtype=dtype)
        t[1:-1, 1:-1] = 1
        t[1, 2] = code
        return Level(t, (1, 1), stairs=(2, 1))

    @hookimpl
    def register_generators(register):
        register("sevens", lambda ctx: hall(ctx, code=7), min_size=(4, 3))
        register("wide", lambda ctx: hall(ctx, dtype=np.int64), min_size=(4, 3))
        register("square", lambda ctx: hall(ctx, shape=(ctx.width, ctx.width)), min_size=(4, 3))
        register("nothing", lambda ctx: None)
        register("nowhere", lambda ctx: Level(np.ones((ctx.height, ctx.width), dtype=np.uint8), None))
"""


@pytest.mark.parametrize("name, problem", [
    ("sevens", "returned tile code 7 at (2, 1): valid codes are 0 wall, 1 floor, 2 stairs"),
    ("wide", "returned terrain that is a int64 array of shape (5, 6): expected a 2-D uint8 array indexed [y, x] "
                 "(or an array of terrain kind names)"),
    ("square", "returned terrain of shape (6, 6) for a 6x5 level: expected (5, 6)"),
    ("nothing", "returned None, expected an engine.Level"),
    ("nowhere", "returned a level whose start is None: expected an (x, y) pair of ints"),
])
def test_a_level_of_the_wrong_shape_dtype_or_codes_is_refused_naming_the_plugin(tmp_path, capsys, name, problem):
    folder = plugins_dir(tmp_path, badgen=BAD_GENERATORS)
    with pytest.raises(BadLevel) as e:
        load(folder).generators[name].fn(GenContext(6, 5, 1, None, {}))
    assert str(e.value) == f"generator {name!r} (plugin badgen) {problem}"
    line = one_line_error(capsys, ["--headless", "--new", "--plugins-dir", str(folder), "--plugin",
                                   f"generator={name}", "--size", "6x5"])
    assert line.startswith("undercroft: ") and f"generator {name!r} (plugin badgen) {problem}" in line


# --- entry points and the announcement -----------------------------------------------------------------


@pytest.fixture
def installed(tmp_path, monkeypatch):
    site = make_dist(tmp_path / "site", "undercroft-wraiths", "0.2.0", {"wraiths": "wraiths_plugin"}, {
        "wraiths_plugin": """
        from engine import hookimpl, MonsterKind

        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="ice-wraith", glyph="W", color=(200, 220, 255), hp=5, attack=2))
    """})
    monkeypatch.syspath_prepend(str(site))
    yield site
    forget_modules("wraiths_plugin")


def test_entry_point_names_that_match_nothing_are_warned(installed, monkeypatch):
    monkeypatch.setenv("UNDERCROFT_LOAD_PLUGINS", "wraiths,wraths")
    registry = load_registry()
    assert registry.monsters["ice-wraith"].glyph == "W"
    assert registry.plugin("wraiths").source == "entry point undercroft-wraiths"
    warning = [w for w in registry.warnings if "UNDERCROFT_LOAD_PLUGINS" in w]
    assert len(warning) == 1 and warning[0].startswith("UNDERCROFT_LOAD_PLUGINS names 'wraths', which no installed "
                                                       "entry point of the 'undercroft' group is called (installed: ")
    assert "wraiths" in warning[0]


def test_broken_plugins_and_warnings_are_announced_once_one_line_each(tmp_path):
    registry = load(plugins_dir(tmp_path, typo="""
        @hookimpl
        def register_monster(register):
            pass
    """, geckos="""
        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="gecko", glyph="g", color=(1, 2, 3), hp=1, attack=1))
    """))
    out = io.StringIO()
    announce(registry, out)
    announce(registry, out)
    assert out.getvalue().splitlines() == [
        f"undercroft: plugin 'typo' ({tmp_path / 'plugins' / 'typo.py'}) is broken and was skipped: hook "
        "'register_monster' (did you mean 'register_monsters'?) is not an Undercroft hook",
        "undercroft: warning: glyph 'g' is shared by monster 'goblin' (plugin content) and monster 'gecko' (plugin "
        "geckos): --map reads 'g' as monster 'gecko'",
    ]


def test_a_bool_array_of_any_origin_passes_the_guard(tmp_path):
    """A compiled kernel's array (numba's cache unpickles its types) has a bool dtype that equals
    numpy's without being the same object: it is a bool array all the same."""
    registry = load(plugins_dir(tmp_path, thawed="""
        import pickle

        @hookimpl
        def register_fov_algorithms(register):
            register("thawed", lambda t, o, r: pickle.loads(pickle.dumps(np.ones(t.shape, dtype=bool))))
    """))
    seen = registry.fov["thawed"](np.ones((4, 3), dtype=bool), (1, 1), None)
    assert seen.dtype is not np.dtype(bool) and seen.all()


def test_undercroft_debug_shows_the_traceback_behind_the_one_line(tmp_path, capsys, monkeypatch):
    folder = plugins_dir(tmp_path, badgen=BAD_GENERATORS, quitter="raise SystemExit(3)\n")
    argv = ["--headless", "--new", "--plugins-dir", str(folder), "--plugin", "generator=sevens", "--size", "6x5"]
    line = one_line_error(capsys, argv)  # without it: one line, no traceback (one_line_error checks)
    monkeypatch.setenv("UNDERCROFT_DEBUG", "1")
    assert main(argv) == 2
    err = capsys.readouterr().err
    # the broken quitter's; then the refused level's, and the failure it caused
    assert err.count("Traceback (most recent call last)") == 3
    assert 'quitter.py", line 3' in err and "raise BadLevel(" in err and err.rstrip().endswith(line)
    monkeypatch.setenv("UNDERCROFT_DEBUG", "0")
    assert one_line_error(capsys, argv) == line
