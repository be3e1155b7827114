"""A window session ends on SIGTERM (kill, a logout) or SIGHUP (its terminal closed) as it does on
the close button: after the turn in progress, with a save, exit status 0. Killed the default way it
would lose every turn since the last save point and leave its pid file behind."""

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
