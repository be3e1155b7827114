"""The compile figures of ``python -m engine bench``: what numba's first compile of each kernel
costs on this machine, and what a later start costs once numba's disk cache has it.

Each kernel is compiled in a fresh process with an empty numba cache of its own
(``NUMBA_CACHE_DIR``, a temporary folder), by calling its plugin's FOV once on a tiny map; then the
same process is run again on that cache (a warm start). Both are whole-process CPU times (the
child's, as the kernel accounts it; its wall time beside), Python's start and numba's import
included; the difference is the compile. The median of the repeats, with their spread. The
kernels are the modules named ``_*_jit`` beside the registered FOV plugins that run compiled.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from typing import Any

from engine.cli.tools.timing import env_with, run_child, summary

SCRIPT = ("import numpy as np, importlib; m = importlib.import_module({module!r}); "
          "getattr(m, {fn!r})(np.ones((5, 5), bool), (2, 2), 2)")


def _run(module: str, fn: str, cache: str) -> tuple[float, float]:
    """(CPU s, wall s) of the child."""
    env = env_with(NUMBA_CACHE_DIR=cache, UNDERCROFT_JIT="1")
    cpu, wall, status, _out, err = run_child([sys.executable, "-c", SCRIPT.format(module=module, fn=fn)], env)
    if status != 0:
        raise RuntimeError((err.strip().splitlines() or [f"exit status {status}"])[-1])
    return cpu, wall


def compile_figures(repeats: int = 3, registry: Any = None) -> list[dict]:
    """Per compiled FOV: seconds of a first run on an empty numba cache, and of a warm start."""
    from engine.kit import jit

    if not jit.enabled():
        return []
    if registry is None:
        from engine.core.loading.loader import load_registry

        registry = load_registry(entry_points=False)
    figures = []
    for name, alg in sorted(registry.fov.items()):
        if alg.python is None:
            continue
        module, fn = alg.fn.__module__, alg.fn.__name__
        cold, warm = [], []
        for _ in range(repeats):
            with tempfile.TemporaryDirectory(prefix="undercroft-numba-") as cache:
                cold.append(_run(module, fn, cache))
                warm.append(_run(module, fn, cache))
        for label, samples in (("first compile (empty cache)", cold), ("warm start (cached)", warm)):
            wall = statistics.median(w for _, w in samples)
            figures.append({"group": "compile", "name": f"compile {name}: {label}", "fov": name,
                            **summary([c for c, _ in samples], 2), "unit": "s", "wall": round(wall, 2),
                            "note": f"wall {wall:.2f} s", "target": "a figure (whole process)"})
    return figures
