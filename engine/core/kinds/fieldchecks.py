"""The checks the kinds a plugin builds in Python share (statuses, terrain, verbs): a name, a
colour, hooks. Each says what is wrong in a few words, or nothing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def is_rgb(value: Any) -> bool:
    """``(r, g, b)`` (a tuple or list) with each an int 0..255."""
    return (isinstance(value, tuple | list) and len(value) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value))


def name_problems(name: Any) -> list[str]:
    """A kind's name must be a non-empty string."""
    return [] if isinstance(name, str) and name.strip() else [f"name must be a non-empty string, got {name!r}"]


def hook_problems(kind: Any, hooks: Iterable[str]) -> list[str]:
    """Each of ``hooks`` (attribute names of ``kind``) must be callable or None."""
    return [f"{hook} must be callable or None, got {fn!r}"
            for hook in hooks if (fn := getattr(kind, hook)) is not None and not callable(fn)]
