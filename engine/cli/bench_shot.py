"""Shot figures for ``python -m engine bench``: the whole ``--headless --new --size WxH --shot`` command,
start to PNG, as a player or a test runs it: wall seconds and the process's peak memory (its maximum
resident set, from ``wait4``), on an 80x43 map and on a 1000x1000 one.

Each figure is the median of ``repeats`` runs, the sizes interleaved. Beside the installed
configuration, when numba is installed, the same commands with ``UNDERCROFT_JIT=0`` stand for the
default install (``pip install .``, no numba): numba's import and its compiled code cost the same
on every map (the 80x43 rows show it), so the two say what the map costs and what numba costs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = ((80, 43), (1000, 1000))  # cells
SEED = 3
TARGET_SECONDS, TARGET_MB = 3.0, 300  # issue 15: a 1000x1000 shot under 3 s and 300 MB


def _run(size: tuple[int, int], jit: str | None) -> tuple[float, float] | str:
    """(wall s, peak MB) of one shot in a fresh process and a fresh data folder, or why it failed."""
    with tempfile.TemporaryDirectory(prefix="undercroft-shot-") as home:
        env = {**os.environ, "ARCADE_HEADLESS": "1", "UNDERCROFT_HOME": home}
        if jit is not None:
            env["UNDERCROFT_JIT"] = jit
        command = [sys.executable, "-m", "engine", "--headless", "--new", "--seed", str(SEED),
                   "--size", f"{size[0]}x{size[1]}", "--shot", str(Path(home) / "shot.png")]
        start = time.perf_counter()
        child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage, not all children's
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        error = child.stderr.read().decode(errors="replace").strip() if child.stderr else ""
        child.stderr.close()
        if child.returncode != 0:
            return (error.splitlines() or [f"exit status {child.returncode}"])[-1]
        return seconds, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def bench_figures(repeats: int, quick: bool = False) -> list[dict]:
    from engine.kit import jit

    configs = [("as installed", None)]
    if jit.enabled():
        configs = [("numba", None), ("no numba (default install)", "0")]
    sizes = SIZES[:1] if quick else SIZES
    runs: dict[tuple, list] = {(s, c[0]): [] for s in sizes for c in configs}
    for _ in range(repeats):
        for size in sizes:
            for label, value in configs:
                runs[size, label].append(_run(size, value))
    rows = []
    for (size, label), got in runs.items():
        name = f"shot {size[0]}x{size[1]}, {label}"
        failed = [g for g in got if isinstance(g, str)]
        if failed:
            rows.append({"name": f"{name} (could not run)", "value": None, "unit": "", "target": failed[0]})
            continue
        big = size == SIZES[-1]
        rows.append({"name": f"{name}: start to PNG", "value": statistics.median(g[0] for g in got), "unit": "s",
                     "target": f"< {TARGET_SECONDS:.0f} s" if big else "comparison"})
        rows.append({"name": "  peak memory", "value": statistics.median(g[1] for g in got), "unit": "MB",
                     "target": f"< {TARGET_MB} MB" if big else "comparison"})
    return rows
