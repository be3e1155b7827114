"""Two Undercrofts sharing one data folder: profile updates are read-modify-write under an OS file
lock (none is lost), and one process at a time plays a saved run (the run lock: refused with the
holder's pid, released on exit and by the OS when the holder is killed)."""

import gc
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from engine.persist import files, lock, profile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("UNDERCROFT_HOME", str(folder))
    return folder


def child(code: str, *args: str) -> subprocess.Popen:
    """A Python process sharing this test's data folder; it reads commands from stdin."""
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


COUNTER = """
    import os, sys
    from engine.persist import disk, profile

    class NoFsync:  # this test is about lost updates, not durability: skip fsync (10 ms a write)
        fsync = staticmethod(lambda fd: None)

        def __getattr__(self, name):
            return getattr(os, name)

    disk.os = NoFsync()
    print("ready", flush=True)
    sys.stdin.readline()  # both start together
    for i in range(300):
        profile.run_started("undercroft")
        if i % 30 == 0:
            profile.update_settings(**{f"by_{sys.argv[1]}": i})
    print("done", flush=True)
"""


def test_two_processes_making_300_updates_each_lose_none(home):
    procs = [child(COUNTER, name) for name in ("a", "b")]
    try:
        for p in procs:
            assert p.stdout.readline() == "ready\n", p.stderr.read()
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0 and out == "done\n" and err == "", err
    finally:
        for p in procs:
            p.kill()
            p.wait()
    data = profile.load()
    assert data["runs"] == 600 and data["presets"]["undercroft"]["runs"] == 600  # 0 lost updates
    assert data["settings"] == {"by_a": 270, "by_b": 270}  # each one's last setting, neither lost


HOLDER = """
    import sys
    from engine.persist import lock
    hold = lock.acquire_run(sys.argv[1])
    print("held", flush=True)
    if sys.stdin.readline() == "release\\n":
        hold.release()
        print("released", flush=True)
        sys.stdin.readline()
"""


def start_holder(save) -> subprocess.Popen:
    p = child(HOLDER, str(save))
    assert p.stdout.readline() == "held\n", p.stderr.read()
    return p


def test_a_second_process_is_refused_with_the_holders_pid_until_the_holder_is_killed(home):
    save = home / "run.json"
    holder = start_holder(save)
    try:
        with pytest.raises(lock.RunBusy) as refused:
            lock.acquire_run(save)
        assert refused.value.pid == holder.pid and lock.holder(save) == holder.pid
        line = str(refused.value)
        assert line == f"another Undercroft (pid {holder.pid}) is playing the run saved in {save}"
        os.kill(holder.pid, signal.SIGKILL)  # no release, no atexit: only the OS lets go
        holder.wait(timeout=30)
    finally:
        holder.kill()
        holder.wait()
    hold = lock.acquire_run(save)  # the dead holder's lock is gone
    assert hold.held and lock.holder(save) == os.getpid()
    hold.release()
    assert not hold.held and lock.holder(save) is None


def test_the_run_lock_is_released_when_the_holder_exits_or_lets_go(home):
    save = home / "run.json"
    holder = start_holder(save)
    holder.stdin.write("release\n")
    holder.stdin.flush()
    assert holder.stdout.readline() == "released\n"
    lock.acquire_run(save).release()  # taken while the other process still runs
    holder.communicate(timeout=30)

    holder = start_holder(save)
    holder.stdin.close()  # it exits without releasing
    assert holder.wait(timeout=30) == 0
    lock.acquire_run(save).release()


def test_one_hold_per_save_in_a_process_too_and_dropping_the_handle_does_not_release(home):
    save = home / "run.json"
    lock.acquire_run(save)  # the handle is dropped at once
    gc.collect()
    with pytest.raises(lock.RunBusy) as refused:
        lock.acquire_run(save)
    assert refused.value.pid == os.getpid()
    lock._release_all()
    with lock.acquire_run(save) as hold:
        assert hold.held
        other = home / "other.json"
        lock.acquire_run(other).release()  # another save is another lock
    assert not hold.held


def test_the_run_lock_in_a_folder_that_cannot_be_made_is_an_oserror(tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    with pytest.raises(OSError):
        lock.acquire_run(blocker / "run.json")


BUSY = """
    import sys
    from engine.persist import lock
    with lock.shared():
        print("held", flush=True)
        sys.stdin.readline()
"""


def test_an_update_waiting_too_long_for_the_lock_is_one_line_and_the_game_goes_on(home, monkeypatch, capsys):
    profile.run_started("undercroft")
    p = child(BUSY)
    try:
        assert p.stdout.readline() == "held\n", p.stderr.read()
        monkeypatch.setattr(lock, "WAIT", 0.2)
        with pytest.raises(lock.Busy):
            with lock.shared():
                pass
        data = profile.run_started("undercroft")
        assert data["runs"] == 2  # what it would have been, for this process to show
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "cannot write it (another Undercroft has held" in err, err
    finally:
        p.communicate("go\n", timeout=30)
    assert profile.load()["runs"] == 1  # not written, and not half written
    assert files.saving_enabled()
