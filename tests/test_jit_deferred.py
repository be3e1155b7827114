"""A play session defers numba on small work (``engine.kit.jit.deferred``): a short run never
imports it, a call whose work is big still gets its kernel, a vectorised fallback never asks for
one, and tools and tests are not deferred."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.kit import jit

# python -m engine ARGS, then says on stderr whether numba was imported
CHILD = """
import atexit, runpy, sys
atexit.register(lambda: sys.stderr.write(f"\\nnumba imported: {'numba' in sys.modules}\\n"))
sys.argv = ["engine", *sys.argv[1:]]
runpy.run_module("engine", run_name="__main__", alter_sys=True)
"""


def _play(tmp_path, *args: str) -> tuple[dict, bool]:
    env = {**os.environ, "ARCADE_HEADLESS": "1", "UNDERCROFT_HOME": str(tmp_path)}
    env.pop("UNDERCROFT_JIT", None)
    done = subprocess.run([sys.executable, "-c", CHILD, "--headless", "--new", "--seed", "3", *args,
                           "--dump", "json"], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("numba imported: ")]
    return json.loads(done.stdout), said == ["numba imported: True"]


@pytest.fixture
def tiny_kernel(tmp_path, monkeypatch):
    """A kernel module that compiles nothing (the deferring is what is tested), numba taken as not
    yet imported."""
    monkeypatch.setattr(jit, "_kernels", {})
    monkeypatch.setattr(jit, "_numba_imported", lambda: False)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "_deferme_jit.py").write_text("def one():\n    return 1\n")
    return lambda cells: jit.sibling("fov_deferme", "_deferme_jit", lambda module: module.one(), cells)


def test_deferred_small_maps_run_python_and_decide_nothing(tiny_kernel, monkeypatch):
    monkeypatch.delenv("UNDERCROFT_JIT", raising=False)
    if not jit.enabled():
        pytest.skip("numba is not installed: nothing to defer")
    with jit.deferred():
        assert tiny_kernel(80 * 43) is None and tiny_kernel(jit.SMALL) is None
        assert "_deferme_jit" not in jit._kernels  # not decided: a bigger map may still want it
        assert tiny_kernel(None) is not None  # a call that does not say its size loads, as ever
    monkeypatch.setattr(jit, "_kernels", {})
    with jit.deferred():
        assert tiny_kernel(jit.SMALL + 1) is not None  # a bigger map loads the kernel
        assert tiny_kernel(10) is not None  # and from then on it is used on any map
    monkeypatch.setattr(jit, "_kernels", {})
    assert tiny_kernel(10) is not None  # outside a play session: loaded on the first call


def test_a_vectorised_fallback_runs_in_a_play_session_on_any_map(tmp_path, monkeypatch):
    monkeypatch.delenv("UNDERCROFT_JIT", raising=False)
    if not jit.enabled():
        pytest.skip("numba is not installed: nothing to defer")
    monkeypatch.setattr(jit, "_kernels", {})
    monkeypatch.setattr(jit, "_numba_imported", lambda: False)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "_vectorme_jit.py").write_text("def one():\n    return 1\n")
    with jit.deferred():
        assert jit.sibling("vectorme", "_vectorme_jit", lambda m: m.one(), 10**6, vectorised=True) is None
        assert "_vectorme_jit" not in jit._kernels
    assert jit.sibling("vectorme", "_vectorme_jit", lambda m: m.one(), 10**6, vectorised=True) is not None  # a tool


def test_once_numba_is_imported_every_kernel_loads(tiny_kernel, monkeypatch):
    monkeypatch.delenv("UNDERCROFT_JIT", raising=False)
    if not jit.enabled():
        pytest.skip("numba is not installed: nothing to defer")
    monkeypatch.setattr(jit, "_numba_imported", lambda: True)
    with jit.deferred():
        assert tiny_kernel(10) is not None


def test_a_short_run_never_imports_numba_unless_a_call_s_work_is_big(tmp_path):
    """The size of a call's work decides, not the map's: the default game's light reaches 8 cells
    (a 17x17 square on any map) and its region labelling is numpy (quick on any map), so a big map
    alone imports nothing; a generator that carves 15,000 cells does."""
    if not jit.enabled():
        pytest.skip("numba is not installed")
    small, imported = _play(tmp_path / "a", "--keys", "l o o")
    assert not imported and small["alive"]
    big, imported = _play(tmp_path / "b", "--size", "150x100", "--keys", "l o")
    assert not imported and len(big["map"][0]) == 150
    carved, imported = _play(tmp_path / "c", "--size", "150x100", "--plugin", "generator=drunkard", "--keys", "l")
    assert imported and len(carved["map"][0]) == 150  # the 150x100 map (15,000 cells) the kernel carved
