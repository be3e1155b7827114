"""A data folder that cannot be written never crashes the game: UNDERCROFT_HOME naming a file, a
folder the user cannot write, a read-only filesystem, a folder that turns read-only mid-game. Play
goes on with one line saying nothing will be saved (once per process); a full disk still warns.

Tests run as root, who may write anywhere, so "cannot write" is made four ways: the file layer's
OS calls fail with EACCES (monkeypatched, always available); an immutable folder (``chattr +i``:
even root gets EPERM); a read-only bind mount in a private mount namespace (``unshare -Urm``).
The last two are skipped where the machine cannot do them; the first always runs."""

import errno
import json
import os
import shutil
import subprocess
import sys

import pytest
from faults import Refusing, fresh_process

from engine.cli.main import main
from engine.persist import disk, files, profile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEATH_MAP = "#######\n#@o...#\n#######\n"  # the orc kills the player in a few waits
WAITS = ". " * 30


@pytest.fixture
def death_map(tmp_path):
    path = tmp_path / "death.txt"
    path.write_text(DEATH_MAP)
    return str(path)


def play(capsys, *argv: str) -> tuple[dict, list[str]]:
    """One start of the game in a fresh process state: its final state and its stderr lines."""
    fresh_process()
    capsys.readouterr()
    assert main(["--headless", *argv, "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return json.loads(out), err.splitlines()


def test_home_naming_a_file_plays_on_with_one_line(tmp_path, monkeypatch, capsys, death_map):
    blocker = tmp_path / "passwd"
    blocker.write_text("root:x:0:0\n")
    monkeypatch.setenv("UNDERCROFT_HOME", str(blocker))
    for argv in (["--seed", "3", "--keys", "l l esc"], ["--map", death_map, "--keys", WAITS]):
        state, err = play(capsys, *argv)
        assert state["turn"] > 0
        assert len(err) == 1 and "nothing will be saved" in err[0] and "is a file, not a folder" in err[0], err
    assert state["alive"] is False  # it died, and the morgue and profile were not written, quietly
    assert blocker.read_text() == "root:x:0:0\n"
    fresh_process()
    assert main(["scores", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["runs"] == 0


def test_a_folder_that_cannot_be_written_plays_on_with_one_line(home, monkeypatch, capsys, death_map):
    home.mkdir()
    (home / "profile.json").write_text('{"kind": "profile", "schema": 1, "runs": 7, "deaths": 0, "escapes": 0, '
                                       '"deepest": 1, "gold": 0, "top": []}')
    monkeypatch.setattr(disk, "os", Refusing())
    state, err = play(capsys, "--map", death_map, "--keys", WAITS)
    assert state["alive"] is False
    assert len(err) == 1 and "Permission denied" in err[0] and "nothing will be saved" in err[0], err
    assert sorted(p.name for p in home.iterdir()) == ["profile.json"]  # no save, morgue, replay, temp
    assert not files.saving_enabled() and files.write_json(home / "x.json", "x", 1, {}) is False
    assert profile.load()["runs"] == 7  # still read: only writing is impossible


def test_a_folder_turning_unwritable_mid_game_is_one_line_too(home, monkeypatch, capsys, death_map):
    fresh_process()
    assert files.saving_enabled()  # checked, and fine, at the start
    capsys.readouterr()
    monkeypatch.setattr(disk, "os", Refusing())
    assert main(["--headless", "--map", death_map, "--keys", WAITS]) == 0  # the same process goes on
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "nothing will be saved" in err[0], err
    assert not any(home.glob("morgue-*"))


def test_a_full_disk_still_warns_each_time_and_plays_on(home, monkeypatch, capsys, death_map):
    home.mkdir()

    class Full(Refusing):
        @staticmethod
        def write(fd, data):
            raise OSError(errno.ENOSPC, "No space left on device")

        open = staticmethod(os.open)
        mkdir = staticmethod(os.mkdir)
        replace = staticmethod(os.replace)

    monkeypatch.setattr(disk, "os", Full())
    state, err = play(capsys, "--map", death_map, "--keys", WAITS)
    assert state["alive"] is False and err, "a full disk must be said"
    assert all("No space left on device" in line for line in err), err
    assert files.saving_enabled()  # a full disk may empty: saving stays on
    assert not [p for p in home.iterdir() if files.TMP_TAG in p.name]


def chattr(flag: str, path) -> bool:
    if not shutil.which("chattr"):
        return False
    return subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0


def test_an_immutable_folder_plays_on_with_one_line(home, capsys, death_map):
    home.mkdir()
    if not chattr("+i", home):
        pytest.skip("chattr +i is not possible here (the EACCES test above covers the engine's side)")
    try:
        probe = home / "probe"
        with pytest.raises(PermissionError):
            probe.write_text("")  # even root cannot write there
        state, err = play(capsys, "--map", death_map, "--keys", WAITS)
        assert state["alive"] is False
        assert len(err) == 1 and "Operation not permitted" in err[0] and "nothing will be saved" in err[0], err
        assert list(home.iterdir()) == []
    finally:
        chattr("-i", home)


def test_a_read_only_filesystem_plays_on_with_one_line(home, death_map):
    unshare = shutil.which("unshare")
    if not unshare or subprocess.run([unshare, "-Urm", "true"], capture_output=True).returncode != 0:
        pytest.skip("no private mount namespace here (the EACCES test above covers the engine's side)")
    home.mkdir()
    (home / "profile.json").write_text('{"kind": "profile", "schema": 1, "runs": 5, "deaths": 0, "escapes": 0, '
                                       '"deepest": 1, "gold": 0, "top": []}')  # upgraded in memory only
    script = ('mount --bind "$UNDERCROFT_HOME" "$UNDERCROFT_HOME" && mount -o remount,bind,ro "$UNDERCROFT_HOME"'
              ' && touch "$UNDERCROFT_HOME/x" 2>/dev/null && echo "still writable" >&2; '
              f'"{sys.executable}" -m engine --headless --map "{death_map}" --keys "{WAITS}" --dump json && '
              f'"{sys.executable}" -m engine scores --json')
    env = {**os.environ, "UNDERCROFT_HOME": str(home)}
    done = subprocess.run([unshare, "-Urm", "sh", "-c", script], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    err = done.stderr.splitlines()
    assert len(err) == 2 and all("Read-only file system" in e and "nothing will be saved" in e for e in err), err
    state, scores = done.stdout.split("\n", 1)  # --dump json is one line
    assert json.loads(state)["alive"] is False
    assert json.loads(scores)["runs"] == 5  # read, never written
    assert sorted(p.name for p in home.iterdir()) == ["profile.json"]

