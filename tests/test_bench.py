"""``python -m engine bench``: its options, --json and the chart (timings themselves are figures,
never asserted)."""

from __future__ import annotations

import json

import pytest

from engine.cli.tools.bench import command as bench
from engine.cli.tools.bench import fov as bench_fov
from engine.cli.tools.bench import plot as bench_plot


@pytest.fixture
def small_fov(monkeypatch):
    """The FOV group on one small map and two radii: the options are what is tested here."""
    real = bench_fov.fov_figures

    def fov(repeats, quick, registry=None):
        return real(1, quick, registry, maps=((30, 20),), radii=(4, None))

    monkeypatch.setattr(bench, "_fov", fov)


def test_json_rows_carry_what_tools_need(small_fov, capsys):
    assert bench.main(["--only", "fov", "--quick", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    row = next(r for r in rows if r["name"] == "fov symmetric (numba) r4 30x20")
    assert {"group", "fov", "variant", "map", "radius", "value", "unit", "tcod", "ratio", "tcod_map",
            "ratio_map", "target"} <= set(row)
    assert row["group"] == "fov" and row["radius"] == 4 and row["variant"] == "numba"


def test_plot_writes_a_png(small_fov, tmp_path, capsys):
    out = tmp_path / "fov.png"
    assert bench.main(["--only", "fov", "--quick", "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000
    assert "fov symmetric (numba) r4 30x20" in capsys.readouterr().out


def test_plot_without_matplotlib_is_one_line_and_exit_2(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bench_plot, "available", lambda: False)
    assert bench.main(["--only", "fov", "--plot", str(tmp_path / "x.png")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "bench: --plot needs matplotlib: pip install 'undercroft[plot]'\n"


def test_plot_needs_the_fov_group(tmp_path, capsys):
    assert bench.main(["--only", "gen", "--plot", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err == "bench: --plot charts the FOV figures: add --only fov\n"


def test_generator_rows_cover_three_sizes_and_pure_python(monkeypatch):
    from engine.cli.tools.compare import generators as compare_gen
    from engine.core.play.setup import _default_registry

    registry = _default_registry()
    small = type(registry)(**{**registry.__dict__, "generators": {"rooms": registry.generators["rooms"]}})
    monkeypatch.setattr(compare_gen, "BENCH_SIZES", (((20, 15), "< 20 ms"), ((30, 20), "< 300 ms"),
                                                     ((40, 25), "< 300 ms")))
    rows = compare_gen.bench_figures(1, registry=small)
    assert [r["name"] for r in rows] == [
        "gen rooms 20x15", "gen rooms 30x20", "gen rooms 40x25",
        "gen rooms (python) 20x15", "gen rooms (python) 30x20", "gen rooms (python) 40x25"]
    assert rows[-1]["target"] == "pure Python (no numba): a figure"


def test_shot_rows_time_the_whole_command_and_its_peak_memory(monkeypatch):
    from engine.cli.tools.bench import shot as bench_shot
    from engine.kit import jit

    monkeypatch.setattr(bench_shot, "SIZES", ((30, 20), (120, 100)))
    rows = bench_shot.bench_figures(1)
    names = [r["name"] for r in rows]
    configs = ["numba", "no numba (default install)"] if jit.enabled() else ["as installed"]
    assert names == [n for size in ("30x20", "120x100") for c in configs
                     for n in (f"shot {size}, {c}: start to PNG", "  peak memory")]
    seconds, memory = rows[0::2], rows[1::2]
    assert all(0 < r["value"] < 60 and r["unit"] == "s" for r in seconds)  # the child's CPU seconds
    assert all(0 < r["wall"] < 120 and r["note"].startswith("wall ") for r in seconds)
    assert all(50 < r["value"] < 4000 and r["unit"] == "MB" for r in memory)  # a window and Python: tens of MB
    assert [r["target"] for r in seconds] == ["comparison"] * len(configs) + ["< 3 s"] * len(configs)
    if jit.enabled():
        # a play session imports numba only for a call whose work is over jit.SMALL cells: the
        # default game's first frame makes none, on 600 cells or 12,000 (its light is a 17x17
        # square, its region labelling numpy), so the two configurations are one program
        assert abs(memory[0]["value"] - memory[1]["value"]) < 20
        assert abs(memory[2]["value"] - memory[3]["value"]) < 20


def test_a_shot_that_cannot_run_is_a_row_saying_why(monkeypatch):
    from engine.cli.tools.bench import shot as bench_shot

    monkeypatch.setattr(bench_shot, "SIZES", ((0, 5),))
    monkeypatch.setenv("UNDERCROFT_JIT", "0")
    [row] = bench_shot.bench_figures(1)
    assert row["name"] == "shot 0x5, as installed (could not run)" and row["value"] is None
    assert "--size" in row["target"] and "Traceback" not in row["target"]


def test_explore_rows_time_a_step_at_the_start_and_after_walking(monkeypatch):
    from engine.cli.tools.bench import explore as bench_explore

    monkeypatch.setattr(bench_explore, "SIZES", ((60, 30),))
    monkeypatch.setattr(bench_explore, "WALKED", 40)
    start, walked = bench_explore.bench_figures(1)
    assert start["name"].startswith("explore step 60x30, at the start (")
    assert walked["name"].startswith("explore step 60x30, after 40 steps (")
    seen = [int(r["name"].split("(")[1].split()[0]) for r in (start, walked)]
    assert 0 < seen[0] < seen[1]  # it walked and saw more
    assert all(0 < r["value"] < 1000 and r["unit"] == "ms" for r in (start, walked))


def test_the_bot_group_plays_the_sims_runs_and_judges_their_mean(monkeypatch, capsys):
    """bench --only bot plays seeds 0.. with the delver as sim does (the same outcomes), and its
    row is a run's mean CPU time beside the 0.3 s target, with the runs' spread and the per-turn
    figure; the summary line says both."""
    import statistics

    from engine.cli.tools.bench import botrun
    from engine.cli.tools.sim import runs

    played = []
    real = runs.play_one
    monkeypatch.setattr(runs, "play_one", lambda spec: played.append(spec) or real(spec))
    monkeypatch.setattr(botrun, "QUICK_RUNS", 2)
    assert bench.main(["--only", "bot", "--quick", "--json"]) == 0
    run, turn = json.loads(capsys.readouterr().out)
    assert [(s.seed, s.bot, s.max_turns) for s in played[1:]] == [(0, "delver", 20_000), (1, "delver", 20_000)]
    assert run["name"] == "delver run, default game, seeds 0-1" and run["unit"] == "s" and run["samples"] == 2
    assert run["spread"][0] <= run["value"] <= run["spread"][1]
    assert run["median"] == pytest.approx(statistics.median(run["spread"]), abs=0.001)  # of two runs
    assert run["verdict"] == ("met" if run["value"] <= 0.3 else
                              f"missed: mean {run['value']:.3g} s > 0.3 s ({run['value'] / 0.3:.2f}x over)")
    assert turn["unit"] == "us" and 0 < turn["value"] * run["turns"] / 1e6 < 2 * run["spread"][1]
    from engine.cli.tools.bench.summary import markdown

    line = markdown([run, turn]).splitlines()[-1]
    assert line.startswith("| CPU time of a `delver` run of the default game, seeds 0-1 in one process") \
        and f"| {run['target']} | {run['verdict']} |" in line
