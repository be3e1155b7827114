"""The engine's layers import one way (cli -> frontend -> persist -> core -> kit) and nothing imports
in a circle, typing imports included: import-linter's contracts in pyproject.toml. Plugins import
only the public surface (``engine`` and ``engine.kit``)."""

import ast
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = shutil.which("lint-imports")


def lint(where: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(where)}  # "engine" is the tree in ``where``
    return subprocess.run([LINT, "--config", str(ROOT / "pyproject.toml"), "--no-cache"], cwd=where, env=env,
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def linter():
    assert LINT, "import-linter is a test dependency (pip install -e '.[test]')"
    return lint


def test_the_import_contracts_hold(linter):
    r = linter(ROOT)
    assert r.returncode == 0 and "0 broken" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize(("module", "line", "broken"), [
    ("engine/kit/fov.py", "from engine.core.model import rng", "Layers import one way"),  # a back-arrow
    ("engine/core/model/rng.py", "from engine.persist import files", "Layers import one way"),
    ("engine/core/model/scheduler.py", "if False:\n    from engine.core.turn import game",
     "No module imports in a circle"),
    ("engine/core/model/rng.py", "from engine.core.play import session", "The rooms of engine/core"),
    ("engine/core/kinds/tables.py", "from engine.core.plugin import registry", "The rooms of engine/core"),
    ("engine/plugins/rules/effects.py", "from engine.core.turn import game", "Plugins import only the public"),
    ("engine/testing/fov.py", "from engine.cli import main", "Layers import one way"),
])
def test_a_new_back_arrow_or_cycle_breaks_a_contract(linter, tmp_path, module, line, broken):
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "engine", copy / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.png", "*.ttf"))
    target = copy / module
    target.write_text(target.read_text() + f"\n{line}\n")
    r = linter(copy)
    assert r.returncode != 0 and broken in r.stdout and "BROKEN" in r.stdout, r.stdout + r.stderr


def test_plugins_import_only_the_public_surface():
    """A plugin imports ``engine``, ``engine.kit`` and its own package (the built-ins' is
    ``engine.plugins``: a plugin's compiled kernel is a sibling module), nothing else of the engine."""
    paths = [*(ROOT / "plugins").rglob("*.py"), *(ROOT / "examples").rglob("*.py")]
    assert len(paths) > 40  # the built-ins, in their folders by kind, and the examples
    for path in paths:
        own = "engine.plugins" if (ROOT / "plugins") in path.parents else None
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                if name == "engine" or name.startswith("engine."):
                    ok = name in ("engine", "engine.kit") or name.startswith("engine.kit.") or (
                        own is not None and (name == own or name.startswith(own + ".")))
                    assert ok, f"{path.name} imports {name}"


def test_the_engine_imports_no_built_in_plugin_or_content():
    """engine/ never imports the built-in plugins or content: it names the plugins' modules once,
    in DEFAULT_PLUGINS, and loads them exactly as it loads anyone's."""
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.startswith(("engine.plugins", "engine.content")) for n in names), path
        if path.name != "loader.py":
            assert "engine.plugins." not in text and "engine.content" not in text, path
