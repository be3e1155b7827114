"""``python -m engine new-plugin NAME`` writes a package that installs with ``pip install -e`` and
passes its own tests at once; this is the CI run of exactly that. The install goes into a temporary
target (pip's editable install, with its finder), put on the path with ``site.addsitedir``: this
environment is left as it was."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli.main import main

NAME = "frost-caves"  # a hyphen in it: the module is undercroft_frost_caves, the class names FrostCaves...


def run(args: list[str], cwd: Path, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          timeout=timeout)


def in_site(site: Path, code: str) -> list[str]:
    """A python command that runs ``code`` with ``site`` as a site folder (its .pth files read)."""
    return [sys.executable, "-c", f"import site, sys; site.addsitedir({str(site)!r}); {code}"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The scaffold for NAME, written and installed (editable) into a site folder of its own."""
    root = tmp_path_factory.mktemp("scaffold")
    assert main(["new-plugin", NAME, "--dir", str(root)]) == 0
    package, site = root / f"undercroft-{NAME}", root / "site"
    # built with this environment's setuptools (the test extra installs it): no isolated build
    # environment to make, which costs seconds and needs an index
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target", str(site),
           "-e", str(package)]
    done = run(pip, root)
    assert done.returncode == 0, done.stderr[-3000:]
    return root, package, site


def test_the_scaffold_is_a_package_with_each_register_hook(installed):
    _, package, _ = installed
    files = sorted(str(p.relative_to(package)) for p in package.rglob("*")
                   if p.is_file() and "egg-info" not in str(p) and "__pycache__" not in str(p))
    assert files == ["README.md", "pyproject.toml", "tests/conftest.py", "tests/test_undercroft_frost_caves.py",
                     "undercroft_frost_caves/__init__.py"]
    source = (package / "undercroft_frost_caves" / "__init__.py").read_text()
    from engine.core.loading.registrars import REGISTER_HOOKS

    for hook in REGISTER_HOOKS:
        assert f"def {hook}(register)" in source, f"the scaffold has no example of {hook}"
    pyproject = (package / "pyproject.toml").read_text()
    assert '[project.entry-points.undercroft]\nfrost-caves = "undercroft_frost_caves"' in pyproject


def test_the_scaffold_is_lint_clean_whatever_the_names_length(installed, tmp_path):
    _, package, _ = installed
    ruff = shutil.which("ruff")
    assert ruff, "ruff is a test dependency (pip install -e '.[test]')"
    longest = "a" * 10 + "-" + "b" * 10 + "-" + "c" * 8  # 30 characters, the most a name may have
    assert main(["new-plugin", longest, "--dir", str(tmp_path)]) == 0
    for folder in (package, tmp_path / f"undercroft-{longest}"):
        done = run([ruff, "check", "--no-cache", "."], folder)
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_installed_scaffold_passes_its_own_tests(installed):
    root, package, site = installed
    code = "import pytest; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', sys.argv[1]]))"
    done = run([*in_site(site, code), str(package / "tests")], root, {"UNDERCROFT_LOAD_PLUGINS": ""})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "13 passed" in done.stdout


def test_the_installed_scaffold_plays_its_game(installed, tmp_path):
    root, _, site = installed
    code = ("from engine.cli.main import main; sys.exit(main(['--headless', '--new', '--game', 'frost-caves', "
            "'--seed', '3', '--keys', 'l l j j q . . . > .', '--dump', 'json']))")
    done = run(in_site(site, code), root, {"UNDERCROFT_LOAD_PLUGINS": NAME, "UNDERCROFT_HOME": str(tmp_path)})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    state = json.loads(done.stdout)
    assert state["game"] == NAME and state["plugins"]["fov"] == "frost-caves-lines"


def test_a_broken_contract_fails_the_scaffolds_own_tests(installed, tmp_path):
    """Edit the installed (editable) plugin's FOV to light a square: its test names the plugin and
    the contract. Put back afterwards."""
    root, package, site = installed
    module = package / "undercroft_frost_caves" / "__init__.py"
    source = module.read_text()
    try:
        module.write_text(source.replace("in_range = radius_mask(transparent.shape, origin, radius)",
                                         "in_range = np.ones(transparent.shape, dtype=bool)"))
        code = "import pytest; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '-k', 'fov', sys.argv[1]]))"
        done = run([*in_site(site, code), str(package / "tests")], root, {"UNDERCROFT_LOAD_PLUGINS": ""})
    finally:
        module.write_text(source)
    assert done.returncode == 1
    assert "fov 'frost-caves-lines': the light is round" in done.stdout


@pytest.mark.parametrize("name, says", [
    ("Frost", "'Frost' is not a plugin name: expected lowercase letters, digits and single hyphens"),
    ("frost--caves", "is not a plugin name"),
    ("9lives", "is not a plugin name"),
    ("x" * 31, "at most 30 characters"),
    ("undercroft", "'undercroft' would register names the built-in plugin 'content' has ('undercroft')"),
    ("rat", "would register names the built-in plugin 'content' has ('rat')"),
    # the example plugin the test command installs: a second undercroft-bats would replace it
    ("bats", "'bats': the installed package 'undercroft-bats' has that name, and installing the new undercroft_bats "
             "would replace it: choose another name"),
])
def test_a_bad_name_is_one_line(tmp_path, capsys, name, says):
    assert main(["new-plugin", name, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_or_a_missing_dir_is_one_line(tmp_path, capsys):
    (tmp_path / "undercroft-ice").mkdir()
    assert main(["new-plugin", "ice", "--dir", str(tmp_path)]) == 2
    assert "undercroft-ice exists: choose another name or folder (--dir)" in capsys.readouterr().err
    assert main(["new-plugin", "ice", "--dir", str(tmp_path / "nowhere")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_a_plugin_that_exits_as_it_is_imported_fails_its_tests_without_stopping_pytest(installed):
    """The scaffold's tests import the plugin in a fixture: SystemExit at import is each test's
    failure, named, not pytest's INTERNALERROR."""
    root, package, site = installed
    module = package / "undercroft_frost_caves" / "__init__.py"
    source = module.read_text()
    try:
        module.write_text(source + "\nraise SystemExit(3)\n")
        code = "import pytest; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', sys.argv[1]]))"
        done = run([*in_site(site, code), str(package / "tests")], root, {"UNDERCROFT_LOAD_PLUGINS": ""})
    finally:
        module.write_text(source)
    assert "INTERNALERROR" not in done.stdout + done.stderr and done.returncode == 1, done.stdout[-3000:]
    assert "importing undercroft_frost_caves raised SystemExit(3)" in done.stdout


def test_the_scaffolds_readme_sends_nobody_to_pypi(installed):
    _, package, _ = installed
    readme = (package / "README.md").read_text()
    assert "pypi.org" not in readme and "pip install -e path/to/undercroft" in readme
