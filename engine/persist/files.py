"""The file layer under run saves, the profile, morgues and replays: plain versioned JSON, crash-safe, wary.

Every file is one JSON object ``{"kind": KIND, "schema": N, ...}``. Writing is atomic: the text goes
to a temporary file in the same folder (``.NAME.tmp-<pid>``), is fsynced, renamed over the old file,
and the folder is fsynced too, so a crash (even SIGKILL) or an I/O error at any moment leaves either
the old file or the new one. A writer that fails removes its temporary file; one killed mid-write
leaves it, and the next write of that file removes it. Never pickle: a save is data, and loading data
never runs code. Every OS call that changes the disk goes through this module's ``os`` name (so
``tests/faults.py`` can fail any one of them).

Reading is suspicious. Only a regular file is read, and never more than :data:`MAX_BYTES` + 1 bytes
(:mod:`engine.kit.textfile`: ``/dev/zero`` or a FIFO is refused, not read). A file that is too
big, special, not UTF-8, not JSON, nested absurdly deep, of another kind or of a schema this engine
cannot read raises :class:`BadFile` with a one-line reason; :func:`quarantine` then moves it aside as
``NAME.corrupt-<n>`` (never deleted: the bytes may matter to a bug report) and the game goes on.
Older schemas are upgraded by the migrations the caller passes: ``{old_schema: fn(data) -> data}``.
A file of a schema that cannot be upgraded (older than the oldest migration, or newer than this
engine) is not corrupt: it is kept aside under a name that says its version (``run.v1.json``), for
the engine that can read it. The writer never writes a file the reader would refuse for its size.

The folder is ``UNDERCROFT_HOME`` when set, else platformdirs' user data dir for "undercroft"
(:func:`home`). :func:`data_dir` checks it once per process by making it and a file in it; when that
fails (a file in the way, no permission, a read-only filesystem), or a write later finds it so, one
line says nothing will be saved, :func:`saving_enabled` turns False, and the writers here write
nothing there, quietly: play goes on. A full disk is not that: each failed write raises OSError and
its caller says so.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.kit import limits
from engine.kit.textfile import TextFileError, read_bytes

MAX_BYTES = limits.MAX_FILE_BYTES
MAX_DEPTH = limits.MAX_NESTING
TMP_TAG = ".tmp-"
# errors that mean "this folder cannot be written at all" (not a full disk, not a passing I/O error)
UNWRITABLE = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR})

Migration = Callable[[dict[str, Any]], dict[str, Any]]

# What this process learnt about data folders: checked ones, unusable ones (folder -> why), lines said.
_checked: set[str] = set()
_unusable: dict[str, str] = {}
_said: set[str] = set()


class BadFile(ValueError):
    """A file we will not trust; ``str()`` is the one-line reason."""


class OtherVersion(BadFile):
    """A sound file of a schema this engine cannot read (``schema``): kept, never called corrupt."""

    def __init__(self, reason: str, schema: int) -> None:
        super().__init__(reason)
        self.schema = schema


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
    so callers can build names in it, but the writers here will not write there. ``say=False``
    keeps that line for a later call (a caller that refuses to go on says its own line instead)."""
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
        makedirs(folder)
        clean_stale_temps(folder, f".probe{TMP_TAG}*")  # of a process killed between the two calls below
        probe = folder / f".probe{TMP_TAG}{os.getpid()}"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return _why(e)
    return None


def _why(e: OSError) -> str:
    if e.errno == errno.ENOTDIR:
        return f"{e.filename} is a file, not a folder" if e.filename else "a file is in the way"
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


def _in_data_dir(path: Path) -> bool:
    return is_data_dir(path.parent)


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
                raise NotADirectoryError(errno.ENOTDIR, "a file, not a folder", str(path)) from None


def _fsync_dir(folder: Path) -> None:
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
        _unlink_quietly(tmp)


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _write_atomic(path: Path, data: bytes) -> None:
    """Temp file, write, fsync, rename over ``path``, fsync the folder: old or new, never a mix."""
    makedirs(path.parent)
    clean_stale_temps(path.parent, f".{path.name}{TMP_TAG}*")
    tmp = path.parent / f".{path.name}{TMP_TAG}{os.getpid()}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags, 0o666)
    try:
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)  # may write less than asked: go on from there
                if n <= 0:
                    raise OSError(errno.EIO, "the write wrote nothing", str(tmp))
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)  # a failed write leaves no temporary file of ours
        raise
    _fsync_dir(path.parent)


def write_text(path: Path, text: str) -> bool:
    """Write ``text`` as UTF-8 atomically (see :func:`_write_atomic`); characters UTF-8 cannot hold
    (a lone surrogate) are written as backslash escapes. Returns False, writing nothing, when
    ``path`` is in the data folder and saving is off (:func:`saving_enabled`; said once already);
    raises OSError when the write fails (a full disk: the caller says so)."""
    path = Path(path)
    mine = _in_data_dir(path)
    if mine and not saving_enabled():
        return False
    try:
        _write_atomic(path, text.encode("utf-8", "backslashreplace"))
    except OSError as e:
        if unwritable(e, path.parent):  # the folder became unwritable since data_dir() looked
            return False
        raise
    return True


def dump_json(kind: str, schema: int, data: Mapping[str, Any]) -> str:
    """The text of a file of ``kind``: canonical JSON (sorted keys, ASCII), as :func:`write_json` writes it."""
    return json.dumps({**data, "kind": kind, "schema": schema}, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)


def write_json(path: Path, kind: str, schema: int, data: Mapping[str, Any]) -> bool:
    """Write ``data`` as ``{"kind", "schema", ...}`` atomically (see :func:`write_text`, whose
    return value and errors this shares). Raises :class:`BadFile`, writing nothing, when the text
    would be bigger than :func:`read_json` reads (the writer writes only what the reader accepts)."""
    text = dump_json(kind, schema, data)
    if len(text) > MAX_BYTES:  # ASCII: characters are bytes
        raise BadFile(f"too big to be read back ({len(text)} bytes; at most {MAX_BYTES})")
    return write_text(path, text)


def remove(path: Path) -> bool:
    """Delete a file durably; returns whether there was one to delete. In the data folder with
    saving off, deletes nothing and returns False: callers that rely on a removal (permadeath) must
    check :func:`saving_enabled` first. Other failures raise OSError."""
    path = Path(path)
    mine = _in_data_dir(path)
    if mine and not saving_enabled():
        return False
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    except OSError as e:
        if unwritable(e, path.parent):
            return False
        raise
    _fsync_dir(path.parent)
    return True


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of parsed JSON, iteratively (a hostile file must not blow the stack). Only
    containers are pushed (``type() is``: the parser makes exact lists and dicts), so a list of a
    million keys is one quick pass over it."""
    if type(value) is not dict and type(value) is not list:
        return 0
    deepest, stack = 1, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if d > deepest:
            deepest = d
            if deepest > limit:
                return deepest
        kids = [c for c in (v.values() if type(v) is dict else v) if type(c) is list or type(c) is dict]
        if kids:
            stack.extend([(c, d + 1) for c in kids])
    return deepest


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def read_json(path: Path, kind: str, schema: int, migrations: Mapping[int, Migration] | None = None,
              upgraded: Callable[[int, bytes], None] | None = None) -> dict:
    """Read and check one file of ``kind``; upgrade older schemas (``upgraded(old_schema, raw)`` is
    told first, with the bytes read); raise BadFile saying why not."""
    path = Path(path)
    try:
        raw = read_bytes(path, MAX_BYTES)  # regular files only, never more than MAX_BYTES + 1 bytes
    except TextFileError as e:
        raise BadFile(str(e)) from None
    if not raw.strip():
        raise BadFile("empty file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadFile(f"not UTF-8 text (byte {e.start})") from None
    if text.count("[") + text.count("{") > 2 * MAX_BYTES // 3:
        raise BadFile("not a save: too many brackets")
    try:
        data = json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as e:
        raise BadFile(f"not valid JSON ({e.msg}: line {e.lineno} column {e.colno}; truncated?)") from None
    except RecursionError:
        raise BadFile(f"nested too deeply (over {MAX_DEPTH} levels)") from None
    except ValueError as e:  # huge integers (over 4300 digits), NaN, Infinity
        reason = "a number with too many digits" if "digits" in str(e) else str(e).splitlines()[0]
        raise BadFile(f"not valid JSON ({reason})") from None
    if not isinstance(data, dict):
        raise BadFile(f"expected a JSON object, got {type(data).__name__}")
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise BadFile(f"nested too deeply (over {MAX_DEPTH} levels)")
    if data.get("kind") != kind:
        raise BadFile(f"not a {kind} file (kind is {str(data.get('kind'))[:40]!r})")
    found = data.get("schema")
    if not isinstance(found, int) or isinstance(found, bool):
        raise BadFile(f"no schema version (got {str(found)[:40]!r})")
    if found > schema:
        raise OtherVersion(f"schema {found} is newer than this Undercroft reads (up to {schema})", found)
    migrations = migrations or {}
    original = found
    if found < schema and upgraded is not None and found in migrations:
        upgraded(found, raw)
    while found < schema:
        step = migrations.get(found)
        if step is None:
            raise OtherVersion(f"schema {found} is older than this Undercroft reads "
                               f"({min(migrations, default=schema)}..{schema})", original)
        data = step(dict(data))
        found += 1
        data["schema"] = found
    return data


def payload(data: dict[str, Any]) -> dict[str, Any]:
    """A file's data without its ``kind`` and ``schema`` envelope."""
    return {k: v for k, v in data.items() if k not in ("kind", "schema")}


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
            os.replace(path, target)
            _fsync_dir(path.parent)
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
    if _in_data_dir(path) and not saving_enabled(say=False):
        return  # nothing will be written over it either: the original stays as it is, unsaid
    target = path.with_name(f"{path.stem}.v{version}{path.suffix}")
    kept = f"the original is kept as {target.name}"
    try:
        if not target.exists():
            _write_atomic(target, raw)  # the bytes read_json read: the file is not read twice
    except OSError as e:
        kept = f"the original could not be kept ({getattr(e, 'strerror', None) or e})"
    warn_once(f"{what} {path}: schema {version} is older than this Undercroft's ({schema}): upgraded; {kept}",
              key=f"upgraded:{path}")


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
