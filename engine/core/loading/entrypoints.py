"""Installed plugins' entry points, read from the ``*.dist-info`` folders on ``sys.path``, as
``importlib.metadata.entry_points(group=...)`` finds them, without importing it: that module (and
the ``email`` parser it brings for the distributions' metadata) is 10-13 ms of every start.

:func:`find` answers only the plain case: folders on ``sys.path`` holding ``*.dist-info`` or
``*.egg-info`` folders, each entry point a ``name = value`` line. Anything else (an ``.egg``, a zip
on the path, a finder of distributions besides Python's own, an odd file) is None, and the caller
asks ``importlib.metadata``, which knows every case. The order and the choice among two installs
of one distribution are importlib.metadata's: ``sys.path`` in order, a folder's entries as the OS
lists them grouped by normalised name, the first of each distribution kept.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
from importlib.machinery import PathFinder
from typing import NamedTuple

_PATTERN = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
_HEADER = re.compile(r"[\041-\071\073-\176]*:")  # the email parser's header line (a name, a colon)
_LINES = re.compile(r"\r\n|\r|\n")  # the email parser's line ends
_READ_ERRORS = (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)


class Dist(NamedTuple):
    """The distribution an entry point comes from (its metadata's ``Name`` and ``Version``)."""

    name: str
    version: str


class EntryPoint(NamedTuple):
    """One entry point: ``name = value`` in its ``group``, from ``dist``."""

    name: str
    value: str
    group: str
    dist: Dist

    def load(self) -> object:
        """The module, or the object in it, that ``value`` names (as importlib.metadata loads it)."""
        match = _PATTERN.match(self.value)
        module = importlib.import_module(match.group("module"))  # type: ignore[union-attr]
        attrs = filter(None, (match.group("attr") or "").split("."))  # type: ignore[union-attr]
        return functools.reduce(getattr, attrs, module)


class _Unusual(Exception):
    """Something only importlib.metadata reads as it should."""


def find(group: str) -> list[EntryPoint] | None:
    """The entry points of ``group``, in importlib.metadata's order; None when the installs are
    not all plain folders (ask importlib.metadata)."""
    if any(getattr(finder, "find_distributions", None) is not None and finder is not PathFinder
           for finder in sys.meta_path):
        return None
    try:
        found: list[EntryPoint] = []
        seen: set[str] = set()
        for entry in sys.path:
            for info in _infos(entry):
                key = _normalize(_stem_name(info))
                if key in seen:
                    continue
                seen.add(key)
                found.extend(_entry_points(info, group))
        return found
    except Exception:  # noqa: BLE001 - _Unusual, or any surprise (a bytes path, a bad file): importlib.metadata decides
        return None


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _infos(entry: str) -> list[str]:
    """The distribution folders of one ``sys.path`` entry, grouped by normalised name."""
    root = entry or "."
    try:
        children = os.listdir(root)
    except OSError:
        if os.path.exists(root):
            raise _Unusual(root) from None  # a zip, or a file: importlib.metadata looks inside
        return []
    grouped: dict[str, list[str]] = {}
    for child in children:
        low = child.lower()
        if low.endswith((".dist-info", ".egg-info")):
            name = low.rpartition(".")[0].partition("-")[0]
            grouped.setdefault(_normalize(name), []).append(os.path.join(entry, child))
        elif low.endswith(".egg") or (low == "egg-info" and os.path.basename(root).lower().endswith(".egg")):
            raise _Unusual(child)
    return [path for paths in grouped.values() for path in paths]


def _stem_name(info: str) -> str:
    stem = os.path.basename(info)
    filename, ext = os.path.splitext(stem)
    if ext not in (".dist-info", ".egg-info"):
        raise _Unusual(stem)  # another case: importlib.metadata names it from its metadata
    return filename.partition("-")[0]


def _read(info: str, name: str) -> str | None:
    try:
        with open(os.path.join(info, name), encoding="utf-8") as f:
            return f.read()
    except _READ_ERRORS:
        return None


def _entry_points(info: str, group: str) -> list[EntryPoint]:
    text = _read(info, "entry_points.txt")
    if not text:
        return []
    section = None
    out = []
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section is None:
            continue
        if "=" not in line:
            raise _Unusual(line)
        if section == group:
            name, value = (part.strip() for part in line.split("=", 1))
            out.append((name, value))
    if not out:
        return []
    dist = _dist(info)
    return [EntryPoint(name, value, group, dist) for name, value in out]


def _dist(info: str) -> Dist:
    """Name and Version from the metadata's headers, as the email parser reads them: the first of
    each name (case aside), the value after the colon and its leading blanks."""
    text = _read(info, "METADATA") or _read(info, "PKG-INFO")
    if not text:
        raise _Unusual(info)
    headers: dict[str, str] = {}
    last = None
    for line in _LINES.split(text):
        if line == "":
            break  # the headers end
        if line[0] in " \t":
            if last in ("name", "version"):
                raise _Unusual(line)  # folded: the email parser's to join
            continue
        if not _HEADER.match(line):
            raise _Unusual(line)
        key, _, value = line.partition(":")
        last = key.lower()
        headers.setdefault(last, value.lstrip(" \t"))
    if "name" not in headers or "version" not in headers:
        raise _Unusual(info)
    return Dist(headers["name"], headers["version"])
