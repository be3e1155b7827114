"""The plugin system: loading, isolation of broken plugins, choices, docs kept in step."""

import ast
import re
import textwrap
from pathlib import Path

import pytest

import engine
from engine import load_registry
from engine.core.plugin.registry import PluginError

ROOT = Path(__file__).resolve().parent.parent


def write_plugin(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.py"
    path.write_text("from engine import hookimpl, MonsterKind\n" + textwrap.dedent(body))
    return path


def test_builtins_register_the_default_game(registry):
    assert "undercroft" in registry.games
    assert {"rat", "goblin", "orc"} <= set(registry.monsters)
    assert {"potion", "gold"} <= set(registry.items)
    assert {"symmetric", "raycast"} <= set(registry.fov)
    assert {"rooms", "bsp", "ascii"} <= set(registry.generators)
    assert "chase" in registry.behaviours and {"heal", "gold"} <= set(registry.effects)
    builtins = [p for p in registry.plugins if p.source == "builtin"]  # (pytest --plugin may add one more)
    assert len(builtins) >= 20 and all(p.error is None for p in builtins)


def test_a_plugins_dir_adds_a_monster(tmp_path):
    write_plugin(tmp_path, "bees", """
        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="bee", glyph="z", color=(255, 255, 0), hp=1, attack=1))
    """)
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    assert registry.monsters["bee"].glyph == "z"
    assert registry.owners[("monsters", "bee")] == "bees"


def test_a_broken_plugin_is_reported_and_skipped(tmp_path):
    write_plugin(tmp_path, "a_import", "import no_such_module_here\n")
    write_plugin(tmp_path, "b_register", """
        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="half", glyph="h", color=(1, 2, 3), hp=1, attack=1))
            raise RuntimeError("boom")
    """)
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    assert "No module named 'no_such_module_here'" in registry.broken["a_import"]
    assert registry.broken["b_register"] == "RuntimeError: boom"
    assert "half" not in registry.monsters  # nothing of a broken plugin is kept
    assert "undercroft" in registry.games  # the game still starts


def test_a_plugin_registering_a_built_ins_name_is_broken_naming_both(tmp_path):
    write_plugin(tmp_path, "ratkin", """
        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="rat", glyph="R", color=(1, 2, 3), hp=1, attack=1))
    """)
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    assert registry.broken["ratkin"] == ("monster 'rat' is already registered by the built-in plugin 'content', which "
                                         "keeps the name (it loaded first): rename yours")
    assert registry.monsters["rat"].glyph == "r"


def test_unknown_choices_list_the_valid_ones(registry):
    with pytest.raises(PluginError, match=r"--plugin fov=nope: no fov named 'nope' \(valid: .*symmetric"):
        registry.choose("fov", "nope")
    with pytest.raises(PluginError, match="unknown kind 'colour'.*fov, generator, game"):
        registry.choose("colour", "red")


def test_entry_points_are_filtered_by_env(monkeypatch):
    monkeypatch.setenv("UNDERCROFT_LOAD_PLUGINS", "")
    assert "bat" not in load_registry().monsters
    monkeypatch.setenv("UNDERCROFT_LOAD_PLUGINS", "bats")
    registry = load_registry()
    assert registry.monsters["bat"].speed == 200
    info = next(p for p in registry.plugins if p.name == "bats")
    assert info.source == "entry point undercroft-bats" and info.registered["behaviours"] == ["flutter"]


def test_engine_imports_nothing_from_plugins_or_content():
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                assert top not in ("plugins", "content", "undercroft_bats"), f"{path} imports {name}"
        text = path.read_text()
        for creature in ("rat", "goblin", "orc"):
            assert not re.search(rf"[\"']{creature}[\"']", text), f"{path} names a {creature}"


def test_public_surface():
    assert engine.hookimpl.project_name == "undercroft"
    for name in engine.__all__:
        assert hasattr(engine, name)


def test_the_engine_with_no_plugins_says_it_has_nothing_to_play(tmp_path, monkeypatch, capsys):
    from engine.cli.main import main
    from engine.core.loading import loader as plugins

    monkeypatch.setattr(plugins, "DEFAULT_PLUGINS", {})
    registry = load_registry(entry_points=False, builtins=())
    assert not registry.games and not registry.fov and not registry.plugins
    assert main(["--headless", "--new"]) == 2  # --new: a saved run from another test stays untouched
    err = capsys.readouterr().err
    assert "no game presets are registered: nothing to play" in err and err.count("\n") == 1
