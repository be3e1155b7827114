"""CP437 tilesheets: any PNG a player already has in the Dwarf Fortress / libtcod layout (16 rows
of 16 glyphs in code-page-437 order; the cell size is the image's size / 16). Chosen with
``--tileset FILE.png``; a glyph the code page lacks falls back to the glyph atlas.

Grey sheets (white glyphs on black, or on magenta) are tinted by each cell's colour, as the game's
glyphs are; a sheet drawn in colour keeps its colours."""

from __future__ import annotations

from engine import hookimpl
from engine.kit.tiles import CP437_INDEX, Tile, TileContext, is_grey, load_sheet


class Sheet:
    walls = "lines"  # code page 437 has the box-drawing lines: walls joined (engine.frontend.walls)

    def __init__(self, ctx: TileContext) -> None:
        if ctx.file is None:
            raise ValueError("the cp437 tileset needs a file: --tileset FILE.png")
        images, self.size = load_sheet(ctx.file)
        self.tiles = [Tile(image, tinted=is_grey(image)) for image in images]

    def tile(self, name: str, glyph: str) -> Tile | None:
        index = CP437_INDEX.get(glyph)
        return None if index is None else self.tiles[index]


@hookimpl
def register_tilesets(register):
    register("cp437", Sheet, needs_file=True,
             summary="a CP437 tilesheet PNG (--tileset FILE.png): 16x16 glyphs, the cell size read from the image")
