"""Shot figures for ``python -m engine bench``: the whole ``--headless --new --size WxH --shot`` command,
start to PNG, as a player or a test runs it: wall seconds and the process's peak memory, on an 80x43
map and on a 1000x1000 one. The peak is the child's own ``VmHWM``, read as it exits: its
``ru_maxrss`` would not do, because Linux carries the parent's high-water mark across ``exec``
(a bench that has built 1000x1000 maps would report its own size for every child).

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
TARGET_SECONDS, TARGET_MB = 3.0, 300  # a 1000x1000 shot under 3 s and 300 MB


# Runs ``python -m engine ARGS`` and, as the process exits, writes its peak resident set on stderr.
CHILD = """
import atexit, runpy, sys

def peak():
    with open("/proc/self/status") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    sys.stderr.write(f"\\npeak-kib {kib}\\n")

atexit.register(peak)
sys.argv = ["engine", *sys.argv[1:]]
runpy.run_module("engine", run_name="__main__", alter_sys=True)
"""


def _run(size: tuple[int, int], jit: str | None) -> tuple[float, float] | str:
    """(wall s, peak MB) of one shot in a fresh process and a fresh data folder, or why it failed."""
    with tempfile.TemporaryDirectory(prefix="undercroft-shot-") as home:
        env = {**os.environ, "ARCADE_HEADLESS": "1", "UNDERCROFT_HOME": home}
        if jit is not None:
            env["UNDERCROFT_JIT"] = jit
        command = [sys.executable, "-c", CHILD, "--headless", "--new", "--seed", str(SEED),
                   "--size", f"{size[0]}x{size[1]}", "--shot", str(Path(home) / "shot.png")]
        start = time.perf_counter()
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              errors="replace")
        seconds = time.perf_counter() - start
        lines = done.stderr.strip().splitlines()
        peaks = [int(line.split()[1]) for line in lines if line.startswith("peak-kib ")]
        said = [line for line in lines if line.strip() and not line.startswith("peak-kib ")]
        if done.returncode != 0 or not peaks:
            return (said or [f"exit status {done.returncode}"])[-1]
        return seconds, peaks[-1] / 1024


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
