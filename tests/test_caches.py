"""Every cache has a bound: what the engine and the built-in plugins keep between calls never grows
with play (a walk with no radius on a 1000x1000 map once kept a new window per step: a gigabyte)."""

from __future__ import annotations

import gc
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.kit import fov as kitfov
from engine.kit import limits
from engine.kit.caches import Spares, bounded
from engine.kit.fov import LazyRows, ReachError

ROOT = Path(__file__).resolve().parent.parent


def test_a_bounded_cache_drops_the_least_recently_used_past_its_count_or_its_cells():
    calls = []

    @bounded(3, 10, len)
    def block(n):
        calls.append(n)
        return "x" * n

    for n in (1, 2, 3):
        block(n)
    block(1)  # 1 is now the most recently used
    block(4)  # 4 entries would be one too many: 2 goes, the least recently used
    assert block.cache_info()[:2] == (3, 8)
    block(1), block(3), block(4)
    assert calls == [1, 2, 3, 4]  # all hits
    block(9)  # 9 cells: only room for it alone
    assert block.cache_info()[:2] == (1, 9)
    block(11)  # more cells than the cache may hold: returned, not kept
    assert block.cache_info()[:2] == (1, 9) and block(11) == "x" * 11 and calls[-2:] == [11, 11]
    block.cache_clear()
    assert block.cache_info()[:2] == (0, 0)


def test_a_bounded_cache_needs_room_for_one_entry():
    with pytest.raises(ValueError, match="bounded cache: max_entries and max_cells must be at least 1, got 0, 5"):
        bounded(0, 5, len)


def test_spares_hand_out_the_smallest_that_fits_never_twice_and_keep_within_bounds():
    made = []

    def make(n):
        made.append(n)
        return bytearray(n)

    spares = Spares(2, 10, make, len)
    a, b = spares.take(3), spares.take(3)
    assert a is not b and made == [3, 3]  # taken out: a second taker gets its own
    spares.give(a)
    spares.give(bytearray(6))
    assert spares.take(2) is a and spares.cache_info()[:2] == (1, 6)  # the smallest that fits
    spares.give(a)
    spares.give(b)  # three would be one too many: the 6, the least recently given back, goes
    assert spares.cache_info()[:2] == (2, 6)
    spares.give(bytearray(5))  # 11 cells: the oldest (a) goes
    assert spares.cache_info()[:2] == (2, 8) and spares.take(3) is b
    spares.give(bytearray(11))  # more than the pool may hold alone: not kept
    assert spares.cache_info()[:2] == (1, 5) and len(spares.take(7)) == 7 and made[-1] == 7
    spares.cache_clear()
    assert spares.cache_info()[:2] == (0, 0)
    with pytest.raises(ValueError, match="spares: max_entries and max_cells must be at least 1, got 2, 0"):
        Spares(2, 0, make, len)


def test_lazy_rows_keep_at_most_their_cells_dropping_the_first_built(monkeypatch):
    monkeypatch.setattr(limits, "MAX_FOV_ROW_CELLS", 10)
    rows = LazyRows(lambda key: (key,) * 4)
    for key in range(5):
        assert rows[key] == (key,) * 4
    assert list(rows) == [3, 4] and rows.cells == 8
    assert rows[0] == (0,) * 4 and list(rows) == [4, 0]  # built again when asked for again


UNBOUNDED = re.compile(r"functools\.cache\b|@cache\b|lru_cache\(\s*(maxsize\s*=\s*)?None|lru_cache\s*$|lru_cache\(\)")


def test_no_function_cache_in_the_engine_or_the_plugins_is_unbounded():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for folder in ("engine", "plugins") for path in sorted((ROOT / folder).rglob("*.py"))
             if "engine/plugins" not in path.as_posix() and "engine/content" not in path.as_posix()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if UNBOUNDED.search(line) and not line.lstrip().startswith(("#", '"""'))]
    assert found == []


# The walk: 500 cells from the middle of a 1000x1000 cave toward a corner. With no radius the
# window an algorithm lights has a new reach at every step, so a cache per reach meets 500 keys.
# raycast and diamond trace a line to every cell in the light: with no radius at this size a call
# takes 20-900 ms, so they walk with the default game's light (their tables are per reach as well).
TRACERS = {"raycast": 8, "diamond": 8}
WALK = [(500 + i, 500 + i) for i in range(500)]


@pytest.fixture(scope="module")
def cave():
    from engine.core.play.setup import generate_level

    return generate_level("caves", 1000, 1000, seed=3).terrain != 0


def _registry():
    from engine.core.play.setup import _default_registry

    return _default_registry()


def _caches(module) -> list:
    """The function caches of a module: its functools.lru_cache and bounded functions."""
    return [value for value in vars(module).values() if callable(getattr(value, "cache_info", None))]


@pytest.mark.parametrize("name", sorted(_registry().fov))
def test_a_walk_of_500_cells_at_1000x1000_keeps_every_fov_cache_bounded(name, cave):
    alg = _registry().fov[name]
    modules = {sys.modules[fn.__module__] for fn in (alg.fn, alg.python) if fn is not None}
    radius = TRACERS.get(name)
    for origin in WALK:
        for fn in (alg.fn, alg.python):
            if fn is None:
                continue
            try:
                visible = fn(cave, origin, radius)
            except ReachError:  # the pure-Python version's documented limit: it lights no farther
                continue
            assert visible.shape == cave.shape and visible[origin[1], origin[0]]
    for cached in [kitfov.window_disc, *(c for module in modules for c in _caches(module))]:
        info = cached.cache_info()
        if hasattr(info, "max_cells"):  # engine.kit.caches.bounded
            assert info.entries <= info.max_entries and info.cells <= info.max_cells, (cached, info)
        else:  # functools.lru_cache
            assert info.maxsize is not None and info.currsize <= info.maxsize, (cached, info)
    gc.collect()
    # by type, not isinstance: isinstance on a dead weakref.proxy another test left raises ReferenceError
    lazy = [obj for obj in gc.get_objects() if issubclass(type(obj), LazyRows)]
    for rows in lazy:
        assert rows.cells == sum(len(v) for v in rows.values()) <= limits.MAX_FOV_ROW_CELLS


def test_the_window_disc_of_a_light_with_no_radius_is_never_made(cave):
    """A light that covers its whole window needs no disc to cut it: a walk with no radius makes
    none, however far it reaches."""
    kitfov.window_disc.cache_clear()
    shadowcast = _registry().fov["shadowcast"]
    for origin in WALK[:20]:
        shadowcast(cave, origin, None)
    # at (510, 510) the window reaches 510: a radius of 722 covers it (722² >= 2 * 510²)
    assert np.array_equal(shadowcast(cave, (510, 510), 722), shadowcast(cave, (510, 510), None))
    assert kitfov.window_disc.cache_info()[:2] == (0, 0)
