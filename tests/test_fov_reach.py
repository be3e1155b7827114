"""Lights that reach far: a light with no radius, or one wider than the map.

Algorithms with per-window tables build them once per map, not once per origin; the scanning
ones work out a slope's rows only when a scan meets it, so a large map costs what the scans see;
and the two whose tables grow with the cube of the reach refuse, in one line, to light farther
than they can.
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

import engine.kit.fov
from engine.cli.tools.compare import fov as catalog_fov
from engine.core.play.setup import Setup, UsageError, new_game
from engine.kit.fov import LazyRows, ReachError, lit_cells, slope_rows, table_reach

TABLED = ("symmetric", "shadowcast", "raycast", "diamond")


def _module(name: str):
    return sys.modules[f"engine.plugins.fov.{name}"]


def _python(registry, name: str):
    alg = registry.fov[name]
    return alg.python or alg.fn


def test_table_reach_is_the_same_for_every_origin():
    assert table_reach((50, 80), None) == 79
    assert table_reach((50, 80), 8) == 8
    assert table_reach((50, 80), 1000) == 79
    assert table_reach((1, 1), None) == 0


@pytest.mark.parametrize("name", TABLED)
def test_a_light_with_no_radius_builds_one_table_per_map(registry, name):
    tables = getattr(_module(name), "_tables", None) or _module(name)._table
    fn = _python(registry, name)
    t = catalog_fov.cave_map(random.Random(4), 30, 20)
    fn(t, (15, 10), None)
    before = tables.cache_info().misses
    for origin in catalog_fov.floor_origins(t, random.Random(5), 25):
        assert fn(t, origin, None)[origin[1], origin[0]]
    assert tables.cache_info().misses == before


@pytest.mark.parametrize("name", ["symmetric", "shadowcast"])
def test_slopes_worked_out_on_demand_give_the_whole_table(registry, name, monkeypatch):
    t = catalog_fov.cave_map(random.Random(6), 45, 40)
    origins = catalog_fov.floor_origins(t, random.Random(7), 12)
    fn, tables = _python(registry, name), _module(name)._tables
    results = {}
    for eager in (0, 1000):  # every window on demand; every window built whole
        monkeypatch.setattr(engine.kit.fov, "EAGER_REACH", eager)
        tables.cache_clear()
        results[eager] = [fn(t, o, radius) for o in origins for radius in (None, 40, 20)]
    tables.cache_clear()
    assert all(np.array_equal(a, b) for a, b in zip(results[0], results[1000], strict=True))


def test_slope_rows_is_whole_for_small_windows_and_on_demand_for_large():
    calls = []

    def build(key):
        calls.append(key)
        return (key, key)

    small = slope_rows(4, [3, 5], build)
    assert isinstance(small, list) and small[5] == (5, 5) and calls == [3, 5]
    large = slope_rows(engine.kit.fov.EAGER_REACH + 1, [3, 5], build)
    assert calls == [3, 5] and large[5] == (5, 5) and large[5] == (5, 5) and calls == [3, 5, 5]
    listed = []

    def keys():  # the keys by a function: listed for a small window only
        listed.append(1)
        return [3, 5]

    assert slope_rows(4, keys, build)[3] == (3, 3) and listed == [1]
    assert isinstance(slope_rows(engine.kit.fov.EAGER_REACH + 1, keys, build), LazyRows) and listed == [1]


def test_symmetric_lights_a_1000x1000_map_with_no_radius(registry):
    t = np.ones((1000, 1000), dtype=bool)
    t[::7, ::5] = False
    seen = registry.fov["symmetric"](t, (500, 500), None)
    assert seen[500, 500] and seen[500, 999] and seen.sum() > 10_000


@pytest.fixture
def python_only(monkeypatch):
    """Pure Python, as without numba: the registry is loaded afresh with the kernels switched off."""
    from engine.core.loading.loader import load_registry
    from engine.kit import jit

    monkeypatch.setenv("UNDERCROFT_JIT", "0")
    monkeypatch.setattr(jit, "_kernels", {})
    return load_registry(entry_points=False)


@pytest.mark.parametrize("name, most", [("raycast", 128), ("diamond", 64)])
def test_cube_tables_refuse_a_light_beyond_their_reach_in_pure_python(python_only, name, most):
    alg = python_only.fov[name]
    assert alg.max_reach == most
    t = np.ones((most + 2, 5), dtype=bool)
    with pytest.raises(ReachError, match=rf"fov '{name}' lights at most {most} cells away .* reaches {most + 1} "
                                         rf"on a 5x{most + 2} map"):
        alg.fn(t, (2, 2), None)
    assert alg.fn(t, (2, 2), most)[2, 2]  # within reach it lights


@pytest.mark.parametrize("name", ["raycast", "diamond"])
def test_compiled_kernels_light_any_reach(registry, name):
    """Compiled, raycast and diamond keep no tables: no limit, and a map wider than the old one lights."""
    alg = registry.fov[name]
    assert alg.max_reach is None and alg.python is not None
    t = np.ones((7, 300), dtype=bool)
    t[3, 200] = False
    seen = alg.fn(t, (2, 3), None)
    assert seen[3, 299 - 100] and seen[3, 200] and not seen[3, 250]  # the wall is lit and casts a shadow


def test_raycast_without_a_kept_table_works_its_lines_out_per_call(registry, monkeypatch):
    module = _module("raycast")
    t = catalog_fov.cave_map(random.Random(8), 40, 30)
    origins = catalog_fov.floor_origins(t, random.Random(9), 10)
    kept = [module.raycast_fov_python(t, o, radius) for o in origins for radius in (None, 12)]
    monkeypatch.setattr(module, "TABLE_BYTES", 0)
    module._table.cache_clear()
    worked_out = [module.raycast_fov_python(t, o, radius) for o in origins for radius in (None, 12)]
    assert module._table(12, 12) is None  # no table was kept: the lines were worked out per call
    module._table.cache_clear()
    assert all(np.array_equal(a, b) for a, b in zip(kept, worked_out, strict=True))


def test_a_game_whose_light_is_too_far_for_its_fov_is_refused_before_play(python_only):
    with pytest.raises(UsageError) as e:
        new_game(Setup(game="lesson28", plugins=["fov=diamond"], size=(100, 60)))
    assert str(e.value) == (
        "game lesson28: fov 'diamond' lights at most 64 cells away (its tables grow with the cube of the distance), "
        "but a light with no radius reaches 99 on a 100x60 map: choose another fov (--plugin fov=NAME), a smaller "
        "--size, or a preset whose fov_radius is at most 64")
    game = new_game(Setup(game="lesson28", plugins=["fov=diamond"], size=(60, 40)))
    assert game.floor.visible.any()


def test_an_fov_call_s_work_is_its_light_s_square_or_the_map():
    """What a play session's deferring counts (engine.kit.jit.sibling's cells): a light of radius 8
    lights at most a 17x17 square on any map; with no radius, the whole map."""
    assert lit_cells((1000, 1000), 8) == 289 and lit_cells((5, 4), 8) == 20 and lit_cells((50, 80), None) == 4000
