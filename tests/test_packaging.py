"""The wheel adds one top-level import name, ``engine``, and carries the built-in plugins and the
content inside it, so a plain ``pip install .`` plays the same game as a checkout."""

import json
import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # the test extra installs the build backend: no isolated build environment to make (5 CPU-s)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                        "-w", str(out), str(ROOT)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    (path,) = out.glob("undercroft-*.whl")
    return path


def test_one_top_level_name_and_the_data_inside(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"engine"}
    for needed in ("engine/plugins/rules/content.py", "engine/plugins/fov/symmetric.py",
                   "engine/content/monsters.toml", "engine/content/games/undercroft.toml",
                   "engine/testing/__init__.py", "engine/testing/fov.py", "engine/cli/tools/new_plugin.py",
                   "engine/cli/tools/templates/plugin/plugin.py.tmpl",
                   "engine/cli/tools/templates/plugin/pyproject.toml.tmpl",
                   "engine/py.typed"):  # PEP 561: a plugin's type checker reads engine's hints
        assert needed in names


def test_the_installed_package_finds_its_plugins(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "UNDERCROFT_LOAD_PLUGINS": ""}
    code = ("import json, engine; from engine import load_registry; r = load_registry(); "
            "print(json.dumps([engine.__file__, sorted(r.games), sorted(r.fov)]))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    where, games, fov = json.loads(r.stdout)
    assert where.startswith(str(site))  # the unpacked wheel, not the checkout
    assert {"undercroft", "bunyip", "rogue-sdl", "lesson28"} <= set(games) and "symmetric" in fov


def installed_environment(wheel: Path, where: Path) -> Path:
    """A new virtual environment holding the wheel (unpacked, as pip installs it) and nothing of the
    checkout; the run-time dependencies are borrowed from this environment through a ``.pth`` line,
    which adds their folders but, unlike the site folders themselves, runs none of their ``.pth``
    files, so the editable install's finder is not there to hide a missing package."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    zipfile.ZipFile(wheel).extractall(purelib)
    (Path(purelib) / "borrowed-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return python


def test_the_play_command_plays_from_the_repository_root_and_elsewhere(wheel, tmp_path):
    """``pip install . && python -m engine`` in the checkout: the current folder comes first on
    ``sys.path``, so the checkout's ``engine/`` is the one imported, and it must find its built-in
    plugins and content as the installed package does, and play the same game."""
    python = installed_environment(wheel, tmp_path / "venv")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    seen = []
    for folder in (ROOT, tmp_path):
        env.update(UNDERCROFT_HOME=str(tmp_path / f"home-{len(seen)}"), UNDERCROFT_LOAD_PLUGINS="")
        outputs = []
        for args in (["--headless", "--new", "--seed", "1", "--keys", "l", "--dump", "json"], ["plugins", "--json"]):
            r = subprocess.run([str(python), "-m", "engine", *args], capture_output=True, text=True, env=env,
                               cwd=folder)
            assert (r.returncode, r.stderr) == (0, ""), f"{args[0]} from {folder}: {r.stderr}"
            outputs.append(json.loads(r.stdout))
        seen.append(outputs)
    assert seen[0] == seen[1]  # the same game, the same plugins
