"""Isolation in play: plugin code that fails never ends in a traceback, and never loses a run.

Every call into a plugin during play (a behaviour and the action it chose, an effect, an event
hook, an action hook, a system, a ruleset, the FOV, a generator, the pathfinder) goes through
:meth:`Isolation.call`, which knows which plugin owns it (a tileset, drawn by the window, has its
own one-line path: :mod:`engine.frontend.tiles`):

- A plugin **nobody chose** (a monster's behaviour, an item's effect, an event hook) that raises
  (``SystemExit`` included) is reported in one line naming the plugin and the hook, and switched off
  for the rest of the run: its behaviours leave their monsters waiting, its effects do nothing, its
  hooks and systems are no longer called. Play goes on.
- A **chosen** plugin (the preset's, its ruleset's, the FOV's, a generator's, a ``--plugin``
  choice) cannot be done without: :class:`PluginFailure` stops the game with one line saying what
  to do, and the run stays at its last save point (nothing half-played is saved).

A ``KeyboardInterrupt`` is the player's only when a Ctrl-C really arrived: :func:`watch_interrupts`
makes a SIGINT raise :class:`PlayerInterrupt`, which passes through (:func:`players`); one a plugin
raises itself is its failure like any other, so a plugin cannot end the session by raising it.
Messages are read with :func:`one_line`, which never raises (a plugin's ``__str__`` may).

Every switched-off failure is also kept in :attr:`Isolation.failures` (in the order they
happened), so what needs to know (the test kit, which fails a test on it) reads it there rather
than from the stderr line.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.errors import show_traceback


class PlayerInterrupt(KeyboardInterrupt):
    """The player's Ctrl-C: raised by the SIGINT handler of :func:`watch_interrupts`, never by a plugin."""


_sigints = [0]  # SIGINTs this process has had: a PlayerInterrupt without one is a plugin's forgery


def interrupt(error: PlayerInterrupt | None = None) -> None:
    """Raise the player's Ctrl-C (or ``error``, a stop signal as one: ``sim``'s SIGTERM): for a
    signal handler only, since it counts a signal as arrived."""
    _sigints[0] += 1
    raise error if error is not None else PlayerInterrupt()


def _interrupted(_number: int, _frame: object) -> None:
    interrupt()


def watch_interrupts() -> None:
    """From now on a real Ctrl-C raises :class:`PlayerInterrupt` (as Python's own handler raises
    KeyboardInterrupt), so that it can be told from a plugin's. Only in the main thread, and only
    over Python's default handler (a handler someone else set is kept)."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
        signal.signal(signal.SIGINT, _interrupted)


def players(error: BaseException) -> bool:
    """Whether ``error`` is the player's Ctrl-C (or what a plugin raised while handling it): it ends
    the session. A ``KeyboardInterrupt`` a plugin raised on its own is not."""
    if not _sigints[0]:
        return False  # no Ctrl-C has arrived: whatever was raised, a plugin raised it
    seen: set[int] = set()
    here: BaseException | None = error
    while here is not None and id(here) not in seen:
        if isinstance(here, PlayerInterrupt):
            return True
        seen.add(id(here))
        here = here.__context__
    return False


def one_line(error: BaseException, most: int = 200) -> str:
    """``error``'s message on one line, at most ``most`` characters (its type's name when it has
    none). Never raises: a plugin's exception may have a ``__str__`` that raises or returns no text."""
    try:
        text = str(error)
    except BaseException as e:  # noqa: BLE001 - a plugin's __str__, whatever it raises
        if players(e):
            raise
        text = f"(its message cannot be shown: its __str__ raised {type(e).__name__})"
    # on one line, and no control character reaches the terminal (a message's ESC [31m colours it)
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in " ".join(text.split()))
    if len(text) > most:  # cut between words, and said to be cut
        text = text[:most - 3].rsplit(" ", 1)[0] + "..."
    return text or type(error).__name__


def safe_repr(value: Any, most: int = 80) -> str:
    """``repr(value)``, at most ``most`` characters; never raises (a plugin's ``__repr__`` may)."""
    try:
        text = repr(value)
    except BaseException as e:  # noqa: BLE001 - a plugin's __repr__, whatever it raises
        if players(e):
            raise
        return f"a {type(value).__name__} (its repr raised {type(e).__name__})"
    return text if len(text) <= most else text[:most] + "..."


def described(error: BaseException, most: int = 200) -> str:
    """``"ValueError: its message"``, or the type alone when there is no message (:func:`one_line`)."""
    kind, reason = type(error).__name__, one_line(error, most)
    return kind if reason == kind else f"{kind}: {reason}"


class PluginFailure(Exception):
    """A chosen plugin failed during play; ``str()`` is the one line to show."""

    def __init__(self, plugin: str, where: str, error: BaseException) -> None:
        self.plugin, self.where, self.error = plugin, where, error
        reason = described(error, 200)
        # what to do, plainly; not "remove it": a run saved with a plugin does not resume without it
        super().__init__(f"plugin {plugin!r} failed in {where} ({reason}); the game "
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
        return f"plugin {self.plugin!r} failed in {self.where} ({described(self.error, 160)})"


class Isolation:
    """Which plugins are chosen, which are switched off (and why: :attr:`failures`), and the
    guarded call."""

    def __init__(self, chosen: set[str], log: Callable[[str], None] | None = None) -> None:
        self.chosen = set(chosen)
        self.off: set[str] = set()
        self.failures: list[Failure] = []  # at most one per plugin: one switched off is not called again
        self.log = log  # also tell the player in the game's own log (the window shows it)
        watch_interrupts()  # a Ctrl-C from now on is told from a plugin's KeyboardInterrupt

    def call(self, plugin: str | None, where: str, fn: Callable[..., Any], *args: Any, fallback: Any = None,
             **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` on behalf of ``plugin`` (None: the engine's own code, unguarded)."""
        if plugin is None:
            return fn(*args, **kwargs)
        if plugin in self.off:
            return fallback
        try:
            return fn(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001 - a plugin's bug, SystemExit and KeyboardInterrupt included
            if isinstance(e, PluginFailure) or players(e):
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
