"""One validation mechanism for everything read from outside: content rows, presets, run saves, the
profile and replays.

A *spec* checks a value read from JSON or TOML and returns it in the shape the game uses (a list
becomes a tuple where the field is a tuple). A mistake raises :class:`SchemaError` with one line:
where the value is, what would be valid, and what was found::

    monsters.toml: [rat] hp: expected an integer >= 1, got 0

Specs are small objects (:class:`Int`, :class:`Str`, :class:`List`, :class:`Obj`, ...). An
:class:`Obj` can be derived from a dataclass with :func:`of`: each field's spec comes from its type,
or from a spec given in ``typing.Annotated`` metadata (``hp: Annotated[int, Int(1, 10**6)]``), so
a content row's checks sit beside the field they check.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any


class SchemaError(ValueError):
    """A value that does not hold up; ``str()`` is the one line to show."""


def shown(value: Any, most: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most] + "..."


def fail(where: str, expected: str, value: Any) -> SchemaError:
    return SchemaError(f"{where}: expected {expected}, got {shown(value)}")


def _sub(where: str, key: Any) -> str:
    """Where a part of a value is: ``where[3]`` for an item, ``where.key`` for a key. A ``where``
    that ends in a space is a label (``"monsters.toml: [rat] "``): its keys follow it directly."""
    if isinstance(key, int):
        return f"{where.rstrip()}[{key}]"
    return f"{where}{key}" if not where or where.endswith(" ") else f"{where}.{key}"


class Spec:
    expected = "a value"

    def check(self, value: Any, where: str) -> Any:  # pragma: no cover - protocol
        raise NotImplementedError


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Int(Spec):
    """A whole number in ``lo..hi`` (``hi`` None: no upper bound); ``noun`` names it in messages."""

    def __init__(self, lo: int | None = None, hi: int | None = None, noun: str = "an integer") -> None:
        self.lo, self.hi, self.noun = lo, hi, noun

    @property
    def expected(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"{self.noun} in {self.lo}..{self.hi}"
        if self.lo is not None:
            return f"{self.noun} >= {self.lo}"
        return self.noun

    def check(self, value: Any, where: str) -> int:
        if not is_int(value):
            raise fail(where, self.noun, value)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise fail(where, self.expected, value)
        return value


class Bool(Spec):
    expected = "true or false"

    def check(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise fail(where, self.expected, value)
        return value


class Str(Spec):
    """Text of ``lo..most`` characters that encodes as UTF-8 (no lone surrogates), optionally
    matching ``pattern``."""

    def __init__(self, most: int = 100, lo: int = 0, pattern: str | None = None, expected: str | None = None):
        self.most, self.lo, self.pattern = most, lo, re.compile(pattern) if pattern else None
        self.expected = expected or (f"a string of {lo}..{most} characters" if lo else
                                     f"a string of at most {most} characters")

    def check(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not self.lo <= len(value) <= self.most:
            raise fail(where, self.expected, value)
        if self.pattern is not None and not self.pattern.fullmatch(value):
            raise fail(where, self.expected, value)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise fail(where, "text (this has a lone surrogate)", value) from None
        return value


def Char() -> Str:  # noqa: N802 - reads as a type
    return Str(1, 1, expected="a single character")


def NonEmpty(most: int = 100) -> Str:  # noqa: N802
    return Str(most, 1, expected="a non-empty string")


class Choice(Spec):
    def __init__(self, *values: Any) -> None:
        self.values = values
        self.expected = "one of " + ", ".join(repr(v) for v in values)

    def check(self, value: Any, where: str) -> Any:
        if value not in self.values or isinstance(value, bool) != any(isinstance(v, bool) for v in self.values):
            raise fail(where, self.expected, value)
        return value


class Optional(Spec):
    """None, or a value of ``spec``."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.expected = f"{spec.expected} or null"

    def check(self, value: Any, where: str) -> Any:
        return None if value is None else self.spec.check(value, where)


class List(Spec):
    """A list of ``item`` values: exactly ``n`` of them, or ``lo..most``; returned as a tuple with
    ``as_tuple``. With ``expected`` (say ``"[r, g, b] with each 0..255"``) the list is judged
    whole: a bad item is reported as the list not being what was expected."""

    def __init__(self, item: Spec, *, n: int | None = None, most: int = 10**6, lo: int = 0,
                 expected: str | None = None, as_tuple: bool = False) -> None:
        self.item, self.n, self.most, self.lo, self.as_tuple = item, n, most, lo, as_tuple
        self.whole = expected is not None
        self.expected = expected or (f"a list of {n}" if n is not None else f"a list of {lo}..{most}"
                                     if lo else f"a list (at most {most})")

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, list | tuple) or (self.n is not None and len(value) != self.n) \
                or not self.lo <= len(value) <= self.most:
            raise fail(where, self.expected, value)
        try:
            out = [self.item.check(v, _sub(where, i)) for i, v in enumerate(value)]
        except SchemaError:
            if not self.whole:
                raise
            raise fail(where, self.expected, value) from None
        return tuple(out) if self.as_tuple else out


class Tuple(Spec):
    """A fixed-size list whose items each have their own spec, judged whole (``expected`` says
    what it is: ``'["kind", x, y]'``); returned as a tuple."""

    def __init__(self, *items: Spec, expected: str) -> None:
        self.items, self.expected = items, expected

    def check(self, value: Any, where: str) -> tuple:
        if not isinstance(value, list | tuple) or len(value) != len(self.items):
            raise fail(where, self.expected, value)
        try:
            pairs = enumerate(zip(self.items, value, strict=True))
            return tuple(spec.check(v, _sub(where, i)) for i, (spec, v) in pairs)
        except SchemaError:
            raise fail(where, self.expected, value) from None


def Color() -> List:  # noqa: N802
    return List(Int(0, 255), n=3, expected="[r, g, b] with each 0..255", as_tuple=True)


class Map(Spec):
    """A table of ``key`` to ``value``: at most ``most`` entries."""

    def __init__(self, value: Spec, key: Spec | None = None, most: int = 10_000, expected: str = "a table"):
        self.value, self.key, self.most, self.expected = value, key or Str(100), most, expected

    def check(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict) or len(value) > self.most:
            raise fail(where, self.expected, value)
        return {self.key.check(k, where): self.value.check(v, _sub(where, k)) for k, v in value.items()}


class Json(Spec):
    """Any JSON value (numbers, strings, booleans, null, lists and tables of them), as params."""

    expected = "a JSON value"

    def check(self, value: Any, where: str) -> Any:
        if value is None or isinstance(value, bool | int | str):
            return value
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise fail(where, "a finite number", value)
            return value
        if isinstance(value, list | tuple):
            return [self.check(v, _sub(where, i)) for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {Str(100).check(k, where): self.check(v, _sub(where, k)) for k, v in value.items()}
        raise fail(where, self.expected, value)


class Check(Spec):
    """``spec``, then a test ``ok(value)``; ``expected`` says what passes."""

    def __init__(self, spec: Spec, ok: Callable[[Any], bool], expected: str) -> None:
        self.spec, self.ok, self.expected = spec, ok, expected

    def check(self, value: Any, where: str) -> Any:
        value = self.spec.check(value, where)
        if not self.ok(value):
            raise fail(where, self.expected, value)
        return value


MISSING = object()


class Obj(Spec):
    """A table with known keys: ``fields`` maps each key to its spec; ``defaults`` gives the
    optional ones (a key without a default is required). Unknown keys are refused, naming the
    valid ones."""

    expected = "a table"

    def __init__(self, fields: Mapping[str, Spec], defaults: Mapping[str, Any] | None = None,
                 build: Callable[..., Any] | None = None, unknown_ok: bool = False) -> None:
        self.fields, self.defaults, self.build, self.unknown_ok = dict(fields), dict(defaults or {}), build, unknown_ok

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise fail(where, self.expected, value)
        if not self.unknown_ok:
            unknown = sorted(str(k) for k in set(value) - set(self.fields))
            if unknown:
                raise SchemaError(f"{_sub(where, unknown[0])}: unknown key (valid: {', '.join(sorted(self.fields))})")
        out = {}
        for key, spec in self.fields.items():
            if key in value:
                out[key] = spec.check(value[key], _sub(where, key))
            elif key not in self.defaults:
                required = ", ".join(k for k in self.fields if k not in self.defaults)
                raise SchemaError(f"{_sub(where, key)}: missing (required keys: {required})")
        return self.build(**out) if self.build is not None else out


def of(cls: type, overrides: Mapping[str, Spec] | None = None, skip: tuple[str, ...] = ()) -> Obj:
    """The :class:`Obj` spec of a dataclass: a spec per field from its ``Annotated`` metadata or its
    type, the dataclass's defaults as defaults, and the dataclass itself to build the result."""
    hints = typing.get_type_hints(cls, include_extras=True)
    fields, defaults = {}, {}
    for f in dataclasses.fields(cls):
        if f.name in skip:
            continue
        fields[f.name] = (overrides or {}).get(f.name) or spec_for(hints[f.name])
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            defaults[f.name] = True
    return Obj(fields, defaults, build=cls)


def spec_for(hint: Any) -> Spec:
    """The spec of a type: ``Annotated`` metadata first, then the plain type."""
    if typing.get_origin(hint) is typing.Annotated:
        for meta in hint.__metadata__:
            if isinstance(meta, Spec):
                return meta
        hint = typing.get_args(hint)[0]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is int:
        return Int()
    if hint is bool:
        return Bool()
    if hint is str:
        return Str(200)
    if hint is Any:
        return Json()
    if origin in (types.UnionType, typing.Union) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return Optional(spec_for(rest[0]))
    if origin is list:
        return List(spec_for(args[0]))
    if origin is tuple and args and args[-1] is not Ellipsis:
        return List(Int() if args[0] is int else spec_for(args[0]), n=len(args), as_tuple=True)
    if origin is tuple:
        return List(spec_for(args[0]), as_tuple=True)
    if origin is dict:
        return Map(spec_for(args[1]))
    if dataclasses.is_dataclass(hint):
        return of(hint)
    raise TypeError(f"no spec for {hint!r}: give one in Annotated metadata")  # a bug, not bad input
