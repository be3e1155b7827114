"""Crash safety: SIGKILL a process at random moments while it writes the run save and the profile;
every file must still load, as either the old or the new version."""

import json
import os
import random
import signal
import sys
import time

import pytest

from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import dumps
from engine.persist import files as savefile
from engine.persist import lock, profile
from engine.persist.files import TMP_TAG
from engine.persist.runsave import capture, load
from engine.persist.runspec import KIND, SCHEMA

KILLS = 120

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin", reason="needs fork()")


def strip(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("kind", "schema")}


def test_sigkill_mid_write_leaves_the_old_or_the_new_file(tmp_path, monkeypatch, registry):
    monkeypatch.setenv("UNDERCROFT_HOME", str(tmp_path))
    game = new_game(Setup(seed=3), registry)
    versions = [json.loads(json.dumps(capture(game)))]
    for k in "l l j j h k . .".split():
        Session.of(game).press(k)
    versions.append(json.loads(json.dumps(capture(game, ["l", "l", "j"]))))
    run_path, profile_path = tmp_path / "run.json", profile.path()
    savefile.write_json(run_path, KIND, SCHEMA, versions[0])
    profile.run_started()

    # kill anywhere within about two write cycles, however slow this disk's fsync is
    t0 = time.monotonic()
    for _ in range(3):
        savefile.write_json(run_path, KIND, SCHEMA, versions[0])
        profile.update(lambda p: None)
    cycle = (time.monotonic() - t0) / 3
    dice = random.Random(2024)
    runs_seen, torn_moments, seen_versions = 1, 0, set()
    for i in range(KILLS):
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: write, write, write, until killed
            try:
                os.close(ready_r)
                # every fourth child says "go" only once it has written both versions, so both
                # are seen even on a loaded machine; the others are killed from their first byte
                ready_after = 2 if i % 4 == 3 else 0
                n = 0
                while True:
                    if n == ready_after:
                        os.write(ready_w, b"go")
                    savefile.write_json(run_path, KIND, SCHEMA, versions[n % 2])
                    profile.update(lambda p: p.__setitem__("runs", p["runs"] + 1))
                    n += 1
            finally:
                os._exit(0)
        os.close(ready_w)
        os.read(ready_r, 2)
        os.close(ready_r)
        time.sleep(dice.uniform(0, 2.5 * cycle))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        torn_moments += any(p.name.startswith(".") and TMP_TAG in p.name for p in tmp_path.iterdir())

        data = strip(savefile.read_json(run_path, KIND, SCHEMA))
        assert data in versions, f"kill {i}: the run save is neither the old nor the new version"
        seen_versions.add(versions.index(data))
        if i % 20 == 0:
            assert dumps(load(data, registry)[0])  # and it rebuilds a game
        p = profile.check(savefile.read_json(profile_path, profile.KIND, profile.SCHEMA))
        assert p["runs"] >= runs_seen, f"kill {i}: the profile went back in time"
        runs_seen = p["runs"]

    assert runs_seen > 1 and seen_versions == {0, 1}  # the children really were writing when killed
    # temporary files of killed writers are cleaned up by the next write
    savefile.write_json(run_path, KIND, SCHEMA, versions[0])
    profile.run_started()
    # (the profile's lock file stays: it is empty, and never removed while anyone may hold it)
    assert sorted(p.name for p in tmp_path.iterdir()) == [lock.SHARED_NAME, "profile.json", "run.json"]
    print(f"{KILLS} kills, {torn_moments} left a temporary file behind, {runs_seen} profile writes, "
          f"cycle {cycle * 1000:.1f} ms")
