"""The file layer under run saves, the profile and replays: plain versioned JSON, crash-safe, wary.

Every file is one JSON object ``{"kind": KIND, "schema": N, ...}``. Writing is atomic: the text goes
to a temporary file in the same folder, is fsynced, renamed over the old file, and the folder is
fsynced too, so a crash (even SIGKILL) at any moment leaves either the old file or the new one.
Never pickle: a save is data, and loading data never runs code.

Reading is suspicious. A file that is too big, not UTF-8, not JSON, nested absurdly deep, of another
kind or of a schema this engine cannot read raises :class:`BadFile` with a one-line reason;
:func:`quarantine` then moves it aside as ``NAME.corrupt-<n>`` (never deleted: the bytes may matter
to a bug report) and the game goes on. Older schemas are upgraded by the migrations the caller
passes: ``{old_schema: fn(data) -> data}``, applied one schema at a time.

The folder is ``UNDERCROFT_HOME`` when set, else platformdirs' user data dir for "undercroft".
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

MAX_BYTES = 16 * 1024 * 1024  # bigger than any honest save, profile or replay
MAX_DEPTH = 64  # nesting levels; our files use fewer than 6
TMP_TAG = ".tmp-"

Migration = Callable[[dict[str, Any]], dict[str, Any]]


class BadFile(ValueError):
    """A file we will not trust; ``str()`` is the one-line reason."""


def data_dir() -> Path:
    """The user data folder (created on first use): ``UNDERCROFT_HOME`` or platformdirs'."""
    home = os.environ.get("UNDERCROFT_HOME")
    if home:
        path = Path(home)
    else:
        import platformdirs  # only when there is no override: tests and tools never need it

        path = Path(platformdirs.user_data_dir("undercroft", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles (Windows)
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _clean_stale_temps(path: Path) -> None:
    """Remove temporary files left by writers that were killed mid-write (their pid is gone)."""
    for tmp in path.parent.glob(f".{path.name}{TMP_TAG}*"):
        try:
            pid = int(tmp.name.rsplit("-", 1)[1])
            if pid != os.getpid():
                os.kill(pid, 0)
                continue  # that writer is still alive
        except ProcessLookupError:
            pass
        except (ValueError, IndexError, PermissionError):
            continue
        try:
            tmp.unlink()
        except OSError:
            pass


def write_json(path: Path, kind: str, schema: int, data: Mapping[str, Any]) -> None:
    """Write ``data`` as ``{"kind", "schema", ...}`` atomically: temp file, fsync, rename, fsync dir."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({**data, "kind": kind, "schema": schema}, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    _clean_stale_temps(path)
    tmp = path.parent / f".{path.name}{TMP_TAG}{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def remove(path: Path) -> bool:
    """Delete a file durably; returns whether there was one."""
    path = Path(path)
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    _fsync_dir(path.parent)
    return True


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of parsed JSON, iteratively (a hostile file must not blow the stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            deepest = max(deepest, d)
            if deepest > limit:
                return deepest
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return deepest


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def read_json(path: Path, kind: str, schema: int, migrations: Mapping[int, Migration] | None = None) -> dict:
    """Read and check one file of ``kind``; upgrade older schemas; raise BadFile saying why not."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise BadFile(f"too big ({size} bytes; the limit is {MAX_BYTES})")
    raw = path.read_bytes()
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
        raise BadFile(f"schema {found} is newer than this Undercroft reads (up to {schema})")
    migrations = migrations or {}
    while found < schema:
        step = migrations.get(found)
        if step is None:
            raise BadFile(f"schema {found} is too old (this Undercroft reads {min(migrations, default=schema)}"
                          f"..{schema})")
        data = step(dict(data))
        found += 1
        data["schema"] = found
    return data


def payload(data: dict[str, Any]) -> dict[str, Any]:
    """A file's data without its ``kind`` and ``schema`` envelope."""
    return {k: v for k, v in data.items() if k not in ("kind", "schema")}


def quarantine(path: Path) -> Path:
    """Move a bad file aside as ``NAME.corrupt-<n>`` (the first free n) and return the new path."""
    path = Path(path)
    n = 1
    while True:
        target = path.with_name(f"{path.name}.corrupt-{n}")
        if not target.exists():
            os.replace(path, target)
            _fsync_dir(path.parent)
            return target
        n += 1


def load(path: Path, kind: str, schema: int, *, what: str, then: str,
         migrations: Mapping[int, Migration] | None = None,
         check: Callable[[dict], Any] | None = None) -> Any:
    """Read ``path``, or None when it is missing. A bad file (including one ``check`` rejects with
    ValueError) gets one line on stderr, is quarantined, and None is returned so the game goes on:
    ``what`` names the file ("run save"), ``then`` says what happens instead ("starting a new run")."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        data = read_json(path, kind, schema, migrations)
        return check(data) if check is not None else data
    except (BadFile, ValueError, TypeError, KeyError, OverflowError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
    except OSError as e:
        reason = f"cannot read it ({e.strerror or e})"
    try:
        moved = f"moved aside to {quarantine(path).name}"
    except OSError as e:
        moved = f"could not move it aside ({e.strerror or e})"
    warn(f"{what} {path}: {reason[:200]}; {moved}; {then}")
    return None


def warn(line: str) -> None:
    """One line on stderr, in the engine's voice."""
    print(f"undercroft: {line}", file=sys.stderr)
