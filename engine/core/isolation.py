"""Isolation in play: plugin code that fails never ends in a traceback, and never loses a run.

Every call into a plugin during play (a behaviour, an effect, an event hook, an action hook, a
system, a ruleset, the FOV, a generator) goes through :meth:`Isolation.call`, which knows which
plugin owns it:

- A plugin **nobody chose** (a monster's behaviour, an item's effect, an event hook) that raises
  (``SystemExit`` included) is reported in one line naming the plugin and the hook, and switched off
  for the rest of the run: its behaviours leave their monsters waiting, its effects do nothing, its
  hooks and systems are no longer called. Play goes on.
- A **chosen** plugin (the preset's, its ruleset's, the FOV's, a generator's, a ``--plugin``
  choice) cannot be done without: :class:`PluginFailure` stops the game with one line saying what
  to do, and the run stays at its last save point (nothing half-played is saved).

``KeyboardInterrupt`` is the player's, not a plugin's: it passes through.

Every switched-off failure is also kept in :attr:`Isolation.failures` (in the order they
happened), so what needs to know (the test kit, which fails a test on it) reads it there rather
than from the stderr line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.errors import show_traceback


class PluginFailure(Exception):
    """A chosen plugin failed during play; ``str()`` is the one line to show."""

    def __init__(self, plugin: str, where: str, error: BaseException) -> None:
        self.plugin, self.where, self.error = plugin, where, error
        reason = " ".join(str(error).split())[:200] or type(error).__name__
        # what to do, plainly: a removed plugin does not let the run resume (its save needs it)
        # what to do, plainly; not "remove it": a run saved with a plugin does not resume without it
        super().__init__(f"plugin {plugin!r} failed in {where} ({type(error).__name__}: {reason}); the game "
                         f"stopped. Fix or update plugin {plugin!r} and play again: the run resumes from its last "
                         "save point (if it reached one); or start a new run without it (--new, with another "
                         "--game or --plugin)")


@dataclass(frozen=True)
class Failure:
    """A plugin nobody chose that failed and was switched off: its name, where it failed (``"hook
    on_turn_end"``, ``"behaviour 'lurch'"``...) and the exception."""

    plugin: str
    where: str
    error: BaseException

    def __str__(self) -> str:
        reason = " ".join(str(self.error).split())[:160] or type(self.error).__name__
        return f"plugin {self.plugin!r} failed in {self.where} ({type(self.error).__name__}: {reason})"


class Isolation:
    """Which plugins are chosen, which are switched off (and why: :attr:`failures`), and the
    guarded call."""

    def __init__(self, chosen: set[str], log: Callable[[str], None] | None = None) -> None:
        self.chosen = set(chosen)
        self.off: set[str] = set()
        self.failures: list[Failure] = []  # at most one per plugin: one switched off is not called again
        self.log = log  # also tell the player in the game's own log (the window shows it)

    def call(self, plugin: str | None, where: str, fn: Callable[..., Any], *args: Any, fallback: Any = None,
             **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` on behalf of ``plugin`` (None: the engine's own code, unguarded)."""
        if plugin is None:
            return fn(*args, **kwargs)
        if plugin in self.off:
            return fallback
        try:
            return fn(*args, **kwargs)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - a plugin's bug, SystemExit included, is reported
            if isinstance(e, PluginFailure):
                raise
            self.fail(plugin, where, e)
            return fallback

    def fail(self, plugin: str, where: str, error: BaseException) -> None:
        """A plugin's failure: fatal for a chosen one, else it is switched off (said once)."""
        if plugin in self.chosen:
            raise PluginFailure(plugin, where, error) from error
        self.off.add(plugin)
        failure = Failure(plugin, where, error)
        self.failures.append(failure)
        show_traceback(error)  # UNDERCROFT_DEBUG=1: the traceback too
        print(f"undercroft: {failure}; it is switched off for the rest of the run", file=sys.stderr)
        if self.log is not None:
            self.log(f"The plugin {plugin} failed and is switched off.")

    def check(self, plugin: str | None, where: str, ok: bool, problem: str) -> bool:
        """Judge a plugin's answer: a bad one counts as the plugin's failure. Returns ``ok``."""
        if not ok and plugin is not None:
            self.fail(plugin, where, TypeError(problem))
        return ok


class GuardedRuleset:
    """A preset's ruleset whose every method runs under isolation (the ruleset is chosen: its
    failure stops the game in one line)."""

    def __init__(self, ruleset: Any, isolation: Isolation, plugin: str | None) -> None:
        self._ruleset, self._isolation, self._plugin = ruleset, isolation, plugin
        self.name, self.view_phase = ruleset.name, ruleset.view_phase

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._ruleset, name)
        if not callable(method):
            return method

        def guarded(*args: Any, **kwargs: Any) -> Any:
            return self._isolation.call(self._plugin, f"ruleset {self.name!r} {name}", method, *args, **kwargs)

        return guarded
