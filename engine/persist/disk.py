"""Every OS call of the file layer that changes the disk, in one place: made through this module's
``os`` name, the one seam ``tests/faults.py`` swaps to fail any one of them (``mkdir``, ``open``,
``write``, ``fsync``, ``replace``, ``unlink``), so a fault injected there reaches every writer of the
run save, the profile, morgues and replays (:mod:`engine.persist.files` and the modules above it).

Writing is atomic (:func:`write_atomic`): the bytes go to a temporary file in the same folder
(``.NAME.tmp-<pid>``), are fsynced, renamed over the old file, and the folder is fsynced too, so a
crash (even SIGKILL) or an I/O error at any moment leaves either the old file or the new one. A
writer that fails removes its temporary file; one killed mid-write leaves it, and the next write of
that file removes it (:func:`clean_stale_temps`). Deleting and moving aside are durable too
(:func:`unlink`, :func:`replace`: the folder is fsynced after them). :func:`overwrite` writes over a
file in place, for a mark that must land where a deletion failed.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path

from engine.kit.textfile import kind_of

TMP_TAG = ".tmp-"


def makedirs(folder: Path) -> None:
    """``mkdir -p`` through ``os.mkdir`` (one call per missing folder, none when it exists)."""
    missing = []
    here = folder
    while not here.is_dir():
        missing.append(here)
        if here.parent == here:
            break
        here = here.parent
    for path in reversed(missing):
        try:
            os.mkdir(path)
        except FileExistsError:
            if not path.is_dir():
                raise _not_a_folder(path) from None


def _not_a_folder(path: Path) -> OSError:
    """Why ``path``, which exists, is no folder: a file, or a symbolic link that leads nowhere."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:  # the name exists, what it points to does not
        if e.errno == errno.ELOOP:
            return OSError(errno.ELOOP, "a symbolic link in a loop, not a folder", str(path))
        return OSError(e.errno or errno.ENOENT, "a symbolic link to nothing, not a folder", str(path))
    what = "a file" if stat.S_ISREG(mode) else kind_of(mode)
    return NotADirectoryError(errno.ENOTDIR, f"{what}, not a folder", str(path))


def fsync_dir(folder: Path) -> None:
    """Make a rename durable. A failure here is not reported: the rename itself has happened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles (Windows)
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` may still run (True when we cannot tell)."""
    if pid == os.getpid():
        return True
    if sys.platform == "win32":  # os.kill(pid, 0) would terminate it there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists, and is someone else's
        return True
    return True


def clean_stale_temps(folder: Path, pattern: str) -> None:
    """Remove temporary files (``pattern`` is a glob ending in ``TMP_TAG + "*"``) left in ``folder``
    by writers killed mid-write: those whose pid is gone, and this process's own leftovers."""
    for tmp in Path(folder).glob(pattern):
        try:
            pid = int(tmp.name.rsplit("-", 1)[1])
        except (ValueError, IndexError):
            continue
        if pid != os.getpid() and pid_alive(pid):
            continue  # that writer may still be writing
        unlink_quietly(tmp)


def unlink_quietly(path: Path) -> None:
    """Delete ``path`` if it can be (a temporary file of ours); a failure is not reported."""
    try:
        os.unlink(path)
    except OSError:
        pass


def write_atomic(path: Path, data: bytes) -> None:
    """Temp file, write, fsync, rename over ``path``, fsync the folder: old or new, never a mix."""
    makedirs(path.parent)
    clean_stale_temps(path.parent, f".{path.name}{TMP_TAG}*")
    tmp = path.parent / f".{path.name}{TMP_TAG}{os.getpid()}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags, 0o666)
    try:
        try:
            _write_all(fd, data, tmp)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        unlink_quietly(tmp)  # a failed write leaves no temporary file of ours
        raise
    fsync_dir(path.parent)


def probe(folder: Path) -> None:
    """Make ``folder``, then create and delete a file in it; raises the OSError of the step that fails."""
    makedirs(folder)
    clean_stale_temps(folder, f".probe{TMP_TAG}*")  # of a process killed between the two calls below
    path = folder / f".probe{TMP_TAG}{os.getpid()}"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.close(fd)
    os.unlink(path)


def overwrite(path: Path, data: bytes) -> None:
    """Write ``data`` over an existing file in place, then fsync it: no temporary file and no rename,
    so it needs no more than the file itself (a folder that refuses a new name or a deletion may
    still allow it). Not atomic: a failure part way leaves the file cut short, which no reader takes
    for what it was. Raises OSError (FileNotFoundError when there is no file)."""
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        _write_all(fd, data, path)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes, path: Path) -> None:
    """Write all of ``data`` to ``fd`` and fsync it (the file at ``path``, named in an error)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)  # may write less than asked: go on from there
        if n <= 0:
            raise OSError(errno.EIO, "the write wrote nothing", str(path))
        view = view[n:]
    os.fsync(fd)


def unlink(path: Path) -> None:
    """Delete a file, then fsync its folder; raises OSError (FileNotFoundError when there is none)."""
    os.unlink(path)
    fsync_dir(path.parent)


def replace(src: Path, dst: Path) -> None:
    """Rename ``src`` over ``dst``, then fsync the folder of ``src``; raises OSError."""
    os.replace(src, dst)
    fsync_dir(src.parent)
