"""The message log below the map (the sidebar look): the last messages, repeats folded ("x3").

Each line is coloured by the kind of event it says (damage taken, dealt, a kill, a level-up, an
item, a warning: :data:`engine.frontend.palette.MESSAGE_COLOURS`); the lines said since the last
key press are bright, older ones dimmer. A message wider than the map wraps onto the rows above it
(never into the sidebar). The keys line of the preset (its ``keys`` / ``keys_dead`` template) is
the log's last row, dim, as the HUD's was, cut to the width.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
import pyglet

from engine.core.kinds.saying import Message, kind_of
from engine.core.play import status as words
from engine.frontend.atlas import FONT_NAME
from engine.frontend.palette import message_colour
from engine.frontend.panel import char_px, clip, set_text, wrap

if TYPE_CHECKING:
    from engine.core.turn.game import Game

KEYS_COLOR = (140, 150, 170, 255)
KEYS_DEAD = (235, 60, 50, 255)
_UNSEEN = object()  # no frame has shown the log yet


def folded(messages: list[str]) -> list[tuple[str, int]]:
    """Consecutive repeats of a message as one: (the message, how many times)."""
    out: list[tuple[str, int]] = []
    for message in messages:
        if out and out[-1][0] == message:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((message, 1))
    return out


def fold(messages: list[str]) -> list[str]:
    """Consecutive repeats of a message become one line with a count: "You hit the rat. x3" (a
    :class:`~engine.core.kinds.saying.Message` of the same kind)."""
    return [m if n == 1 else Message(f"{m} x{n}", kind_of(m)) for m, n in folded(messages)]


class Log:
    """``rows`` text rows of ``row_px`` pixels: messages above, the keys line last."""

    def __init__(self, rows: int, row_px: int, font_size: float) -> None:
        self.rows = max(2, rows)
        self.row_px = row_px
        self.batch = pyglet.graphics.Batch()
        self.texts = [arcade.Text("", 0, 0, (235, 235, 235, 255), font_size, font_name=FONT_NAME, batch=self.batch)
                      for _ in range(self.rows)]
        self.messages = self.texts[:-1]
        self.keys = self.texts[-1]
        self.char_px = char_px(font_size)
        self.columns = 10_000  # characters per row, from the width layout() is given
        self._newest: object = _UNSEEN  # the newest message the last change showed
        self._mark: object = None  # the messages after this one are fresh (None: all of them)

    @property
    def height(self) -> int:
        return self.rows * self.row_px

    def layout(self, left: int, bottom: int, width: int | None = None) -> None:
        pad = max(4, self.row_px // 3)
        if width is not None:
            self.columns = max(8, int((width - 2 * pad) // self.char_px))
        for i, text in enumerate(self.texts):
            text.position = (left + pad, bottom + self.height - (i + 1) * self.row_px + self.row_px // 4)

    def fresh(self, messages: list[str]) -> int:
        """How many of the newest messages were said since the last key press: those after the
        newest one the previous change showed (on the first frame, the newest alone)."""
        newest = messages[-1] if messages else None
        if newest is not self._newest:
            first = self._newest is _UNSEEN
            self._mark = (messages[-2] if len(messages) > 1 else None) if first else self._newest
            self._newest = newest
        if self._mark is None:
            return len(messages)
        for back in range(len(messages)):
            if messages[-1 - back] is self._mark:
                return back
        return len(messages)  # the mark is gone (a new run, or the log rolled over): all of it is new

    def update(self, game: Game) -> None:
        rows = len(self.messages)
        window = game.messages[-(4 * rows):]
        old = len(window) - min(len(window), self.fresh(game.messages))  # messages before this index are old
        shown, end = [], 0
        for message, times in folded(window):
            end += times
            line = message if times == 1 else Message(f"{message} x{times}", kind_of(message))
            shown.append((line, end > old))  # a folded line is fresh when its last repeat is
        lines: list[tuple[str, tuple[int, int, int, int]]] = []  # (row text, its colour)
        for message, fresh in reversed(shown[-rows:]):
            color = (*message_colour(kind_of(message), fresh), 255)
            lines[:0] = [(part, color) for part in wrap(message, self.columns)]
            if len(lines) >= rows:
                break
        lines = lines[-rows:]
        blank = rows - len(lines)  # the newest message sits just above the keys line
        for i, text in enumerate(self.messages):
            value, color = "", (235, 235, 235, 255)
            if i >= blank:
                value, color = lines[i - blank]
            set_text(text, value, color)
        if game.alive:
            set_text(self.keys, clip(words.line(game, "keys"), self.columns), KEYS_COLOR)
        else:
            dead_words = "keys_dead" in game.rules.messages
            set_text(self.keys, clip(words.line(game, "keys_dead"), self.columns),
                     KEYS_DEAD if dead_words else KEYS_COLOR)

    def lines(self) -> list[str]:
        return [t.text for t in self.messages if t.text]

    def colours(self) -> list[tuple[int, int, int]]:
        """Each shown line's colour, top down (for tests and tools)."""
        return [tuple(t.color)[:3] for t in self.messages if t.text]

    def draw(self) -> None:
        self.batch.draw()
