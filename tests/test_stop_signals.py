"""A session ends on SIGTERM (kill, a logout) or SIGHUP (its terminal closed) as a window does on
the close button, and headless play as when its keys run out: after the turn in progress, with a
save, exit status 0. Killed the default way it would lose every turn since the last save point and
leave its pid file behind. A preset without saves ends the same way, leaving no run at all."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's CPU time in /proc")


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime


def _wait_until_idle(process: subprocess.Popen, home: Path) -> None:
    """Until the session holds its save slot and has stopped using the CPU: the keys are played and
    the on-demand loop sleeps in the OS (it draws nothing while idle)."""
    deadline = time.monotonic() + 90
    while not (home / ".run.json.pid").exists():
        assert process.poll() is None, process.communicate()[1]
        assert time.monotonic() < deadline, "the session never claimed its save slot"
        time.sleep(0.05)
    still, last = 0, _cpu_ticks(process.pid)
    while still < 3:
        assert time.monotonic() < deadline, "the session never went idle"
        time.sleep(0.3)
        now = _cpu_ticks(process.pid)
        still, last = (still + 1 if now == last else 0), now


@pytest.mark.parametrize("number", [signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)])
def test_a_stop_signal_saves_and_ends_the_session(tmp_path, number):
    env = {**os.environ, "ARCADE_HEADLESS": "1", "UNDERCROFT_HOME": str(tmp_path), "UNDERCROFT_LOAD_PLUGINS": ""}
    command = [sys.executable, "-m", "engine", "--new", "--seed", "3", "--keys", "l l j", "--seconds", "300"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until_idle(process, tmp_path)
        process.send_signal(number)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert not (tmp_path / ".run.json.pid").exists()  # the slot was given back
    resumed = subprocess.run([sys.executable, "-m", "engine", "--headless", "--dump", "json"], env=env,
                             capture_output=True, text=True, timeout=120)
    assert json.loads(resumed.stdout)["turn"] == 3  # the three keys' turns were saved


STOPS = [signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)]
# a plugin whose first turn end says its turn (in the file MARK) and then takes three seconds: a
# key in progress, for a signal to arrive in
SLOW = """
import os, time
from engine import hookimpl

@hookimpl
def on_turn_end(game):
    mark = os.environ["MARK"]
    if not os.path.exists(mark):
        with open(mark + ".tmp", "w") as f:
            f.write(str(game.turn))
        os.replace(mark + ".tmp", mark)
        time.sleep(3)
"""


def _slow_session(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, Path, dict]:
    """A headless session in the middle of its first turn's end (the slow plugin asleep)."""
    plugins, home, mark = tmp_path / "plugins", tmp_path / "home", tmp_path / "mark"
    plugins.mkdir()
    (plugins / "slow.py").write_text(SLOW)
    env = {**os.environ, "ARCADE_HEADLESS": "1", "UNDERCROFT_HOME": str(home), "UNDERCROFT_LOAD_PLUGINS": "",
           "MARK": str(mark)}
    command = [sys.executable, "-m", "engine", "--headless", "--plugins-dir", str(plugins), *args]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 90
    while not mark.exists():
        assert process.poll() is None, process.communicate()[1]
        assert time.monotonic() < deadline, "the session never reached its first turn's end"
        time.sleep(0.02)
    return process, home, env


def _ended(process: subprocess.Popen, number: int) -> str:
    try:
        process.send_signal(number)
        return process.communicate(timeout=60)[1]
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.parametrize("number", STOPS)
def test_a_headless_stop_signal_saves_after_the_key_in_progress(tmp_path, number):
    process, home, env = _slow_session(tmp_path, "--new", "--seed", "3", "--keys", " ".join(["."] * 40))
    err = _ended(process, number)
    assert process.returncode == 0, err
    assert not (home / ".run.json.pid").exists()  # the slot was given back
    resumed = subprocess.run([sys.executable, "-m", "engine", "--headless", "--dump", "json", "--plugins-dir",
                              str(tmp_path / "plugins")], env=env, capture_output=True, text=True, timeout=120)
    # the key in progress was played out and saved, and no key after it
    assert json.loads(resumed.stdout)["turn"] == int((tmp_path / "mark").read_text()) == 1, resumed.stderr


def test_a_headless_stop_signal_ends_a_walk_after_its_step_in_progress(tmp_path):
    """One explore key walks many turns: a stop ends it after the step in progress (a 1000x1000 walk
    took minutes to stop), saved, and the replay records the steps it took (o:1), as the window's
    interruption does."""
    process, home, env = _slow_session(tmp_path, "--new", "--seed", "3", "--keys", "o l")
    err = _ended(process, signal.SIGTERM)
    assert process.returncode == 0, err
    resumed = subprocess.run([sys.executable, "-m", "engine", "--headless", "--dump", "json", "--plugins-dir",
                              str(tmp_path / "plugins")], env=env, capture_output=True, text=True, timeout=120)
    assert json.loads(resumed.stdout)["turn"] == 1, resumed.stderr
    assert json.loads((home / "last-run.replay.json").read_text())["keys"] == ["o:1"]


@pytest.mark.parametrize("number", [*STOPS, signal.SIGKILL])
def test_a_stopped_or_killed_preset_without_saves_leaves_no_run(tmp_path, number):
    process, home, env = _slow_session(tmp_path, "--game", "bunyip", "--keys", " ".join(["right"] * 40))
    err = _ended(process, number)
    assert process.returncode == (-signal.SIGKILL if number == signal.SIGKILL else 0), err
    assert not (home / "run.json").exists()
    bunyip = json.loads((home / "profile.json").read_text())["presets"]["bunyip"]
    # stopped, the run ended by the player's hand: a quit. Killed (a crash), it is counted in no ending
    assert (bunyip["runs"], bunyip["quits"], bunyip["deaths"]) == (1, 0 if number == signal.SIGKILL else 1, 0)
    after = subprocess.run([sys.executable, "-m", "engine", "--headless", "--dump", "json"], env=env,
                           capture_output=True, text=True, timeout=120)
    assert json.loads(after.stdout)["game"] == "undercroft" and json.loads(after.stdout)["turn"] == 0


@pytest.mark.parametrize("number", STOPS)
def test_a_window_of_a_preset_without_saves_stopped_leaves_no_run(tmp_path, number):
    env = {**os.environ, "ARCADE_HEADLESS": "1", "UNDERCROFT_HOME": str(tmp_path), "UNDERCROFT_LOAD_PLUGINS": ""}
    command = [sys.executable, "-m", "engine", "--game", "bunyip", "--keys", "right right", "--seconds", "300"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until_idle(process, tmp_path)
    except BaseException:
        process.kill()
        raise
    err = _ended(process, number)
    assert process.returncode == 0, err
    assert not (tmp_path / "run.json").exists()
    assert json.loads((tmp_path / "profile.json").read_text())["presets"]["bunyip"]["quits"] == 1
