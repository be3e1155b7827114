"""Compiled FOV kernels (numba): each agrees cell for cell with its pure-Python reference, and the
game falls back to that reference, in one line, when numba cannot be used.

The test dependencies include numba, so here the kernels must really be compiled: a test run
without it fails rather than quietly checking pure Python against itself.
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from engine.cli.tools.compare import fov as catalog_fov
from engine.kit import jit
from engine.kit.fov import ReachError, window

RADII = (None, 0, 1, 2, 5, 8, 20, 50)


def _maps() -> list[np.ndarray]:
    """Every comparison map, random maps from empty to mostly wall, and thin and tiny ones."""
    rng = random.Random("fov jit maps")
    out = [catalog_fov.make_map(name, random.Random(k)) for name in catalog_fov.MAP_NAMES for k in range(2)]
    for density in (0.0, 0.1, 0.25, 0.4, 0.6):
        for _ in range(6):
            w, h = rng.randint(1, 45), rng.randint(1, 45)
            out.append(np.array([[rng.random() >= density for _ in range(w)] for _ in range(h)]))
    out += [np.ones((1, 1), bool), np.ones((1, 7), bool), np.zeros((5, 1), bool), np.ones((3, 3), bool)]
    # Wider than tall and the reverse, beyond the radii: lights with no radius from the corners.
    out += [catalog_fov.cave_map(random.Random(k), w, h) for k, (w, h) in enumerate(((110, 30), (25, 90)))]
    return out


def _compiled(registry) -> list[str]:
    return sorted(name for name, alg in registry.fov.items() if alg.python is not None)


def test_the_catalogue_has_compiled_kernels_and_they_compile(registry):
    assert jit.enabled(), "numba is a test dependency: install the test extra"
    names = _compiled(registry)
    assert names == ["diamond", "permissive", "raycast", "shadowcast", "symmetric"]
    for name in names:
        registry.fov[name](np.ones((5, 5), bool), (2, 2), 2)
    assert jit.failed() == []


@pytest.mark.parametrize("name", ["diamond", "permissive", "raycast", "shadowcast", "symmetric"])
def test_compiled_kernel_matches_the_python_reference(registry, name):
    alg = registry.fov[name]
    # An fn that uses its table for near lights names its kernel at every reach: that is checked.
    compiled = getattr(sys.modules[alg.fn.__module__], f"{name}_fov_compiled", alg.fn)
    rng = random.Random(f"origins {name}")
    cases = 0
    maps = []
    # diamond's reference builds a table per window size and radius (about a second at r44): a
    # third of the maps for it.
    for t in _maps()[::3 if name == "diamond" else 1]:
        h, w = t.shape
        corners = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]
        maps.append((t, corners + [(rng.randrange(w), rng.randrange(h)) for _ in range(6)]))
    for radius in RADII:  # radius outermost: the references' tables are cached per window size and radius
        for t, origins in maps:
            h, w = t.shape
            for origin in origins:
                try:
                    slow = alg.python(t, origin, radius)
                except ReachError:  # beyond the pure-Python tables' reach (diamond: 64)
                    continue
                fast = compiled(t, origin, radius)
                assert fast.dtype == bool and fast.shape == t.shape
                if not np.array_equal(fast, slow):
                    diff = np.argwhere(fast != slow)[:5].tolist()
                    pytest.fail(f"{name}: compiled and Python differ on a {w}x{h} map from {origin}, "
                                f"radius {radius}, at [y, x] {diff}")
                cases += 1
    assert cases > (800 if name == "diamond" else 2500)


def test_jit_off_runs_the_python_reference(registry, monkeypatch):
    monkeypatch.setenv("UNDERCROFT_JIT", "0")
    monkeypatch.setattr(jit, "_kernels", {})
    t = catalog_fov.make_map("pillars", random.Random(0))
    for name in _compiled(registry):
        alg = registry.fov[name]
        assert np.array_equal(alg.fn(t, (10, 10), 30), alg.python(t, (10, 10), 30))  # r30: past near-light tables
    assert jit._kernels == {f"_{name}_jit": None for name in _compiled(registry)}
    assert jit.failed() == []  # switched off is not failed


def test_a_kernel_that_cannot_compile_falls_back_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(jit, "_kernels", {})
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "_broken_jit.py").write_text("def kernel():\n    return 1\n")

    def check(module):
        raise TypeError("cannot determine Numba type of <class 'object'>")

    assert jit.sibling("fov_broken", "_broken_jit", check) is None
    assert jit.sibling("fov_broken", "_broken_jit", check) is None  # tried once, remembered
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["undercroft: cannot compile _broken_jit with numba (TypeError: cannot determine Numba "
                   "type of <class 'object'>); using pure Python (UNDERCROFT_JIT=0 stops trying)"]
    assert jit.failed() == ["_broken_jit"]


def test_a_first_compile_is_announced_once_and_a_cached_kernel_is_not(tmp_path, monkeypatch, capsys):
    """The notice comes when numba has no disk-cached code for the kernel (its cache is a fresh
    folder beside the module here), and not when a later process loads it from that cache."""
    monkeypatch.setattr(jit, "_kernels", {})
    monkeypatch.setattr(jit, "_to_a_person", lambda: True)  # stderr a terminal: the notice is for a person
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "_tiny_jit.py").write_text(
        "import numba\n\nCOMPILE_SECONDS = 3\n\n\n@numba.njit(cache=True)\ndef twice(x):\n    return 2 * x\n")

    def check(module):
        assert module.twice(21) == 42

    assert jit.sibling("fov_tiny", "_tiny_jit", check) is not None
    assert capsys.readouterr().err.splitlines() == [
        "undercroft: compiling the tiny kernel once, about 3 s (numba keeps it on disk for later runs)"]
    # A new process: the module imported afresh finds numba's cache on disk.
    monkeypatch.setattr(jit, "_kernels", {})
    monkeypatch.delitem(sys.modules, "_tiny_jit")
    assert jit.sibling("fov_tiny", "_tiny_jit", check) is not None
    assert capsys.readouterr().err == ""
    assert jit.uncached(sys.modules["_tiny_jit"]) == []


def test_no_notice_when_stderr_is_not_a_terminal(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(jit, "_kernels", {})
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "_quiet_jit.py").write_text("import numba\n\n\n@numba.njit(cache=True)\ndef one():\n    return 1\n")
    assert jit.sibling("fov_quiet", "_quiet_jit", lambda module: module.one()) is not None
    assert capsys.readouterr().err == ""


def _segment_clear(t: np.ndarray, ox: int, oy: int, px: int, py: int, tx: int, ty: int) -> bool:
    """No opaque cell's open diamond is crossed by the segment from the origin's centre to (px, py)
    (doubled coordinates, from the origin) ending in the cell (tx, ty): diamond's definition, tried
    segment by segment (the compiled kernel before the scan of open directions)."""
    h, w = t.shape
    swap = abs(py) > abs(px)
    ma, mi = (py, px) if swap else (px, py)
    tma, tmi = (ty, tx) if swap else (tx, ty)
    sign, ama = (-1 if ma < 0 else 1), abs(ma)
    for k in range(abs(tma), -1, -1):
        cma = sign * k
        cmi0 = (mi * 2 * cma * sign + ama) // (2 * ama)
        for cmi in (cmi0 - 1, cmi0, cmi0 + 1):
            cx, cy = (cmi, cma) if swap else (cma, cmi)
            if (cma == tma and cmi == tmi) or (cx == 0 and cy == 0):
                continue
            if 0 <= ox + cx < w and 0 <= oy + cy < h and t[oy + cy, ox + cx]:
                continue
            for a, b in ((2 * cma, ma), (2 * cmi, mi)):
                a, b = (-a, -b) if b < 0 else (a, b)
                if b > 0:
                    a = min(max(a, 0), b)
                    if abs(a * ma - 2 * cma * b) + abs(a * mi - 2 * cmi * b) < b:
                        return False
    return True


def test_diamond_kernel_matches_the_segments_beyond_the_tables_reach(registry):
    """Lights with no radius on maps wider than the reference's tables reach (64): each cell tried
    by its own segments (a floor by its centre's, a wall by its centre's or a tip's)."""
    from engine.core.play.setup import generate_level

    fn = registry.fov["diamond"].fn
    rng = random.Random("diamond far")
    maps = [catalog_fov.cave_map(random.Random(1), 110, 30),
            generate_level("rooms", 100, 40, seed=3).terrain != 0, generate_level("bsp", 90, 70, seed=4).terrain != 0]
    for t in maps:
        h, w = t.shape
        ys, xs = np.nonzero(t)
        for i in [0, len(xs) - 1] + [rng.randrange(len(xs)) for _ in range(2)]:
            ox, oy = int(xs[i]), int(ys[i])
            want = np.zeros_like(t)
            for y in range(h):
                for x in range(w):
                    dx, dy = x - ox, y - oy
                    want[y, x] = (dx, dy) == (0, 0) or any(
                        _segment_clear(t, ox, oy, 2 * dx + sx, 2 * dy + sy, dx, dy)
                        for sx, sy in (((0, 0),) if t[y, x] else ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))))
            got = fn(t, (ox, oy), None)
            diff = np.argwhere(got != want)[:5].tolist()
            assert np.array_equal(got, want), f"{w}x{h} from {(ox, oy)}: at [y, x] {diff}"
            assert want.sum() > 20  # a real light, not a closet


def test_diamond_light_ends_within_two_rows_of_rock(registry):
    """Why the diamond scan needs no pruning (``_diamond_jit``'s docstring): a row of walls leaves
    single directions open between its diamonds' tips, and one more row of rock ends every one of
    them. A ring of rock one cell thick lets light through to the floor beyond it; two cells thick,
    none; the kernel agrees with the reference both ways."""
    alg = registry.fov["diamond"]
    n, c = 41, 20
    d = np.maximum(abs(np.arange(n)[:, None] - c), abs(np.arange(n)[None, :] - c))  # rings around (c, c)
    for thick in (1, 2):
        for room in (3, 8):
            t = np.ones((n, n), bool)
            t[(d > room) & (d <= room + thick)] = False
            for origin in ((c, c), (c + 1, c - 2), (c - room, c + room)):
                want = alg.python(t, origin, None)
                assert np.array_equal(alg.fn(t, origin, None), want), (thick, room, origin)
                beyond = int(want[d > room + thick].sum())
                assert (beyond > 20) if thick == 1 else (beyond == 0), (thick, room, origin, beyond)


@pytest.mark.parametrize("name", ["symmetric", "shadowcast"])
def test_a_scan_kernel_lights_a_part_again_with_a_bigger_stack(registry, name):
    """A row of 150 gaps leaves 150 scans pending at once: more than the kernel's first stack holds,
    so the quadrant (octant) is lit again with a bigger one, and the light is the reference's all
    the same."""
    kernel = jit.sibling(f"engine.plugins.fov.{name}", f"_{name}_jit", lambda k: None)
    t = np.ones((160, 301), bool)
    t[9, ::2] = False  # the far row: a wall, a floor, a wall...
    if name == "symmetric":
        lit = np.zeros_like(t)
        assert not kernel._quadrant(t, lit, 150, 159, -1, 0, np.empty((64, 5), np.int64))
        assert kernel._quadrant(t, lit, 150, 159, -1, 0, np.empty((512, 5), np.int64))
    else:
        r = 299
        win = window(t, (150, 159), r)
        lit = np.zeros_like(win)
        assert not kernel._octant(win, lit, r, 4 * r * r + 1, *kernel.OCTANTS[0], np.empty((64, 5), np.int64))
        assert kernel._octant(win, lit, r, 4 * r * r + 1, *kernel.OCTANTS[0], np.empty((512, 5), np.int64))
    for radius in (None, 155):
        alg = registry.fov[name]
        assert np.array_equal(alg(t, (150, 159), radius), alg.python(t, (150, 159), radius))


def test_permissive_kernel_visits_a_quadrant_again_with_more_room(registry):
    """Room for one field and two bumps at first: every quadrant runs out, is visited again with
    twice as much, and so on; the light is the reference's all the same."""
    kernel = jit.sibling("engine.plugins.fov.permissive", "_permissive_jit", lambda k: None)
    alg = registry.fov["permissive"]
    t = catalog_fov.make_map("pillars", random.Random(0))
    h, w = t.shape
    for origin in ((10, 10), (w - 1, 0), (w // 2, h // 2)):
        for radius in (None, 8, 30):
            want = alg.python(t, origin, radius)
            assert np.array_equal(kernel.lit_map(t, origin[0], origin[1], -1 if radius is None else radius, 1), want)
            assert np.array_equal(alg.fn(t, origin, radius), want)


def test_raycast_kernel_matches_each_cells_line_beyond_the_tables_reach(registry):
    """Lights with no radius on maps wider than the reference's tables reach (128): each cell tried
    by its own Bresenham line (``raycast._between``), clear when every cell strictly between is."""
    from engine.core.play.setup import generate_level
    from engine.plugins.fov.raycast import _between

    fn = registry.fov["raycast"].fn
    rng = random.Random("raycast far")
    maps = [catalog_fov.cave_map(random.Random(2), 200, 30), generate_level("bsp", 160, 60, seed=4).terrain != 0]
    for t in maps:
        h, w = t.shape
        ys, xs = np.nonzero(t)
        for i in [0, len(xs) - 1, rng.randrange(len(xs))]:
            ox, oy = int(xs[i]), int(ys[i])
            want = np.zeros_like(t)
            for y in range(h):
                for x in range(w):
                    want[y, x] = all(t[oy + by, ox + bx] for bx, by in _between(x - ox, y - oy))
            got = fn(t, (ox, oy), None)
            diff = np.argwhere(got != want)[:5].tolist()
            assert np.array_equal(got, want), f"{w}x{h} from {(ox, oy)}: at [y, x] {diff}"
            assert want.sum() > 20
