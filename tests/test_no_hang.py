"""No hang, no traceback: a FIFO (or a device) wherever the game reads a file (``--tileset``, a
content TOML, a ``.py`` in ``--plugins-dir``, the lock's pid file) or writes one (``--shot``), and a
full disk under ``--shot``. Each is one line naming the file and what would be valid; the game
runs in a child process with a timeout of a few seconds, so a read that blocks fails the test
instead of hanging the suite."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
needs_fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
FIFO = "a named pipe (FIFO), not a regular file"


def run(tmp_path, *argv: str, **env: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "UNDERCROFT_HOME": str(tmp_path / "home"), "ARCADE_HEADLESS": "1", **env}
    try:
        return subprocess.run([sys.executable, "-m", "engine", "--headless", "--new", "--seed", "1", *argv],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the game hung on {argv}")


def one_line(done: subprocess.CompletedProcess, *words: str) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and all(w in done.stderr for w in words), done.stderr


@needs_fifos
def test_a_fifo_as_the_tileset_is_one_line_and_exit_2(tmp_path):
    os.mkfifo(tmp_path / "sheet.png")
    done = run(tmp_path, "--tileset", str(tmp_path / "sheet.png"), "--shot", str(tmp_path / "s.png"))
    assert done.returncode == 2
    one_line(done, "--tileset", "sheet.png", FIFO, "expected a PNG")


@needs_fifos
def test_a_fifo_as_a_content_file_is_one_line(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "items.toml").unlink()
    os.mkfifo(content / "items.toml")
    done = run(tmp_path, "--keys", "l", UNDERCROFT_CONTENT=str(content))
    assert done.returncode == 2
    one_line(done, "items.toml", FIFO, "expected a TOML file")


@needs_fifos
def test_a_fifo_in_the_plugins_dir_is_skipped_in_one_line_and_play_goes_on(tmp_path):
    (tmp_path / "plugins").mkdir()
    os.mkfifo(tmp_path / "plugins" / "pipe.py")
    done = run(tmp_path, "--plugins-dir", str(tmp_path / "plugins"), "--keys", "l", "--dump", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["turn"] == 1
    one_line(done, "plugin 'pipe'", "pipe.py", FIFO)


@needs_fifos
def test_a_fifo_as_the_locks_pid_file_does_not_block_the_start(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    os.mkfifo(home / ".run.json.pid")
    assert run(tmp_path, "--keys", "l").returncode == 0


@needs_fifos
@pytest.mark.parametrize("target", ["fifo", "/dev/full"])
def test_a_shot_onto_a_special_file_is_refused_before_play(tmp_path, target):
    if target == "fifo":
        target = str(tmp_path / "shot.png")
        os.mkfifo(target)
    elif not os.path.exists(target):
        pytest.skip("no /dev/full here")
    done = run(tmp_path, "--keys", "l", "--shot", target)
    assert done.returncode == 2
    one_line(done, f"--shot {target}", "not a regular file", "expected a PNG file")


class FullDisk:
    """``os`` for the file layer, with no room left for a screenshot (the saves still fit)."""

    def __getattr__(self, name):
        return getattr(os, name)

    def open(self, path, flags, *args, **kwargs):
        if "shot.png" in str(path):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return os.open(path, flags, *args, **kwargs)


def test_a_shot_onto_a_full_disk_is_one_line_and_the_run_is_kept(home, tmp_path, capsys, monkeypatch):
    from engine.persist import disk

    shot = tmp_path / "shot.png"
    shot.write_bytes(b"the old shot")
    with monkeypatch.context() as patch:
        patch.setattr(disk, "os", FullDisk())
        assert main(["--headless", "--new", "--seed", "1", "--keys", "l l", "--shot", str(shot)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--shot {shot}: cannot write it (No space left on device)" in err, err
    assert shot.read_bytes() == b"the old shot"  # never half a PNG
    assert main(["--headless", "--dump", "json"]) == 0  # the session ended with its save all the same
    out, err = capsys.readouterr()
    assert json.loads(out)["turn"] == 2, err


@needs_fifos
def test_a_record_onto_a_special_file_is_refused_and_the_file_kept(tmp_path):
    """Written atomically, the replay would be renamed over it: a FIFO, or a device as root."""
    import stat

    target = tmp_path / "pipe"
    os.mkfifo(target)
    done = run(tmp_path, "--keys", "l", "--record", str(target))
    assert done.returncode == 2
    one_line(done, f"--record {target}", FIFO, "expected a file to write the replay to")
    assert stat.S_ISFIFO(os.stat(target).st_mode)


class Refusing:
    """``os`` for the file layer, where opening a file in ``folder`` fails with ``err`` (the
    folder's probe too, unless ``probe`` lets it through)."""

    def __init__(self, folder: Path, err: int, probe: bool = False) -> None:
        self.folder, self.err, self.probe = folder, err, probe

    def __getattr__(self, name):
        return getattr(os, name)

    def open(self, path, flags, *args, **kwargs):
        if Path(path).parent == self.folder and not (self.probe and ".probe" in Path(path).name):
            raise OSError(self.err, os.strerror(self.err), str(path))
        return os.open(path, flags, *args, **kwargs)


def test_a_record_into_a_folder_that_takes_no_file_is_refused_before_the_run(home, tmp_path, capsys, monkeypatch):
    """/proc, a read-only mount, a folder of another user's: said before a key is played (it
    was said after the run, twice, and the exit status was 0)."""
    from engine.persist import disk

    locked = tmp_path / "locked"
    locked.mkdir()
    with monkeypatch.context() as patch:
        patch.setattr(disk, "os", Refusing(locked, errno.EACCES))
        assert main(["--headless", "--new", "--seed", "1", "--keys", "l l", "--record", str(locked / "r.json")]) == 2
    err = capsys.readouterr().err
    assert err == f"undercroft: --record {locked / 'r.json'}: cannot write a file there (Permission denied)\n", err
    assert main(["--headless", "--dump", "json"]) == 0  # no run was started: a new one, at its first turn
    assert json.loads(capsys.readouterr().out)["turn"] == 0


def test_a_record_that_cannot_be_written_is_said_once_not_at_every_save_point(home, tmp_path, capsys, monkeypatch):
    from engine.persist import disk

    folder = tmp_path / "full"
    folder.mkdir()
    record = folder / "r.json"
    with monkeypatch.context() as patch:  # the disk fills up after the start: each write of the replay fails
        patch.setattr(disk, "os", Refusing(folder, errno.ENOSPC, probe=True))
        assert main(["--headless", "--new", "--seed", "1", "--keys", "l l", "--record", str(record)]) == 0
    err = capsys.readouterr().err
    assert err == f"undercroft: replay {record}: cannot write it (No space left on device)\n", err
    assert not record.exists()
    # with room again, the next session writes it
    assert main(["--headless", "--keys", "l", "--record", str(record)]) == 0
    assert capsys.readouterr().err == "" and json.loads(record.read_text())["keys"][-1] == "l"


@needs_fifos
@pytest.mark.parametrize("tool", ["sim", "bench"])
def test_a_tool_reading_an_earlier_json_refuses_a_fifo_a_device_and_a_bomb_in_one_line(tmp_path, tool):
    """--from-json read with open(): a FIFO never ended the read, /dev/zero filled the memory
    (MemoryError), and [[[... a hundred thousand deep was a RecursionError's traceback."""
    os.mkfifo(tmp_path / "r.json")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "latin.json").write_bytes(b'{"runs": "\xe9t\xe9"}')
    env = {**os.environ, "UNDERCROFT_HOME": str(tmp_path / "home")}
    for name, why in (("r.json", FIFO), ("/dev/zero", "a character device, not a regular file"),
                      ("deep.json", "nested too deeply (over 64 levels)"), ("latin.json", "not UTF-8 text (byte 10)")):
        try:
            done = subprocess.run([sys.executable, "-m", "engine", tool, "--from-json", str(tmp_path / name)],
                                  capture_output=True, text=True, env=env, cwd=ROOT, timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{tool} --from-json hung on {name}")
        assert done.returncode == 2, done.stderr
        one_line(done, f"--from-json {tmp_path / name}", why)


@needs_fifos
def test_replaying_a_fifo_says_what_it_is(tmp_path):
    os.mkfifo(tmp_path / "r.json")
    env = {**os.environ, "UNDERCROFT_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(tmp_path / "r.json"), "--headless"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=20)
    assert done.returncode == 2
    one_line(done, "r.json", FIFO, "expected a replay file")


def test_a_replay_shot_onto_a_full_disk_is_one_line(home, tmp_path, capsys, monkeypatch):
    from engine.persist import disk

    record = tmp_path / "r.replay.json"
    assert main(["--headless", "--new", "--seed", "1", "--keys", "l l", "--record", str(record)]) == 0
    capsys.readouterr()
    shot = tmp_path / "shot.png"
    with monkeypatch.context() as patch:
        patch.setattr(disk, "os", FullDisk())
        assert main(["replay", str(record), "--shot", str(shot)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"--shot {shot}: cannot write it (No space left on device)" in err, err
    assert not shot.exists()


@pytest.mark.parametrize("target", ["chart.txt", "nowhere/chart.png"])
def test_a_bench_plot_target_that_cannot_be_written_is_one_line_before_measuring(tmp_path, target):
    pytest.importorskip("matplotlib")
    env = {**os.environ, "UNDERCROFT_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "engine", "bench", "--only", "fov", "--quick", "--plot",
                           str(tmp_path / target)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    one_line(done, f"--plot {tmp_path / target}", "not a chart format" if target.endswith("txt") else "no such folder")


def test_a_content_file_nested_thousands_deep_is_one_line_naming_it(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    with open(content / "items.toml", "a") as f:
        f.write("\n[deep]\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    done = run(tmp_path, "--keys", "l", UNDERCROFT_CONTENT=str(content))
    assert done.returncode == 2
    one_line(done, "items.toml: not valid TOML: nested too deeply")
