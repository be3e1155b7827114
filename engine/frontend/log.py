"""The message log below the map (the sidebar look): the last messages, repeats folded ("x3").

The newest message is at the bottom and brightest; older ones fade. A message wider than the map
wraps onto the rows above it (never into the sidebar). The keys line of the preset (its ``keys`` /
``keys_dead`` template) is the log's last row, dim, as the HUD's was, cut to the width.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
import pyglet

from engine.core.play import status as words
from engine.frontend.atlas import FONT_NAME
from engine.frontend.panel import char_px, clip, set_text, wrap

if TYPE_CHECKING:
    from engine.core.turn.game import Game

KEYS_COLOR = (140, 150, 170, 255)
KEYS_DEAD = (235, 60, 50, 255)


def fold(messages: list[str]) -> list[str]:
    """Consecutive repeats of a message become one line with a count: "You hit the rat. x3"."""
    out: list[tuple[str, int]] = []
    for message in messages:
        if out and out[-1][0] == message:
            out[-1] = (message, out[-1][1] + 1)
        else:
            out.append((message, 1))
    return [m if n == 1 else f"{m} x{n}" for m, n in out]


def message_color(age: int) -> tuple[int, int, int, int]:
    """The newest message (age 0) bright, older ones fading to a dim grey."""
    level = 235 if age == 0 else max(90, 185 - 25 * (age - 1))
    return (level, level, level, 255)


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

    @property
    def height(self) -> int:
        return self.rows * self.row_px

    def layout(self, left: int, bottom: int, width: int | None = None) -> None:
        pad = max(4, self.row_px // 3)
        if width is not None:
            self.columns = max(8, int((width - 2 * pad) // self.char_px))
        for i, text in enumerate(self.texts):
            text.position = (left + pad, bottom + self.height - (i + 1) * self.row_px + self.row_px // 4)

    def update(self, game: Game) -> None:
        rows = len(self.messages)
        recent = fold(game.messages[-(4 * rows):])[-rows:]
        lines: list[tuple[str, int]] = []  # (row text, the message's age)
        for age, message in enumerate(reversed(recent)):
            lines[:0] = [(part, age) for part in wrap(message, self.columns)]
            if len(lines) >= rows:
                break
        lines = lines[-rows:]
        blank = rows - len(lines)  # the newest message sits just above the keys line
        for i, text in enumerate(self.messages):
            value, color = "", (235, 235, 235, 255)
            if i >= blank:
                value, age = lines[i - blank]
                color = message_color(age)
            set_text(text, value, color)
        if game.alive:
            set_text(self.keys, clip(words.line(game, "keys"), self.columns), KEYS_COLOR)
        else:
            dead_words = "keys_dead" in game.rules.messages
            set_text(self.keys, clip(words.line(game, "keys_dead"), self.columns),
                     KEYS_DEAD if dead_words else KEYS_COLOR)

    def lines(self) -> list[str]:
        return [t.text for t in self.messages if t.text]

    def draw(self) -> None:
        self.batch.draw()
