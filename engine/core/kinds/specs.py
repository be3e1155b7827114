"""The value specs of the one validation mechanism (:mod:`engine.core.kinds.schema`): numbers, booleans,
text, choices, lists, tuples, tables of one kind of value, JSON params, and the one-line error they
raise.

A spec checks a value read from JSON or TOML with ``spec.check(value, where)`` and returns it in the
shape the game uses. A mistake raises :class:`SchemaError` made by :func:`fail`: where the value is,
what would be valid, and what was found (``monsters.toml: [rat] hp: expected an integer >= 1, got 0``).
``where`` grows with :func:`sub` as a check goes into lists and tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.kit import limits


class SchemaError(ValueError):
    """A value that does not hold up; ``str()`` is the one line to show."""


def shown(value: Any, most: int = 60) -> str:
    try:
        text = repr(value)
    except (RecursionError, MemoryError):  # a value nested absurdly deep: its type says enough
        text = f"a {type(value).__name__} nested too deeply to show"
    except ValueError:  # a number of more digits than Python writes out
        text = f"a {type(value).__name__} too long to show"
    return text if len(text) <= most else text[:most] + "..."


def fail(where: str, expected: str, value: Any) -> SchemaError:
    return SchemaError(f"{where}: expected {expected}, got {shown(value)}")


def sub(where: str, key: Any) -> str:
    """Where a part of a value is: ``where[3]`` for an item, ``where.key`` for a key. A ``where``
    that ends in a space is a label (``"monsters.toml: [rat] "``): its keys follow it directly."""
    if isinstance(key, int):
        return f"{where.rstrip()}[{key}]"
    return f"{where}{key}" if not where or where.endswith((" ", ".")) else f"{where}.{key}"


class Spec:
    expected: str = "a value"

    def check(self, value: Any, where: str) -> Any:  # pragma: no cover - protocol
        raise NotImplementedError


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Int(Spec):
    """A whole number in ``lo..hi`` (``hi`` None: no upper bound); ``noun`` names it in messages."""

    def __init__(self, lo: int | None = None, hi: int | None = None, noun: str = "an integer") -> None:
        self.lo, self.hi, self.noun = lo, hi, noun
        if lo is not None and hi is not None:
            self.expected = f"{noun} in {lo}..{hi}"
        elif lo is not None:
            self.expected = f"{noun} >= {lo}"
        else:
            self.expected = noun

    def check(self, value: Any, where: str) -> int:
        if not is_int(value):
            raise fail(where, self.noun, value)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise fail(where, self.expected, value)
        checked: int = value
        return checked


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
    # a glyph is drawn and typed in --map files: a control character (NUL) is neither (a blank is a
    # preset's floor: lesson28's)
    return Str(1, 1, pattern=r"[^\x00-\x1f\x7f-\x9f\u2028\u2029]", expected="a single printable character")


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
            out = [self.item.check(v, sub(where, i)) for i, v in enumerate(value)]
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

    def check(self, value: Any, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) != len(self.items):
            raise fail(where, self.expected, value)
        try:
            pairs = enumerate(zip(self.items, value, strict=True))
            return tuple(spec.check(v, sub(where, i)) for i, (spec, v) in pairs)
        except SchemaError:
            raise fail(where, self.expected, value) from None


def Color() -> List:  # noqa: N802
    return List(Int(0, 255), n=3, expected="[r, g, b] with each 0..255", as_tuple=True)


class Map(Spec):
    """A table of ``key`` to ``value``: at most ``most`` entries."""

    def __init__(self, value: Spec, key: Spec | None = None, most: int = 10_000, expected: str = "a table"):
        self.value, self.key, self.most, self.expected = value, key or Str(100), most, expected

    def check(self, value: Any, where: str) -> dict[Any, Any]:
        if not isinstance(value, dict) or len(value) > self.most:
            raise fail(where, self.expected, value)
        return {self.key.check(k, where): self.value.check(v, sub(where, k)) for k, v in value.items()}


class Json(Spec):
    """Any JSON value (numbers, strings, booleans, null, lists and tables of them), as params."""

    expected = "a JSON value"
    # lists and tables inside one another: a save holds plugin data two levels down (the file's
    # table, its plugin_data table), and the reader refuses a file nested past MAX_NESTING
    DEEPEST = limits.MAX_NESTING - 2

    def check(self, value: Any, where: str, depth: int = 1, top: str = "") -> Any:
        top = top or where
        if depth > self.DEEPEST and isinstance(value, list | tuple | dict):  # one holding itself never ends
            raise SchemaError(f"{top}: expected a JSON value nested at most {self.DEEPEST} levels deep, "
                              "got one nested deeper (or holding itself)")
        if value is None or isinstance(value, bool | int | str):
            return value
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise fail(where, "a finite number", value)
            return value
        if isinstance(value, list | tuple):
            return [self.check(v, sub(where, i), depth + 1, top) for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {Str(100).check(k, where): self.check(v, sub(where, k), depth + 1, top) for k, v in value.items()}
        raise fail(where, self.expected, value)


def json_kind(value: Any) -> str:
    """A param's JSON kind, as a line names it: what a value given for a param must also be, when
    its declared default is ``value`` (an int passes for a number; a default of None takes any)."""
    if value is None:
        return "any value"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "any value"


def same_kind(value: Any, default: Any) -> bool:
    """Whether ``value`` may stand for a param whose default is ``default`` (:func:`json_kind`)."""
    return default is None or json_kind(value) == json_kind(default)


class Check(Spec):
    """``spec``, then a test ``ok(value)``; ``expected`` says what passes."""

    def __init__(self, spec: Spec, ok: Callable[[Any], bool], expected: str) -> None:
        self.spec, self.ok, self.expected = spec, ok, expected

    def check(self, value: Any, where: str) -> Any:
        value = self.spec.check(value, where)
        if not self.ok(value):
            raise fail(where, self.expected, value)
        return value


def shown_number(value: Any) -> str:
    """A value as a message names it: a number whole, or by its size past 40 digits (a number of
    thousands of digits cannot even be written out)."""
    if is_int(value) and abs(value) >= 10**40:
        return f"a number of about {int(abs(value).bit_length() * 0.30103)} digits"
    return shown(value, 40)
