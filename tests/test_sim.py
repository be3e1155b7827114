"""``python -m engine sim``: seeded runs in parallel, the same JSON whatever plays them, crashes
reported with their seed and a replay, bad input in one line. Runs here are few and short."""

import io
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import psutil
import pytest

from engine.cli.main import main
from engine.cli.tools.sim import command as sim
from engine.cli.tools.sim import report as simreport
from engine.cli.tools.sim import workers as simworkers
from engine.cli.tools.sim.runs import RunSpec, play_one

SHORT = ["--bot", "delver", "--max-turns", "150"]


def run(capsys, *argv):
    code = main(["sim", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def write_plugin(folder, name, body):
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text("from engine import hookimpl\n" + textwrap.dedent(body))
    return folder


def test_the_json_is_the_same_for_one_job_and_two_and_touches_no_file_of_the_players(capsys, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("UNDERCROFT_HOME", str(home))
    code, one, _ = run(capsys, "--runs", "4", *SHORT, "--json", "--jobs", "1")
    assert code == 0
    code, two, err = run(capsys, "--seeds", "0-3", *SHORT, "--json", "--jobs", "2")
    assert code == 0 and one == two
    assert "4/4 runs" in err and "on 2 processes" in err  # the progress bar and the timing: on stderr only
    report = json.loads(one)
    assert [r["seed"] for r in report["runs"]] == [0, 1, 2, 3]
    assert report["summary"]["runs"] == 4 and report["game"] == "undercroft" and report["seeds"] == [0, 3]
    assert all(r["outcome"] in ("turn limit", "died") and r["turns"] <= 150 for r in report["runs"])
    assert not home.exists() or not any(home.iterdir())  # no save, profile, replay or morgue


def test_the_json_is_the_same_from_a_local_dask_cluster(capsys):
    from distributed import LocalCluster

    code, local, _ = run(capsys, "--runs", "3", *SHORT, "--json", "--jobs", "1")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        code, remote, err = run(capsys, "--runs", "3", *SHORT, "--json", "--cluster", cluster.scheduler_address)
    assert code == 0 and remote == local, err
    assert "Dask cluster" in err


def test_a_bot_that_raises_is_reported_with_its_seed_and_a_replay_and_the_sim_goes_on(capsys, tmp_path):
    plugins = write_plugin(tmp_path / "plugins", "boom", """
        @hookimpl
        def register_bots(register):
            register("boom", boom)

        def boom(game):
            if game.turn == 3 and game.position(game.player)[0] % 2 == 0:
                raise RuntimeError("boom")
            x, y = game.position(game.player)
            return next((k for k, (dx, dy) in STEPS.items() if game.passable(x + dx, y + dy)), ".")

        STEPS = {"l": (1, 0), "j": (0, 1), "h": (-1, 0), "k": (0, -1)}
    """)
    argv = ["--seeds", "0-5", "--bot", "boom", "--max-turns", "20", "--plugins-dir", str(plugins),
            "--crash-dir", str(tmp_path / "crashes")]
    code, out, _ = run(capsys, *argv, "--json")
    report = json.loads(out)
    crashed = [r for r in report["runs"] if r["outcome"] == "crashed"]
    assert code == 1 and crashed and len(crashed) < 6  # some crashed, the others were played to the end
    assert all(r["outcome"] == "turn limit" for r in report["runs"] if r not in crashed)
    crash = crashed[0]["crash"]
    seed = crashed[0]["seed"]
    assert crash["where"] == "bot" and crash["error"] == "RuntimeError: boom" and crash["at"].startswith("boom.py:")
    assert f"--seeds {seed}-{seed} --bot boom --game undercroft" in crash["rerun_command"]
    assert crash["replay_command"] == f"python -m engine replay {crash['replay_file']} --plugins-dir {plugins}"
    assert main(["replay", crash["replay_file"], "--dump", "json"]) == 0  # the keys up to the crash
    out, err = capsys.readouterr()
    # a bot's crash leaves an end to check, and it holds (played without the bot's plugin: other content)
    assert json.loads(out)["turn"] == 3 and "reproduce" not in err and "records no end" not in err, err
    code, table, _ = run(capsys, *argv)
    assert code == 1 and f"seed {seed}: the bot raised RuntimeError: boom at boom.py:" in table
    assert crash["replay_command"] in table and crash["rerun_command"] in table


def test_a_bot_answering_what_is_no_key_is_the_bots_failure(tmp_path):
    plugins = write_plugin(tmp_path / "plugins", "mumble", """
        @hookimpl
        def register_bots(register):
            register("mumble", lambda game: "left" if game.turn < 2 else 42)
    """)
    result = play_one(RunSpec(7, None, "mumble", 100, (str(plugins),)))
    assert result["outcome"] == "crashed" and result["crash"]["where"] == "bot" and result["turns"] == 2
    assert result["crash"]["error"].startswith("TypeError: the bot answered 42, which is not a key token")
    assert result["replay"]["keys"] == ["left"] * len(result["replay"]["keys"])


def test_a_game_that_raises_is_reported_and_the_next_run_is_played(monkeypatch):
    from engine.core.play.session import Session

    press = Session.press

    def failing(self, token, command=None):
        if self.game.seed == 1 and self.game.turn == 4:
            raise ZeroDivisionError("in the rules")
        return press(self, token, command)

    monkeypatch.setattr(Session, "press", failing)
    results = [play_one(RunSpec(seed, None, "delver", 10)) for seed in (0, 1, 2)]
    assert [r["outcome"] for r in results] == ["turn limit", "crashed", "turn limit"]
    assert results[1]["crash"]["where"] == "game" and results[1]["crash"]["error"] == "ZeroDivisionError: in the rules"
    assert len(results[1]["replay"]["keys"]) == results[1]["keys"] >= 5  # the key that raised is in the replay


def test_a_stuck_bot_ends_its_run_as_stalled(tmp_path, monkeypatch):
    plugins = write_plugin(tmp_path / "plugins", "stuck", """
        @hookimpl
        def register_bots(register):
            register("stuck", lambda game: "?")  # help: no time passes, ever
    """)
    from engine.cli.tools.sim.runs import STALL_KEYS
    from engine.hookspecs.algorithms import register_bots

    said = " ".join(register_bots.__doc__.split())
    assert f'ends "stalled" after {STALL_KEYS:,} keys' in said  # as the reference says
    monkeypatch.setattr("engine.cli.tools.sim.runs.STALL_KEYS", 50)
    result = play_one(RunSpec(0, None, "stuck", 20000, (str(plugins),)))
    assert (result["outcome"], result["keys"], result["turns"]) == ("stalled", 50, 0)


def test_lesson28_ends_a_run_at_its_first_escape_or_capture():
    results = [play_one(RunSpec(seed, "lesson28", "delver", 2000)) for seed in range(6)]
    assert {r["outcome"] for r in results} <= {"died", "escaped", "turn limit"}
    died = [r for r in results if r["outcome"] == "died"]
    assert died and all(r["cause"] == "killed by an enemy" and r["turns"] > 0 for r in died)


def test_the_table_and_the_plot(capsys, tmp_path):
    png = tmp_path / "sim.png"
    code, out, _ = run(capsys, "--runs", "2", *SHORT, "--jobs", "1", "--plot", str(png))
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.startswith("sim: undercroft, bot delver, seeds 0-1 (2 runs), turn limit 150")
    assert "depth reached" in out and "turns: median" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--runs", "2", "--bot", "nobody"], "sim: --bot nobody: no bot named 'nobody' (valid: delver, random)"),
    (["--bot", "delver"], "sim: say how many runs: --runs N (seeds 0 to N-1) or --seeds A-B"),
    (["--seeds", "5-2", "--bot", "delver"], "sim: --seeds 5-2: expected A <= B"),
    (["--seeds", "x", "--bot", "delver"], "sim: --seeds 'x': expected A-B"),
    (["--runs", "3", "--seeds", "0-9", "--bot", "delver"], "sim: --runs 3 but --seeds 0-9 names 10 seeds"),
    (["--runs", "0", "--bot", "delver"], "sim: --runs must be 1.."),
    (["--runs", "2", "--bot", "delver", "--jobs", "0"], "sim: --jobs 0: expected 1 or more"),
    (["--runs", "2", "--bot", "delver", "--max-turns", "0"], "sim: --max-turns 0: expected 1.."),
    (["--runs", "2", "--bot", "delver", "--game", "chess"], "--game chess: no game named 'chess'"),
    (["--runs", "2", "--bot", "delver", "--cluster", "tcp://127.0.0.1:1"],
     "sim: --cluster tcp://127.0.0.1:1: cannot reach a Dask scheduler there"),
    (["--runs", "2", "--bot", "delver", "--cluster", "nowhere"], "sim: --cluster nowhere: cannot reach a Dask"),
    (["--runs", "2", "--bot", "delver", "--cluster-timeout", "0"], "sim: --cluster-timeout 0: expected seconds"),
    (["--runs", "2", "--bot", "delver", "--plot", "x.txt"], "sim: --plot x.txt: expected a file name ending in .png"),
    (["--runs", "2", "--bot", "delver", "--plot", "{tmp}"], "sim: --plot {tmp}: expected a file name ending in .png"),
    (["--runs", "2", "--bot", "delver", "--plot", "{tmp}/folder.png"], "folder.png: is not a regular file"),
    (["--runs", "2", "--bot", "delver", "--plot", "/proc/x.png"], "sim: --plot /proc/x.png: cannot write it"),
    # a crash's replay that could not be written was said after the runs, and lost
    (["--runs", "2", "--bot", "delver", "--crash-dir", "{tmp}/file"], "file: not a folder (expected a folder"),
    (["--runs", "2", "--bot", "delver", "--crash-dir", "{tmp}/file/crashes"], "crashes: {tmp}/file is not a folder"),
    (["--runs", "2", "--bot", "delver", "--crash-dir", "/proc/crashes"],
     "sim: --crash-dir /proc/crashes: cannot write a file there"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, argv, message):
    (tmp_path / "folder.png").mkdir()
    (tmp_path / "file").write_text("not a folder")
    argv, message = [a.replace("{tmp}", str(tmp_path)) for a in argv], message.replace("{tmp}", str(tmp_path))
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err


def test_without_dask_or_matplotlib_the_options_that_need_them_say_so(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, _, err = run(capsys, "--runs", "1", *SHORT, "--cluster", "tcp://127.0.0.1:8786")
    assert code == 2 and err.strip() == "undercroft: " + simworkers.MISSING_DASK
    monkeypatch.setattr(simreport, "plot_available", lambda: False)
    code, _, err = run(capsys, "--runs", "1", *SHORT, "--plot", str(tmp_path / "x.png"))
    assert code == 2 and err.strip() == simreport.MISSING_PLOT


def test_the_progress_bar_on_a_log_is_a_line_a_tenth():
    stream = io.StringIO()
    progress = sim.Progress(20, stream)
    for _ in range(20):
        progress.advance(1)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10 and lines[-1].startswith("sim [" + "#" * 30 + "] 20/20 runs")


# -- stopping: a sim killed, or a cluster without workers ----------------------------------------------

def start_sim(tmp_path, *argv):
    """``sim`` in a process of its own, in a session of its own (as a terminal's Ctrl-C reaches the
    whole group), and its local workers once both are forked. Its output goes to files: orphaned
    workers would hold a pipe open."""
    out, err = (tmp_path / "out").open("wb"), (tmp_path / "err").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "engine", "sim", *argv], stdout=out, stderr=err,
                               start_new_session=True)
    deadline = time.monotonic() + 60
    workers = []
    while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        workers = psutil.Process(process.pid).children(recursive=True)
    assert len(workers) == 2, (tmp_path / "err").read_text()
    return process, workers


def alive(processes):
    living = []
    for p in processes:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                living.append(p)
        except psutil.NoSuchProcess:
            pass
    return living


def gone_soon(workers, seconds=5):
    """The workers still alive after ``seconds`` (killed then, so that no test leaves one behind)."""
    deadline = time.monotonic() + seconds
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = alive(workers)
    for p in left:
        p.kill()
    return left


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "Ctrl-C"])
def test_a_killed_sim_leaves_no_worker_behind(tmp_path, how):
    # runs enough that the sim is still playing when the signal comes (a delver run takes well under a second)
    process, workers = start_sim(tmp_path, "--runs", "200", "--bot", "delver", "--jobs", "2")
    if how == "Ctrl-C":
        os.killpg(process.pid, signal.SIGINT)  # the terminal's Ctrl-C: to the parent and its workers
    else:
        process.send_signal(getattr(signal, how))
    code = process.wait(timeout=20)
    assert not gone_soon(workers), f"workers left running after {how} of their sim"
    if how == "SIGKILL":
        return
    err = (tmp_path / "err").read_text()
    assert code == {"SIGTERM": 143, "Ctrl-C": 130}[how], err
    assert err.splitlines()[-1].startswith(f"sim: stopped by {how} with ") and "Traceback" not in err, err


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signals cannot be held on this platform")
def test_workers_are_forked_with_the_stop_signals_held_and_let_them_through_once_their_own_handlers_are_set(
        tmp_path, monkeypatch):
    """A Ctrl-C between a worker's fork and its initializer ran the parent's handler inside the
    child's start, which printed a traceback (once in a fresh CI run): the workers are forked
    with SIGINT, SIGTERM and SIGHUP held, and let them through once their own handlers are set."""
    real = simworkers.die_with_parent

    def recording(parent):
        at_start = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        real(parent)
        after = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        (tmp_path / f"{os.getpid()}.json").write_text(json.dumps([sorted(map(int, at_start)), sorted(map(int, after)),
                                                                  signal.getsignal(signal.SIGINT) == signal.SIG_IGN]))

    monkeypatch.setattr(simworkers, "die_with_parent", recording)
    specs = [RunSpec(seed=s, game=None, bot="delver", max_turns=5) for s in range(2)]
    played = simworkers.run_locally(specs, 2, lambda n: None)
    assert sorted(r["seed"] for r in played.results) == [0, 1] and played.where == "2 processes"
    held = {int(signal.SIGINT), int(signal.SIGTERM), int(signal.SIGHUP)}
    seen = [json.loads(f.read_text()) for f in tmp_path.glob("*.json")]
    assert len(seen) == 2
    for at_start, after, ignoring in seen:
        assert held <= set(at_start) and not held & set(after) and ignoring
    assert not held & set(map(int, signal.pthread_sigmask(signal.SIG_BLOCK, [])))  # the parent's mask is back


@pytest.fixture
def scheduler():
    """A Dask scheduler in this process with no worker; ``start(n)`` starts n workers, each a
    process of its own without a nanny (a worker killed stays dead), and waits for them."""
    from distributed import LocalCluster

    started = []
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=None) as cluster:
        def start(n, env):
            for _ in range(n):
                started.append(subprocess.Popen(
                    [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address, "--no-nanny",
                     "--nthreads", "1", "--no-dashboard"], env={**os.environ, **env},
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            deadline = time.monotonic() + 60
            while len(cluster.scheduler.workers) < n and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(cluster.scheduler.workers) == n

        cluster.start_workers = start
        yield cluster
        for p in started:
            p.kill()
            p.wait()


def test_a_cluster_with_no_worker_ends_in_one_line_within_its_timeout(capsys, scheduler):
    started = time.monotonic()
    code, out, err = run(capsys, "--runs", "3", *SHORT, "--cluster", scheduler.scheduler_address,
                         "--cluster-timeout", "2")
    assert code == 1 and out == "" and time.monotonic() - started < 10
    assert err.strip() == (f"sim: --cluster {scheduler.scheduler_address}: the cluster has had no worker for 2 s "
                           "(--cluster-timeout): no run was played")


MORTAL = """
    import os
    import signal
    import time
    from pathlib import Path

    MARK = Path({mark!r})
    started = 0

    @hookimpl
    def register_bots(register):
        register("mortal", start, per_run=True)

    def start():
        # the second run a worker starts kills it, once: the first such worker only
        global started
        started += 1
        if started == 2 and os.environ.get("SIM_TEST_WORKER") and not MARK.exists():
            MARK.touch()
            time.sleep(1)  # the first run's result reaches the scheduler first
            os.kill(os.getpid(), signal.SIGKILL)
        return walk

    def walk(game):
        x, y = game.position(game.player)
        return next((k for k, (dx, dy) in STEPS.items() if game.passable(x + dx, y + dy)), ".")

    STEPS = {{"l": (1, 0), "j": (0, 1), "h": (-1, 0), "k": (0, -1)}}
"""


def test_a_cluster_that_loses_a_worker_of_two_gives_the_same_table(capsys, tmp_path, scheduler):
    plugins = write_plugin(tmp_path / "plugins", "mortal", MORTAL.format(mark=str(tmp_path / "killed")))
    argv = ["--runs", "6", "--bot", "mortal", "--max-turns", "40", "--plugins-dir", str(plugins)]
    scheduler.start_workers(2, {"SIM_TEST_WORKER": "1"})
    code, remote, err = run(capsys, *argv, "--cluster", scheduler.scheduler_address)
    assert (tmp_path / "killed").exists()  # one worker did die
    code_here, here, _ = run(capsys, *argv, "--jobs", "1")
    assert code == code_here == 0 and remote == here, err
    assert err.splitlines()[-1].startswith("sim: 6 runs in ")


def test_a_cluster_whose_workers_all_die_reports_the_runs_played_and_ends_in_one_line(capsys, tmp_path, scheduler):
    plugins = write_plugin(tmp_path / "plugins", "mortal", MORTAL.format(mark=str(tmp_path / "killed")))
    argv = ["--runs", "4", "--bot", "mortal", "--max-turns", "40", "--plugins-dir", str(plugins), "--json"]
    scheduler.start_workers(1, {"SIM_TEST_WORKER": "1"})
    [worker] = scheduler.scheduler.workers
    started = time.monotonic()
    code, out, err = run(capsys, *argv, "--cluster", scheduler.scheduler_address, "--cluster-timeout", "2")
    assert code == 1 and time.monotonic() - started < 20
    report = json.loads(out)
    played = [r["seed"] for r in report["runs"]]
    assert len(played) == 1 and report["not_played"] == sorted(set(range(4)) - set(played))
    _, here, _ = run(capsys, *argv, "--seeds", f"{played[0]}-{played[0]}", "--runs", "1", "--jobs", "1")
    assert report["runs"] == json.loads(here)["runs"]  # what was played is reported as played anywhere
    last = err.strip().splitlines()[-1]
    assert last == (f"sim: --cluster {scheduler.scheduler_address}: the cluster has had no worker for 2 s "
                    f"(--cluster-timeout): 1 of 4 runs were played (on 1 worker: {worker}), 3 were not"), err
    assert "Traceback" not in err


@pytest.fixture
def listener():
    """A TCP port that accepts connections and then says nothing, or garbage."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    held = []

    def serve(garbage):
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if garbage:
                conn.sendall(b"HTTP/1.0 200 OK\r\n\r\nnot dask at all\n" * 8)

    def start(garbage):
        threading.Thread(target=serve, args=(garbage,), daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    server.close()
    for conn in held:
        conn.close()


def test_a_cluster_address_that_never_answers_is_one_line_within_the_connect_timeout(capsys, monkeypatch, listener):
    monkeypatch.setattr(simworkers, "CONNECT_SECONDS", 1)
    address = listener(garbage=False)
    started = time.monotonic()
    code, out, err = run(capsys, "--runs", "2", *SHORT, "--cluster", address)
    assert code == 2 and out == "" and time.monotonic() - started < 5
    assert err.strip() == f"undercroft: sim: --cluster {address}: cannot reach a Dask scheduler there " \
                          "(no answer in 1 s)"


def test_a_cluster_address_that_answers_garbage_is_one_line_and_no_traceback_at_exit(tmp_path, listener):
    address = listener(garbage=True)
    done = subprocess.run([sys.executable, "-m", "engine", "sim", "--runs", "2", *SHORT, "--cluster", address],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"undercroft: sim: --cluster {address}: cannot reach a Dask scheduler there (")


def test_a_batch_cancelled_after_it_finished_stops_the_cluster_in_one_line_not_a_traceback():
    """The scheduler went away between a batch's finishing and its result's coming over: the
    result raised dask's FutureCancelledError (a concurrent.futures.CancelledError), a traceback out
    of sim (fresh CI, once). The runs already collected are kept, and the stop is said."""
    from concurrent.futures import CancelledError

    class Future:
        def __init__(self, key, runs):
            self.key, self.runs = key, runs

        def add_done_callback(self, callback):
            callback(self)

        def cancelled(self):
            return False  # it had finished: cancelled only as its result was asked for

        def done(self):
            return True

        status = "finished"

        def result(self, timeout=None):
            if self.runs is None:
                raise CancelledError(f"{self.key} cancelled for reason: scheduler-connection-lost")
            return "inproc://worker", self.runs

    class Client:
        def nthreads(self, callback_timeout=None):
            return {"inproc://worker": 1}

        def map(self, fn, chunks, pure=False):
            return [Future(f"batch-{i}", None if i == 1 else [{"seed": spec.seed} for spec in chunk])
                    for i, chunk in enumerate(chunks)]

    specs = [RunSpec(seed, "undercroft", "random", 10) for seed in range(3)]
    played = simworkers._play(Client(), "inproc://scheduler", specs, lambda n: None, 60)
    assert played.stopped == "the connection to the scheduler was lost"
    assert played.results == [{"seed": 0}]  # the batch that came over before the loss


def test_a_cluster_whose_scheduler_goes_away_reports_the_runs_played_and_ends_in_one_line(capsys, monkeypatch):
    import threading

    import dask
    from distributed import LocalCluster

    monkeypatch.setattr(simworkers, "CONNECT_SECONDS", 1)  # how long the client tries to reconnect
    with dask.config.set({"distributed.comm.timeouts.connect": 1}), \
            LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        def close_after_a_run():
            deadline = time.monotonic() + 60
            while (not any(t.state == "memory" for t in cluster.scheduler.tasks.values())
                   and time.monotonic() < deadline):
                time.sleep(0.01)
            time.sleep(0.5)  # the client has that run's result
            cluster.loop.add_callback(cluster.scheduler.close)

        threading.Thread(target=close_after_a_run, daemon=True).start()
        code, out, err = run(capsys, "--runs", "40", *SHORT, "--cluster", cluster.scheduler_address, "--json")
    report = json.loads(out)
    played = len(report["runs"])
    assert code == 1 and 0 < played < 40 and len(report["not_played"]) == 40 - played
    last = err.strip().splitlines()[-1]
    # which is seen first, the closed connection or the silence, is a race: either is the truth in one line
    assert re.match(rf"sim: --cluster {re.escape(cluster.scheduler_address)}: (the connection to the scheduler "
                    rf"was lost|the scheduler stopped answering \(for 1 s\)): {played} of 40 runs were played "
                    r"\(on 1 worker: ", last), err
    assert "Traceback" not in err
