"""The sidebar right of the map (Brogue's is the model): sections of lines and bars, top down.

A section is a function from the game to rows: :class:`Line` (text, optionally after a coloured
glyph) or :class:`Bar` (a label over a bar filled ``value / maximum``). :data:`SECTIONS` lists them
in order, with a blank row between two sections that have rows: the player (depth, health,
experience when the game has it, attack and defense, gold), statuses, what lies underfoot, the
monsters in view (nearest first, each with a health bar), and the pack by letter. Rows past the
sidebar's height are dropped from the end: the pack goes first, then the far monsters.

The bottom rows can hold a description (what the mouse points at, :meth:`Sidebar.update`'s
``footer``), which takes its rows from the end of the list.

The sidebar reads the game only through its public parts (``world.query``, ``floor.visible``,
``position``, ``level``, ``api.statuses``), the pack's functions and the HUD values of
:mod:`engine.core.status` (read with ``.get``: a game without levels has no ``level``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import arcade
import pyglet

from engine.core import inventory
from engine.core import status as words
from engine.core.components import Equipped, Fighter, Item, Monster, Position, Renderable
from engine.frontend.atlas import FONT_NAME
from engine.frontend.panel import char_px, wrap

if TYPE_CHECKING:
    from engine.core.game import Game

RGB = tuple[int, int, int]
BRIGHT: RGB = (235, 235, 235)
DIM: RGB = (150, 155, 170)
PANEL = (14, 14, 20, 255)
BAR_BACK = (40, 40, 48, 255)
HEALTH: RGB = (170, 40, 40)
HEALTH_LOW: RGB = (235, 60, 50)
XP: RGB = (60, 90, 170)
STATUS: RGB = (120, 200, 235)
WORN: RGB = (200, 190, 120)
HOVER_BG = (40, 40, 60, 255)  # a sidebar row the mouse is on
HOVER_EDGE = (255, 240, 120, 255)  # its left edge: the colour the map outlines its monster in


@dataclass(frozen=True)
class Line:
    text: str
    color: RGB = BRIGHT
    glyph: str = ""
    glyph_color: RGB = BRIGHT
    entity: int | None = None  # the monster a row is about: hovering the row highlights it on the map


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
    """Depth and turn, the health bar, level and experience (when the game has them), attack and
    defense, gold."""
    v = words.values(game)
    hp, top = int(v["hp"]), int(v["max_hp"])
    rows: list[Row] = [
        Line(f"Depth {v['depth']}   Turn {v['turn']}"),
        Bar(f"Health {hp}/{top}", hp, top, HEALTH_LOW if words.hp_low(game) else HEALTH),
    ]
    level, xp, need = experience(game, v)
    if level is not None:
        if need:
            rows.append(Bar(f"Level {level}   XP {xp}/{need}", int(xp), int(need), XP))
        else:
            rows.append(Line(f"Level {level}   XP {xp}"))
    attack, defense = inventory.attack_of(game, game.player), inventory.defense_of(game, game.player)
    rows.append(Line(f"Attack {attack}   Defense {defense}", DIM))
    rows.append(Line(f"Gold {v['gold']}", DIM))  # potions and the rest: the pack, listed below
    return rows


def experience(game: Game, v: dict | None = None) -> tuple[int | None, int, int]:
    """The player's (level, xp, xp the next level wants in all; 0: unknown), or (None, 0, 0) in a
    game without growth. Read defensively: the HUD values' ``level``/``xp``/``xp_next`` when the
    game gives them, else a component of the player's with whole-number ``level`` and ``xp`` (and
    ``next``) fields, as a growth plugin's ``Experience`` has."""
    v = words.values(game) if v is None else v
    level, xp, need = v.get("level"), v.get("xp"), v.get("xp_next", 0)
    if not (isinstance(level, int) and isinstance(xp, int)):
        for component in game.world.components(game.player):
            level, xp = getattr(component, "level", None), getattr(component, "xp", None)
            if isinstance(level, int) and isinstance(xp, int):
                need = getattr(component, "next", 0)
                break
        else:
            return None, 0, 0
    need = need if isinstance(need, int) else 0
    if not need and level <= 1 and xp == 0:
        return None, 0, 0  # the values' stand-in of a game without growth: nothing to show
    return level, xp, need


def statuses(game: Game) -> list[Row]:
    """The player's statuses, with the turns they have left."""
    rows: list[Row] = []
    for name, status in sorted(game.api.statuses(game.player).items()):
        turns = f" ({status.turns})" if status.turns is not None else ""
        rows.append(Line(f"{name.capitalize()}{turns}", STATUS))
    return rows


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


def pack(game: Game) -> list[Row]:
    """The pack by letter (worn items in their own colour), when there is room for it."""
    rows: list[Row] = []
    for item in inventory.pack(game):
        amount = inventory.count(game, item)
        name = inventory.kind(game, item).name
        worn = game.world.has(item, Equipped)
        text = f"{inventory.letter_of(game, item)} {name}" + (f" x{amount}" if amount > 1 else "") \
            + (" (in use)" if worn else "")
        rows.append(Line(text, WORN if worn else DIM))
    return rows


SECTIONS: list[Section] = [stats, statuses, underfoot, monsters, pack]


def _bar_color(rgb: RGB) -> RGB:
    # a monster's bar in a darker shade of its own colour, so the white label reads over it
    return (rgb[0] * 11 // 20, rgb[1] * 11 // 20, rgb[2] * 11 // 20)


def rows_for(game: Game, sections: list[Section], limit: int, footer: list[Row] = ()) -> list[Row | None]:
    """The sidebar's rows (None: a blank separator), at most ``limit``, ending with ``footer``
    (after a blank row) when it is given."""
    rows: list[Row | None] = []
    for section in sections:
        part = section(game)
        if part:
            if rows:
                rows.append(None)
            rows.extend(part)
    if not footer:
        return rows[:limit]
    tail = [None, *footer][-limit:]
    return rows[: max(0, limit - len(tail))] + tail


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
        self.hovered: int | None = None  # the row the mouse is on
        self.char_px = char_px(font_size)

    @property
    def columns(self) -> int:
        """Characters that fit on a row without a glyph (half a row of margin each side)."""
        return max(8, int((self.rect[2] - self.row_px) / max(1.0, self.char_px)))

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

    def update(self, game: Game, footer: str = "") -> None:
        """Rows from the game; ``footer``: a description for the bottom rows (what the mouse
        points at), wrapped to the sidebar's width."""
        tail = [Line(text, BRIGHT) for text in wrap(footer, self.columns, most=3)] if footer else []
        self.rows = rows_for(game, self.sections, len(self.texts), tail)
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
            # a bright edge left of the row: the bar covers the row's middle, the edge still shows
            arcade.draw_lbwh_rectangle_filled(left, y, max(3, pad // 3), self.row_px, HOVER_EDGE)
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
