"""The glyph atlas: each glyph rendered once, on first use, white on transparent, from a monospace font.

A map cell is a sprite whose texture is one of these glyphs and whose colour tints it, so a cell
that changes colour costs no new texture. Glyphs are rendered with Pillow at the preset's cell
size (pixels) and drawn at integer zoom with nearest-neighbour sampling: pixel art stays crisp.

Letters keep the font's proportions, centred in the (square) cell. Box-drawing and block elements
are stretched to fill the whole cell so that walls drawn with them join up; the light and double
lines that joined walls use (:mod:`engine.kit.walls`) are drawn rather than taken from the font,
centred and of one weight, as terminals draw them: a font's are thin, and off centre once stretched.
"""

from __future__ import annotations

from pathlib import Path

import arcade
from PIL import Image, ImageDraw, ImageFont

FONT = ":resources:/fonts/ttf/Liberation/Liberation_Mono_Regular.ttf"
FONT_NAME = "Liberation Mono"
# The map uses the bold cut: at 12-16 px the regular strokes are one pixel of grey, hard to read.
MAP_FONT = ":resources:/fonts/ttf/Liberation/Liberation_Mono_Bold.ttf"

FILL_CELL = range(0x2500, 0x25A0)  # stretched to the cell's edges so lines and blocks connect
BLANK = " "
# box-drawing lines drawn by hand: glyph -> (the sides its arms reach: N E S W, double?)
_ARMS = {"─": "EW", "│": "NS", "┌": "ES", "┐": "SW", "└": "NE", "┘": "NW", "├": "NES", "┤": "NSW",
         "┬": "ESW", "┴": "NEW", "┼": "NESW"}
_DOUBLE = {"═": "EW", "║": "NS", "╔": "ES", "╗": "SW", "╚": "NE", "╝": "NW", "╠": "NES", "╣": "NSW",
           "╦": "ESW", "╩": "NEW", "╬": "NESW"}
LINES = {**{ch: (arms, False) for ch, arms in _ARMS.items()}, **{ch: (arms, True) for ch, arms in _DOUBLE.items()}}


# the glyphs whose ink reaches highest or lowest in most fonts: a size they do not fit is skipped
# without measuring all 94 (a window's start measured 9 sizes of them: 15 ms)
TALL = "|$()[]{}@_gjpqy"


def _ink_height(font: ImageFont.FreeTypeFont, glyphs: str) -> int:
    """From the highest to the lowest pixel of ink of ``glyphs``, each measured alone."""
    boxes = [font.getbbox(ch) for ch in glyphs]
    return max(b[3] for b in boxes) - min(b[1] for b in boxes)


def font_path(name: str = MAP_FONT) -> Path:
    return Path(arcade.resources.resolve(name))


class GlyphAtlas:
    """Textures for glyphs at ``cell`` x ``cell`` pixels, keyed by the character."""

    def __init__(self, cell: int, font: Path | None = None) -> None:
        if cell < 4:
            raise ValueError(f"cell size {cell} px is too small to draw a glyph")
        self.cell = cell
        self.font_file = font or font_path()
        self._font, self._top = self._fit_font(cell)
        # rendered on first use: a first frame needs a few dozen glyphs, not the 361 of ASCII,
        # Latin-1, box drawing and blocks (30 ms of a window's start)
        self._textures: dict[str, arcade.Texture] = {}

    def _fit_font(self, cell: int) -> tuple[ImageFont.FreeTypeFont, int]:
        """The largest size whose printable-ASCII ink (not the font's line box, which has spare
        leading) fits the cell; and the y offset that centres that ink vertically."""
        ascii_ = [chr(c) for c in range(0x21, 0x7F)]
        for size in range(cell * 3 // 2, 3, -1):
            font = ImageFont.truetype(str(self.font_file), size)
            if font.getlength("M") > cell or _ink_height(font, "|") > cell or _ink_height(font, TALL) > cell:
                continue  # too big already by a few glyphs: the whole set's ink can only be taller
            boxes = [font.getbbox(ch) for ch in ascii_]
            top, bottom = min(b[1] for b in boxes), max(b[3] for b in boxes)
            if bottom - top <= cell and font.getlength("M") <= cell:
                return font, (cell - (bottom - top)) // 2 - top
        return ImageFont.truetype(str(self.font_file), 4), 0

    def texture(self, glyph: str) -> arcade.Texture:
        """The texture for one character (rendered on first use)."""
        tex = self._textures.get(glyph)
        if tex is None:
            # A glyph's hit box is never used: the bounding box skips Arcade's outline tracing.
            tex = self._textures[glyph] = arcade.Texture(
                self.render(glyph), hash=f"glyph:{self.cell}:{ord(glyph)}",
                hit_box_algorithm=arcade.hitbox.algo_bounding_box,
            )
        return tex

    def __contains__(self, glyph: str) -> bool:
        return glyph in self._textures

    def __len__(self) -> int:
        return len(self._textures)

    def render(self, glyph: str) -> Image.Image:
        """One glyph as a cell-sized RGBA image: white, with the glyph's coverage as alpha."""
        cell = self.cell
        font = self._font
        advance = max(1, round(font.getlength("M")))
        mask = Image.new("L", (cell, cell), 0)
        if glyph in LINES:
            mask = lines(cell, *LINES[glyph])
        elif ord(glyph) in FILL_CELL:
            # Drawn in the font's own line box (advance x ascent+descent), then stretched to the
            # cell, so a line or a block reaches all four edges.
            ascent, descent = font.getmetrics()
            box = Image.new("L", (advance, ascent + descent), 0)
            ImageDraw.Draw(box).text((0, 0), glyph, font=font, fill=255)
            mask = box.resize((cell, cell), Image.Resampling.NEAREST)
        else:
            ImageDraw.Draw(mask).text(((cell - advance) // 2, self._top), glyph, font=font, fill=255)
        image = Image.new("RGBA", (cell, cell), (255, 255, 255, 0))
        image.putalpha(mask)
        return image


def lines(cell: int, arms: str, double: bool) -> Image.Image:
    """A box-drawing glyph as a coverage mask: an arm from the cell's middle to each side of
    ``arms`` (N E S W), a band of one line or, ``double``, two lines with a gap between them
    (drawn as a wide band with its middle cut out, so corners and crossings join as they should)."""
    weight = max(1, round(cell / 10)) if double else max(1, round(cell / 8))
    gap = max(1, round(cell / 8))
    band = 2 * weight + gap if double else weight
    mask = Image.new("L", (cell, cell), 0)
    draw = ImageDraw.Draw(mask)

    def arm(start: int, width: int, fill: int) -> None:
        end = start + width - 1  # the band's last pixel (rectangles are inclusive)
        boxes = {"N": (start, 0, end, end), "S": (start, start, end, cell - 1),
                 "W": (0, start, end, end), "E": (start, start, cell - 1, end)}
        for side in arms:
            draw.rectangle(boxes[side], fill=fill)

    start = (cell - band) // 2
    arm(start, band, 255)
    if double:
        arm(start + weight, gap, 0)
    return mask
