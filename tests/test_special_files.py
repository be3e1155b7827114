"""Special files where a save, the profile or a --map should be: /dev/zero and /dev/urandom (they
report 0 bytes and never end), a FIFO (reading blocks until someone writes), a folder. Only regular
files are read, never past the limit: anything else is one line, and the game goes on.

The end-to-end cases run the game in a child process with a timeout, so that a regression (a read
that blocks or never ends) fails the test instead of hanging the suite or filling the memory."""

import os
import subprocess
import sys

import pytest

from engine.kit import limits
from engine.kit.textfile import TextFileError, read_bytes, read_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

needs_devices = pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "mkfifo"),
                                   reason="needs /dev/zero and FIFOs (POSIX)")


def run(home, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "UNDERCROFT_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "engine", *argv], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60)


@needs_devices
def test_the_bounded_reader(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, what in (("/dev/zero", "a character device"), (fifo, "a named pipe (FIFO)"), (tmp_path, "a folder")):
        with pytest.raises(TextFileError, match=rf"^{what.replace('(', '.').replace(')', '.')}, not a regular file$"):
            read_bytes(path, 100)
    f = tmp_path / "f"
    f.write_bytes(b"x" * 100)
    assert read_bytes(f, 100) == b"x" * 100
    with pytest.raises(TextFileError, match=r"too big \(101 bytes; the limit is 100\)"):
        f.write_bytes(b"x" * 101)
        read_bytes(f, 100)
    f.write_bytes(b"\xff")
    with pytest.raises(TextFileError, match=r"not UTF-8 text \(byte 0\)"):
        read_text(f, 100)
    with pytest.raises(FileNotFoundError):
        read_bytes(tmp_path / "missing", 100)


WHAT = {"fifo": "a named pipe (FIFO)", "/dev/zero": "a character device", "/dev/urandom": "a character device"}


@needs_devices
@pytest.mark.parametrize(("profile", "save"), [("/dev/zero", "fifo"), ("fifo", "/dev/urandom")])
def test_special_files_as_the_profile_and_the_save_are_one_line_each(tmp_path, profile, save):
    home = tmp_path / "home"
    home.mkdir()
    for name, special in (("profile.json", profile), ("run.json", save)):
        if special == "fifo":
            os.mkfifo(home / name)
        else:
            os.symlink(special, home / name)
    done = run(home, "--headless", "--keys", "l esc")  # no --seed: the saved run is resumed when there is one
    assert done.returncode == 0, done.stderr
    err = done.stderr.splitlines()
    assert len(err) == 2, err
    for name, special in (("profile.json", profile), ("run.json", save)):
        (line,) = [e for e in err if f"{home / name}:" in e]
        assert f"{WHAT[special]}, not a regular file" in line and f"{name}.corrupt-1" in line, line
        moved = home / f"{name}.corrupt-1"
        assert moved.is_fifo() if special == "fifo" else moved.is_symlink()  # moved aside as it was
        assert (home / name).is_file()  # a new run, a fresh profile


@needs_devices
@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])  # a folder and the rest: test_the_bounded_reader
def test_a_special_file_as_the_map_is_one_line_and_exit_2(tmp_path, special):
    path = tmp_path / "fifo" if special == "fifo" else special
    if special == "fifo":
        os.mkfifo(path)
    done = run(tmp_path / "home", "--headless", "--map", str(path), "--keys", "l")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not a regular file" in done.stderr, done.stderr
    assert done.stderr.startswith(f"undercroft: --map {path}: cannot read: ")


def test_a_map_file_over_the_limit_is_one_line(tmp_path, monkeypatch):
    from engine.plugins.generators import ascii as gen_ascii

    big = tmp_path / "big.txt"
    big.write_text("#" * 10 + "\n")
    monkeypatch.setattr(gen_ascii, "MAX_MAP_BYTES", 10)
    from engine.kit.mapgen import GenerationError

    class Ctx:
        params = {"path": str(big)}

    with pytest.raises(GenerationError, match=r"--map .*big.txt: cannot read: too big \(11 bytes; the limit is 10\)"):
        gen_ascii.generate(Ctx())
    assert limits.MAX_MAP_BYTES >= (limits.MAX_MAP_SIDE + 2) * limits.MAX_MAP_SIDE  # the largest map fits


@needs_devices
@pytest.mark.parametrize("lock_name", [".run.json.playing", ".shared.lock"])
@pytest.mark.parametrize("thing", ["folder", "fifo"])
def test_a_lock_files_place_taken_is_cleared_in_one_line_and_the_run_is_saved(tmp_path, lock_name, thing):
    """A folder or a FIFO where a lock file goes: the run lock could not be made, so the run was
    never saved (the profile lock: the profile), and nothing was said. It is moved aside, said in
    one line, and the run and the profile are written."""
    home = tmp_path / "home"
    home.mkdir()
    place = home / lock_name
    place.mkdir() if thing == "folder" else os.mkfifo(place)
    r = run(home, "--headless", "--new", "--seed", "1", "--keys", "l l l esc")
    kind = "a folder" if thing == "folder" else "a named pipe (FIFO)"
    assert r.returncode == 0 and r.stderr == f"undercroft: {place} was {kind}, not a lock file: moved aside as " \
                                             f"{lock_name}.corrupt-1\n", r.stderr
    assert (home / "run.json").is_file() and (home / "profile.json").is_file() and place.is_file()
    assert (home / f"{lock_name}.corrupt-1").exists()
