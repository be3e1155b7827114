"""The sidebar's drawing: the rows of :mod:`engine.frontend.sidebar` in a rectangle right of the map.

Each row is two pyglet Texts in one batch (a glyph and its text), made when the row first shows
something (a tall sidebar has some forty rows, most of them empty at the start: 80 Texts made
before the first frame cost a window 7 ms), placed once per resize and re-set only when a row
changes; bars are rectangles drawn under the batch. The row the mouse is
on (:attr:`Sidebar.hovered`) gets a background and a bright left edge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
import pyglet

from engine.frontend.atlas import FONT_NAME
from engine.frontend.panel import char_px, set_text, wrap
from engine.frontend.sidebar import BRIGHT, SECTIONS, Bar, Line, Row, Section, rows_for

if TYPE_CHECKING:
    from engine.core.turn.game import Game

PANEL = (14, 14, 20, 255)
BAR_BACK = (40, 40, 48, 255)
HOVER_BG = (40, 40, 60, 255)  # a sidebar row the mouse is on
HOVER_EDGE = (255, 240, 120, 255)  # its left edge: the colour the map outlines its monster in


class Sidebar:
    """Draws rows of ``row_px`` pixels in a rectangle, re-laying out a Text only when it changes."""

    def __init__(self, row_px: int, font_size: float, sections: list[Section] | None = None) -> None:
        self.row_px = row_px
        self.font_size = font_size
        self.sections = list(SECTIONS if sections is None else sections)
        self.batch = pyglet.graphics.Batch()
        self.texts: list[tuple[arcade.Text, arcade.Text] | None] = []  # per row: (glyph, text), once made
        self.rect = (0, 0, 0, 0)
        self.rows: list[Row | None] = []
        self.hovered: int | None = None  # the row the mouse is on
        self.char_px = char_px(font_size)

    @property
    def columns(self) -> int:
        """Characters that fit on a row without a glyph (half a row of margin each side)."""
        return max(8, int((self.rect[2] - self.row_px) / max(1.0, self.char_px)))

    def layout(self, rect: tuple[int, int, int, int]) -> None:
        self.rect = rect
        count = max(1, rect[3] // self.row_px - 1)
        self.texts.extend([None] * (count - len(self.texts)))
        for pair in self.texts[count:]:
            if pair is not None:
                pair[0].text = pair[1].text = ""
        self.texts = self.texts[:count]
        for i, pair in enumerate(self.texts):
            if pair is not None:
                self._place(i, *pair)

    def _place(self, i: int, glyph: arcade.Text, text: arcade.Text) -> None:
        left, bottom, width, height = self.rect
        pad = self.row_px // 2
        y = bottom + height - pad - (i + 1) * self.row_px + self.row_px // 4
        glyph.position = (left + pad, y)
        text.position = (left + pad + self.row_px * 3 // 2, y)

    def _pair(self, i: int) -> tuple[arcade.Text, arcade.Text]:
        """Row ``i``'s (glyph, text), made and placed on first use."""
        pair = self.texts[i]
        if pair is None:
            make = lambda: arcade.Text("", 0, 0, BRIGHT, self.font_size, font_name=FONT_NAME, batch=self.batch)  # noqa: E731
            pair = self.texts[i] = (make(), make())
            self._place(i, *pair)
        return pair

    def update(self, game: Game, footer: str = "") -> None:
        """Rows from the game; ``footer``: a description for the bottom rows (what the mouse
        points at), wrapped to the sidebar's width."""
        tail = [Line(text, BRIGHT) for text in wrap(footer, self.columns, most=3)] if footer else []
        self.rows = rows_for(game, self.sections, len(self.texts), tail)
        for i, pair in enumerate(self.texts):
            row = self.rows[i] if i < len(self.rows) else None
            label = "" if row is None else (row.text if isinstance(row, Line) else row.label)
            color = BRIGHT if row is None or isinstance(row, Bar) else row.color
            mark = "" if row is None else row.glyph
            if pair is None and not label and not mark:
                continue  # an empty row that never showed anything: no Texts for it yet
            glyph, text = self._pair(i)
            room = self.columns - (3 if mark else 0)  # a glyph takes a row and a half
            if len(label) > room:  # a long name (a plugin's terrain said by its description): cut, not clipped
                label = wrap(label, room, most=1)[0]
            set_text(text, label, (*color, 255))
            set_text(glyph, mark, (*(row.glyph_color if row else BRIGHT), 255))
            # a row without a glyph starts at the left edge; one with a glyph after it
            left = self.rect[0] + self.row_px // 2
            x = left + (self.row_px * 3 // 2 if mark else 0)
            if text.x != x:
                text.x = x

    def row_at(self, px: float, py: float) -> int | None:
        """The index of the row under framebuffer point (px, py) (y up), or None."""
        left, bottom, width, height = self.rect
        if not (left <= px < left + width and bottom <= py < bottom + height):
            return None
        index = int((bottom + height - self.row_px // 2 - py) // self.row_px)
        return index if 0 <= index < len(self.rows) and self.rows[index] is not None else None

    def entity_at(self, px: float, py: float) -> int | None:
        """The monster whose row is under framebuffer point (px, py), or None."""
        index = self.row_at(px, py)
        return getattr(self.rows[index], "entity", None) if index is not None else None

    def lines(self) -> list[str]:
        """The rows as plain strings (bars as ``label [value/max]``): for tests and tools."""
        out = []
        for row in self.rows:
            if row is None:
                out.append("")
            elif isinstance(row, Bar):
                out.append(f"{row.glyph + ' ' if row.glyph else ''}{row.label} [{row.value}/{row.maximum}]")
            else:
                out.append(f"{row.glyph + ' ' if row.glyph else ''}{row.text}")
        return out

    def draw(self) -> None:
        left, bottom, width, height = self.rect
        arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, PANEL)
        pad = self.row_px // 2
        if self.hovered is not None and self.hovered < len(self.rows):
            y = bottom + height - pad - (self.hovered + 1) * self.row_px
            arcade.draw_lbwh_rectangle_filled(left, y, width, self.row_px, HOVER_BG)
            # a bright edge left of the row, beside its bar
            arcade.draw_lbwh_rectangle_filled(left, y, max(3, pad // 3), self.row_px, HOVER_EDGE)
        strip = max(2, self.row_px // 6)  # a bar is a strip under its label, so the label reads in one colour
        for i, row in enumerate(self.rows):
            if isinstance(row, Bar):
                x = left + pad + (self.row_px * 3 // 2 if row.glyph else 0) - 2
                y = bottom + height - pad - (i + 1) * self.row_px + 1
                w = left + width - pad - x
                arcade.draw_lbwh_rectangle_filled(x, y, w, strip, BAR_BACK)
                share = max(0.0, min(1.0, row.value / row.maximum)) if row.maximum > 0 else 0.0
                if share > 0:
                    fill = max(1, round(w * share))
                    arcade.draw_lbwh_rectangle_filled(x, y, fill, strip, (*row.color, 255))
        self.batch.draw()
