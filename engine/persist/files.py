"""The file layer under run saves, the profile, morgues and replays: plain versioned JSON, crash-safe, wary.

Every file is one JSON object ``{"kind": KIND, "schema": N, ...}`` (:mod:`engine.persist.jsonfile`
reads and checks it). Writing is atomic (:func:`write_text`, :func:`write_json`): a crash (even
SIGKILL) or an I/O error at any moment leaves either the old file or the new one
(:mod:`engine.persist.disk`, through whose ``os`` every call that changes the disk goes, so
``tests/faults.py`` can fail any one of them). The writer never writes a file the reader would
refuse for its size.

Reading is suspicious (:func:`load`): a bad file raises :class:`BadFile` with a one-line reason;
:func:`quarantine` then moves it aside as ``NAME.corrupt-<n>`` (never deleted: the bytes may matter
to a bug report) and the game goes on. A file of a schema that cannot be upgraded is not corrupt: it
is kept aside under a name that says its version (``run.v1.json``), for the engine that can read it;
an upgraded file's original is kept so too.

Nothing is written in the data folder (:mod:`engine.persist.datadir`) while saving is off there
(:func:`saving_enabled`): the writers here return False, quietly, and play goes on. This module
names the whole layer: callers import every name of it from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.kit.textfile import TextFileError, check_regular
from engine.persist import disk
from engine.persist.datadir import (
    data_dir,
    home,
    in_data_dir,
    is_data_dir,
    saving_enabled,
    unusable_reason,
    unwritable,
    warn,
    warn_once,
)
from engine.persist.disk import TMP_TAG, clean_stale_temps, makedirs, pid_alive
from engine.persist.jsonfile import (
    MAX_BYTES,
    MAX_DEPTH,
    BadFile,
    Migration,
    OtherVersion,
    dump_json,
    payload,
    read_json,
)

__all__ = ["MAX_BYTES", "MAX_DEPTH", "TMP_TAG", "BadFile", "Migration", "OtherVersion", "clean_stale_temps", "data_dir",
           "dump_json", "home", "is_data_dir", "load", "makedirs", "overwrite_json", "payload", "pid_alive",
           "quarantine", "read_json", "remove", "saving_enabled", "unusable_reason", "unwritable", "warn", "warn_once",
           "write_json", "write_text"]


def write_text(path: Path, text: str) -> bool:
    """Write ``text`` as UTF-8 atomically (see :func:`engine.persist.disk.write_atomic`); characters
    UTF-8 cannot hold (a lone surrogate) are written as backslash escapes. Returns False, writing
    nothing, when ``path`` is in the data folder and saving is off (:func:`saving_enabled`; said once
    already); raises OSError when the write fails (a full disk: the caller says so)."""
    path = Path(path)
    mine = in_data_dir(path)
    if mine and not saving_enabled():
        return False
    try:
        disk.write_atomic(path, text.encode("utf-8", "backslashreplace"))
    except OSError as e:
        if unwritable(e, path.parent):  # the folder became unwritable since data_dir() looked
            return False
        raise
    return True


def write_json(path: Path, kind: str, schema: int, data: Mapping[str, Any]) -> bool:
    """Write ``data`` as ``{"kind", "schema", ...}`` atomically (see :func:`write_text`, whose
    return value and errors this shares). Raises :class:`BadFile`, writing nothing, when the text
    would be bigger than :func:`read_json` reads (the writer writes only what the reader accepts)."""
    text = dump_json(kind, schema, data)
    if len(text) > MAX_BYTES:  # ASCII: characters are bytes
        raise BadFile(f"too big to be read back ({len(text)} bytes; at most {MAX_BYTES})")
    return write_text(path, text)


def overwrite_json(path: Path, kind: str, schema: int, data: Mapping[str, Any]) -> bool:
    """Write ``data`` as ``{"kind", "schema", ...}`` over the existing file ``path`` in place
    (:func:`engine.persist.disk.overwrite`: not atomic, for a mark where a deletion failed). Returns
    False, writing nothing, in the data folder with saving off; raises OSError when it fails."""
    path = Path(path)
    if in_data_dir(path) and not saving_enabled():
        return False
    disk.overwrite(path, dump_json(kind, schema, data).encode("ascii"))
    return True


def remove(path: Path) -> bool:
    """Delete a file durably; returns whether there was one to delete. In the data folder with
    saving off, deletes nothing and returns False: callers that rely on a removal (permadeath) must
    check :func:`saving_enabled` first. Other failures raise OSError."""
    path = Path(path)
    mine = in_data_dir(path)
    if mine and not saving_enabled():
        return False
    try:
        disk.unlink(path)  # and the folder fsynced
    except FileNotFoundError:
        return False
    except OSError as e:
        if unwritable(e, path.parent):
            return False
        raise
    return True


def quarantine(path: Path, version: int | None = None) -> Path:
    """Move a bad file aside as ``NAME.corrupt-<n>`` (the first free n), or a file of another
    ``version`` as ``STEM.v<version>.SUFFIX`` (``run.v1.json``; then ``run.v1-2.json``, ...), and
    return the new path."""
    path = Path(path)
    n = 1
    while True:
        if version is None:
            target = path.with_name(f"{path.name}.corrupt-{n}")
        else:
            target = path.with_name(f"{path.stem}.v{version}{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not target.exists():
            disk.replace(path, target)  # and the folder fsynced
            return target
        n += 1


def load(path: Path, kind: str, schema: int, *, what: str, then: str,
         migrations: Mapping[int, Migration] | None = None,
         check: Callable[[dict], Any] | None = None, aside: bool = True) -> Any:
    """Read ``path``, or None when it is missing. A bad file (including one ``check`` rejects with
    ValueError) gets one line on stderr, is quarantined, and None is returned so the game goes on:
    ``what`` names the file ("run save"), ``then`` says what happens instead ("starting a new run").
    A file of another version is kept aside under a name with its version (:func:`quarantine`).
    A bad file that cannot be moved aside (saving is off) is said once per process, not at every load.
    ``aside=False`` only looks: a bad file is None, said and moved by nobody (another process's)."""
    path = Path(path)
    version = None
    try:
        if not path.exists():
            return None
    except OSError as e:  # cannot even look (a folder we may not enter)
        warn_once(f"{what} {path}: cannot read it ({e.strerror or e}); {then}", key=f"bad:{path}")
        return None
    older: list[int] = []
    try:
        data = read_json(path, kind, schema, migrations, upgraded=lambda version, raw: older.append((version, raw)))
        result = check(data) if check is not None else data
        if older:
            _keep_original(path, *older[0], what, schema)
        return result
    except OtherVersion as e:
        reason, version = str(e), e.schema
    except (BadFile, ValueError, TypeError, KeyError, OverflowError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
    except OSError as e:
        reason = f"cannot read it ({e.strerror or e})"
    if not aside:
        return None
    try:
        target = quarantine(path, version)
        moved = f"kept as {target.name}" if version is not None else f"moved aside to {target.name}"
    except OSError as e:
        moved = f"could not move it aside ({e.strerror or e})"
    warn_once(f"{what} {path}: {reason[:200]}; {moved}; {then}", key=f"bad:{path}:{reason[:200]}:{moved}")
    return None


def _keep_original(path: Path, version: int, raw: bytes, what: str, schema: int) -> None:
    """A file upgraded from an older schema: its original bytes are kept beside it under a name
    with their version (``run.v2.json``; never overwritten), for an older Undercroft or a bug
    report, and one line says so. The upgraded data is written over ``path`` at the next save."""
    if in_data_dir(path) and not saving_enabled(say=False):
        return  # nothing will be written over it either: the original stays as it is, unsaid
    target = path.with_name(f"{path.stem}.v{version}{path.suffix}")
    kept = f"the original is kept as {target.name}"
    try:
        if not target.exists():
            disk.write_atomic(target, raw)  # the bytes read_json read: the file is not read twice
    except OSError as e:
        kept = f"the original could not be kept ({getattr(e, 'strerror', None) or e})"
    warn_once(f"{what} {path}: schema {version} is older than this Undercroft's ({schema}): upgraded; {kept}",
              key=f"upgraded:{path}")


def not_a_file(path: Path) -> str | None:
    """Why the existing ``path`` must not be written over ("a named pipe (FIFO), not a regular
    file", "a character device, ..."), or None (no such file, or a regular one). An atomic write
    renames over its target: over a FIFO or a device (``/dev/full``, as root) it would replace it."""
    try:
        check_regular(path)
    except TextFileError as e:
        return str(e)
    except OSError:
        return None  # missing, or not ours to read: the write itself will say
    return None
