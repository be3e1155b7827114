"""``python -m engine sim --runs N --bot NAME``: a bot plays many seeded runs headless, in parallel,
and the table says how they went (depth reached, wins, turns, causes of death).

Runs are played by :mod:`engine.cli.tools.sim.runs` in worker processes (``--jobs``, all cores by
default), or on an existing Dask cluster (``--cluster ADDRESS``, the optional extra ``cluster``),
as :mod:`engine.cli.tools.sim.workers` arranges: local workers die with ``sim``, and a cluster that has had
no worker for ``--cluster-timeout`` seconds stops the runs, reporting those played (exit status 1).
Each run is seeded by its number in ``--seeds``, so the same arguments give the same table and the
same ``--json``, byte for byte, whatever ``--jobs`` or ``--cluster`` is: results are sorted by seed,
and timings go to stderr only. A run whose bot or game raises is reported with its seed, a replay
file of its keys and the command that plays it again; the other runs go on, and the exit status is
1. Runs touch no save, profile, replay or morgue of the player's.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.cli.parser import Parser
from engine.cli.tools.sim import report as simreport
from engine.cli.tools.sim.runs import RunSpec, registry_for
from engine.cli.tools.sim.workers import Stopped, named, run_locally, run_on_cluster, stop_on_signals
from engine.core.errors import UsageError
from engine.core.play.setup import Setup, prepare
from engine.kit import limits
from engine.persist import disk, files, jsonfile, replay

DEFAULT_MAX_TURNS = 20_000
DEFAULT_CLUSTER_TIMEOUT = 60  # seconds a cluster may have no worker before the runs stop


def parser() -> Parser:
    p = Parser(prog="undercroft sim", description="A bot plays many seeded runs headless, in parallel, and the "
               "table says how they went. Exit status 1 when a run crashed (it is reported; the others go on).")
    p.add_argument("--runs", type=int, help="how many runs (default: as many as --seeds names)")
    p.add_argument("--bot", help="the bot that plays (registered by a plugin: register_bots); required, unless "
                   "--from-json")
    p.add_argument("--game", help="the preset to play (default: the default game)")
    p.add_argument("--seeds", metavar="A-B", help="the runs' seeds, one per run (default: 0 to RUNS-1)")
    p.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    p.add_argument("--cluster", metavar="ADDRESS", help="play on a Dask scheduler (tcp://host:8786) instead")
    p.add_argument("--cluster-timeout", metavar="SECONDS", type=float, default=DEFAULT_CLUSTER_TIMEOUT,
                   help="stop, reporting the runs played, when the cluster has had no worker this long "
                        f"(default {DEFAULT_CLUSTER_TIMEOUT})")
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS,
                   help=f"end a run at this turn (default {DEFAULT_MAX_TURNS})")
    p.add_argument("--json", action="store_true", help="print the runs and the summary as JSON")
    p.add_argument("--markdown", action="store_true",
                   help="print the summary as the README's balance table, each target met or missed")
    p.add_argument("--from-json", metavar="FILE", help="play nothing: read an earlier --json run and print its table")
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
    if args.from_json:
        report = read_report(args.from_json)
        print(show(report, args), end="\n" if args.json else "")
        return 0
    if args.bot is None:
        raise UsageError("sim: say which bot plays: --bot NAME (or read an earlier run: --from-json FILE)")
    first, last = parse_seeds(args.seeds, args.runs)
    if args.max_turns < 1 or args.max_turns > limits.MAX_KEYS:  # a longer run's replay could not be read back
        raise UsageError(f"sim: --max-turns {args.max_turns}: expected 1..{limits.MAX_KEYS}")
    if not 0 < args.cluster_timeout <= limits.MAX_CLUSTER_WAIT:  # NaN fails this too
        raise UsageError(f"sim: --cluster-timeout {args.cluster_timeout:g}: expected seconds, more than 0 and at "
                         f"most {limits.MAX_CLUSTER_WAIT}")
    jobs = args.jobs if args.jobs is not None else (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                                                     else os.cpu_count() or 1)
    if jobs < 1:
        raise UsageError(f"sim: --jobs {jobs}: expected 1 or more")
    if args.plot:
        if not simreport.plot_available():
            print(simreport.MISSING_PLOT, file=sys.stderr)
            return 2
        problem = simreport.plot_target_problem(Path(args.plot))
        if problem:
            raise UsageError(f"sim: --plot {args.plot}: {problem}")
    if args.crash_dir:  # before the runs: a crash's replay that cannot be written is lost with its seed's story
        problem = crash_dir_problem(Path(args.crash_dir))
        if problem:
            raise UsageError(f"sim: --crash-dir {args.crash_dir}: {problem}")
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
    restore = stop_on_signals()
    try:
        if args.cluster is not None:
            played = run_on_cluster(args.cluster, specs, progress.advance, args.cluster_timeout)
        else:
            played = run_locally(specs, jobs, progress.advance)
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM or SIGHUP as Stopped
        progress.finish()
        print(f"sim: stopped by {e.signal if isinstance(e, Stopped) else 'Ctrl-C'} with {progress.done} of "
              f"{len(specs)} runs played: no table", file=sys.stderr)
        return 128 + (e.signum if isinstance(e, Stopped) else 2)  # 2: SIGINT, as a shell counts it
    finally:
        restore()
    progress.finish()
    seconds = time.monotonic() - started
    results = sorted(played.results, key=lambda r: r["seed"])
    if played.stopped is not None and not results:
        print(f"sim: --cluster {args.cluster}: {played.stopped}: no run was played", file=sys.stderr)
        return 1
    crash_dir = Path(args.crash_dir) if args.crash_dir else Path(tempfile.gettempdir()) / "undercroft-sim"
    report_crashes(results, name, args.bot, args.max_turns, args.plugins_dir, crash_dir)
    report = {"game": name, "bot": args.bot, "seeds": [first, last], "max_turns": args.max_turns,
              "summary": simreport.summarise(results), "runs": results}
    if played.stopped is not None:
        report["not_played"] = sorted(set(range(first, last + 1)) - {r["seed"] for r in results})
    print(show(report, args), end="\n" if args.json else "")
    if args.plot:
        try:
            simreport.plot(report, Path(args.plot))
        except OSError as e:
            raise UsageError(f"sim: --plot {args.plot}: cannot write it ({e.strerror or e})") from None
    if played.stopped is not None:
        print(f"sim: --cluster {args.cluster}: {played.stopped}: {len(results)} of {len(specs)} runs were played "
              f"(on {named(played.workers)}), {len(specs) - len(results)} were not", file=sys.stderr)
        return 1
    rate = len(specs) / seconds if seconds > 0 else float("inf")
    per = f", {rate / min(jobs, len(specs)):.2f} runs/s per process" if args.cluster is None else ""
    print(f"sim: {len(specs)} runs in {seconds:.1f} s on {played.where}: {rate:.2f} runs/s{per}", file=sys.stderr)
    return 1 if report["summary"]["crashed"] else 0


def show(report: dict[str, Any], args) -> str:
    """The report as ``--json``, ``--markdown`` or the table."""
    if args.json:
        return json.dumps(report, sort_keys=True)
    return simreport.markdown(report) if args.markdown else simreport.table(report)


RUN_FIELDS: dict[str, tuple[type, ...]] = {"seed": (int,), "outcome": (str,), "won": (bool,), "depth": (int,),
                                           "turns": (int,), "cause": (str, type(None))}  # what a run's JSON holds


def read_report(path: str) -> dict[str, Any]:
    """An earlier ``sim --json`` (its runs summarised again); one line when it is not one."""
    try:
        report = jsonfile.read_document(path, limits.MAX_SIM_REPORT_BYTES)
    except OSError as e:
        raise UsageError(f"sim: --from-json {path}: cannot read it ({e.strerror or e})") from None
    except jsonfile.BadFile as e:
        raise UsageError(f"sim: --from-json {path}: not the output of sim --json ({e})") from None
    try:
        runs = report["runs"]
        for run in runs:
            for key, kinds in RUN_FIELDS.items():
                if not isinstance(run[key], kinds) or isinstance(run[key], bool) and bool not in kinds:
                    raise TypeError(f"run {run.get('seed')!r}: {key} is {run[key]!r}")
        report["summary"] = simreport.summarise(runs)
        seeds = report["seeds"]
        if not (isinstance(report["game"], str) and isinstance(report["bot"], str)
                and isinstance(report["max_turns"], int) and isinstance(seeds, list) and len(seeds) == 2
                and all(isinstance(n, int) for n in seeds)):
            raise TypeError("game, bot, seeds [A, B] or max_turns is not what sim writes")
    except (ValueError, KeyError, TypeError) as e:
        raise UsageError(f"sim: --from-json {path}: not the output of sim --json ({type(e).__name__}: {e})") from None
    return report


def crash_dir_problem(folder: Path) -> str | None:
    """Why crashed runs' replays could not be written in ``folder``, or None: it must be a folder
    that takes a file, or not exist yet under one (it is made when a run crashes)."""
    if folder.exists() and not folder.is_dir():
        return "not a folder (expected a folder for the replays of runs that crash)"
    where = folder if folder.exists() else next((p for p in folder.parents if p.exists()), Path("."))
    if not where.is_dir():
        return f"{where} is not a folder"
    try:
        disk.probe(where)  # a file made and removed: nothing is left there
    except OSError as e:
        return f"cannot write a file there ({e.strerror or e})"
    return None


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
                                                                 "end": recorded.get("end")})
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
