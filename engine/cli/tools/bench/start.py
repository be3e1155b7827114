"""Start-up figures of ``python -m engine bench`` (group ``start``): what it costs to start the
engine, beside what it costs to start the library it draws with.

- headless: the whole ``python -m engine --headless --keys l --dump json`` (a fresh data folder:
  a new run, one step, the state printed), beside ``python -c "import arcade"``. Target: within
  2x. The engine runs with numba as installed and with ``UNDERCROFT_JIT=0`` (the default install,
  no numba), so the figure says what numba's import and kernels cost a short run.
- first frame: ``python -m engine --new --seed 3`` in a window, from the process's start to its
  first frame finished (``ctx.finish()`` after the flip), beside a bare ``arcade.Window`` of the
  same size to its first cleared frame. Target: within 2x. The child stops at that frame.

Each figure is the child's own CPU time (user and system, as the kernel accounts it; for the first
frame, the child's CPU clock read at that frame), the wall time beside it; the commands are
alternated round by round in one bench process (A B C, then B C A, ...), after one untimed round
that compiles every module's bytecode into the bench's folder (``engine.cli.tools.timing.env_with``:
an installed program's start, not its source's compiling), and a ratio is the median of the rounds' ratios,
with their spread.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

from engine.cli.tools.timing import alternated, env_with, paired_ratio, run_child, summary, verdict

TARGET = 2.0  # within 2x of arcade's own start

HEADLESS = ["--headless", "--keys", "l", "--dump", "json"]

# The engine in a window, stopped at its first frame: (CPU s, monotonic s, window size) on stdout.
ENGINE_FRAME = r'''
import importlib.abc, importlib.machinery, json, os, runpy, sys, time

class FirstFrame(importlib.abc.MetaPathFinder):
    """Wraps the on-demand loop's draw, as it is imported: after its first frame, report and stop."""

    def find_spec(self, name, path, target=None):
        if name != "engine.frontend.loop":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            draw = module.OnDemand.draw

            def first(self):
                draw(self)
                self.window.ctx.finish()
                print(json.dumps({"cpu": time.process_time(), "at": time.monotonic(),
                                  "size": list(self.window.get_size())}), flush=True)
                os._exit(0)

            module.OnDemand.draw = first

        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, FirstFrame())
sys.argv = ["engine", *sys.argv[1:]]
runpy.run_module("engine", run_name="__main__", alter_sys=True)
'''

# A bare arcade.Window of the given size, its first frame cleared and finished: the same report.
BARE_FRAME = r'''
import json, os, sys, time
import arcade

window = arcade.Window(int(sys.argv[1]), int(sys.argv[2]), "bare", antialiasing=False)
window.switch_to()
window.clear()
window.flip()
window.ctx.finish()
print(json.dumps({"cpu": time.process_time(), "at": time.monotonic(), "size": list(window.get_size())}), flush=True)
os._exit(0)
'''


def _headless(jit: str | None) -> Callable[[], tuple[float, float]]:
    def run() -> tuple[float, float]:
        with tempfile.TemporaryDirectory(prefix="undercroft-start-") as home:
            env = env_with(ARCADE_HEADLESS="1", UNDERCROFT_HOME=home, UNDERCROFT_JIT=jit)
            cpu, wall, status, _out, err = run_child([sys.executable, "-m", "engine", *HEADLESS], env)
        if status != 0:
            raise RuntimeError((err.strip().splitlines() or [f"exit status {status}"])[-1])
        return cpu, wall
    return run


def _import_arcade() -> tuple[float, float]:
    cpu, wall, status, _out, err = run_child([sys.executable, "-c", "import arcade"], env_with(ARCADE_HEADLESS="1"))
    if status != 0:
        raise RuntimeError((err.strip().splitlines() or [f"exit status {status}"])[-1])
    return cpu, wall


def _first_frame(command: list[str], size: list[int]) -> tuple[float, float]:
    """(CPU s, wall s) from the child's start to its first finished frame."""
    with tempfile.TemporaryDirectory(prefix="undercroft-frame-") as home:
        env = env_with(ARCADE_HEADLESS="1", UNDERCROFT_HOME=home)
        started = time.monotonic()
        _cpu, _wall, status, out, err = run_child([sys.executable, "-c", *command], env)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if status != 0 or not lines:
        raise RuntimeError((err.strip().splitlines() or [f"exit status {status}"])[-1])
    report = json.loads(lines[-1])
    size[:] = report["size"]
    return report["cpu"], report["at"] - started


def _rows(name: str, runs: dict[str, list[tuple[float, float]]], key: str, base: str | None, target: str,
          **extra) -> dict:
    note = extra.pop("note", "")
    cpu = [c for c, _ in runs[key]]
    wall = [w for _, w in runs[key]]
    row = {"group": "start", "name": name, **summary(cpu), "unit": "s", "target": target,
           "wall": round(statistics.median(wall), 3), "wall_spread": [round(min(wall), 3), round(max(wall), 3)],
           **extra}
    if base is not None:
        ratio = paired_ratio(cpu, [c for c, _ in runs[base]])
        if ratio:
            row.update(ratio)
            row["ratio_wall"] = paired_ratio(wall, [w for _, w in runs[base]])["ratio"]
            row["verdict"] = verdict(row, {"ratio": TARGET})
    row["note"] = f"wall {row['wall']:.2f} s" + (f"; {note}" if note else "")
    return row


def start_figures(repeats: int = 7) -> list[dict]:
    """Rows for the start-up figures (CPU seconds per child, with the wall time and the ratio to
    arcade's own start)."""
    from engine.kit import jit

    size = [1280, 800]
    fns: dict[str, Callable[[], tuple[float, float]]] = {"arcade": _import_arcade, "engine": _headless(None)}
    if jit.enabled():
        fns["engine no numba"] = _headless("0")
    fns["frame"] = lambda: _first_frame([ENGINE_FRAME, "--new", "--seed", "3"], size)
    fns["bare"] = lambda: _first_frame([BARE_FRAME, str(size[0]), str(size[1])], size[:])
    try:
        for fn in fns.values():  # untimed: fills the bench's bytecode folder (and the disk cache)
            fn()
        runs = alternated(fns, repeats)
    except RuntimeError as e:
        return [{"group": "start", "name": "start (could not run)", "value": None, "unit": "", "target": str(e)}]
    command = "python -m engine " + " ".join(HEADLESS)
    target = f"<= {TARGET:.0f}x import arcade"
    rows = [_rows(f"start: {command}" + (", numba installed" if jit.enabled() else ""), runs, "engine", "arcade",
                  target)]
    if "engine no numba" in runs:
        rows.append(_rows(f"start: {command}, no numba (UNDERCROFT_JIT=0)", runs, "engine no numba", "arcade",
                          target))
    rows.append(_rows('  python -c "import arcade"', runs, "arcade", None, "comparison"))
    rows.append(_rows("start: first window frame, python -m engine --new --seed 3", runs, "frame", "bare",
                      f"<= {TARGET:.0f}x a bare arcade.Window", size=list(size)))
    rows.append(_rows(f"  a bare arcade.Window {size[0]}x{size[1]}, first frame", runs, "bare", None, "comparison"))
    return rows
