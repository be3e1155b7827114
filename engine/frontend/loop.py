"""On-demand drawing: the event loop sleeps in the operating system until something happens.

Arcade schedules its window's ``_dispatch_frame`` at 60 Hz when the window is made, and pyglet's
``EventLoop.run(interval)`` schedules ``_redraw_windows``; either keeps the CPU awake drawing the
same picture. :class:`OnDemand` unschedules both, and draws one frame (switch_to, on_draw, flip)
when asked: after a key that changed something, a resize, an expose, or an animation's next frame
(:mod:`engine.frontend.animations`). Several requests within
one pass of the loop (a resize is followed by an expose) still make one frame, because the frame
is a one-shot callback at delay 0, consumed when it runs: nothing is scheduled while idle.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable

import pyglet

from engine.core.plugin.isolation import interrupt

# SIGTERM (kill, a logout) and SIGHUP (the terminal closed) end a session as the close button does
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_stop = [False]  # a stop signal has arrived (one process plays one session)
_interrupted = [False]  # it was the player's Ctrl-C


def unschedule_frame_dispatch(window: pyglet.window.Window) -> None:
    """Stop the per-frame callbacks Arcade and pyglet schedule for a window.

    re-check on every Arcade upgrade: uses a private name (arcade 3.3 ``Window._dispatch_frame``,
    scheduled by ``set_update_rate``; pyglet 2.1 ``EventLoop._redraw_windows``, scheduled by
    ``pyglet.app.run(interval)`` when interval is not None).
    """
    dispatch = getattr(window, "_dispatch_frame", None)
    if dispatch is not None:
        pyglet.clock.unschedule(dispatch)
    pyglet.clock.unschedule(pyglet.app.event_loop._redraw_windows)


class OnDemand:
    """Counts and draws the frames of one window, only when asked."""

    def __init__(self, window: pyglet.window.Window) -> None:
        self.window = window
        self.frames = 0
        self.pending = False
        self.after_draw: list[Callable[[], None]] = []  # one-shot: run before the flip (screenshots)
        unschedule_frame_dispatch(window)

    def request(self) -> None:
        """Ask for a frame at the next pass of the event loop (once, however often asked)."""
        if not self.pending:
            self.pending = True
            pyglet.clock.schedule_once(self._scheduled, 0)

    def _scheduled(self, _dt: float) -> None:
        self.pending = False
        self.draw()

    def flush(self) -> bool:
        """Draw a requested frame now instead of at the next pass; returns whether one was drawn."""
        if not self.pending:
            return False
        pyglet.clock.unschedule(self._scheduled)
        self.pending = False
        self.draw()
        return True

    def draw(self) -> None:
        """One frame: switch_to, on_draw, flip."""
        window = self.window
        if getattr(window, "closed", False) or window.context is None:
            return
        window.switch_to()
        window.on_draw()
        hooks, self.after_draw = self.after_draw, []
        for hook in hooks:
            hook()
        window.flip()
        self.frames += 1

    def cancel(self) -> None:
        if self.pending:
            pyglet.clock.unschedule(self._scheduled)
            self.pending = False


def stop_on_signals() -> None:
    """From now on, a stop signal ends the session at the next pass of the event loop: after the
    turn in progress, so the game is saved at a turn boundary as when the window is closed, not
    killed in the middle of a turn or of a write. The player's first Ctrl-C does the same
    (:func:`interrupted`); a second one stops at once. Only the main thread may set signal handlers."""
    if threading.current_thread() is threading.main_thread():
        for number in STOP_SIGNALS:
            signal.signal(number, _on_stop_signal)
        signal.signal(signal.SIGINT, _on_interrupt)


def _on_interrupt(number: int, frame: object) -> None:
    if _interrupted[0]:
        interrupt()  # asked already, and still going: the player means now
    _interrupted[0] = True
    _on_stop_signal(number, frame)


def interrupted() -> bool:
    """The player stopped the session with Ctrl-C (its exit status is 130)."""
    return _interrupted[0]


def _on_stop_signal(_number: int, _frame: object) -> None:
    # runs in the main thread between two bytecodes, maybe mid-turn: only ask, and wake the loop,
    # which may be asleep in the OS. Before the window is made pyglet.app must not be imported
    # here: its first import picks the window platform (EGL or X), which Arcade's import sets up
    _stop[0] = True
    if "pyglet.app" in sys.modules:
        pyglet.clock.schedule_once(_exit, 0)
        pyglet.app.platform_event_loop.notify()


def stop_requested() -> bool:
    """A stop signal has arrived: play no more keys, run no loop."""
    return _stop[0]


def run(seconds: float | None = None) -> None:
    """Run pyglet's event loop with no frame interval, until exit (or ``seconds``, one-shot, or a
    stop signal once :func:`stop_on_signals` has been called)."""
    if _stop[0]:
        return
    if seconds is not None:
        pyglet.clock.schedule_once(_exit, max(0.0, seconds))
    try:
        pyglet.app.run(None)
    finally:
        pyglet.clock.unschedule(_exit)


def _exit(_dt: float) -> None:
    pyglet.app.exit()
