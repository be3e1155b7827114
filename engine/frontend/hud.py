"""The classic presets' text below the map and the "dim" death line: a few arcade.Text objects
(the band death and victory screens are :mod:`engine.frontend.screens`, the help screen
:mod:`engine.frontend.helpscreen`).

The words come from :mod:`engine.core.play.status` (the preset's templates); this module only places and
colours them. A Text is re-laid-out only when its string or colour changes, because pyglet's
layout is the expensive part of drawing text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
import pyglet

from engine.core.play import status as words
from engine.frontend.atlas import FONT_NAME
from engine.frontend.panel import set_text

if TYPE_CHECKING:
    from engine.core.turn.game import Game

BRIGHT = (235, 235, 235, 255)
KEYS_COLOR = (140, 150, 170, 255)
HP_LOW = (235, 60, 50, 255)
DEATH = (220, 50, 40, 255)
SHADE = (0, 0, 0, 150)  # the "dim" death screen: the window stays readable under it


def message_color(age: int) -> tuple[int, int, int, int]:
    """The newest message (age 0) bright, older ones fading to a dim grey."""
    level = 235 if age == 0 else max(90, 165 - 25 * (age - 1))
    return (level, level, level, 255)


class Hud:
    """Status, keys and message lines in ``rows`` rows of ``row_px`` pixels at the window's bottom."""

    def __init__(self, rows: int, row_px: int) -> None:
        self.rows = max(2, rows)
        self.row_px = row_px
        self.batch = pyglet.graphics.Batch()
        size = self.font_size(row_px)

        def text(color: tuple[int, int, int, int] = BRIGHT, batch: pyglet.graphics.Batch | None = None,
                 scale: float = 1.0) -> arcade.Text:
            return arcade.Text("", 0, 0, color, size * scale, font_name=FONT_NAME, batch=batch)

        self.status = text(batch=self.batch)
        self.keys = text(KEYS_COLOR, batch=self.batch)
        self.messages = [text(batch=self.batch) for _ in range(self.rows - 2)]
        self.death_line = text(DEATH)  # the "dim" death screen's one line, at the text's size
        self.death_line.anchor_x, self.death_line.anchor_y = "center", "center"

    @staticmethod
    def font_size(row_px: int) -> float:
        """Points for a line of ``row_px`` pixels: pyglet draws 1 pt as 96/72 px, plus line gap."""
        return max(6.0, row_px / 1.25 * 72 / 96)

    @property
    def height(self) -> int:
        return self.rows * self.row_px

    def layout(self, width: int, height: int) -> None:
        """Place the lines: HUD rows from the bottom edge."""
        pad = max(4, self.row_px // 3)
        lines = [self.status, self.keys, *self.messages]
        for i, text in enumerate(lines):
            text.x = pad
            # baseline a quarter row above the row's bottom, so descenders stay in the row
            text.y = self.height - (i + 1) * self.row_px + self.row_px // 4

    def update(self, game: Game, warn_low_hp: bool = True) -> None:
        """Refresh the strings from the game (cheap when nothing changed). ``warn_low_hp``: the
        status line turns red at low HP (the preset's ``look`` may keep it in the text colour)."""
        set_text(self.status, words.line(game, "status"), HP_LOW if warn_low_hp and words.hp_low(game) else BRIGHT)
        if game.alive:
            set_text(self.keys, words.line(game, "keys"), KEYS_COLOR)
        else:  # the keys line says what to do now; red where the preset has its own words for it
            dead_words = "keys_dead" in game.rules.messages
            set_text(self.keys, words.line(game, "keys_dead"), HP_LOW if dead_words else KEYS_COLOR)
        recent = game.messages[-len(self.messages):] if self.messages else []
        for i, text in enumerate(self.messages):
            if i < len(recent):
                age = len(recent) - 1 - i
                set_text(text, recent[i], message_color(age))
            else:
                set_text(text, "")
        self.update_death(game)

    def update_death(self, game: Game) -> None:
        """The "dim" death screen's line (the preset's death title)."""
        if not game.alive:
            set_text(self.death_line, words.line(game, "death_title"))

    def lines(self) -> dict[str, object]:
        """What the HUD shows, as strings: for tests and tools."""
        return {
            "status": self.status.text,
            "keys": self.keys.text,
            "messages": [t.text for t in self.messages if t.text],
            "status_color": tuple(self.status.color),
        }

    def draw(self) -> None:
        self.batch.draw()

    def draw_dim_death(self, width: int, height: int, color: tuple[int, int, int]) -> None:
        """The death screen of a preset whose ``look`` says ``death = "dim"`` (bunyip's example):
        the whole window dimmed, map and text alike, and the title alone in its middle, in
        ``color``: no band, no hint, no profile."""
        arcade.draw_lbwh_rectangle_filled(0, 0, width, height, SHADE)
        set_text(self.death_line, self.death_line.text, (*color, 255))
        self.death_line.position = (width // 2, height // 2)
        self.death_line.draw()
