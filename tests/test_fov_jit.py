"""Compiled FOV kernels (numba): each agrees cell for cell with its pure-Python reference, and the
game falls back to that reference, in one line, when numba cannot be used.

The test dependencies include numba, so here the kernels must really be compiled: a test run
without it fails rather than quietly checking pure Python against itself.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import testing
from engine.cli import compare_fov as catalog_fov
from engine.kit import jit

RADII = (None, 0, 1, 2, 5, 8, 20)


def _maps() -> list[np.ndarray]:
    """Every comparison map, random maps from empty to mostly wall, and thin and tiny ones."""
    rng = random.Random("fov jit maps")
    out = [catalog_fov.make_map(name, random.Random(k)) for name in catalog_fov.MAP_NAMES for k in range(2)]
    for density in (0.0, 0.1, 0.25, 0.4, 0.6):
        for _ in range(6):
            w, h = rng.randint(1, 45), rng.randint(1, 45)
            out.append(np.array([[rng.random() >= density for _ in range(w)] for _ in range(h)]))
    out += [np.ones((1, 1), bool), np.ones((1, 7), bool), np.zeros((5, 1), bool), np.ones((3, 3), bool)]
    return out


def _compiled(registry) -> list[str]:
    return sorted(name for name, alg in registry.fov.items() if alg.python is not None)


def test_the_catalogue_has_compiled_kernels_and_they_compile(registry):
    assert jit.enabled(), "numba is a test dependency: install the test extra"
    names = _compiled(registry)
    assert names == ["permissive", "shadowcast"]
    for name in names:
        registry.fov[name](np.ones((5, 5), bool), (2, 2), 2)
    assert jit.failed() == []


@pytest.mark.parametrize("name", ["permissive", "shadowcast"])
def test_compiled_kernel_matches_the_python_reference(registry, name):
    """The kit's contract (``engine.testing.check_fov_reference``) on the comparison maps and
    random maps from empty to mostly wall, thin and tiny ones among them."""
    cases = testing.fov.compare_reference(registry.fov[name], _maps(), random.Random(f"origins {name}"), RADII)
    assert cases > 2500


def test_jit_off_runs_the_python_reference(registry, monkeypatch):
    monkeypatch.setenv("UNDERCROFT_JIT", "0")
    monkeypatch.setattr(jit, "_kernels", {})
    t = catalog_fov.make_map("pillars", random.Random(0))
    for name in _compiled(registry):
        alg = registry.fov[name]
        assert np.array_equal(alg.fn(t, (10, 10), 8), alg.python(t, (10, 10), 8))
    assert jit._kernels == {"_permissive_jit": None, "_shadowcast_jit": None}
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
