"""The window's controls: keys to tokens for the game, and the keys that are the window's own.

A key becomes a token and goes to ``game.press``; the window decides no rule. What is the
window's: help (the preset's ``help`` command), zoom (ctrl + / ctrl -), fullscreen (F11), the
tileset (F2), mute (``m``, when the preset gives ``m`` no meaning), stopping a held key when a
monster comes into view, and walking a travel (``o``, ``>``, a click) one drawn step at a time:
any key or click stops it first (the game records where), and is then handled as usual.
:class:`Controls` is mixed into :class:`engine.frontend.window.GameWindow`.

While the game asks something (``session.prompt``), every key is the prompt's: ``m`` and ``?`` are
menu letters or nothing, not mute and help. The mouse: moving it points (the window describes the
cell, highlights a monster whose sidebar row it is on, draws a cursor prompt's cursor there), which
is never a key; a click on a menu's line presses its letter, a click on the map is the
``travel:X,Y`` token (a travel, or a cursor prompt's choice), and Enter while pointing in a
targeting prompt is that click, so the replay aims where the player saw the cursor.
"""

from __future__ import annotations

import pyglet

from engine.core.play.prompts import CHOOSE
from engine.core.plugin.isolation import PluginFailure
from engine.frontend.input import Token, WindowKey, Zoom
from engine.frontend.settings import MAX_ZOOM
from engine.frontend.tiles import Textures
from engine.kit.tiles import TilesetError
from engine.persist.datadir import warn_once

CURSORS = ("target", "look")  # the prompts whose cursor a click on the map moves


class Controls:
    """Key handling and window toggles; expects the GameWindow's parts (game, frames, settings...)."""

    def set_zoom(self, zoom: int) -> None:
        zoom = max(1, min(MAX_ZOOM, zoom))
        if zoom != self.zoom:
            self.zoom = zoom
            self.settings["zoom"] = zoom
            self.layout()
            self.frames.request()

    def toggle_fullscreen(self, remember: bool = True) -> None:
        try:
            self.set_fullscreen(not self.fullscreen)
        except Exception:  # headless, or a system that refuses: stay windowed
            return
        if remember:
            self.settings["fullscreen"] = bool(self.fullscreen)
        self.layout()
        self.frames.request()

    def next_tileset(self) -> str:
        """F2: the next registered set (the file set only when a file was given)."""
        usable = [n for n, info in sorted(self.tilesets.items()) if not info.needs_file or self.tileset_file]
        start = usable.index(self.tileset) if self.tileset in usable else -1
        for step in range(1, len(usable) + 1):
            name = usable[(start + step) % len(usable)]
            try:
                self.use_tileset(name)
                return name
            except TilesetError as e:
                warn_once(f"{e}; F2 skips it", key=f"tileset:{name}")
                continue  # a set that cannot be built now is skipped, said once
        return self.tileset

    def use_tileset(self, name: str) -> None:
        textures = Textures(self.tilesets[name], cell=cell_size(self.game), file=self._file_for(name), names=self.names)
        self.tileset, self.textures = name, textures
        if not self.tilesets[name].needs_file:
            self.settings["tileset"] = name
        self.grid.set_textures(textures)
        self.layout()
        self.frames.request()

    # -- travel, one drawn step at a time ------------------------------------------------------
    TRAVEL_STEP_SECONDS = 0.04  # a travel's pace: about 25 steps a second

    def _travel_tick(self, _dt: float) -> None:
        if self.closed or self.session.travel is None:
            pyglet.clock.unschedule(self._travel_tick)
            return
        try:
            outcome = self.session.step()
        except PluginFailure as e:
            pyglet.clock.unschedule(self._travel_tick)
            self.failure = e
            self.close()
            pyglet.app.exit()
            return
        self.frames.request()
        if not outcome.walking:
            pyglet.clock.unschedule(self._travel_tick)
        if outcome.quit:
            self._quit()

    def interrupt_travel(self) -> None:
        """A key or a click during a travel: it stops where it is (and the game records where)."""
        if self.session.travel is not None:
            pyglet.clock.unschedule(self._travel_tick)
            self.session.interrupt()
            self.frames.request()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click: a title or menu line presses its key; on a map cell, the ``travel:X,Y`` token
        (a travel where the preset's keymap has ``click``, or a cursor prompt's choice)."""
        if self.help_open:
            return
        px, py = x * self.ratio, y * self.ratio
        if self.title_screen is not None:
            key = self.title_screen.key_at(px, py)
            if key is not None and key != "esc":
                self.press("enter" if key == "c" else key)
            return
        prompt = self.session.prompt
        if prompt is not None and prompt.kind not in CURSORS:
            letter = self.prompt_view.option_at(px, py) if self.prompt_view is not None else None
            if letter is not None:
                self.press(letter)
            return  # a menu, a question, the history: the map is not theirs to click
        self.interrupt_travel()
        cell = self.cell_at(x, y)
        if cell is not None:
            self.press(f"travel:{cell[0]},{cell[1]}", animate=True)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Point: a frame only when what the mouse points at changes (cell, sidebar row, menu line)."""
        if self.title_screen is not None or self.help_open or self.map_view is None:
            return
        px, py = x * self.ratio, y * self.ratio
        if self.point(self.map_view.cell_at(px, py), self.sidebar.entity_at(px, py) if self.sidebar else None,
                      px, py):
            self.frames.request()

    def on_mouse_leave(self, x: int, y: int) -> None:
        if self.map_view is not None and self.point(None, None, None, None):
            self.frames.request()

    def point(self, cell: tuple[int, int] | None, entity: int | None, px: float | None, py: float | None) -> bool:
        """The mouse points at map ``cell`` / the sidebar row of monster ``entity`` (None: not);
        returns whether the picture changes."""
        pointing = cell is not None or entity is not None
        changed = (cell, entity, pointing) != (self.hover, self.hover_entity, self.pointing)
        self.hover, self.hover_entity, self.pointing = cell, entity, pointing
        if self.prompt_view is not None and self.prompt_view.hover_option(px, py):
            changed = True
        return changed

    def stop_pointing(self) -> bool:
        """A key: the keyboard has the cursor again, until the mouse moves."""
        was = self.pointing
        self.pointing = False
        return was

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self.interrupt_travel()
        self.repeat_blocked = False  # a new press is deliberate: walking may resume
        self._handle(self.reader.key_press(symbol, modifiers))

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.reader.key_release(symbol, modifiers)
        self.repeat_blocked = False

    def on_text(self, text: str) -> None:
        self._handle(self.reader.text(text))

    def on_text_motion(self, motion: int) -> None:
        self._handle(self.reader.text_motion(motion))

    def press_title(self, token: str) -> bool:
        choice = self.title_screen.choice(token) if self.title_screen else None
        if choice is None:
            return False
        if choice == "quit":
            self._quit()
            return False
        self.title_screen = None
        if self.choose is not None:
            self.set_game(self.choose(choice))
        self.frames.request()
        return True

    def _handle(self, event: Token | Zoom | WindowKey | None) -> None:
        if isinstance(event, Zoom):
            self.set_zoom(self.zoom + event.step)
        elif isinstance(event, WindowKey):
            if event.name == "fullscreen":
                self.toggle_fullscreen()
            elif event.name == "tileset":
                self.next_tileset()
        elif isinstance(event, Token):
            self.press(event.token, repeat=event.repeat, animate=True)

    def press(self, token: str, *, repeat: bool = False, animate: bool = False) -> bool:
        """One key token; returns whether a frame was requested. ``animate``: the player's own key
        or click, whose travel walks one drawn step at a time (``--keys`` and replays play it at
        once, as the game would headless)."""
        if self.title_screen is not None:
            return self.press_title(token)
        pointed = self.hover if self.pointing else None
        redraw = self.stop_pointing()
        if self.session.prompt is not None:  # every key is the prompt's
            if token in CHOOSE and pointed is not None and self.session.prompt.kind == "target":
                token = f"travel:{pointed[0]},{pointed[1]}"  # Enter aims where the cursor is drawn
            return self._play(token, None, repeat, animate) or self._redraw(redraw)
        command = self.session.command(token)  # parsed once: the session's press is given it
        if self.help_open:
            if token == "esc" or (command is not None and command.name == "help"):
                self.help_open = False
                self.frames.request()
                return True
            return False
        if command is not None and command.name == "help":
            self.help_open = True
            self.frames.request()
            return True
        if token == "m" and command is None:  # the preset gives m no meaning: it mutes
            self.sounds.toggle_mute()
            return self._redraw(redraw)
        return self._play(token, command, repeat, animate) or self._redraw(redraw)

    def _redraw(self, wanted: bool) -> bool:
        if wanted:
            self.frames.request()
        return wanted

    def _play(self, token: str, command, repeat: bool, animate: bool) -> bool:
        """The token to the game; a frame when something changed."""
        if repeat and (self.repeat_blocked or not self.game.rules.key_repeat):
            return False
        try:
            outcome = self.session.press(token, command, step_by_step=animate)
            if outcome.walking:  # walk it one drawn step at a time
                pyglet.clock.schedule_interval(self._travel_tick, self.TRAVEL_STEP_SECONDS)
        except PluginFailure as e:  # a chosen plugin failed: close, and say so in one line when the loop ends
            self.failure = e
            self.close()
            pyglet.app.exit()
            return False
        if outcome.noticed:
            self.repeat_blocked = True  # ignore auto-repeats until the key is released
        if outcome.quit:
            self._quit()
            return False
        if outcome.changed:
            self.frames.request()
        return outcome.changed

    def _quit(self) -> None:
        """The run asked to end the session (or the title's quit): the window closes."""
        self.close()
        pyglet.app.exit()


def cell_size(game) -> int:
    """The preset's cell size in pixels (at least 4)."""
    return max(4, int(game.rules.cell))
