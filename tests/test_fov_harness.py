"""The FOV comparison (``python -m engine compare fov``) and the benchmark figures."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from engine.cli.tools.compare import fov as catalog_fov


@pytest.mark.parametrize("argv, message", [
    (["--maps", "0"], "compare fov: --maps must be 1..1000, got 0"),
    (["--maps", "1000000"], "compare fov: --maps must be 1..1000, got 1000000"),  # it ran for ever, 1.3 GB and growing
    (["--maps", "x"], "compare fov: --maps must be an integer, got 'x'"),
    (["--seed", "-1"], "compare fov: --seed must be at least 0, got -1"),
    (["--plugin", "fov=nope"], "compare fov: no fov named 'nope'"),
    (["--bogus"], "compare fov: unrecognized arguments: --bogus"),
])
def test_bad_arguments_are_one_line_and_exit_2(capsys, argv, message):
    assert catalog_fov.compare_main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(message)


def test_a_radius_beyond_a_pure_python_fov_is_one_line_and_exit_2(capsys, monkeypatch):
    from engine.kit import jit

    monkeypatch.setenv("UNDERCROFT_JIT", "0")  # diamond's pure-Python tables reach 64 cells
    monkeypatch.setattr(jit, "_kernels", {})
    assert catalog_fov.compare_main(["--radius", "100"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "compare fov: fov 'diamond' lights at most 64 cells away (its tables grow with the cube of the distance), "
        "but a radius of 100 reaches 79 on a 80x50 map: use --radius 64 or less, or compare the others without it "
        "(--plugin fov=NAME)\n")


def test_compare_json_is_deterministic_apart_from_timings(capsys):
    runs = []
    for _ in range(2):
        assert catalog_fov.compare_main(["--json", "--seed", "5", "--plugin", "fov=symmetric",
                                         "--plugin", "fov=shadowcast", "--radius", "8"]) == 0
        data = json.loads(capsys.readouterr().out)
        for row in data["algorithms"].values():
            assert row.pop("us_per_call") > 0
        runs.append(data)
    assert runs[0] == runs[1]
    rows = runs[0]["algorithms"]
    assert sorted(rows) == ["shadowcast", "symmetric"]
    assert rows["symmetric"]["symmetry_errors"] == 0 and rows["symmetric"]["symmetry_pairs"] > 100
    assert rows["shadowcast"]["symmetry_errors"] > 0
    assert rows["symmetric"]["expansive_walls"] and rows["symmetric"]["pillar_shadows_widen"]
    assert len(runs[0]["maps"]) == len(catalog_fov.MAP_NAMES)


def test_compare_table_is_aligned(capsys):
    assert catalog_fov.compare_main(["--plugin", "fov=everything", "--plugin", "fov=raycast"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("FOV comparison on 5 maps of 80x50")
    assert lines[1].split()[0] == "algorithm" and [ln.split()[0] for ln in lines[2:]] == ["everything", "raycast"]
    assert len({len(ln) for ln in lines[1:]}) == 1


@pytest.mark.parametrize("name", catalog_fov.MAP_NAMES)
def test_comparison_maps_are_seeded_and_have_floor(name):
    a = catalog_fov.make_map(name, random.Random(3))
    b = catalog_fov.make_map(name, random.Random(3))
    assert a.shape == (50, 80) and (a == b).all()
    assert 0.2 < a.mean() < 1 and not a[0].any() and not a[:, -1].any()


def test_caves_differ_by_seed():
    assert (catalog_fov.cave_map(random.Random(1)) != catalog_fov.cave_map(random.Random(2))).any()


def test_the_property_checks_can_fail():
    def blind(t, origin, radius):
        v = np.zeros(t.shape, dtype=bool)
        v[origin[1], origin[0]] = True
        return v

    assert not catalog_fov.expansive_walls(blind)
    assert not catalog_fov.no_blind_corners(blind)
    assert not catalog_fov.pillar_shadows_widen(lambda t, o, r: np.ones(t.shape, dtype=bool))


def test_bench_figures_shape(registry):
    from engine.cli.tools.bench import fov as bench_fov

    figures = bench_fov.fov_figures(repeats=1, registry=registry, maps=((30, 20),), radii=(4, None))
    names = [f["name"] for f in figures]
    # a compiled algorithm is timed both ways; the target is on the compiled row; the default
    # game's FOV (symmetric) carries the strict target
    assert "fov symmetric (numba) r4 30x20" in names and "fov symmetric (python) no radius 30x20" in names
    assert "fov everything" not in " ".join(names)  # no libtcod counterpart: not in the growth rows
    # every map kind: the bench's caves (named as ever), and the rooms and bsp generators' levels
    assert "fov symmetric (numba) r4 rooms 30x20" in names and "fov symmetric (numba) r4 bsp 30x20" in names
    assert {f["terrain"] for f in figures} == {"caves", "rooms", "bsp"}
    for f in figures:
        assert f["unit"] == "us" and f["value"] > 0 and f["map"] == "30x20"
        assert f["spread"][0] <= f["value"] <= f["spread"][1] and f["samples"] == 1
        if f["variant"] == "python":
            assert f["target"].startswith("pure-Python reference: a figure")
        elif f["fov"] == "symmetric":
            assert f["target"].startswith("<= 1.5x compute_fov, <= 2x Map")
        elif f["fov"] in ("permissive", "diamond"):  # the stricter targets for these two
            assert f["target"].startswith(f"<= {bench_fov.STRICT_TARGETS[f['fov']]:g}x compute_fov at every radius")
        else:
            assert f["target"].startswith("within 5x of libtcod")
        if bench_fov._tcod() is None:  # libtcod is the bench extra: without it, no ratios
            assert f["tcod"] is None and f["ratio"] is None
            continue
        # one round: the round's own ratio is the value over libtcod's (rounded to 0.01)
        assert f["ratio"] == pytest.approx(f["value"] / f["tcod"], rel=0.02, abs=0.006)
        assert f["ratio_map"] == pytest.approx(f["value"] / f["tcod_map"], rel=0.02, abs=0.006)
        if f["variant"] != "python":
            assert f["verdict"] == "met" or f["verdict"].startswith("missed: ratio")
    if bench_fov._tcod() is not None:
        permissive = next(f for f in figures if f["name"] == "fov permissive (numba) r4 30x20")
        assert "libtcod lights" in permissive["target"]  # its square, said in the row


def test_first_calls_are_timed_with_the_tables_emptied(registry):
    from engine.cli.tools.bench import fov as bench_fov

    rows = bench_fov.first_calls({"raycast": registry.fov["raycast"]}, quick=True, repeats=2)
    assert [r["name"] for r in rows] == [  # at every size (quick: not 1000x1000)
        f"fov raycast ({variant}) first call {radius} {size}"
        for size in ("80x50", "200x200") for radius in ("r20", "no radius") for variant in ("numba", "python")
        if (variant, radius, size) != ("python", "no radius", "200x200")]  # beyond its PYTHON_REACH of 128
    assert all(r["unit"] == "ms" and r["value"] > 0 and r["samples"] == 2 for r in rows)
