"""An installed third-party plugin is judged like a built-in: ``pytest --plugin fov=NAME`` (and
``generator=``) runs our contract tests on it, skipping only the ones that pin the built-ins, each
saying why; ``compare fov``, ``compare generators`` and ``bench`` include it and take ``--plugin``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fakedist import forget_modules, make_dist

from engine.cli.main import main
from engine.cli.tools.bench import command as bench
from engine.cli.tools.compare import fov as compare_fov
from engine.cli.tools.compare import generators as compare_gen

ROOT = Path(__file__).resolve().parent.parent

FROST = """
    import numpy as np
    from engine import hookimpl
    from engine.plugins.fov.symmetric import symmetric_fov
    from engine.plugins.generators.caves import PARAMS, generate

    SQUARE = {square}

    def frost_diamond(transparent, origin, radius):
        seen = symmetric_fov(transparent, origin, radius)
        if SQUARE and radius is not None:  # the bug: a light that reaches the corners of its square
            ox, oy = origin
            ys, xs = np.ogrid[:transparent.shape[0], :transparent.shape[1]]
            seen = seen | ((abs(xs - ox) <= radius) & (abs(ys - oy) <= radius))
        return seen

    @hookimpl
    def register_fov_algorithms(register):
        register("frost-diamond", frost_diamond, symmetric=True, summary="a frosty light")

    @hookimpl
    def register_generators(register):
        register("frost-caves", generate, params=PARAMS, min_size=(6, 5), summary="frozen caves")
"""


def install_frost(site: Path, square: bool = False) -> Path:
    return make_dist(site, "undercroft-frost", "0.2.0", {"frost": "frost_plugin"},
                     {"frost_plugin": FROST.format(square=square)})


@pytest.fixture
def frost(tmp_path, monkeypatch):
    site = install_frost(tmp_path / "site")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("UNDERCROFT_LOAD_PLUGINS", "frost")
    yield site
    forget_modules("frost_plugin")


def run_pytest(site: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    env.pop("UNDERCROFT_LOAD_PLUGINS", None)  # as a plugin author runs it: every installed plugin in reach
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)


def test_pytest_plugin_runs_the_contract_tests_on_an_installed_plugin(tmp_path):
    """From the plugin's own folder, pointed at the suite: the contract tests of the chosen kinds
    only, for the chosen names; what pins the built-ins (the game's content, golden files, Jice's
    figures) is deselected, not skipped."""
    site = install_frost(tmp_path / "site")
    done = run_pytest(site, str(ROOT / "tests"), "--plugin", "fov=frost-diamond", "--plugin",
                      "generator=frost-caves", cwd=tmp_path)
    out = done.stdout
    assert done.returncode == 0, out[-4000:] + done.stderr[-2000:]
    summary = out.strip().splitlines()[-1]
    assert " passed, " in summary and " deselected in " in summary, summary
    # no test is skipped in the plugin's place; only a module needing an optional extra that is not
    # installed (tcod, the bench's yardstick) may be, as in any run of the suite
    skips = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert all("optional" in line for line in skips), skips
    assert int(summary.split(" passed")[0].split()[-1]) >= 15


def test_pytest_plugin_selects_the_chosen_kinds_tests_only(tmp_path):
    site = install_frost(tmp_path / "site")
    done = run_pytest(site, str(ROOT / "tests"), "--collect-only", "--plugin", "fov=frost-diamond",
                      cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert ids and all("frost-diamond" in i for i in ids), [i for i in ids if "frost-diamond" not in i][:5]
    assert not any("test_expansive_walls" in i or "test_golden" in i or "test_generators.py" in i for i in ids)
    assert any("test_the_kit_passes_it_whole" in i for i in ids)


def test_pytest_plugin_finds_a_plugins_bug_and_names_it(tmp_path):
    site = install_frost(tmp_path / "site", square=True)
    done = run_pytest(site, "tests/test_fov.py", "-k", "kit_passes_it_whole or open_room",
                      "--plugin", "fov=frost-diamond")
    assert done.returncode == 1
    assert "fov 'frost-diamond': the light is round" in done.stdout
    assert "fov 'frost-diamond': on open ground it sees exactly its round light" in done.stdout


def test_pytest_plugin_with_a_name_nobody_has_lists_the_valid_ones(tmp_path):
    site = install_frost(tmp_path / "site")
    done = run_pytest(site, "tests/test_fov.py", "--plugin", "fov=frost-dimond")
    assert done.returncode == 4
    assert ("--plugin fov=frost-dimond: no fov named 'frost-dimond' (did you mean 'frost-diamond' or 'diamond'? "
            "valid: diamond, everything, frost-diamond,") in done.stderr


def test_compare_fov_includes_an_installed_plugin(frost, capsys):
    assert compare_fov.compare_main(["--json", "--plugin", "fov=frost-diamond", "--radius", "8"]) == 0
    rows = json.loads(capsys.readouterr().out)["algorithms"]
    assert list(rows) == ["frost-diamond"] and rows["frost-diamond"]["symmetry_errors"] == 0


def test_compare_generators_includes_an_installed_plugin_and_takes_plugin(frost, capsys):
    assert compare_gen.compare_main(["--json", "--seeds", "2"]) == 0
    names = [row["name"] for row in json.loads(capsys.readouterr().out)["generators"]]
    assert "frost-caves" in names and "caves" in names
    assert compare_gen.compare_main(["--json", "--seeds", "2", "--plugin", "generator=frost-caves",
                                     "--plugin", "generator=bsp"]) == 0
    rows = json.loads(capsys.readouterr().out)["generators"]
    assert [row["name"] for row in rows] == ["bsp", "frost-caves"] and rows[1]["connected"]


@pytest.mark.parametrize("argv, message", [
    (["--plugin", "generator=tunnels"], "compare generators: --plugin generator=tunnels: no generator named "
                                        "'tunnels' (valid: ascii, bsp, caves, "),
    (["--plugin", "fov=symmetric"], "compare generators: --plugin fov=symmetric: expected generator=NAME"),
    (["--seeds", "100000000"], "compare generators: --seeds: must be 1..100000, got 100000000"),  # it never ended
    (["--seeds", "0"], "compare generators: --seeds: must be 1..100000, got 0"),
    (["--shot", "/dev/null"], "compare generators: --shot: /dev/null is not a folder (it takes a folder for the PNG "
                              "thumbnails)"),  # it said "cannot create /dev/null: File exists"
])
def test_compare_generators_bad_plugin_choices_are_one_line(capsys, argv, message):
    assert main(["compare", "generators", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(message), err


def test_bench_includes_an_installed_plugin_and_filters_by_plugin(frost, capsys):
    """Only the named plugins' groups, and in them the named plugins beside the built-in each
    would replace (the default game's fov and depth-1 generator): no turn, path or window rows."""
    assert bench.main(["--json", "--quick", "--plugin", "fov=frost-diamond", "--plugin", "generator=frost-caves"]) == 0
    rows = json.loads(capsys.readouterr().out)
    names = [row["name"] for row in rows]
    assert {row["group"] for row in rows if "group" in row} <= {"fov", "gen"}
    fov = [n for n in names if n.startswith("fov ")]
    gen = [n for n in names if n.startswith("gen ")]
    assert fov and gen and len(fov) + len(gen) == len(names), names
    assert {n.split()[1] for n in fov} == {"frost-diamond", "symmetric"}
    assert {n.split()[1] for n in gen} == {"frost-caves", "bsp"} and "gen frost-caves 80x50" in gen


def test_bench_bad_plugin_choices_are_one_line(capsys):
    assert main(["bench", "--only", "fov", "--plugin", "fov=lantern"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bench: --plugin fov=lantern: no fov named 'lantern' (valid: diamond" in err
    assert main(["bench", "--plugin", "game=undercroft"]) == 2
    assert "expected KIND=NAME with KIND one of fov, generator, path" in capsys.readouterr().err


def test_pytest_plugins_dir_joins_a_plugin_file_to_the_contract_tests(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "lantern.py").write_text(
        "from engine import hookimpl\n"
        "from engine.plugins.fov.shadowcast import shadowcast_fov\n\n\n"
        "@hookimpl\n"
        "def register_fov_algorithms(register):\n"
        "    register('lantern', shadowcast_fov)\n")
    done = run_pytest(tmp_path, "tests/test_fov.py", "-k", "lantern and (walls or open_room or one_cell)",
                      "--plugins-dir", str(folder))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "6 passed" in done.stdout  # chosen by default with the built-ins: it came from --plugins-dir


SEVENS = """
    import numpy as np
    from engine import FLOOR, STAIRS, WALL, Level, hookimpl

    def sevens(ctx):
        t = np.full((ctx.height, ctx.width), WALL, dtype=np.uint8)
        t[1:-1, 1:-1] = FLOOR
        t[1, 3], t[2, 2] = STAIRS, 7
        return Level(t, start=(1, 1), stairs=(3, 1), rooms=[])

    @hookimpl
    def register_generators(register):
        register("sevens", sevens)
"""


@pytest.mark.parametrize("argv", [["--plugin", "generator=sevens"], ["--plugin", "generator=sevens", "--json"],
                                  []])
def test_compare_generators_says_a_level_the_load_checks_refuse_in_one_line(tmp_path, monkeypatch, capsys, argv):
    site = make_dist(tmp_path / "site", "undercroft-sevens", "0.1.0", {"sevens": "sevens_plugin"},
                     {"sevens_plugin": SEVENS})
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("UNDERCROFT_LOAD_PLUGINS", "sevens")
    try:
        assert main(["compare", "generators", "--seeds", "2", *argv]) == 2
    finally:
        forget_modules("sevens_plugin")
    err = capsys.readouterr().err
    assert err == ("compare generators: generator 'sevens' (plugin sevens) returned tile code 7 at (2, 2): valid "
                   "codes are 0 wall, 1 floor, 2 stairs\n")


def test_compare_generators_lists_a_generator_that_skips_alone(capsys):
    """The map reader needs a --map file: its row is a skip, and a table of skips alone still prints."""
    assert main(["compare", "generators", "--seeds", "1", "--plugin", "generator=ascii"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[0] == "generator" and out[1].startswith("ascii") and "skipped: " in out[1]


def test_compare_takes_a_plugins_dir_as_play_does(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "frosty.py").write_text(textwrap.dedent(FROST.format(square=False)))
    assert main(["compare", "generators", "--json", "--seeds", "2", "--plugins-dir", str(folder),
                 "--plugin", "generator=frost-caves"]) == 0
    rows = json.loads(capsys.readouterr().out)["generators"]
    assert [row["name"] for row in rows] == ["frost-caves"] and rows[0]["connected"]
    assert main(["compare", "fov", "--json", "--radius", "8", "--plugins-dir", str(folder),
                 "--plugin", "fov=frost-diamond"]) == 0
    assert list(json.loads(capsys.readouterr().out)["algorithms"]) == ["frost-diamond"]
    assert main(["compare", "generators", "--plugins-dir", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"undercroft: --plugins-dir: {tmp_path / 'nowhere'} is not a folder\n"
