"""Locks on the data folder (``UNDERCROFT_HOME``), so that two Undercrofts sharing it never fight.

Both are OS file locks taken through ``filelock`` (``flock`` on Unix, Windows' own file locks):
the OS releases them when the process ends, however it ends (SIGKILL, a power cut, a crash), so a
dead holder never leaves a stale lock behind, and nothing has to guess from timestamps or pids.

- :func:`shared` is short-held: one read-modify-write of a file several processes change (the
  profile). Taken around the read and the write, it makes concurrent updates serial: none is lost.
  It waits (up to :data:`WAIT` seconds) for another process's update to finish.
- :func:`acquire_run` is long-held and never waits: "this run is being played". The process that
  plays a saved run takes it before loading the save and keeps it until the run is over (death,
  victory, quit, the window closed); a second process that tries gets :class:`RunBusy`, whose
  ``str()`` is the one line to show (with the holder's pid when known). Use::

      try:
          hold = lock.acquire_run(save_path)   # before reading the save
      except lock.RunBusy as e:
          files.warn(f"{e}; close it first, or start a new run with --new")   # and exit 2
      except OSError:
          ...                                  # the folder cannot be written: see files.saving_enabled()
      ...play...
      hold.release()                           # when the run ends; process exit releases it too

The lock files (``.shared.lock``, ``.<save>.playing``) stay in the folder, empty; deleting one
while it is held would let a second holder in, so they are never removed. Beside a run's lock,
``.<save>.pid`` names its holder for the message (it is only a hint: the lock itself is the truth).
"""

from __future__ import annotations

import atexit
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import filelock

from engine.kit.textfile import TextFileError, kind_of, read_bytes
from engine.persist import files

SHARED_NAME = ".shared.lock"
WAIT = 10.0  # seconds an update waits for another process's; updates take milliseconds

_shared: dict[str, filelock.FileLock] = {}  # one object per lock file: nested use in a thread is reentrant
_shared_guard = threading.Lock()
_held: set[RunLock] = set()  # keeps held run locks alive (a collected FileLock would release itself)


class LockError(Exception):
    """A lock another process holds; ``str()`` is the one-line reason."""


class Busy(LockError):
    """The short lock stayed held by another process for longer than the caller would wait."""


class RunBusy(LockError):
    """Another process (or another hold in this one) is playing the run saved at ``save``."""

    def __init__(self, save: Path, pid: int | None) -> None:
        self.save, self.pid = save, pid
        who = f"another Undercroft (pid {pid})" if pid is not None else "another Undercroft"
        super().__init__(f"{who} is playing the run saved in {save}")


@contextmanager
def shared(folder: Path | None = None, timeout: float | None = None) -> Iterator[Path]:
    """Hold the data folder's short lock for one read-modify-write; yields the folder.

    ``folder`` defaults to :func:`engine.persist.files.data_dir`. Reentrant within a thread.
    Raises :class:`Busy` after ``timeout`` seconds of waiting (default :data:`WAIT`), OSError when
    the lock file cannot be created (the folder cannot be written: check
    :func:`~engine.persist.files.saving_enabled` first)."""
    folder = Path(folder) if folder is not None else files.data_dir()
    timeout = WAIT if timeout is None else timeout
    path = os.path.abspath(folder / SHARED_NAME)
    with _shared_guard:
        lock = _shared.get(path)
        if lock is None:
            clear_way(Path(path))
            lock = _shared[path] = filelock.FileLock(path)
    try:
        lock.acquire(timeout=timeout)
    except filelock.Timeout:
        raise Busy(f"another Undercroft has held {path} for over {timeout:g} s") from None
    try:
        yield folder
    finally:
        lock.release()


class RunLock:
    """A held "this run is being played" lock (from :func:`acquire_run`)."""

    def __init__(self, save: Path, lock: filelock.FileLock, pid_file: Path) -> None:
        self.save, self._lock, self._pid_file = save, lock, pid_file

    @property
    def held(self) -> bool:
        return self._lock.is_locked

    def release(self) -> None:
        """Let another process play this run. Safe to call twice."""
        if not self._lock.is_locked:
            return
        if _holder_pid(self._pid_file) == os.getpid():
            try:
                os.unlink(self._pid_file)
            except OSError:
                pass
        self._lock.release(force=True)
        _held.discard(self)

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def acquire_run(save: Path) -> RunLock:
    """Take the lock that says the run saved at ``save`` is being played, without waiting.

    Returns the held :class:`RunLock`; it stays held until :meth:`RunLock.release` or the end of
    the process (dropping the handle does not release it). Raises :class:`RunBusy` when another
    process holds it, and also when this process already does (one player per save); OSError when
    the lock file cannot be created (the folder cannot be written)."""
    save = Path(save)
    lock_path = save.with_name(f".{save.name}.playing")
    pid_file = save.with_name(f".{save.name}.pid")
    files.makedirs(save.parent)
    clear_way(lock_path)
    lock = filelock.FileLock(str(lock_path))  # a fresh object, so a second hold in this process is refused
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        pid = _holder_pid(pid_file)
        raise RunBusy(save, pid if pid is not None and files.pid_alive(pid) else None) from None
    hold = RunLock(save, lock, pid_file)
    _held.add(hold)
    _write_pid(pid_file)
    return hold


def clear_way(path: Path) -> None:
    """A lock file's place taken by what is not a file (a folder, a FIFO, a link put there): moved
    aside (:func:`engine.persist.files.quarantine`) and said in one line, so the lock can be made.
    A lock that cannot be opened turns saving off; a folder left there kept every run unsaved,
    without a word. A regular file, or nothing, is left as it is."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode):
        return
    try:
        moved = files.quarantine(path)
    except OSError:
        return  # the folder cannot be written: saving is off, and said so
    what = "a symbolic link" if stat.S_ISLNK(mode) else kind_of(mode)
    files.warn(f"{path} was {what}, not a lock file: moved aside as {moved.name}")


def holder(save: Path) -> int | None:
    """The pid written by the process that holds (or last held) the run lock of ``save``, if alive."""
    pid = _holder_pid(Path(save).with_name(f".{Path(save).name}.pid"))
    return pid if pid is not None and files.pid_alive(pid) else None


def _holder_pid(pid_file: Path) -> int | None:
    try:  # a regular file of a few bytes: a FIFO put there never blocks the start
        text = read_bytes(pid_file, 64).decode("ascii", errors="replace")[:20].strip()
    except (OSError, TextFileError):
        return None
    return int(text) if text.isdigit() else None


def _write_pid(pid_file: Path) -> None:
    """Name this process as the holder: written aside and renamed, so a reader never sees half."""
    tmp = pid_file.with_name(f"{pid_file.name}{files.TMP_TAG}{os.getpid()}")
    try:
        files.clean_stale_temps(pid_file.parent, f"{pid_file.name}{files.TMP_TAG}*")
        tmp.write_text(f"{os.getpid()}\n", encoding="ascii")
        os.replace(tmp, pid_file)
    except OSError:  # only a hint for the message: the lock is what counts
        try:
            tmp.unlink()
        except OSError:
            pass


@atexit.register
def _release_all() -> None:
    for hold in list(_held):
        hold.release()


_inherited: list[object] = []


def _after_fork_in_child() -> None:
    """A forked child starts with no locks of its own: a lock object is not shared across fork
    (filelock refuses it), so the child makes new ones. Run locks the parent held are kept
    referenced, never released by the child: their release is the parent's."""
    _shared.clear()
    _inherited.extend(_held)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
