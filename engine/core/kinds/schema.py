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

The value specs (numbers, text, lists, tables, JSON) live in :mod:`engine.core.kinds.specs`; this module
adds the records (:class:`Obj`, and :func:`of` for dataclasses) and names the whole mechanism:
callers import every spec from here.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from engine.core.kinds.specs import (
    Bool,
    Char,
    Check,
    Choice,
    Color,
    Int,
    Json,
    List,
    Map,
    NonEmpty,
    Optional,
    SchemaError,
    Spec,
    Str,
    Tuple,
    fail,
    is_int,
    shown,
    sub,
)

# the whole mechanism is named from here: the value specs (engine.core.kinds.specs) and the records below
__all__ = ["Bool", "Char", "Check", "Choice", "Color", "Int", "Json", "List", "Map", "NonEmpty", "Obj",
           "Optional", "SchemaError", "Spec", "Str", "Tuple", "fail", "is_int", "of", "shown", "spec_for", "sub"]


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
                raise SchemaError(f"{sub(where, unknown[0])}: unknown key (valid: {', '.join(sorted(self.fields))})")
        out = {}
        for key, spec in self.fields.items():
            if key in value:
                out[key] = spec.check(value[key], sub(where, key))
            elif key not in self.defaults:
                required = ", ".join(k for k in self.fields if k not in self.defaults)
                raise SchemaError(f"{sub(where, key)}: missing (required keys: {required})")
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
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return of(hint)
    raise TypeError(f"no spec for {hint!r}: give one in Annotated metadata")  # a bug, not bad input
