"""The window's controls: keys to tokens for the game, and the keys that are the window's own.

A key becomes a token and goes to ``game.press``; the window decides no rule. What is the
window's: help (the preset's ``help`` command), zoom (ctrl + / ctrl -), fullscreen (F11), the
tileset (F2), mute (``m``, when the preset gives ``m`` no meaning), stopping a held key when a
monster comes into view, and walking a travel (``o``, ``>``, a click) one drawn step at a time:
any key or click stops it first (the game records where), and is then handled as usual.
:class:`Controls` is an object the window owns and hands its input events to; it keeps the
input's own state (the key reader, help open, a held key stopped, the :class:`Pointer`).

While the game asks something (``session.prompt``), every key is the prompt's: ``m`` and ``?`` are
menu letters or nothing, not mute and help. The mouse: moving it points (the window describes the
cell, highlights a monster whose sidebar row it is on, draws a cursor prompt's cursor there), which
is never a key; a click on a menu's line presses its letter, a click on the map is the
``travel:X,Y`` token (a travel, or a cursor prompt's choice), and Enter while pointing in a
targeting prompt is that click, so the replay aims where the player saw the cursor.
"""

from __future__ import annotations

from dataclasses import dataclass

import arcade
import pyglet

from engine.core.play.prompts import CHOOSE
from engine.core.plugin.isolation import PluginFailure
from engine.frontend.input import KeyReader, Token, WindowKey, Zoom

CURSORS = ("target", "look")  # the prompts whose cursor a click on the map moves


@dataclass
class Pointer:
    """What the mouse points at: ``hover`` the map cell, ``entity`` the monster of the sidebar
    row it is on; both count only while ``pointing`` (from the mouse's last move until the next key)."""

    hover: tuple[int, int] | None = None
    entity: int | None = None
    pointing: bool = False


class Controls:
    """Key and mouse handling for ``window`` (the :class:`~engine.frontend.window.GameWindow`,
    which owns this object): the tokens go to the window's session, the window's own keys to the
    window (zoom, fullscreen, tileset), each change asks it for a frame."""

    TRAVEL_STEP_SECONDS = 0.04  # a travel's pace: about 25 steps a second
    REST_TURNS_PER_STEP = 10  # a rest (Z) plays this many turns a drawn step: 250 a second, nothing moves

    def __init__(self, window: arcade.Window) -> None:
        self.window = window
        self.reader = KeyReader()
        self.pointer = Pointer()
        self.help_open = False
        self.repeat_blocked = False  # a held key stopped because a monster came into view

    # -- travel, one drawn step at a time ------------------------------------------------------
    def travel_tick(self, _dt: float) -> None:
        window = self.window
        if window.closed or window.session.travel is None:
            pyglet.clock.unschedule(self.travel_tick)
            return
        try:
            outcome = window.session.step(self.REST_TURNS_PER_STEP if window.session.travel.kind == "rest" else 1)
        except PluginFailure as e:
            pyglet.clock.unschedule(self.travel_tick)
            self._fail(e)
            return
        window.heard_outcome(outcome)
        window.frames.request()
        if not outcome.walking:
            pyglet.clock.unschedule(self.travel_tick)
        if outcome.quit:
            self._quit()

    def interrupt_travel(self) -> None:
        """A key or a click during a travel: it stops where it is (and the game records where)."""
        if self.window.session.travel is not None:
            pyglet.clock.unschedule(self.travel_tick)
            self.window.session.interrupt()
            self.window.frames.request()

    # -- the mouse ------------------------------------------------------------------------------
    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click: a title or menu line presses its key; on a map cell, the ``travel:X,Y`` token
        (a travel where the preset's keymap has ``click``, or a cursor prompt's choice)."""
        window = self.window
        if self.help_open:
            return
        window.animations.skip()  # any click skips what is playing
        px, py = x * window.ratio, y * window.ratio
        if window.title_screen is not None:
            key = window.title_screen.key_at(px, py)
            if key is not None and key != "esc":
                self.press("enter" if key == "c" else key)
            return
        prompt = window.session.prompt
        if prompt is not None and prompt.kind not in CURSORS:
            letter = window.prompt_view.option_at(px, py) if window.prompt_view is not None else None
            if letter is not None:
                self.press(letter, animate=True)  # as the key would: the player's own
            return  # a menu is open: the map is not theirs to click
        self.interrupt_travel()
        cell = window.cell_at(x, y)
        if cell is not None:
            self.press(f"travel:{cell[0]},{cell[1]}", animate=True)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Point: a frame only when what the mouse points at changes (cell, sidebar row, menu line)."""
        window = self.window
        if window.title_screen is not None or self.help_open or window.map_view is None:
            return
        px, py = x * window.ratio, y * window.ratio
        if self.point(window.map_view.cell_at(px, py), window.sidebar.entity_at(px, py) if window.sidebar else None,
                      px, py):
            window.frames.request()

    def on_mouse_leave(self, x: int, y: int) -> None:
        if self.window.map_view is not None and self.point(None, None, None, None):
            self.window.frames.request()

    def point(self, cell: tuple[int, int] | None, entity: int | None, px: float | None, py: float | None) -> bool:
        """The mouse points at map ``cell`` / the sidebar row of monster ``entity`` (None: not);
        returns whether the picture changes."""
        pointer = self.pointer
        pointing = cell is not None or entity is not None
        changed = (cell, entity, pointing) != (pointer.hover, pointer.entity, pointer.pointing)
        pointer.hover, pointer.entity, pointer.pointing = cell, entity, pointing
        prompt_view = self.window.prompt_view
        if prompt_view is not None and prompt_view.hover_option(px, py):
            changed = True
        return changed

    def stop_pointing(self) -> bool:
        """A key: the keyboard has the cursor again, until the mouse moves."""
        was = self.pointer.pointing
        self.pointer.pointing = False
        return was

    # -- keys -----------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self.window.animations.skip()  # any key skips what is playing
        self.interrupt_travel()
        self.repeat_blocked = False  # a new press is deliberate: walking may resume
        self.handle(self.reader.key_press(symbol, modifiers))

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.reader.key_release(symbol, modifiers)
        self.repeat_blocked = False

    def on_text(self, text: str) -> None:
        self.handle(self.reader.text(text))

    def on_text_motion(self, motion: int) -> None:
        self.handle(self.reader.text_motion(motion))

    def press_title(self, token: str) -> bool:
        window = self.window
        choice = window.title_screen.choice(token) if window.title_screen else None
        if choice is None:
            return False
        if choice == "quit":
            self._quit()
            return False
        window.title_screen = None
        if window.choose is not None:
            window.set_game(window.choose(choice))
        window.frames.request()
        return True

    def handle(self, event: Token | Zoom | WindowKey | None) -> None:
        """What the key reader made of a key: a zoom step, a window key or a token for the game."""
        window = self.window
        if isinstance(event, Zoom):
            window.set_zoom(window.zoom + event.step)
        elif isinstance(event, WindowKey):
            if event.name == "fullscreen":
                window.toggle_fullscreen()
            elif event.name == "tileset":
                window.next_tileset()
        elif isinstance(event, Token):
            self.press(event.token, repeat=event.repeat, animate=True)

    def press(self, token: str, *, repeat: bool = False, animate: bool = False) -> bool:
        """One key token; returns whether a frame was requested. ``animate``: the player's own key
        or click, whose travel walks one drawn step at a time (``--keys`` and replays play it at
        once, as the game would headless)."""
        window = self.window
        if window.title_screen is not None:
            return self.press_title(token)
        pointed = self.pointer.hover if self.pointer.pointing else None
        redraw = self.stop_pointing()
        session = window.session
        if session.prompt is not None:  # every key is the prompt's
            if token in ("up", "down") and window.prompt_view is not None and \
                    window.prompt_view.scroll(-1 if token == "up" else 1):
                window.frames.request()  # a menu longer than the map scrolls: the window's, not the game's
                return True
            if token in CHOOSE and pointed is not None and session.prompt.kind == "target":
                token = f"travel:{pointed[0]},{pointed[1]}"  # Enter aims where the cursor is drawn
            return self._play(token, None, repeat, animate) or self._redraw(redraw)
        command = session.command(token)  # parsed once: the session's press is given it
        if self.help_open:
            if token == "esc" or (command is not None and command.name == "help"):
                self.help_open = False
                window.frames.request()
                return True
            if token in ("up", "down") and window.help_screen is not None:
                # laid out for the window now: keys played before a frame is drawn (--keys) scroll too
                window.help_screen.update(window.game, window.painter.screen_rect())
                if window.help_screen.scroll(-1 if token == "up" else 1):
                    window.frames.request()  # a help longer than the window scrolls
                    return True
            return False
        if command is not None and command.name == "help":
            self.help_open = True
            if window.help_screen is not None:
                window.help_screen.opened()
            window.frames.request()
            return True
        if token == "m" and command is None:  # the preset gives m no meaning: it mutes
            window.sounds.toggle_mute()
            return self._redraw(redraw)
        return self._play(token, command, repeat, animate) or self._redraw(redraw)

    def _redraw(self, wanted: bool) -> bool:
        if wanted:
            self.window.frames.request()
        return wanted

    def _play(self, token: str, command, repeat: bool, animate: bool) -> bool:
        """The token to the game; a frame when something changed."""
        window = self.window
        if repeat and (self.repeat_blocked or not window.game.rules.key_repeat):
            return False
        try:
            outcome = window.session.press(token, command, step_by_step=animate)
            if outcome.walking:  # walk it one drawn step at a time
                pyglet.clock.schedule_interval(self.travel_tick, self.TRAVEL_STEP_SECONDS)
        except PluginFailure as e:  # a chosen plugin failed: close, and say so in one line when the loop ends
            self._fail(e)
            return False
        if animate:  # the player's own key: its events animated (--keys and replays: none)
            window.heard_outcome(outcome)
        if outcome.noticed:
            self.repeat_blocked = True  # ignore auto-repeats until the key is released
        if outcome.quit:
            self._quit()
            return False
        if outcome.changed:
            window.frames.request()
        return outcome.changed

    def _fail(self, failure: PluginFailure) -> None:
        self.window.failure = failure
        self.window.close()
        pyglet.app.exit()

    def _quit(self) -> None:
        """The run asked to end the session (or the title's quit): the window closes."""
        self.window.close()
        pyglet.app.exit()
