"""The glyph tileset: every cell drawn as its glyph from the window's glyph atlas (a monospace font
rendered once, tinted per cell). It maps nothing itself: returning None for a tile is how a set
says "draw the glyph", so this set is exactly the atlas, at the preset's cell size."""

from __future__ import annotations

from engine import hookimpl
from engine.kit.tiles import Tile


class Glyphs:
    walls = "lines"  # walls joined with box drawing (engine.frontend.walls)

    def __init__(self, cell: int) -> None:
        self.size = (cell, cell)

    def tile(self, name: str, glyph: str) -> Tile | None:
        return None


@hookimpl
def register_tilesets(register):
    register("glyphs", lambda ctx: Glyphs(ctx.cell), summary="the glyph atlas: a monospace font, one colour per cell")
