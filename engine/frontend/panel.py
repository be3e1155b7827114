"""A box of text lines over the map: menus, questions, the message history, a cursor's band,
help and the end-of-run screens are all one :class:`TextBox`: an opaque panel with a border, so
no map glyph shows through it (where it goes on a small board: :mod:`engine.frontend.aside`).

Lines are ``(text, colour)`` or ``(text, colour, scale)`` (a title drawn larger). The box sizes
itself from its longest line: the font is monospace (Liberation Mono, whose advance is 0.6 em), so
a line's width is its length times one character's, with no layout pass to measure it. Texts are
pooled and a Text is re-laid-out only when its string, colour or size changes (pyglet's layout is
the expensive part of drawing text).
"""

from __future__ import annotations

import arcade
import pyglet

from engine.frontend.atlas import FONT_NAME

RGB = tuple[int, int, int]
Rect = tuple[int, int, int, int]  # left, bottom, width, height (framebuffer pixels, y up)
BOX = (10, 10, 18, 255)  # opaque: the map never shows through a panel
BORDER = (90, 90, 120, 255)


def char_px(font_size: float) -> float:
    """One character's width in pixels at ``font_size`` points: 0.6 em, where pyglet draws 1 pt as
    96/72 px and rounds each glyph's advance to a whole pixel."""
    return max(1, round(font_size * 96 / 72 * 0.6))


def wrap(text: str, width: int, most: int | None = None) -> list[str]:
    """``text`` cut into lines of at most ``width`` characters, at spaces where it can; with
    ``most``, at most that many lines, the last ending in "..." when text was left out."""
    width = max(4, width)
    if len(text) <= width:
        return [text] if text.strip() else []  # fits: kept as written (spaces included)
    lines: list[str] = []
    current = ""
    for word in text.split():
        while len(word) > width:  # a word longer than a line: cut it
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:width])
            word = word[width:]
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    if most is not None and len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: width - 3] + "..."
    return lines


def clip(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters ("..." at the end when cut)."""
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."


def clip_parts(parts: list[tuple[str, RGB]], width: int) -> list[tuple[str, RGB]]:
    """A line of parts in at most ``width`` characters in all ("..." at the end when cut)."""
    total = sum(len(text) for text, _ in parts)
    if total <= width:
        return parts
    whole = clip("".join(text for text, _ in parts), width)
    out, start = [], 0
    for text, colour in parts:
        piece = whole[start:start + len(text)]
        if piece:
            out.append((piece, colour))
        start += len(text)
    return out


class TextBox:
    """Lines of ``row_px`` pixels (times ``spacing``, times a line's scale) in a bordered box.

    A line is ``(text, colour)``, ``(text, colour, scale)``, or ``(parts, None)``: ``parts`` a list
    of ``(text, colour)`` drawn one after another on the row (a menu's name, what it adds and what
    it is, each in its own colour). The font is monospace, so each part starts where the text
    before it ends, with no layout pass."""

    def __init__(self, row_px: int, font_size: float) -> None:
        self.row_px = row_px
        self.font_size = font_size
        self.batch = pyglet.graphics.Batch()
        self.texts: list[arcade.Text] = []
        self.lines: list[tuple[str, RGB, float]] = []  # each line's whole text, first colour, scale
        self.parts: list[tuple[tuple[str, RGB], ...]] = []  # each line's parts
        self.spacing = 1.0
        self.center = False
        self.rect: Rect = (0, 0, 0, 0)
        self.rows: list[Rect] = []  # each line's rectangle, once placed (for the mouse)
        self.fill = BOX
        self.border: tuple[int, int, int, int] | None = BORDER

    @property
    def pad(self) -> int:
        return max(4, self.row_px // 2)

    def show(self, lines: list[tuple], *, spacing: float = 1.0, center: bool = False) -> None:
        """The lines to show, top down (a blank string is an empty row)."""
        parts = [tuple((str(t), tuple(c)) for t, c in line[0]) if isinstance(line[0], (list, tuple))
                 else ((line[0], line[1]),) for line in lines]
        new = [("".join(t for t, _ in p), p[0][1] if p else (235, 235, 235), line[2] if len(line) > 2 else 1.0)
               for p, line in zip(parts, lines, strict=True)]
        if (new, parts, spacing, center) == (self.lines, self.parts, self.spacing, self.center):
            return  # the same lines: no Text is touched (each frame shows them again)
        self.lines, self.parts = new, parts
        self.spacing, self.center = spacing, center
        wanted = sum(len(p) for p in parts)
        while len(self.texts) < wanted:
            self.texts.append(arcade.Text("", 0, 0, (235, 235, 235, 255), self.font_size, font_name=FONT_NAME,
                                          batch=self.batch))
        slots = iter(self.texts)
        for line_parts, (_, _, scale) in zip(self.parts, self.lines, strict=True):
            for _, color in line_parts:  # the words are set by place(), cut to the box
                text = next(slots)
                set_text(text, text.text, (*color, 255), self.font_size * scale)
        for text in slots:
            if text.text:
                text.text = ""

    def _step(self, scale: float) -> float:
        return self.row_px * self.spacing * scale

    def columns(self, width: int, scale: float = 1.0) -> int:
        """How many characters of a line fit in a box ``width`` pixels wide."""
        return max(4, int((width - 2 * self.pad) // char_px(self.font_size * scale)) - 1)

    def size(self) -> tuple[int, int]:
        """The box's width and height for its lines."""
        width = max(((len(t) + 1) * char_px(self.font_size * s) for t, _, s in self.lines), default=0)
        height = sum(self._step(s) for _, _, s in self.lines)
        return int(width) + 2 * self.pad, int(height) + 2 * self.pad

    def _cut(self, height: int) -> int | None:
        """Where the lines stop fitting a box ``height`` px high: None when they all fit, else the
        line that says how many are not shown; the lines before it and the last one (a menu's
        hint, the keys of a death) are shown. A box cut to the window's size drew its last lines
        below its frame, over the log or off the window."""
        steps = [self._step(s) for _, _, s in self.lines]
        room = height - 2 * self.pad + 0.5
        if sum(steps) <= room or len(steps) < 4:
            return None
        cut = len(steps) - 2
        while cut > 1 and sum(steps[:cut + 1]) + steps[-1] > room:  # the first line (a title) stays
            cut -= 1
        return cut

    def place(self, left: int, bottom: int, width: int | None = None, height: int | None = None) -> None:
        """Put the box's bottom-left corner at (left, bottom), at its own size unless given one;
        lines that do not fit its height are said as a count (:meth:`_cut`)."""
        own_w, own_h = self.size()
        width, height = width or own_w, height or own_h
        self.rect = (left, bottom, width, height)
        y = bottom + height - self.pad
        self.rows = []
        slots = iter(self.texts)
        cut, last = self._cut(height), len(self.lines) - 1
        for i, (line_parts, (value, _, scale)) in enumerate(zip(self.parts, self.lines, strict=True)):
            step = self._step(scale)
            if cut is not None and cut < i < last:  # not shown: no row, no words
                self.rows.append((left, int(y), width, 0))
                for _ in line_parts:
                    text = next(slots)
                    if text.text:
                        text.text = ""
                continue
            y -= step
            if cut == i:  # the count of the lines not shown, in the first part's place
                self.rows.append((left, int(y), width, 0))
                value = f"... {sum(1 for text, _, _ in self.lines[cut:last] if text.strip())} more"
                line_parts = ((value, line_parts[0][1]), *(("", colour) for _, colour in line_parts[1:]))
            else:
                self.rows.append((left, int(y), width, int(step)))
            # the baseline a quarter of the line above its bottom, so descenders stay in it
            baseline = int(y + step / 2 - self.row_px * scale / 4)
            fit = clip(value, self.columns(width, scale))  # a line wider than the box is cut, never spilt
            start = 0
            for part, _ in line_parts:
                text = next(slots)
                shown = fit[start:start + len(part)]
                if text.text != shown:
                    text.text = shown
                if self.center:  # a centred line is one part
                    text.anchor_x = "center"
                    text.position = (left + width // 2, baseline)
                else:
                    text.anchor_x = "left"
                    text.position = (left + self.pad + start * char_px(self.font_size * scale), baseline)
                start += len(part)

    def spot_in(self, area: Rect, where: str = "center") -> Rect:
        """Where :meth:`place_in` puts the box: centred in ``area``, or a band across its ``top``
        or ``bottom``."""
        left, bottom, width, height = area
        own_w, own_h = self.size()
        own_w, own_h = min(own_w, width), min(own_h, height)
        if where == "top":
            return left, bottom + height - own_h, width, own_h
        if where == "bottom":
            return left, bottom, width, own_h
        return left + (width - own_w) // 2, bottom + (height - own_h) // 2, own_w, own_h

    def place_in(self, area: Rect, where: str = "center") -> None:
        """Place the box inside ``area``: centred, or as a band across its ``top`` or ``bottom``."""
        self.place(*self.spot_in(area, where))

    def row_at(self, px: float, py: float) -> int | None:
        """The index of the line under framebuffer point (px, py), or None."""
        for i, (left, bottom, width, height) in enumerate(self.rows):
            if left <= px < left + width and bottom <= py < bottom + height:
                return i
        return None

    def highlight(self, index: int, color: tuple[int, int, int, int]) -> None:
        """Fill line ``index``'s row (call between the box and its text: see :meth:`draw`)."""
        if 0 <= index < len(self.rows):
            arcade.draw_lbwh_rectangle_filled(*self.rows[index], color)

    def draw(self, under_text: int | None = None, under_color: tuple[int, int, int, int] = (50, 50, 80, 255)) -> None:
        """The box, line ``under_text`` highlighted, then the lines."""
        if not self.lines:
            return
        if self.fill is not None:
            arcade.draw_lbwh_rectangle_filled(*self.rect, self.fill)
        if self.border is not None:
            arcade.draw_lbwh_rectangle_outline(*self.rect, self.border, 1)
        if under_text is not None:
            self.highlight(under_text, under_color)
        self.batch.draw()

    def strings(self) -> list[str]:
        """The lines as plain strings: for tests and tools."""
        return [t for t, _, _ in self.lines]


def set_text(text: arcade.Text, value: str, color: tuple[int, int, int, int] | None = None,
             size: float | None = None) -> None:
    """Change what a Text shows, touching only what differs: pyglet lays a Text out again on every
    change of its string, colour or size, and that layout is the expensive part of drawing text."""
    if text.text != value:
        text.text = value
    if color is not None and tuple(text.color) != color:
        text.color = color
    if size is not None and text.font_size != size:
        text.font_size = size
