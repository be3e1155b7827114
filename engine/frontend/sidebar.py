"""The sidebar right of the map (Brogue's is the model): sections of lines and bars, top down.

A section is a function from the game to rows: :class:`Line` (text, optionally after a coloured
glyph) or :class:`Bar` (a label over a bar filled ``value / maximum``). :data:`SECTIONS` lists them
in order, with a blank row between two sections that have rows; adding a section (XP and level,
statuses) is one function and one entry. Rows past the sidebar's height are dropped (the monster
list is the one that grows: it is nearest first, so the far ones go).

The sidebar reads the game only through its public parts (``world.query``, ``floor.visible``,
``position``, ``level``) and the HUD words of :mod:`engine.core.status`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import arcade
import pyglet

from engine.core import status as words
from engine.core.components import Fighter, Item, Monster, Position, Renderable
from engine.frontend.atlas import FONT_NAME

if TYPE_CHECKING:
    from engine.core.game import Game

RGB = tuple[int, int, int]
BRIGHT: RGB = (235, 235, 235)
DIM: RGB = (150, 155, 170)
PANEL = (14, 14, 20, 255)
BAR_BACK = (40, 40, 48, 255)
HEALTH: RGB = (170, 40, 40)
HEALTH_LOW: RGB = (235, 60, 50)


@dataclass(frozen=True)
class Line:
    text: str
    color: RGB = BRIGHT
    glyph: str = ""
    glyph_color: RGB = BRIGHT
    entity: int | None = None  # the monster a row is about (for hover highlighting, later)


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    maximum: int
    color: RGB = HEALTH
    glyph: str = ""
    glyph_color: RGB = BRIGHT
    entity: int | None = None


Row = Line | Bar
Section = Callable[["Game"], list[Row]]


def stats(game: Game) -> list[Row]:
    """Depth and turn, the player's health bar, gold and potions."""
    v = words.values(game)
    hp, top = int(v["hp"]), int(v["max_hp"])
    return [
        Line(f"Depth {v['depth']}   Turn {v['turn']}"),
        Bar(f"Health {hp}/{top}", hp, top, HEALTH_LOW if words.hp_low(game) else HEALTH),
        Line(f"Gold {v['gold']}   Potions {v['potions']}", DIM),
        *([Line(f"Level {v['level']}   XP {v['xp']}/{v['xp_next']}", DIM)] if v["xp_next"] else []),  # growth
    ]


def visible_monsters(game: Game) -> list[tuple[int, str, Fighter, Renderable, int]]:
    """(entity, kind, fighter, look, distance) of each monster in view, nearest first (king moves,
    ties by row then column, so the order never flickers)."""
    px, py = game.position(game.player)
    visible = game.floor.visible
    found = []
    for entity, (monster, fighter, look, pos) in game.world.query(Monster, Fighter, Renderable, Position):
        if visible[pos.y, pos.x]:
            found.append((max(abs(pos.x - px), abs(pos.y - py)), pos.y, pos.x, entity, monster.kind, fighter, look))
    found.sort(key=lambda t: t[:3])
    return [(e, kind, f, look, d) for d, _, _, e, kind, f, look in found]


def monsters(game: Game) -> list[Row]:
    """Each monster in view: its glyph, its name and its health bar."""
    rows: list[Row] = []
    for entity, kind, fighter, look, _ in visible_monsters(game):
        rgb = tuple(look.color[:3])
        rows.append(Bar(kind, fighter.hp, fighter.max_hp, _bar_color(rgb), look.glyph, rgb, entity))  # type: ignore[arg-type]
    return rows


def underfoot(game: Game) -> list[Row]:
    """What lies at the player's feet: items, stairs, the exit."""
    here = game.position(game.player)
    rows: list[Row] = []
    for _, (item, pos, look) in game.world.query(Item, Position, Renderable):
        if (pos.x, pos.y) == here:
            amount = f"{item.amount} " if item.amount > 1 else ""
            rows.append(Line(f"Here: {amount}{item.kind}", DIM, look.glyph, tuple(look.color[:3])))  # type: ignore[arg-type]
    if game.level.stairs == here:
        stairs = game.rules.tile("stairs")
        rows.append(Line("Here: stairs down", DIM, stairs["glyph"], tuple(stairs["color"])))
    if game.level.exit == here:
        rows.append(Line("Here: the way out", DIM))
    return rows


SECTIONS: list[Section] = [stats, underfoot, monsters]


def _bar_color(rgb: RGB) -> RGB:
    # a monster's bar in a darker shade of its own colour, so the white label reads over it
    return (rgb[0] * 11 // 20, rgb[1] * 11 // 20, rgb[2] * 11 // 20)


def rows_for(game: Game, sections: list[Section], limit: int) -> list[Row | None]:
    """The sidebar's rows (None: a blank separator), at most ``limit``."""
    rows: list[Row | None] = []
    for section in sections:
        part = section(game)
        if part:
            if rows:
                rows.append(None)
            rows.extend(part)
    return rows[:limit]


class Sidebar:
    """Draws rows of ``row_px`` pixels in a rectangle, re-laying out a Text only when it changes."""

    def __init__(self, row_px: int, font_size: float, sections: list[Section] | None = None) -> None:
        self.row_px = row_px
        self.font_size = font_size
        self.sections = list(SECTIONS if sections is None else sections)
        self.batch = pyglet.graphics.Batch()
        self.texts: list[tuple[arcade.Text, arcade.Text]] = []
        self.rect = (0, 0, 0, 0)
        self.rows: list[Row | None] = []

    def layout(self, rect: tuple[int, int, int, int]) -> None:
        self.rect = rect
        count = max(1, rect[3] // self.row_px - 1)
        while len(self.texts) < count:
            make = lambda: arcade.Text("", 0, 0, BRIGHT, self.font_size, font_name=FONT_NAME, batch=self.batch)  # noqa: E731
            self.texts.append((make(), make()))
        for glyph, text in self.texts[count:]:
            glyph.text = text.text = ""
        self.texts = self.texts[:count]
        left, bottom, width, height = rect
        pad = self.row_px // 2
        for i, (glyph, text) in enumerate(self.texts):
            y = bottom + height - pad - (i + 1) * self.row_px + self.row_px // 4
            glyph.position = (left + pad, y)
            text.position = (left + pad + self.row_px * 3 // 2, y)

    def update(self, game: Game) -> None:
        self.rows = rows_for(game, self.sections, len(self.texts))
        for i, (glyph, text) in enumerate(self.texts):
            row = self.rows[i] if i < len(self.rows) else None
            label = "" if row is None else (row.text if isinstance(row, Line) else row.label)
            color = BRIGHT if row is None or isinstance(row, Bar) else row.color
            mark = "" if row is None else row.glyph
            _set(text, label, (*color, 255))
            _set(glyph, mark, (*(row.glyph_color if row else BRIGHT), 255))
            # a row without a glyph starts at the left edge; one with a glyph after it
            left = self.rect[0] + self.row_px // 2
            x = left + (self.row_px * 3 // 2 if mark else 0)
            if text.x != x:
                text.x = x

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
        for i, row in enumerate(self.rows):
            if isinstance(row, Bar):
                x = left + pad + (self.row_px * 3 // 2 if row.glyph else 0) - 2
                y = bottom + height - pad - (i + 1) * self.row_px + 1
                w = left + width - pad - x
                arcade.draw_lbwh_rectangle_filled(x, y, w, self.row_px - 2, BAR_BACK)
                share = max(0.0, min(1.0, row.value / row.maximum)) if row.maximum > 0 else 0.0
                if share > 0:
                    fill = max(1, round(w * share))
                    arcade.draw_lbwh_rectangle_filled(x, y, fill, self.row_px - 2, (*row.color, 255))
        self.batch.draw()


def _set(text: arcade.Text, value: str, color: tuple[int, int, int, int]) -> None:
    if text.text != value:
        text.text = value
    if tuple(text.color) != color:
        text.color = color
