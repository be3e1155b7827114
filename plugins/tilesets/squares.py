"""Flat squares: walls, stairs and exits, the player, monsters and items each drawn as a square of
the cell's colour, as the Godot lesson 28 draws its board with ColorRects. The floor is left to its
glyph (lesson28's is a space: its floor is the window's checkerboard, a preset ``look``).

Each square is inset from its cell by the lesson's margins, given in 64ths of a cell (its tiles are
64 px): a wall 2, the exit 8, an enemy 10. The lesson draws its player as a sprite; here the player
is a square like the enemies', items a smaller one. Squares are white and tinted by the cell's
colour, so a preset's colours (and the remembered ones) apply as they do to glyphs."""

from __future__ import annotations

from engine import hookimpl
from engine.kit.tiles import Tile, TileContext, pick

# name (or the part before ":") -> margin in 64ths of the cell, on each side
MARGINS = {"wall": 2, "stairs": 8, "exit": 8, "player": 10, "monster": 10, "item": 16}


class Squares:
    def __init__(self, ctx: TileContext) -> None:
        self.size = (ctx.cell, ctx.cell)
        self._tiles: dict[int, Tile] = {}

    def tile(self, name: str, glyph: str) -> Tile | None:
        margin = pick(name, glyph, MARGINS)  # "monster:rat" -> "monster"
        return None if margin is None else self._square(margin)

    def _square(self, margin: int) -> Tile:
        if margin not in self._tiles:
            from PIL import Image, ImageDraw

            side = self.size[0]
            inset = round(side * margin / 64)
            image = Image.new("RGBA", self.size, (0, 0, 0, 0))
            far = side - 1 - inset  # the rectangle's corners are inclusive
            ImageDraw.Draw(image).rectangle((inset, inset, far, far), fill=(255, 255, 255, 255))
            self._tiles[margin] = Tile(image, tinted=True)
        return self._tiles[margin]


@hookimpl
def register_tilesets(register):
    register("squares", Squares, summary="flat squares of each thing's colour on its cell (Godot lesson 28's look)")
