"""One plugin's registrations while it loads: what it offered, what was refused and why, and the
deprecations it was told about. The loader (:mod:`engine.core.loading.loader`) fills one :class:`Intake`
per plugin and merges what was kept into the registry.

The unit of failure is the registration (pytest and pluggy keep old plugins working the same way):

* a ``register(...)`` call that is refused (a bad kind, a preset that fails its checks, a name
  already taken) skips that one thing, with one line naming it and why;
* a register hook that raises loses what that hook registered (it did not finish: what it
  registered may lean on what it never reached), and the plugin's other hooks keep theirs;
* a plugin that fails to import, or is left with nothing registered, is broken as a whole.

While a plugin registers, ``load_rules`` and ``load_kinds`` do not raise on a bad file or row:
they hand back a :class:`engine.core.kinds.content.Refused` in its place, which ``register`` records as
skipped, so ``for path in ...: register(load_rules(path))`` loses only the bad file.
"""

from __future__ import annotations

import functools
import importlib
import os
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pluggy

from engine.core.errors import show_traceback
from engine.core.kinds.content import ContentError, Refused
from engine.core.loading.legacy import legacy_ruleset
from engine.core.loading.registrars import LoadProblem, make_registrar
from engine.core.plugin import checks as pluginchecks
from engine.core.plugin.isolation import one_line, players
from engine.core.plugin.registry import Skipped


@dataclass
class Intake:
    """What one plugin registers, table by table, before the loader merges it. ``strict`` (a
    built-in plugin) makes every refusal raise: the game cannot be trusted without its built-ins."""

    plugin: str
    strict: bool = False
    buffers: dict[str, dict[str, Any]] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # deprecations, one line each
    unread: list[Refused] = field(default_factory=list)  # bad files and rows not yet given to register()
    # the params a behaviour or an effect declares (register(name, fn, params=...)), by table and name
    declared: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def refuse(self, kind: str, name: str, error: BaseException) -> None:
        """Record ``name`` of ``kind`` as skipped for ``error`` (in a strict intake, raise it)."""
        if self.strict:
            raise error
        self.skipped.append(Skipped(kind, name, reason(error)))

    def registrar(self, kind: str) -> Callable[..., None]:
        """The ``register`` callback of ``kind``'s hook (:func:`make_registrar`'s, with its
        signature): a refused call is recorded as skipped, and the plugin's code goes on."""
        buffer = self.buffers.setdefault(kind, {})
        checked = make_registrar(kind, buffer, self.plugin, self.declared.setdefault(kind, {}))

        @functools.wraps(checked)
        def register(*args: Any, **kwargs: Any) -> None:
            first = args[0] if args else kwargs.get("name", kwargs.get("obj"))
            if kind == "loot_rows":  # a row is named by its preset, table and item: game/table/item
                first = "/".join(str(getattr(a, "item", a))[:40] for a in (*args, *kwargs.values()))
            if isinstance(first, Refused):  # a file or row load_rules or load_kinds could not read
                self.unread[:] = [r for r in self.unread if r is not first]
                self.refuse(kind, first.name, ContentError(first.reason))
                return
            try:
                checked(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - a refused registration skips that one thing
                self.refuse(kind, _name_of(first), e)
                return
            ruleset = legacy_ruleset(getattr(first, "ruleset", None)) if kind == "games" else None
            if ruleset is not None:  # an old preset's moved keys: the ruleset that plays them comes with it
                self.buffers.setdefault("rulesets", {}).setdefault(ruleset.name, ruleset)
        return register

    def said_unread(self, kind: str) -> None:
        """Record each bad file or row the hook of ``kind`` was handed and never registered (it
        filtered it out, or raised first) as skipped: no bad file goes unsaid."""
        for refused in self.unread:
            self.refuse(kind, refused.name, ContentError(refused.reason))
        self.unread.clear()

    def snapshot(self) -> dict[str, dict[str, Any]]:
        return {kind: dict(buffer) for kind, buffer in self.buffers.items()}

    def drop_since(self, before: dict[str, dict[str, Any]]) -> tuple[tuple[str, str], ...]:
        """Undo what was registered since ``before`` (a hook that raised); the (table, name) pairs
        it dropped."""
        lost = tuple((kind, name) for kind, buffer in self.buffers.items()
                     for name in buffer if name not in before.get(kind, {}))
        self.buffers = before
        return lost


def _name_of(first: Any) -> str:
    """What a refused registration is called in its line: its name, else its class's or its repr."""
    if isinstance(first, str) and first:
        return first
    name = getattr(first, "name", None) if not isinstance(first, type) else first.__name__
    return name if isinstance(name, str) and name else repr(first)[:60]


def reason(e: BaseException) -> str:
    """The one line saying why a plugin (or one of its registrations) failed (with
    ``UNDERCROFT_DEBUG=1``, the traceback is printed first). The player's Ctrl-C is re-raised:
    it stops the start, as it always did."""
    if players(e):
        raise e
    if not isinstance(e, LoadProblem):  # a problem we found has no traceback worth showing
        show_traceback(e)
    if isinstance(e, ContentError | LoadProblem):
        return str(e)
    if isinstance(e, pluggy.PluginValidationError):
        return pluginchecks.validation_reason(e)
    if isinstance(e, SystemExit):  # no message of its own: where it was raised is what helps
        return f"raised SystemExit({e.code!r}) while loading" + _at(e)
    if isinstance(e, KeyboardInterrupt):  # its own, not a Ctrl-C (see above)
        return "raised KeyboardInterrupt while loading" + _at(e)
    return f"{type(e).__name__}: {one_line(e, 10_000)}"  # one line, whatever the message (a __str__ that raises too)


# Frames that are the loading machinery, never the plugin's line: importlib's, pluggy's, ours.
_MACHINERY = tuple(os.path.join(os.path.dirname(path), "") for path in
                   (importlib.__file__, pluggy.__file__, os.path.dirname(os.path.abspath(__file__))))


def _at(e: BaseException) -> str:
    """``" at FILE:LINE"``: the innermost frame of ``e``'s traceback outside the loading machinery
    (the plugin's own line), or "" when there is none."""
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if not f.filename.startswith("<frozen") and not f.filename.startswith(_MACHINERY)]
    return f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
