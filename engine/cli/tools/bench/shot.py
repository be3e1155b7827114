"""Shot figures for ``python -m engine bench``: the whole ``--headless --new --size WxH --shot`` command,
start to PNG, as a player or a test runs it: the child's CPU seconds (its wall seconds beside them)
and the process's peak memory, on an 80x43 map and on a 1000x1000 one. The peak is the child's
own ``VmHWM``, read as it exits: its ``ru_maxrss`` would not do, because Linux carries the
parent's high-water mark across ``exec`` (a bench that has built 1000x1000 maps would report its
own size for every child).

Each figure is the median of ``repeats`` runs with their spread, the sizes and configurations
alternated, after one untimed run of each (bytecode: see ``engine.cli.tools.timing.env_with``).
Beside the installed configuration, when numba is installed, the same commands with
``UNDERCROFT_JIT=0`` stand for the default install (``pip install .``, no numba). A play session
imports numba only for a call whose work is more than ``engine.kit.jit.SMALL`` cells: the default
game's first frame makes none at either size (its light is a 17x17 square, its region labelling
numpy), so the two are one program; a preset whose light has no radius, or whose generator has a
kernel, would show what numba costs and saves at 1000x1000.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from engine.cli.tools.timing import alternated, env_with, run_child, summary, verdict

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


def _run(size: tuple[int, int], jit: str | None) -> tuple[float, float, float] | str:
    """(CPU s, wall s, peak MB) of one shot in a fresh process and a fresh data folder, or why it failed."""
    with tempfile.TemporaryDirectory(prefix="undercroft-shot-") as home:
        env = env_with(ARCADE_HEADLESS="1", UNDERCROFT_HOME=home)
        if jit is not None:
            env["UNDERCROFT_JIT"] = jit
        command = [sys.executable, "-c", CHILD, "--headless", "--new", "--seed", str(SEED),
                   "--size", f"{size[0]}x{size[1]}", "--shot", str(Path(home) / "shot.png")]
        cpu, wall, status, _out, err = run_child(command, env)
        lines = err.strip().splitlines()
        peaks = [int(line.split()[1]) for line in lines if line.startswith("peak-kib ")]
        said = [line for line in lines if line.strip() and not line.startswith("peak-kib ")]
        if status != 0 or not peaks:
            return (said or [f"exit status {status}"])[-1]
        return cpu, wall, peaks[-1] / 1024


def bench_figures(repeats: int, quick: bool = False) -> list[dict]:
    from engine.kit import jit

    configs = [("as installed", None)]
    if jit.enabled():
        configs = [("numba", None), ("no numba (default install)", "0")]
    sizes = SIZES[:1] if quick else SIZES
    fns = {(s, label): (lambda s=s, value=value: _run(s, value)) for s in sizes for label, value in configs}
    for fn in fns.values():  # untimed: compiles the bytecode into the bench's folder
        fn()
    runs = alternated(fns, repeats)
    rows = []
    for (size, label), got in runs.items():
        name = f"shot {size[0]}x{size[1]}, {label}"
        failed = [g for g in got if isinstance(g, str)]
        if failed:
            rows.append({"name": f"{name} (could not run)", "value": None, "unit": "", "target": failed[0]})
            continue
        big = size == SIZES[-1]
        row = {"group": "shot", "name": f"{name}: start to PNG", **summary([g[0] for g in got]), "unit": "s",
               "wall": round(statistics.median(g[1] for g in got), 3),
               "target": f"< {TARGET_SECONDS:.0f} s" if big else "comparison"}
        row["note"] = f"wall {row['wall']:.2f} s"
        memory = {"group": "shot", "name": "  peak memory", **summary([g[2] for g in got], 1), "unit": "MB",
                  "target": f"< {TARGET_MB} MB" if big else "comparison"}
        if big:
            row["verdict"] = verdict({"CPU_s": row["value"]}, {"CPU_s": TARGET_SECONDS})
            memory["verdict"] = verdict({"peak_MB": memory["value"]}, {"peak_MB": float(TARGET_MB)})
        rows += [row, memory]
    return rows
