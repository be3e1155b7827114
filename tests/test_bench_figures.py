"""The bench's honest figures: CPU time, A and B alternated, each figure with its spread
and its verdict, the maps of three kinds, the start-up figures, and the summary the README's table
is made of. Timings themselves are figures: nothing here asserts how fast anything is."""

from __future__ import annotations

import json
import sys

import pytest

from engine.cli.tools import timing
from engine.cli.tools.bench import command as bench
from engine.cli.tools.bench import fov as bench_fov
from engine.cli.tools.bench import maps as bench_maps
from engine.cli.tools.bench import path as bench_path
from engine.cli.tools.bench import summary as bench_summary


def test_alternated_turns_the_order_each_round_and_lets_a_slow_one_sit_rounds_out():
    calls = []

    def sampler(key):
        def one():
            calls.append(key)
            return float(len(calls))
        return one

    samples = timing.alternated({k: sampler(k) for k in "ABC"}, {"A": 3, "B": 3, "C": 1})
    assert calls == ["A", "B", "C", "B", "A", "A", "B"]  # ABC, then BCA without C, then CAB without C
    assert {k: len(v) for k, v in samples.items()} == {"A": 3, "B": 3, "C": 1}


def test_a_ratio_pairs_the_rounds_and_a_summary_gives_the_spread():
    ratio = timing.paired_ratio([2.0, 4.0, 9.0], [1.0, 2.0, 3.0])
    assert ratio == {"ratio": 2.0, "ratio_spread": [2.0, 3.0]}  # per round: 2, 2, 3
    assert timing.paired_ratio([1.0], []) is None
    row = timing.summary([5.0, 1.0, 3.0, 2.0, 4.0])
    assert row == {"value": 3.0, "spread": [1.0, 5.0], "iqr": [2.0, 4.0], "samples": 5}


def test_a_verdict_says_met_or_by_how_much_each_limit_is_missed():
    assert timing.verdict({"ratio": 1.1}, {"ratio": 1.2}) == "met"
    assert timing.verdict({"ratio": 2.4, "worst_ms": 45.0}, {"ratio": 1.2, "worst_ms": 30.0}) == \
        "missed: ratio 2.4x > 1.2x (2.00x over), worst 45 ms > 30 ms (1.50x over)"
    assert timing.verdict({"ratio": None}, {"ratio": 1.2}) == "met"  # nothing to judge (no libtcod)


def test_a_child_is_measured_by_its_own_cpu_time_beside_its_wall_time():
    burn = "import time\nend = time.process_time() + 0.05\nwhile time.process_time() < end: pass\nprint('done')"
    cpu, wall, status, out, err = timing.run_child([sys.executable, "-c", burn], timing.env_with())
    assert status == 0 and out == "done\n" and err == ""
    assert cpu > 0 and wall > 0
    env = timing.env_with(UNDERCROFT_JIT="0", PYTHONDONTWRITEBYTECODE=None)
    assert env["UNDERCROFT_JIT"] == "0" and "PYTHONDONTWRITEBYTECODE" not in env
    assert env["PYTHONPYCACHEPREFIX"]  # bytecode kept for the children, in the bench's own folder


def test_the_maps_are_the_benchs_cave_and_the_rooms_and_bsp_generators_levels():
    for kind in bench_maps.KINDS:
        t = bench_maps.open_cells(kind, 40, 30)
        assert t.shape == (30, 40) and t.dtype == bool and 0.05 < t.mean() < 0.9
    assert (bench_maps.open_cells("caves", 80, 50) == bench_fov.bench_map(80, 50)).all()
    assert bench_maps.label("caves", 80, 50) == "80x50" and bench_maps.label("bsp", 80, 50) == "bsp 80x50"
    with pytest.raises(ValueError, match="valid: caves, rooms, bsp"):
        bench_maps.open_cells("maze", 10, 10)


def test_fov_rows_on_a_big_map_give_their_slowest_call_and_judge_it(registry, monkeypatch):
    monkeypatch.setattr(bench_fov, "WORST_AT", 600)  # 30x20 stands for 1000x1000
    rows = bench_fov.fov_figures(2, registry=registry, maps=((30, 20),), radii=(None,), kinds=("rooms",))
    compiled = [r for r in rows if r["variant"] == "numba"]
    assert compiled and all(r["worst_ms"] >= 0 and "every call < 30 ms" in r["target"] for r in compiled)
    assert all("worst_ms" not in r for r in rows if r["variant"] == "python")  # a reference: a figure
    assert all(r["samples"] == 2 and r["terrain"] == "rooms" for r in rows)
    if bench_fov._tcod() is not None:
        assert all(len(r["ratio_spread"]) == 2 and r["verdict"] for r in compiled)


def test_path_rows_are_alternated_with_libtcods_and_say_astar_against_astar_per_query():
    rows = bench_path.bench_figures(repeats=2, sizes=((40, 30),))
    assert {r["terrain"] for r in rows} == {"cave", "rooms", "bsp"}
    for r in rows:
        assert r["samples"] in (2,) and r["spread"][0] <= r["value"] <= r["spread"][1]
    if bench_path.tcod_path() is None:
        return
    astar = [r for r in rows if r["name"].startswith("path astar") and r["name"].endswith("40x30 (numba)")]
    assert len(astar) == 3
    for r in astar:
        assert r["target"] == "<= 1.2x tcod.path.AStar made per query"
        assert set(r["tcod_calls"]) == {"AStar", "Pathfinder", "AStar reused"} and r["verdict"]
        assert r["tcod"] == r["tcod_calls"]["AStar"]


def test_generator_figures_are_medians_of_eleven_seeds_compiled_and_python_alternated(monkeypatch):
    from engine.cli.tools.compare import generators as compare_gen
    from engine.core.play.setup import _default_registry

    registry = _default_registry()
    small = type(registry)(**{**registry.__dict__, "generators": {"bsp": registry.generators["bsp"]}})
    monkeypatch.setattr(compare_gen, "BENCH_SIZES", (((20, 15), "< 20 ms"),))
    rows = compare_gen.bench_figures(registry=small)
    assert rows and all(r["samples"] == compare_gen.SEEDS == 11 for r in rows)
    assert rows[0]["verdict"] in ("met",) or rows[0]["verdict"].startswith("missed: median ")


def test_start_figures_time_the_engine_and_arcade_alternated():
    from engine.cli.tools.bench import start as bench_start
    from engine.kit import jit

    rows = bench_start.start_figures(1)
    names = [r["name"] for r in rows]
    headless = "start: python -m engine --headless --keys l --dump json"
    assert names == ([headless + ", numba installed", headless + ", no numba (UNDERCROFT_JIT=0)"] if jit.enabled()
                     else [headless]) + [
        '  python -c "import arcade"', "start: first window frame, python -m engine --new --seed 3",
        f"  a bare arcade.Window {rows[-2]['size'][0]}x{rows[-2]['size'][1]}, first frame"], names
    for r in rows:
        assert r["unit"] == "s" and r["value"] > 0 and r["wall"] > 0 and r["samples"] == 1
    judged = [r for r in rows if not r["name"].startswith("  ")]
    for r in judged:  # beside arcade's own start, with the spread of the rounds' ratios and a verdict
        assert r["ratio"] > 0 and len(r["ratio_spread"]) == 2
        assert r["verdict"] == "met" or r["verdict"].startswith("missed: ratio ")


def test_the_key_to_frame_figure_counts_keys_that_move_the_camera(monkeypatch):
    from engine.frontend import bench as window_bench

    monkeypatch.setattr(window_bench, "IDLE_SECONDS", 0.05)
    monkeypatch.setattr(window_bench, "MAPS", ((80, 43), (250, 250)))
    monkeypatch.setattr(window_bench, "PRESSES", 4)
    monkeypatch.setattr(window_bench, "BLOCK", 4)
    rows = window_bench.measure(1)
    every = [r for r in rows if r["name"].startswith("key to frame ")]
    assert [r["name"].split(" map")[0] for r in every] == ["key to frame 80x43", "key to frame 250x250"]
    assert all(r["name"].endswith("every key") and r["samples"] >= 1 for r in every)
    big = every[1]
    moved = int(big["note"].split()[0])
    assert moved >= 1  # the camera presses: the player stepped across the dead zone
    assert "ratio_to_smallest" in big and big["verdict"]
    assert any(r["name"].strip().startswith("keys whose frame the camera moved") for r in rows)


def _rows() -> list[dict]:
    """A few rows as the bench prints them (made up: the summary's reading is what is tested)."""
    return [
        {"group": "turn", "name": "turn 80x43 depth 5", "value": 0.07, "spread": [0.05, 0.3], "unit": "ms",
         "target": "< 1 ms", "verdict": "met"},
        {"group": "fov", "name": "fov symmetric (numba) no radius 80x50", "fov": "symmetric", "variant": "numba",
         "map": "80x50", "terrain": "caves", "radius": None, "value": 6.0, "spread": [5.0, 7.0], "unit": "us",
         "tcod": 8.0, "ratio": 0.75, "ratio_spread": [0.7, 0.8], "tcod_map": 4.0, "ratio_map": 1.6,
         "ratio_map_spread": [1.5, 1.7], "target": bench_fov.TARGET + "; " + bench_fov.STRICT,
         "verdict": "missed: ratio_map 1.6x > 1.5x (1.07x over)"},
        {"group": "path", "name": "path astar bsp 80x50 (numba)", "value": 150.0, "unit": "us", "tcod": 90.0,
         "ratio": 1.7, "ratio_spread": [1.5, 1.8], "terrain": "bsp", "map": "80x50",
         "target": "<= 1.2x tcod.path.AStar made per query",
         "verdict": "missed: ratio 1.7x > 1.2x (1.42x over)", "ratio_to": {"AStar reused": 2.2}},
        {"group": "start", "name": "start: python -m engine --headless --keys l --dump json", "value": 0.4,
         "spread": [0.38, 0.42], "unit": "s", "wall": 1.2, "ratio": 0.8, "ratio_spread": [0.75, 0.9],
         "target": "<= 2x import arcade", "verdict": "met"},
        {"group": "start", "name": '  python -c "import arcade"', "value": 0.5, "spread": [0.48, 0.52], "unit": "s",
         "wall": 1.3, "target": "comparison"},
    ]


def test_the_summary_says_each_claim_beside_its_target_and_verdict():
    table = bench_summary.markdown(_rows())
    lines = table.splitlines()
    assert lines[0].startswith("| figure | median") and all(line.startswith("|") for line in lines)
    assert "| engine CPU time per player turn, 80x43, depth 5 (the default game) | 0.070 ms (0.050-0.300) " \
           "| < 1 ms | met |" in lines
    strict = next(line for line in lines if "80x50 with no radius" in line)
    assert "caves: 1.60x (1.50-1.70)" in strict and "missed: ratio_map 1.6x > 1.5x (1.07x over)" in strict
    astar = next(line for line in lines if "A* between far cells" in line)
    assert "bsp: 1.70x" in astar and "reused: 2.20x" in astar and "1.42x over" in astar
    start = next(line for line in lines if "--headless --keys l" in line)
    assert '0.80x (0.750-0.900) python -c "import arcade"\'s 0.500 s' in start and start.endswith("| met |")


def test_from_json_prints_the_summary_of_an_earlier_run_and_refuses_other_files(tmp_path, capsys):
    saved = tmp_path / "rows.json"
    saved.write_text(json.dumps(_rows()))
    assert bench.main(["--from-json", str(saved), "--markdown"]) == 0
    assert capsys.readouterr().out == bench_summary.markdown(_rows()) + "\n"
    assert bench.main(["--from-json", str(saved)]) == 0
    assert "turn 80x43 depth 5" in capsys.readouterr().out
    (tmp_path / "other.json").write_text('{"not": "rows"}')
    assert bench.main(["--from-json", str(tmp_path / "other.json")]) == 2
    assert capsys.readouterr().err == (f"bench: --from-json {tmp_path / 'other.json'}: expected the list of rows "
                                       "bench --json prints\n")
    assert bench.main(["--from-json", str(tmp_path / "absent.json")]) == 2
    assert capsys.readouterr().err == f"bench: --from-json {tmp_path / 'absent.json'}: No such file or directory\n"


def test_the_summary_gives_a_monsters_action_on_each_crowd_and_the_ratio_judged():
    rows = [{"group": "turn", "name": f"action 250x250, {n} monsters, all hunting", "value": v,
             "spread": [v - 1, v + 1], "unit": "us", "target": "a figure", "monsters": n, "acted": n - 5}
            for n, v in ((50, 30.0), (500, 20.0))]
    rows.append({"name": "  ratio action 500 monsters / 50 monsters", "value": 0.67, "spread": [0.6, 0.7], "unit": "x",
                 "target": "< 1.5x", "verdict": "met"})
    lines = bench_summary.markdown(rows).splitlines()
    assert any("per monster action, 250x250, 50 / 500 monsters, all hunting | 30.0 (29.0-31.0) / 20.0" in line
               for line in lines)
    assert any("per action, 500 monsters / 50 monsters" in line and line.endswith("| < 1.5x | met |") for line in lines)


def test_the_summary_gives_a_hundred_hunters_turn_among_each_number_of_monsters_apart():
    rows = [{"group": "turn", "name": f"turn 250x250, 100 hunting among {n} monsters", "value": v,
             "spread": [v - 1, v + 1], "unit": "ms", "target": "a figure", "monsters": n, "among": 100,
             "acted": a} for n, v, a in ((100, 2.0, 98), (1000, 2.5, 28))]
    rows.insert(0, {"group": "turn", "name": "action 250x250, 500 monsters, all hunting", "value": 14.0,
                    "spread": [13.0, 15.0], "unit": "us", "target": "a figure", "monsters": 500, "acted": 400})
    rows.append({"name": "  ratio turn 1000 monsters / 100 monsters, 100 hunting", "value": 1.2,
                 "spread": [1.0, 1.3], "unit": "x", "target": "< 1.5x", "verdict": "met"})
    lines = bench_summary.markdown(rows).splitlines()
    assert any("per monster action, 250x250, 500 monsters, all hunting | 14.0 (13.0-15.0) µs" in line for line in lines)
    assert any("per turn, 250x250, 100 hunting among 100 / 1000 monsters (the rest asleep); 98 / 28 act a turn | "
               "2.00 (1.00-3.00) / 2.50 (1.50-3.50) ms" in line for line in lines)
    assert any("per turn, 1000 monsters / 100 monsters, 100 hunting (the same hunters" in line
               and line.endswith("| < 1.5x | met |") for line in lines)
