"""``python -m engine sim --runs N --bot NAME``: a bot plays many seeded runs headless, in parallel,
and the table says how they went (depth reached, wins, turns, causes of death).

Runs are played by :mod:`engine.cli.simrun` in worker processes (``--jobs``, all cores by
default), or on an existing Dask cluster (``--cluster ADDRESS``, the optional extra ``cluster``).
Each run is seeded by its number in ``--seeds``, so the same arguments give the same table and the
same ``--json``, byte for byte, whatever ``--jobs`` or ``--cluster`` is: results are sorted by seed,
and timings go to stderr only. A run whose bot or game raises is reported with its seed, a replay
file of its keys and the command that plays it again; the other runs go on, and the exit status is
1. Runs touch no save, profile, replay or morgue of the player's.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import shlex
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from engine.cli import simreport
from engine.cli.parser import Parser
from engine.cli.simrun import RunSpec, play_batch, play_one, registry_for
from engine.core.errors import UsageError
from engine.core.setup import Setup, prepare
from engine.kit import limits
from engine.persist import files, replay

DEFAULT_MAX_TURNS = 20_000
CONNECT_SECONDS = 10  # to reach a Dask scheduler
MISSING_DASK = "sim: --cluster needs dask's distributed scheduler: pip install 'undercroft[cluster]'"


def parser() -> Parser:
    p = Parser(prog="undercroft sim", description="A bot plays many seeded runs headless, in parallel, and the "
               "table says how they went. Exit status 1 when a run crashed (it is reported; the others go on).")
    p.add_argument("--runs", type=int, help="how many runs (default: as many as --seeds names)")
    p.add_argument("--bot", required=True, help="the bot that plays (registered by a plugin: register_bots)")
    p.add_argument("--game", help="the preset to play (default: the default game)")
    p.add_argument("--seeds", metavar="A-B", help="the runs' seeds, one per run (default: 0 to RUNS-1)")
    p.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    p.add_argument("--cluster", metavar="ADDRESS", help="play on a Dask scheduler (tcp://host:8786) instead")
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS,
                   help=f"end a run at this turn (default {DEFAULT_MAX_TURNS})")
    p.add_argument("--json", action="store_true", help="print the runs and the summary as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="draw the depth and death histograms (extra 'plot')")
    p.add_argument("--crash-dir", metavar="DIR", help="where crashed runs' replays go (default: the temp folder)")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="load every *.py in DIR as a plugin (repeatable; on a cluster, DIR must exist on workers)")
    return p


def parse_seeds(text: str | None, runs: int | None) -> tuple[int, int]:
    """``--seeds A-B`` (or ``A``) and ``--runs N`` as the first and last seed; one line when wrong."""
    if text is None:
        if runs is None:
            raise UsageError("sim: say how many runs: --runs N (seeds 0 to N-1) or --seeds A-B")
        first, last = 0, runs - 1
    else:
        match = re.fullmatch(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?", text)
        if match is None:
            raise UsageError(f"sim: --seeds {text!r}: expected A-B (whole numbers, A <= B) or A")
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        if last < first or last > limits.MAX_SEED:
            raise UsageError(f"sim: --seeds {text}: expected A <= B <= {limits.MAX_SEED}")
        if runs is not None and runs != last - first + 1:
            raise UsageError(f"sim: --runs {runs} but --seeds {text} names {last - first + 1} seeds: give one of them, "
                             "or both agreeing")
    if not 1 <= last - first + 1 <= limits.MAX_SIM_RUNS:
        raise UsageError(f"sim: --runs must be 1..{limits.MAX_SIM_RUNS}")
    return first, last


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)
    first, last = parse_seeds(args.seeds, args.runs)
    if args.max_turns < 1 or args.max_turns > limits.MAX_KEYS:  # a longer run's replay could not be read back
        raise UsageError(f"sim: --max-turns {args.max_turns}: expected 1..{limits.MAX_KEYS}")
    jobs = args.jobs if args.jobs is not None else (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                                                     else os.cpu_count() or 1)
    if jobs < 1:
        raise UsageError(f"sim: --jobs {jobs}: expected 1 or more")
    if args.plot:
        if not simreport.plot_available():
            print(simreport.MISSING_PLOT, file=sys.stderr)
            return 2
        folder = Path(args.plot).parent
        if not (folder if str(folder) else Path(".")).is_dir():
            raise UsageError(f"sim: --plot {args.plot}: no folder {folder} to write it in")
    dirs = tuple(str(Path(d).resolve()) for d in args.plugins_dir)
    registry = registry_for(dirs)
    if args.bot not in registry.bots:
        raise UsageError(f"sim: --bot {args.bot}: no bot named {args.bot!r} "
                         f"(valid: {', '.join(sorted(registry.bots)) or 'none registered'})")
    game = prepare(Setup(game=args.game, seed=first, plugins_dirs=dirs), registry)  # a bad --game: one line now
    name = game.rules.name
    if jobs > 1 and args.cluster is None:
        game.start().close()  # loads the compiled kernels once, before the workers fork
    specs = [RunSpec(seed, name, args.bot, args.max_turns, dirs) for seed in range(first, last + 1)]
    started = time.monotonic()
    progress = Progress(len(specs))
    if args.cluster is not None:
        results, where = run_on_cluster(args.cluster, specs, progress.advance)
    else:
        results, where = run_locally(specs, jobs, progress.advance), f"{min(jobs, len(specs))} processes"
    progress.finish()
    seconds = time.monotonic() - started
    results.sort(key=lambda r: r["seed"])
    crash_dir = Path(args.crash_dir) if args.crash_dir else Path(tempfile.gettempdir()) / "undercroft-sim"
    report_crashes(results, name, args.bot, args.max_turns, args.plugins_dir, crash_dir)
    report = {"game": name, "bot": args.bot, "seeds": [first, last], "max_turns": args.max_turns,
              "summary": simreport.summarise(results), "runs": results}
    print(json.dumps(report, sort_keys=True) if args.json else simreport.table(report), end="\n" if args.json else "")
    rate = len(specs) / seconds if seconds > 0 else float("inf")
    per = f", {rate / jobs:.2f} runs/s per process" if args.cluster is None else ""
    print(f"sim: {len(specs)} runs in {seconds:.1f} s on {where}: {rate:.2f} runs/s{per}", file=sys.stderr)
    if args.plot:
        try:
            simreport.plot(report, Path(args.plot))
        except OSError as e:
            raise UsageError(f"sim: --plot {args.plot}: cannot write it ({e.strerror or e})") from None
    return 1 if report["summary"]["crashed"] else 0


def batches(specs: list[RunSpec], workers: int, most: int) -> list[list[RunSpec]]:
    """The runs in batches, a task each: small enough to share the work out evenly (about 20 a
    worker), at most ``most`` runs (a batch's results come back together)."""
    size = max(1, min(most, len(specs) // (workers * 20)))
    return [specs[i:i + size] for i in range(0, len(specs), size)]


def run_locally(specs: list[RunSpec], jobs: int, advance: Callable[[int], None]) -> list[dict[str, Any]]:
    """Play the runs here (``jobs`` 1) or in ``jobs`` worker processes, forked from this one where
    the platform can (they inherit the loaded plugins and kernels)."""
    if jobs == 1 or len(specs) == 1:
        results = []
        for spec in specs:
            results.append(play_one(spec))
            advance(1)
        return results
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    results = []
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(specs)), mp_context=context)
    try:
        futures = {pool.submit(play_batch, batch): batch for batch in batches(specs, jobs, 20)}
        for future in as_completed(futures):
            results.extend(_collect(future, futures[future]))
            advance(len(futures[future]))
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def run_on_cluster(address: str, specs: list[RunSpec], advance: Callable[[int], None]) -> tuple[list, str]:
    """Play the runs on the Dask scheduler at ``address`` (its workers must have undercroft and the
    same plugins installed). One line and exit status 2 when dask is missing or the scheduler
    cannot be reached."""
    try:
        from distributed import Client
        from distributed import as_completed as completed
    except ImportError:
        raise UsageError(MISSING_DASK) from None
    try:
        _knock(address)  # a bad address or a closed port: one line now (a Client that fails hangs at exit)
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except Exception as e:  # noqa: BLE001 - whatever dask raises for an address it cannot use
        reason = " ".join(str(e).split())[:200] or type(e).__name__
        raise UsageError(f"sim: --cluster {address}: cannot reach a Dask scheduler there ({reason})") from None
    try:
        threads = sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values()) or 1
        chunks = batches(specs, threads, 50)
        futures = client.map(play_batch, chunks, pure=False)
        batch_of = {future.key: batch for future, batch in zip(futures, chunks, strict=True)}
        results = []
        for future in completed(futures, loop=client.loop):
            results.extend(_collect(future, batch_of[future.key]))
            advance(len(batch_of[future.key]))
        return results, f"the Dask cluster at {address} ({threads} worker threads)"
    finally:
        client.close()


def _knock(address: str) -> None:
    """Raise when ``address`` is not one dask can use, or (for TCP) nothing listens there."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme in ("tcp", "tls"):
        host, port = parse_host_port(location)
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()


def _collect(future: Any, batch: list[RunSpec]) -> list[dict[str, Any]]:
    """A batch's results, or, when its worker died under it, each of its runs as crashed."""
    try:
        return future.result()
    except Exception as e:  # noqa: BLE001 - a worker lost (killed, out of memory): its runs are reported
        reason = f"{type(e).__name__}: {' '.join(str(e).split())[:200]}".rstrip(": ")
        return [{"seed": s.seed, "outcome": "crashed", "won": False, "depth": 0, "turns": 0, "keys": 0, "cause": None,
                 "crash": {"where": "worker", "error": reason, "at": ""}, "replay": None} for s in batch]


def report_crashes(results: list[dict[str, Any]], game: str, bot: str, max_turns: int, plugins_dirs: list[str],
                   folder: Path) -> None:
    """Write each crashed run's keys as a replay file (here, never on a worker) and put in its
    report the commands that replay it and play it again."""
    dirs = "".join(f" --plugins-dir {shlex.quote(d)}" for d in plugins_dirs)
    for run in results:
        recorded = run.pop("replay", None)
        if run["outcome"] != "crashed":
            continue
        crash = run["crash"]
        seed = run["seed"]
        crash["rerun_command"] = (f"python -m engine sim --runs 1 --seeds {seed}-{seed} --bot {shlex.quote(bot)} "
                                  f"--game {shlex.quote(game)} --max-turns {max_turns}{dirs}")
        crash["replay_file"] = crash["replay_command"] = None
        if recorded is None:
            continue
        path = folder / f"{game}-{bot}-seed{seed}.replay.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            files.write_json(path, replay.KIND, replay.SCHEMA, {**recorded["header"], "keys": recorded["keys"],
                                                                 "end": None})
        except OSError as e:
            files.warn(f"sim: cannot write the replay of seed {seed} to {path} ({e.strerror or e})")
            continue
        crash["replay_file"] = str(path)
        crash["replay_command"] = f"python -m engine replay {shlex.quote(str(path))}{dirs}"


class Progress:
    """A progress bar on stderr: redrawn in place on a terminal (at most 10 times a second), a
    line every tenth of the runs otherwise (a log, CI)."""

    def __init__(self, total: int, stream: Any = None) -> None:
        self.total, self.done, self.stream = total, 0, stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = self.shown = time.monotonic()
        self.tenth = 0

    def advance(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if self.tty:
            if now - self.shown >= 0.1 or self.done >= self.total:
                self.shown = now
                self.stream.write("\r" + self.line(now))
                self.stream.flush()
        elif self.done * 10 // self.total > self.tenth:
            self.tenth = self.done * 10 // self.total
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()

    def line(self, now: float) -> str:
        width = 30
        filled = width * self.done // self.total
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else 0
        return (f"sim [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} runs  {rate:.2f}/s  "
                f"eta {int(left) // 60}m{int(left) % 60:02d}s")

    def finish(self) -> None:
        if self.tty and self.done:
            self.stream.write("\n")
            self.stream.flush()
