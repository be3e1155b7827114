"""Content types and their loading from TOML.

A monster or an item is one row of data. Content files (``content/*.toml``) hold one table per
row, and each key maps one-to-one onto a field of :class:`MonsterKind` or :class:`ItemKind`.
:func:`load_kinds` validates every row and raises :class:`ContentError` naming the file, the key and
the reason, so a typo in a content file is one clear line, not a traceback.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Color = tuple[int, int, int]


class ContentError(ValueError):
    """A content file is missing, unreadable or malformed."""


@dataclass(frozen=True)
class MonsterKind:
    """A monster, as a row of data. ``speed`` 100 is normal: 200 acts twice per normal turn.

    ``min_depth`` and ``weight`` feed the spawn table; ``params`` go to the behaviour.
    """

    name: str
    glyph: str
    color: Color
    hp: int
    attack: int
    defense: int = 0
    sight: int = 8
    speed: int = 100
    behaviour: str = "chase"
    min_depth: int = 1
    weight: int = 1
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ItemKind:
    """An item, as a row of data.

    ``use`` says when the effect applies: ``"pickup"`` when stepped on (gold), ``"quaff"`` when
    drunk from the pack (potions). ``amount`` is the (min, max) rolled when it is placed.
    """

    name: str
    glyph: str
    color: Color
    effect: str
    params: dict[str, Any] = field(default_factory=dict)
    amount: tuple[int, int] = (1, 1)
    use: str = "pickup"
    min_depth: int = 1
    weight: int = 1


USES = ("pickup", "quaff")


def _check(path: Path, row: str, key: str, ok: bool, expected: str, value: Any) -> None:
    if not ok:
        raise ContentError(f"{path}: [{row}] {key}: expected {expected}, got {value!r}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _convert(path: Path, row: str, key: str, value: Any, ftype: Any) -> Any:
    """Check one value against the field's declared type; return it in the field's shape."""
    t = str(ftype)
    if t == "str":
        _check(path, row, key, isinstance(value, str) and value != "", "a non-empty string", value)
        if key == "glyph":
            _check(path, row, key, len(value) == 1, "a single character", value)
        return value
    if t == "int":
        _check(path, row, key, _is_int(value), "an integer", value)
        minimum = 1 if key in ("hp", "speed", "sight", "weight", "min_depth") else 0
        _check(path, row, key, minimum <= value <= 1_000_000, f"an integer >= {minimum}", value)
        return value
    if t == "Color":
        ok = isinstance(value, list) and len(value) == 3 and all(_is_int(c) and 0 <= c <= 255 for c in value)
        _check(path, row, key, ok, "[r, g, b] with each 0..255", value)
        return tuple(value)
    if t == "tuple[int, int]":
        ok = isinstance(value, list) and len(value) == 2 and all(_is_int(c) and c >= 0 for c in value)
        _check(path, row, key, ok and value[0] <= value[1], "[min, max] with 0 <= min <= max", value)
        return tuple(value)
    if t == "dict[str, Any]":
        _check(path, row, key, isinstance(value, dict), "a table", value)
        return dict(value)
    raise AssertionError(f"no converter for field type {t}")  # a bug in this module, not in content


def read_toml(path: Path) -> dict[str, Any]:
    """Read a TOML file; a missing, unreadable or malformed one is a ContentError."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise ContentError(f"{path}: cannot read: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"{path}: not valid TOML: {e}") from None


def build(cls: type, path: Path, row: str, data: Any, label: str | None = None) -> Any:
    """Build a content dataclass named ``row`` from one table, validating every key. Errors name
    the table as ``label`` (default: ``row``)."""
    name, row = row, label or row
    if not isinstance(data, dict):
        raise ContentError(f"{path}: [{row}]: expected a table, got {data!r}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields) - {"name"})
    if unknown:
        raise ContentError(f"{path}: [{row}] {unknown[0]}: unknown key (valid: {', '.join(sorted(fields))})")
    values: dict[str, Any] = {"name": name}
    for name, f in fields.items():
        if name == "name":
            continue
        if name in data:
            values[name] = _convert(path, row, name, data[name], f.type)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ContentError(f"{path}: [{row}] {name}: missing (required keys: {_required(cls)})")
    if cls is ItemKind and values.get("use", "pickup") not in USES:
        raise ContentError(f"{path}: [{row}] use: expected one of {', '.join(USES)}, got {values['use']!r}")
    return cls(**values)


def _required(cls: type) -> str:
    return ", ".join(
        f.name
        for f in dataclasses.fields(cls)
        if f.name != "name" and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )


def load_kinds(path: Path | str, cls: type) -> list[Any]:
    """Load every row of a content file as ``cls`` (MonsterKind or ItemKind), in file order."""
    path = Path(path)
    data = read_toml(path)
    return [build(cls, path, row, table) for row, table in data.items()]
