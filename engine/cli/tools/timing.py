"""How ``python -m engine bench`` measures, shared by its groups: CPU time, never the wall clock;
what is compared, alternated in one process (A B A B ..., the order turned each round, so that a
change in the machine's load falls on both alike); each figure a median with its spread.

The machine the bench runs on is shared: another process's work stretches a wall-clock figure, not
a CPU-time one. ``cpu()`` is the process's CPU time (``time.process_time``: every thread of the
process, so a frame's software rendering threads count too). A child process is measured by its
own CPU time as the kernel accounts it (``os.wait4``), its wall time given beside it.

A ratio of A to B is the median of the rounds' own ratios (A and B of the same round saw the same
load), with their spread; not a ratio of two medians taken minutes apart.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence

cpu = time.process_time  # seconds of this process's CPU time, all its threads


def spread(samples: Sequence[float]) -> list[float]:
    """[min, max] of ``samples``."""
    return [min(samples), max(samples)]


def quartiles(samples: Sequence[float]) -> list[float]:
    """[first quartile, third quartile] of ``samples`` (the samples themselves when fewer than 4)."""
    if len(samples) < 4:
        return spread(samples)
    q = statistics.quantiles(samples, n=4, method="inclusive")
    return [q[0], q[2]]


def summary(samples: Sequence[float], digits: int = 3) -> dict:
    """The row fields of a list of samples: ``value`` (the median), ``spread`` ([min, max]),
    ``iqr`` ([q1, q3]) and ``samples`` (how many)."""
    def r(x: float) -> float:
        return round(x, digits)

    return {"value": r(statistics.median(samples)), "spread": [r(v) for v in spread(samples)],
            "iqr": [r(v) for v in quartiles(samples)], "samples": len(samples)}


def alternated(fns: Mapping[str, Callable[[], float]], rounds: int | Mapping[str, int]) -> dict[str, list[float]]:
    """``rounds`` rounds in which each of ``fns`` runs once, in turn (the order rotated each round):
    each call returns one sample. ``rounds`` may be given per key (a slow reference needs fewer);
    a key with fewer rounds simply sits the later ones out. Returns the samples per key."""
    per = rounds if isinstance(rounds, Mapping) else {k: rounds for k in fns}
    keys = list(fns)
    samples: dict[str, list[float]] = {k: [] for k in keys}
    for r in range(max(per.values(), default=0)):
        shift = r % len(keys) if keys else 0
        for k in keys[shift:] + keys[:shift]:
            if r < per[k]:
                samples[k].append(fns[k]())
    return samples


def paired_ratio(a: Sequence[float], b: Sequence[float]) -> dict | None:
    """The ratio A/B of samples taken in the same rounds: the median of the per-round ratios and
    their [min, max]. None when nothing pairs (no B, or B of zero)."""
    ratios = [x / y for x, y in zip(a, b, strict=False) if y > 0]
    if not ratios:
        return None
    return {"ratio": round(statistics.median(ratios), 2), "ratio_spread": [round(v, 2) for v in spread(ratios)]}


def verdict(row: Mapping[str, float | None], limits: Mapping[str, float]) -> str:
    """"met", or "missed: ..." naming each of ``limits`` (row key -> most it may be) that the row
    passes, and by how much (the figure over the limit). A key's unit is its suffix: ``_ms``,
    ``_s``, ``_MB``; else the figure is a ratio (``ratio``, ``ratio_map``)."""
    missed = []
    for key, limit in limits.items():
        value = row.get(key)
        if value is not None and value > limit:
            name, _, suffix = key.rpartition("_")
            unit = {"ms": " ms", "s": " s", "MB": " MB"}.get(suffix)
            if unit is None:
                name, unit = key, "x"
            missed.append(f"{name} {value:.3g}{unit} > {limit:g}{unit} ({value / limit:.2f}x over)")
    return "met" if not missed else "missed: " + ", ".join(missed)


def per_call_us(fn: Callable[..., object], cases: Sequence[tuple]) -> float:
    """Mean CPU µs per call of ``fn(*case)`` over ``cases``."""
    start = cpu()
    for case in cases:
        fn(*case)
    return (cpu() - start) / len(cases) * 1e6


def run_child(command: Sequence[str], env: Mapping[str, str] | None = None,
              timeout: float = 600) -> tuple[float, float, int, str, str]:
    """Run ``command`` to its end: (its CPU seconds, user and system, as the kernel accounted them
    when it was reaped; its wall seconds; its exit status; its stdout; its stderr). Its own CPU
    only: the child's own children are not counted (the engine starts none)."""
    import tempfile
    import threading

    with tempfile.TemporaryFile("w+", errors="replace") as out, \
            tempfile.TemporaryFile("w+", errors="replace") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(list(command), env=dict(env) if env is not None else None, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        out.seek(0)
        err.seek(0)
        return usage.ru_utime + usage.ru_stime, wall, proc.returncode, out.read(), err.read()


_PYCACHE: list[str] = []  # the bench's own folder of compiled bytecode, made once


def _pycache() -> str:
    if not _PYCACHE:
        import atexit
        import shutil
        import tempfile

        _PYCACHE.append(tempfile.mkdtemp(prefix="undercroft-bench-pyc-"))
        atexit.register(shutil.rmtree, _PYCACHE[0], ignore_errors=True)
    return _PYCACHE[0]


def env_with(**values: str | None) -> dict[str, str]:
    """``os.environ`` for a child the bench times, with ``values`` set (None: removed).

    Python's bytecode is written and read in a folder of the bench's own (``PYTHONPYCACHEPREFIX``;
    ``PYTHONDONTWRITEBYTECODE`` unset), for every module alike, the engine's and the libraries':
    a child measures an installed program, which pip leaves compiled, not the compiling of its
    source (half a second of the engine's start where bytecode is not kept). A group runs each
    command once untimed first, to fill it."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = _pycache()
    for key, value in values.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env
