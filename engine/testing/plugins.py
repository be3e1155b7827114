"""Loading a plugin for its tests, and the checks that hold for a whole plugin."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from engine.core.loading.loader import load_registry
from engine.core.plugin.registry import Registry
from engine.testing.errors import ContractError, fail


@contextmanager
def _only_entry_points(names: str) -> Iterator[None]:
    before = os.environ.get("UNDERCROFT_LOAD_PLUGINS")
    os.environ["UNDERCROFT_LOAD_PLUGINS"] = names
    try:
        yield
    finally:
        if before is None:
            del os.environ["UNDERCROFT_LOAD_PLUGINS"]
        else:
            os.environ["UNDERCROFT_LOAD_PLUGINS"] = before


def load_plugin(*plugins: object, entry_point: str | None = None) -> Registry:
    """A registry of the built-in plugins and these plugin objects (modules, usually), and no other
    installed plugin; or, with ``entry_point``, the built-ins and the installed entry point of that
    name (how the game itself will find it). Broken plugins are in ``registry.broken``, as in play."""
    if entry_point is not None:
        with _only_entry_points(entry_point):
            return load_registry(plugins=plugins)
    return load_registry(entry_points=False, plugins=plugins)


def check_plugin(registry: Registry, name: str) -> None:
    """Plugin ``name`` loaded whole, not even partly broken (so every hook it implements is an
    Undercroft hook with the hook's arguments, none of its registrations was refused, none of its
    names is taken, every kind names a registered behaviour or effect), registered something, uses
    nothing deprecated, and no warning of the registry names it (a glyph shared with another
    kind, ...)."""
    info = registry.plugin(name)
    if info is None:
        loaded = ", ".join(p.name for p in registry.plugins if not p.builtin) or "none but the built-ins"
        raise ContractError(f"plugin {name!r}: is loaded (loaded: {loaded})")
    if info.error:
        raise fail(f"plugin {name!r}", f"loads without error: {info.error}")
    if info.skipped:
        raise fail(f"plugin {name!r}", f"loads whole: {info.skipped[0].line}")
    deprecated = [w for w in registry.warnings if w.startswith(f"plugin {name!r}: ")]
    if deprecated:
        raise fail(f"plugin {name!r}", f"uses nothing deprecated: {deprecated[0]}")
    if not info.registered and not any(h.startswith("on_") for h in info.hooks):
        raise fail(f"plugin {name!r}", "registers something or implements an event hook")
    mine = [w for w in registry.warnings if f"(plugin {name})" in w]
    if mine:
        raise fail(f"plugin {name!r}", f"loads without warnings: {mine[0]}")
