"""The data folder, and what this process learnt and said about it.

The folder is ``UNDERCROFT_HOME`` when set, else platformdirs' user data dir for "undercroft"
(:func:`home`). :func:`data_dir` checks it once per process by making it and a file in it; when that
fails (a file in the way, no permission, a read-only filesystem), or a write later finds it so
(:func:`unwritable`), one line says nothing will be saved, :func:`saving_enabled` turns False, and
the writers of :mod:`engine.persist.files` write nothing there, quietly: play goes on. A full disk
is not that: each failed write raises OSError and its caller says so. Lines on stderr are said in the
engine's voice (:func:`warn`), and a line this process has said already is not said again
(:func:`warn_once`).
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from engine.persist import disk

# errors that mean "this folder cannot be written at all" (not a full disk, not a passing I/O error)
UNWRITABLE = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR})

# What this process learnt about data folders: checked ones, unusable ones (folder -> why), lines said.
_checked: set[str] = set()
_unusable: dict[str, str] = {}
_said: set[str] = set()


def home() -> Path:
    """Where the data folder is (``UNDERCROFT_HOME``, else platformdirs'), without touching it."""
    folder = os.environ.get("UNDERCROFT_HOME")
    if folder:
        return Path(folder)
    import platformdirs  # only when there is no override: tests and tools never need it

    return Path(platformdirs.user_data_dir("undercroft", appauthor=False))


def data_dir(say: bool = True) -> Path:
    """The data folder, created on first use. Never raises: the first time a process finds it
    unusable (a file, not writable, a read-only filesystem) it says so in one line on stderr and
    saving is off for the rest of the process (:func:`saving_enabled`); the path is still returned,
    so callers can build names in it, but the writers of :mod:`engine.persist.files` will not write
    there. ``say=False`` keeps that line for a later call (a caller that refuses to go on says its
    own line instead)."""
    folder = home()
    key = os.path.abspath(folder)
    if key not in _checked:
        _checked.add(key)
        reason = _probe(folder)
        if reason is not None:
            _unusable[key] = reason
    if say and key in _unusable:
        _disable(folder, _unusable[key])
    return folder


def saving_enabled(say: bool = True) -> bool:
    """Whether anything can be saved in the data folder this process (checks it on first use;
    ``say``: as :func:`data_dir`)."""
    return os.path.abspath(data_dir(say)) not in _unusable


def unusable_reason() -> str | None:
    """Why nothing can be saved in the data folder (checked quietly on first use), or None."""
    return _unusable.get(os.path.abspath(data_dir(say=False)))


def _probe(folder: Path) -> str | None:
    """Why ``folder`` cannot hold our files, or None: create it, then create and delete a file."""
    try:
        disk.probe(folder)
    except OSError as e:
        return _why(e)
    return None


def _why(e: OSError) -> str:
    if e.errno == errno.ENOTDIR and not (e.strerror or "").endswith("not a folder"):  # the OS's own words
        return f"{e.filename} is a file, not a folder" if e.filename else "a file is in the way"
    if e.filename and e.strerror and e.strerror.endswith("not a folder"):  # disk.makedirs's words
        return f"{e.filename} is {e.strerror}"
    if e.errno == errno.ENOTDIR:
        return "a file is in the way"
    return e.strerror or str(e)


def _disable(folder: Path, reason: str) -> None:
    _unusable[os.path.abspath(folder)] = reason
    warn_once(f"cannot save in {folder} ({reason}): playing on, but nothing will be saved "
              f"(set UNDERCROFT_HOME to a folder you can write)", key=f"unusable:{os.path.abspath(folder)}")


def unwritable(e: OSError, folder: Path) -> bool:
    """Whether ``e`` says the data folder ``folder`` cannot be written at all (no permission, a
    read-only filesystem); if so, saving is turned off, said once. A full disk is not that."""
    if e.errno not in UNWRITABLE or not is_data_dir(folder):
        return False
    _disable(folder, _why(e))
    return True


def is_data_dir(folder: Path) -> bool:
    """Whether ``folder`` is the data folder."""
    return os.path.abspath(folder) == os.path.abspath(home())


def in_data_dir(path: Path) -> bool:
    """Whether the file ``path`` is in the data folder."""
    return is_data_dir(path.parent)


def warn(line: str) -> None:
    """One line on stderr, in the engine's voice (characters the terminal cannot show are escaped)."""
    text = f"undercroft: {line}"
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    print(text.encode(encoding, "backslashreplace").decode(encoding, "replace"), file=sys.stderr)


def warn_once(line: str, key: str | None = None) -> bool:
    """:func:`warn`, unless this process has said it (or a line with the same ``key``) already;
    returns whether it was said."""
    key = line if key is None else key
    if key in _said:
        return False
    _said.add(key)
    warn(line)
    return True
