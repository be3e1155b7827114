"""The open prompt, drawn over the map from its plain data (``prompt.describe(game)``, see
:mod:`engine.core.play.prompts`): the window never looks at a prompt's class.

- a menu or a plugin's question: a box of lettered lines in the map's middle (an item's line:
  its name, what it adds against what is worn, what it is), its detail line (what the inventory
  says of an item, why not) and the keys it takes;
- a targeting cursor: the cursor's cell outlined, the cells it would reach tinted, and a band
  (title, what is under the cursor or why it cannot aim there, keys) across the map's edge away
  from the cursor;
- look mode: the cursor outlined and a band saying what is under it;
- the message history: a tall box of messages, newest at the bottom, scrolled by the prompt, each
  coloured by its kind as the log is.

Each is an opaque panel; on a small board it goes beside the board rather than over it
(:func:`engine.frontend.aside.place`).

The mouse: while a cursor is open, the cell under the mouse is drawn as the cursor (with its own
reach and description) without moving the prompt's cursor: a hover is never a key. The window
turns a click (or Enter while the mouse points) into the ``travel:X,Y`` token that aims there.

The tints are written into the viewport's background colours before the grid takes them
(:meth:`PromptView.tint`), so a cursor costs no extra draw call; only the outline and the box are
drawn on top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import arcade
import numpy as np

from engine.core.kinds.saying import kind_of
from engine.core.play.prompts import describe_cell
from engine.frontend import aside
from engine.frontend.palette import message_colour
from engine.frontend.panel import Rect, TextBox, clip, clip_parts, wrap
from engine.frontend.scrolling import Scroll

if TYPE_CHECKING:
    from engine.core.turn.game import Game
    from engine.frontend.camera import Camera
    from engine.frontend.compose import Cells

TITLE = (240, 210, 120)
TEXT = (225, 225, 225)
DETAIL = (150, 200, 240)
HINT = (130, 140, 160)
WORN = (200, 190, 120)
NOTE = (170, 215, 150)  # a menu line's stats, against what is worn
ABOUT = (145, 155, 175)  # a menu line's description
REACH = np.array((150, 60, 20), dtype=np.float32)  # the cells a targeted item would reach
AIM = (255, 190, 60, 255)  # the targeting cursor's outline
LOOK = (120, 180, 255, 255)  # look mode's cursor
HOVER_ROW = (50, 50, 85, 255)

MENU_FRAME = 7  # a menu's rows besides its options: the title, the counts above and below, blanks, the hint
SCROLL_HINT = "Up/down: more"
HINTS = {
    "menu": "Press a letter (or click a line)   Esc: close",
    "question": "Press a letter to choose (or click a line)",
    "target": "Move or point: aim   Tab: next monster   Enter or click: choose   Esc: cancel",
    "look": "Move or point: look   Esc: done",
    "history": "Up/down: scroll   Space: page back   Any other key: close",
    "page": "Any key: close",
    "direction": "Press a direction key   Esc: cancel",
}


class PromptView:
    """What the open prompt shows; :meth:`update` once a frame before the grid, :meth:`draw` after."""

    def __init__(self, row_px: int, font_size: float) -> None:
        self.box = TextBox(row_px, font_size)
        self.row_px = row_px
        self.data: dict[str, Any] | None = None  # the prompt's describe(), or None
        self.cursor: tuple[int, int] | None = None  # the cell drawn as the cursor (the hover's when pointing)
        self.affected: list[tuple[int, int]] = []
        self.letters: list[str | None] = []  # the letter of each box line (None: not an option)
        self.hovered: int | None = None  # the box line under the mouse
        self._area: tuple = ()  # (level, centre, radius) -> cells: the reach is an FOV call, done once
        self.columns = 80  # characters a line may take: the map's width, set each update
        # a menu longer than the map's height scrolls (the window's up/down keys: scroll), and the
        # menu it belongs to (another starts at its top)
        self.scrolled, self._menu_seen = Scroll(), None


    @property
    def active(self) -> bool:
        return self.data is not None

    def update(self, game: Game, area: Rect, view: Camera, hover: tuple[int, int] | None,
               screen: Rect | None = None) -> None:
        """Read the open prompt (None: nothing to draw). ``hover``: the map cell the mouse points
        at, drawn as the cursor of a targeting or look prompt; ``screen``: the whole window, where
        a panel may go beside a small board (default: the map ``area``)."""
        self.data = data = game.api.prompt()
        self.cursor, self.affected, self.letters = None, [], []
        if data is None:
            self.box.show([])
            return
        kind = data.get("kind", "")
        self.columns = self.box.columns(area[2])  # the widest line the map's width holds
        where = "center"
        if "cursor" in data:
            self._cursor(game, data, hover)
            where = "bottom" if self.cursor is not None and self._upper(view, self.cursor) else "top"
        elif kind == "history":
            self._history(game, data, area)
        else:
            self._menu(data, area[3] // self.row_px)
        wanted = self.box.spot_in(area, where)
        self.box.place(*aside.place_by(self.box.size(), wanted, area, view, screen))

    # -- the kinds ------------------------------------------------------------------------------
    def _menu(self, data: dict[str, Any], rows: int = 1000) -> None:
        """``rows``: the text rows the map's height holds. An item's line holds its name, what it
        adds against what is worn and what it is; when that is wider than the map, what it is
        goes on a row of its own under it (while the rows hold them), else the line is cut. When
        the options outnumber the rows, those from :attr:`scrolled`'s top that fit are shown, with a count
        of the others above and below (:meth:`scroll` moves it)."""
        lines: list[tuple] = [(data.get("title", ""), TITLE), ("", TEXT)]
        self.letters = [None, None]
        options = data.get("options", [])
        seen = (data.get("kind"), data.get("title"), tuple(o["letter"] for o in options))
        if seen != self._menu_seen:
            self._menu_seen, self.scrolled = seen, Scroll()
        detail = wrap(data["detail"], self.columns) if data.get("detail") else []
        room = max(1, rows - MENU_FRAME - (len(detail) + 1 if detail else 0))  # the option rows that fit
        shown, above, below = self.scrolled.window(options, room)
        if self.scrolled.top_most:
            lines.append((above, HINT))
            self.letters.append(None)
            options = shown
        label_w = max((len(o["label"]) for o in options), default=0) + 3  # "a  " and the label
        note_w = max((len(o.get("note", "")) for o in options), default=0)
        wide = label_w + 2 + (note_w + 2 if note_w else 0) + max((len(o.get("about", "")) for o in options), default=0)
        under = wide > self.columns and len(options) * 2 + 8 <= rows  # descriptions on rows of their own
        for option in options:
            label, note, about = option["label"], option.get("note", ""), option.get("about", "")
            color = WORN if label.endswith("(in use)") else TEXT
            head = f"{option['letter']}  {label}"
            parts = [(f"{head:<{label_w}}  " if note or (about and not under) else head, color)]
            if note:
                parts.append((f"{note:<{note_w}}  " if about and not under else note, NOTE))
            elif about and note_w and not under:
                parts.append((" " * (note_w + 2), NOTE))
            if about and not under:
                parts.append((about, ABOUT))
            lines.append((clip_parts(parts, self.columns), None))  # never wider than the map
            self.letters.append(option["letter"])
            if about and under:
                lines.append((clip(f"   {about}", self.columns), ABOUT))
                self.letters.append(option["letter"])
        if self.scrolled.top_most:
            lines.append((below, HINT))
            self.letters.append(None)
        if detail:
            lines += [("", TEXT), *[(part, DETAIL) for part in detail]]
        hint = HINTS.get(data.get("kind", ""), HINTS["menu"])
        lines += [("", TEXT), (f"{SCROLL_HINT}   {hint}" if self.scrolled.top_most else hint, HINT)]
        self.box.show(lines)

    def scroll(self, step: int) -> bool:
        """Move a menu too long for the map's height by ``step`` options (the window's up/down
        keys); whether it scrolls at all (a menu that fits leaves the keys to the game)."""
        return self.data is not None and "options" in self.data and self.scrolled.move(step)

    def _cursor(self, game: Game, data: dict[str, Any], hover: tuple[int, int] | None) -> None:
        own = tuple(data["cursor"])
        at = hover if hover is not None else own
        self.cursor = at  # type: ignore[assignment]
        radius = int(data.get("radius", 0) or 0)
        if data.get("kind") == "target":
            self.affected = self._reach(game, at, radius) if hover is not None else \
                [tuple(c) for c in data.get("affected", [])]
        # the prompt's own detail (why it cannot aim there; look's description) is about its own
        # cursor; a cell the mouse points at elsewhere is described here
        detail = data.get("detail", "") if at == own else ""
        detail = detail or describe_cell(game, at)
        title = data.get("title", "")
        parts = [(part, DETAIL) for part in wrap(detail, self.columns, most=2)]
        self.box.show([(title, TITLE), *parts, (HINTS.get(data.get("kind", ""), ""), HINT)])

    def _reach(self, game: Game, at: tuple[int, int], radius: int) -> list[tuple[int, int]]:
        key = (id(game.level), at, radius)
        if self._area[:1] != (key,):
            self._area = (key, [tuple(c) for c in game.area(at, radius)])
        return list(self._area[1])

    def _history(self, game: Game, data: dict[str, Any], area: Rect) -> None:
        messages = list(game.messages)
        most = max(3, area[3] // self.row_px - 7)  # what the map's height holds
        # as many rows as the messages take (at least 8), up to what the map's height holds
        taken = sum(len(wrap(m, self.columns)) for m in messages[-most:])
        rows = min(most, max(8, taken))
        end = max(0, len(messages) - int(data.get("back", 0)))
        shown: list[tuple] = []  # the rows, a long message wrapped onto several
        first = end
        while first > 0:
            color = message_colour(kind_of(messages[first - 1]))  # by its kind, as the log below the map
            parts = [(part, color) for part in wrap(messages[first - 1], self.columns)]
            if shown and len(shown) + len(parts) > rows:
                break  # only whole messages (but the newest, cut from its end when it must)
            first -= 1
            shown[:0] = parts[:rows]
        where = f"messages {first + 1}-{end} of {len(messages)}" if messages else "no messages"
        lines: list[tuple] = [(f"{data.get('title', '')}   ({where})", TITLE), ("", TEXT)]
        lines += [("", TEXT)] * (rows - len(shown))  # the newest always at the bottom
        lines += shown
        lines += [("", TEXT), (HINTS["history"], HINT)]
        self.box.show(lines)

    @staticmethod
    def _upper(view: Camera, cell: tuple[int, int]) -> bool:
        rect = view.cell_rect(*cell)
        if rect is None:
            return False
        left, bottom, width, height = view.area
        return rect[1] > bottom + height / 2

    # -- the mouse ------------------------------------------------------------------------------
    def option_at(self, px: float, py: float) -> str | None:
        """The letter of the menu line under framebuffer point (px, py), or None."""
        index = self.box.row_at(px, py)
        return self.letters[index] if index is not None and index < len(self.letters) else None

    def hover_option(self, px: float | None, py: float | None) -> bool:
        """Highlight the option under the mouse; returns whether that changed."""
        index = self.box.row_at(px, py) if px is not None else None
        if index is not None and (index >= len(self.letters) or self.letters[index] is None):
            index = None
        changed, self.hovered = index != self.hovered, index
        return changed

    # -- drawing --------------------------------------------------------------------------------
    def tint(self, cells: Cells, view: Camera) -> None:
        """Tint the reach of a targeting cursor and the cursor's cell in the viewport's backgrounds."""
        if self.data is None or self.cursor is None:
            return
        ys, xs = view.window()
        bg = cells.bg
        for x, y in self.affected:
            if ys.start <= y < ys.stop and xs.start <= x < xs.stop:
                cell = bg[y - ys.start, x - xs.start]
                cell[:] = (cell * 0.35 + REACH * 0.65).astype(np.uint8)

    def draw(self, view: Camera) -> None:
        if self.data is None:
            return
        if self.cursor is not None:
            rect = view.cell_rect(*self.cursor)
            if rect is not None:
                color = AIM if self.data.get("kind") == "target" else LOOK
                arcade.draw_lbwh_rectangle_outline(*rect, color, max(2, rect[2] // 8))
        self.box.draw(self.hovered, HOVER_ROW)

    def strings(self) -> list[str]:
        """What the box says, line by line: for tests and tools."""
        return self.box.strings()
