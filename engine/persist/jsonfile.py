"""The files' one shape, read suspiciously: plain versioned JSON, ``{"kind": KIND, "schema": N, ...}``.

Never pickle: a save is data, and loading data never runs code. Only a regular file is read, and
never more than :data:`MAX_BYTES` + 1 bytes (:mod:`engine.kit.textfile`: ``/dev/zero`` or a FIFO
is refused, not read). A file that is too big, special, not UTF-8, not JSON, nested absurdly deep,
of another kind or of a schema this engine cannot read raises :class:`BadFile` with a one-line
reason. Older schemas are upgraded by the migrations the caller passes: ``{old_schema: fn(data) ->
data}``; a file of a schema that cannot be upgraded (older than the oldest migration, or newer than
this engine) raises :class:`OtherVersion`: it is not corrupt. :func:`dump_json` writes the text
:func:`read_json` reads back. :func:`read_document` reads a tool's own JSON (``sim --json``, ``bench
--json``) with the same checks and no envelope, up to the limit its caller names.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.kit import limits
from engine.kit.textfile import TextFileError, read_bytes

MAX_BYTES = limits.MAX_FILE_BYTES
MAX_DEPTH = limits.MAX_NESTING

Migration = Callable[[dict[str, Any]], dict[str, Any]]


class BadFile(ValueError):
    """A file we will not trust; ``str()`` is the one-line reason."""


class OtherVersion(BadFile):
    """A sound file of a schema this engine cannot read (``schema``): kept, never called corrupt."""

    def __init__(self, reason: str, schema: int) -> None:
        super().__init__(reason)
        self.schema = schema


def dump_json(kind: str, schema: int, data: Mapping[str, Any]) -> str:
    """The text of a file of ``kind``: canonical JSON (sorted keys, ASCII), as
    :func:`engine.persist.files.write_json` writes it."""
    return json.dumps({**data, "kind": kind, "schema": schema}, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)


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
    if raw.count(b"[") + raw.count(b"{") > 2 * MAX_BYTES // 3:
        raise BadFile("not a save: too many brackets")
    data = _parse(raw)
    if not isinstance(data, dict):
        raise BadFile(f"expected a JSON object, got {type(data).__name__}")
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


def read_document(path: str | Path, limit: int = MAX_BYTES) -> Any:
    """A JSON document one of our tools wrote for another run to read (``sim --json``, ``bench
    --json``): no envelope, any JSON. A regular file only, of at most ``limit`` bytes (a sweep's
    report grows with its runs); raises BadFile saying why not, in one line, as :func:`read_json`."""
    try:
        raw = read_bytes(path, limit)
    except TextFileError as e:
        raise BadFile(str(e)) from None
    except MemoryError:
        raise BadFile("too big to read in this machine's memory") from None
    if not raw.strip():
        raise BadFile("empty file")
    return _parse(raw)


def _parse(raw: bytes) -> Any:
    """The JSON of ``raw``; BadFile with the reason when it is not UTF-8 JSON we will hold."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadFile(f"not UTF-8 text (byte {e.start})") from None
    try:
        data = json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as e:
        raise BadFile(f"not valid JSON ({e.msg}: line {e.lineno} column {e.colno}; truncated?)") from None
    except RecursionError:
        raise BadFile(f"nested too deeply (over {MAX_DEPTH} levels)") from None
    except MemoryError:
        raise BadFile("too big to read in this machine's memory") from None
    except ValueError as e:  # huge integers (over 4300 digits), NaN, Infinity
        reason = "a number with too many digits" if "digits" in str(e) else str(e).splitlines()[0]
        raise BadFile(f"not valid JSON ({reason})") from None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise BadFile(f"nested too deeply (over {MAX_DEPTH} levels)")
    return data


def payload(data: dict[str, Any]) -> dict[str, Any]:
    """A file's data without its ``kind`` and ``schema`` envelope."""
    return {k: v for k, v in data.items() if k not in ("kind", "schema")}
