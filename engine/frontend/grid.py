"""The map as one SpriteList of glyph cells, updated only where a cell changed.

:func:`compose` turns the game into two arrays, the glyph (a code point) and the colour of every
cell, with numpy: terrain through lookup tables, then items, monsters and the player where the
player sees them now, then memory dimmed and the unknown blanked. :class:`MapGrid` keeps the last
arrays and touches only the sprites whose (glyph, colour) differ, so a turn costs a few sprite
updates, not thousands.

Terrain has no content rows: its look comes from the preset's ``tiles`` table
(``wall = { glyph = "#", color = [r, g, b], remembered = [r, g, b] }``, see
``GameRules.tile``): remembered cells take the ``remembered`` colour (dim, and for some presets
one grey for everything seen before).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
import numpy as np

from engine.core.components import Position, Renderable
from engine.frontend.atlas import BLANK, GlyphAtlas
from engine.kit.mapgen import FLOOR, STAIRS, WALL

if TYPE_CHECKING:
    from engine.core.game import Game
    from engine.core.rules import GameRules

TILE_CODES = {"wall": WALL, "floor": FLOOR, "stairs": STAIRS}


def tile_tables(rules: GameRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lookup tables indexed by terrain code: glyph code points (int32), visible colours and
    remembered colours (uint8, 3)."""
    size = max(TILE_CODES.values()) + 1
    glyphs = np.full(size, ord("?"), dtype=np.int32)
    colors = np.full((size, 3), 255, dtype=np.uint8)
    remembered = np.full((size, 3), 128, dtype=np.uint8)
    for name, code in TILE_CODES.items():
        tile = rules.tile(name)
        glyphs[code] = ord(tile["glyph"])
        colors[code] = tile["color"]
        remembered[code] = tile["remembered"]
    return glyphs, colors, remembered


def compose(
    game: Game, glyphs: np.ndarray, colors: np.ndarray, memory: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """What every cell shows now: (code points (h, w) int32, colours (h, w, 3) uint8)."""
    terrain = game.level.terrain
    floor = game.floor
    code = glyphs[terrain]
    color = colors[terrain].copy()
    visible = floor.visible
    # Lower layers first, so the player stands on an item and a monster hides the gold it stands on.
    drawn = sorted(
        ((r.layer, p.x, p.y, r.glyph, r.color) for _, (r, p) in game.world.query(Renderable, Position)),
        key=lambda t: t[0],
    )
    for _layer, x, y, glyph, rgb in drawn:
        if 0 <= y < code.shape[0] and 0 <= x < code.shape[1] and visible[y, x]:
            code[y, x] = ord(glyph[:1] or BLANK)
            color[y, x] = rgb[:3]
    remembered = floor.seen & ~visible
    color[remembered] = memory[terrain[remembered]]
    unknown = ~(floor.seen | visible)
    code[unknown] = ord(BLANK)
    color[unknown] = 0
    return code, color


class MapGrid:
    """One sprite per map cell, in world coordinates of ``cell`` pixels (y up, row 0 at the top)."""

    def __init__(self, atlas: GlyphAtlas) -> None:
        self.atlas = atlas
        self.cell = atlas.cell
        self.sprites = arcade.SpriteList(use_spatial_hash=False)
        self.shape: tuple[int, int] = (0, 0)
        self._code = np.zeros((0, 0), dtype=np.int32)
        self._color = np.zeros((0, 0, 3), dtype=np.uint8)
        self._tables: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.updated = 0  # sprites touched by the last update: what a turn really cost

    @property
    def size_px(self) -> tuple[int, int]:
        """The map's size in world pixels (zoom 1)."""
        return self.shape[1] * self.cell, self.shape[0] * self.cell

    def cell_center(self, x: int, y: int) -> tuple[float, float]:
        c = self.cell
        return x * c + c / 2, (self.shape[0] - 1 - y) * c + c / 2

    def _rebuild(self, shape: tuple[int, int]) -> None:
        """A level of another size: a fresh sprite per cell, all blank until the diff fills them."""
        self.shape = shape
        self.sprites.clear()
        blank = self.atlas.texture(BLANK)
        height, width = shape
        for y in range(height):
            for x in range(width):
                sprite = arcade.Sprite(blank)
                sprite.position = self.cell_center(x, y)
                sprite.color = (0, 0, 0, 255)
                self.sprites.append(sprite)
        self._code = np.full(shape, ord(BLANK), dtype=np.int32)
        self._color = np.zeros((*shape, 3), dtype=np.uint8)

    def update(self, game: Game) -> int:
        """Bring the sprites in line with the game; returns how many cells changed."""
        if self._tables is None:
            self._tables = tile_tables(game.rules)
        shape = game.level.terrain.shape
        if shape != self.shape:
            self._rebuild(shape)
        code, color = compose(game, *self._tables)
        changed = np.flatnonzero((code != self._code) | (color != self._color).any(axis=2))
        if changed.size:
            sprites = self.sprites
            texture = self.atlas.texture
            flat_code = code.ravel()
            flat_color = color.reshape(-1, 3)
            for i in changed.tolist():
                sprite = sprites[i]
                glyph = chr(flat_code[i])
                if sprite.texture is not texture(glyph):
                    sprite.texture = texture(glyph)
                r, g, b = flat_color[i].tolist()
                sprite.color = (r, g, b, 255)
            self._code, self._color = code, color
        self.updated = int(changed.size)
        return self.updated

    def cell_at(self, x: int, y: int) -> tuple[str, tuple[int, int, int]]:
        """What a cell shows after the last update: (glyph, colour)."""
        r, g, b = self._color[y, x].tolist()
        return chr(self._code[y, x]), (r, g, b)

    def draw(self) -> None:
        self.sprites.draw(pixelated=True)
