"""For tests that pin what the built-in plugins do (golden files, Jice's FOV figures): they do not
apply to a third-party plugin chosen with ``pytest --plugin``, and say so when they skip it."""

from __future__ import annotations

import pytest

from engine.core.registry import SINGULAR


def builtin_only(registry, table: str, name: str, why: str) -> None:
    """Skip, saying ``why``, unless ``name`` in ``table`` ("fov", "generators", ...) is a built-in's."""
    owner = registry.owner(table, name)
    if owner is not None and not owner.builtin:
        pytest.skip(f"{SINGULAR[table]} {name!r} comes from plugin {owner.name!r}, not a built-in: {why}")
