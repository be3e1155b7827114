"""The map on screen: a fixed pool of sprites, one per viewport cell, over one background quad.

The pool is sized to the viewport (:class:`engine.frontend.camera.Camera`), never to the map: when
the camera moves, the same sprites are re-pointed at other cells' textures and colours. A cell's
sprite is made the first time the cell shows something: an unknown cell draws nothing, and early
in a level most of the view is unknown (3,440 sprites made at the start cost a window 35 ms before
its first frame; the few hundred it sees, a tenth of that). Each frame
:func:`engine.frontend.compose.compose` builds the viewport's cells, and only the sprites whose
(glyph, name, colour, state) differ are touched, so a turn that moves no view costs a few sprite
updates and a frame costs the same on any map size.

Backgrounds are one texture of one texel per cell, drawn stretched (nearest) under the glyphs with
a small shader: a second layer of a sprite per cell costs ~40 ms a frame on a software renderer
(llvmpipe, 80x50 cells: every quad blended), the texture ~4 ms, whatever the number of cells.
"""

from __future__ import annotations

import arcade
import numpy as np
from arcade.gl import geometry
from arcade.types import LBWH

from engine.frontend.camera import Camera
from engine.frontend.compose import SEEN, UNKNOWN, Cells
from engine.frontend.tiles import Textures

WHITE = (255, 255, 255, 255)
MEMORY_TINT = (95, 95, 115, 255)  # untinted art (sprites) on a remembered cell: darkened

_VERTEX = """#version 330
in vec2 in_vert;
in vec2 in_uv;
out vec2 uv;
void main() { gl_Position = vec4(in_vert, 0.0, 1.0); uv = in_uv; }
"""
_FRAGMENT = """#version 330
uniform sampler2D cells;
in vec2 uv;
out vec4 color;
void main() { color = texture(cells, uv); }
"""


class Background:
    """One RGBA texel per viewport cell, drawn over the viewport's rectangle."""

    def __init__(self, ctx: arcade.ArcadeContext) -> None:
        self.ctx = ctx
        self.program = ctx.program(vertex_shader=_VERTEX, fragment_shader=_FRAGMENT)
        self.quad = geometry.quad_2d_fs()
        self.texture = None
        self.any = False  # all black: nothing to draw

    def write(self, bg: np.ndarray) -> None:
        rows, cols = bg.shape[:2]
        if self.texture is None or self.texture.size != (cols, rows):
            self.texture = self.ctx.texture((cols, rows), components=4, filter=(self.ctx.NEAREST, self.ctx.NEAREST))
        rgba = np.empty((rows, cols, 4), dtype=np.uint8)
        rgba[..., :3] = bg[::-1]  # texture row 0 is the bottom; our row 0 is the top
        rgba[..., 3] = 255
        self.texture.write(rgba.tobytes())
        self.any = bool(bg.any())

    def draw(self, rect: tuple[int, int, int, int]) -> None:
        if self.texture is None or not self.any:
            return
        saved = self.ctx.viewport
        self.ctx.viewport = rect
        self.texture.use(0)
        self.quad.render(self.program)
        self.ctx.viewport = saved


class MapGrid:
    """The sprites of the viewport's cells (``shape`` = (cols, rows)), and their background."""

    def __init__(self, textures: Textures, ctx: arcade.ArcadeContext) -> None:
        self.textures = textures
        self.sprites = arcade.SpriteList(use_spatial_hash=False)  # the sprites made so far, in the order made
        self.pool: list[arcade.Sprite | None] = []  # per viewport cell (row by row): its sprite, once made
        self._made = np.zeros(0, dtype=bool)
        self.background = Background(ctx)
        self.shape: tuple[int, int] = (0, 0)
        self.zoom = 0
        self.origin: tuple[int, int] = (0, 0)
        self.camera: arcade.Camera2D | None = None
        self.rect = (0, 0, 1, 1)
        self._last: tuple[np.ndarray, ...] | None = None
        self.cells: Cells | None = None
        self.updated = 0  # sprites touched by the last update: what a turn really cost

    def set_textures(self, textures: Textures) -> None:
        self.textures = textures
        self.shape, self._last = (0, 0), None  # the cell size may differ: a new pool

    def _rebuild(self, cols: int, rows: int, zoom: int) -> None:
        """A new pool for a new viewport shape or zoom; no sprite until the diff shows its cell."""
        self.shape, self.zoom = (cols, rows), zoom
        self.sprites.clear()
        self.pool = [None] * (cols * rows)
        self._made = np.zeros(cols * rows, dtype=bool)  # the cells of the pool that have their sprite
        self._last = None

    def _make(self, i: int) -> arcade.Sprite:
        """The sprite of viewport cell ``i`` (row by row), blank, in its place."""
        cols, rows = self.shape
        row, col = divmod(i, cols)
        cw, ch = self.textures.size
        sprite = arcade.Sprite(self.textures.atlas.texture(" "), scale=0)
        sprite.position = ((col + 0.5) * cw * self.zoom, (rows - 1 - row + 0.5) * ch * self.zoom)
        sprite.color = (0, 0, 0, 255)
        self.pool[i] = sprite
        self._made[i] = True
        self.sprites.append(sprite)
        return sprite

    def place(self, camera: Camera) -> None:
        """Size the pool and the drawing camera to the viewport."""
        cols, rows = camera.shape
        if (cols, rows) != self.shape or camera.zoom != self.zoom:
            self._rebuild(cols, rows, camera.zoom)
        self.origin = camera.origin
        rect = camera.rect
        if rect != self.rect or self.camera is None:
            self.rect = rect
            left, bottom, width, height = rect
            self.camera = arcade.Camera2D(viewport=LBWH(left, bottom, width, height), position=(width / 2, height / 2))

    def update(self, cells: Cells) -> int:
        """Bring the sprites in line with ``cells``; returns how many changed."""
        self.cells = cells
        self.background.write(cells.bg)
        under = cells.under if cells.under is not None else np.zeros_like(cells.name)
        under_code = cells.under_code if cells.under_code is not None else np.zeros_like(cells.code)
        friend = cells.friend if cells.friend is not None else np.zeros(cells.code.shape, dtype=bool)
        now = (cells.code, cells.name, cells.fg, cells.state, under, friend)
        if self._last is None:
            changed = np.arange(cells.code.size)
        else:
            code, name, fg, state, was_under, was_friend = self._last
            changed = np.flatnonzero((cells.code != code) | (cells.name != name) | (cells.state != state)
                                     | (under != was_under) | (friend != was_friend) | (cells.fg != fg).any(axis=2))
        pool, get, zoom = self.pool, self.textures.get, self.zoom
        codes, names = cells.code.ravel().tolist(), cells.name.ravel().tolist()
        fgs, states = cells.fg.reshape(-1, 3), cells.state.ravel()
        layered = self.textures.sprites  # a sprite set: things over the terrain's picture
        unders, under_codes, friends = under.ravel(), under_code.ravel(), friend.ravel()
        # an unknown cell without a sprite has nothing to change (most of the view, early on)
        touched = changed[(states[changed] != UNKNOWN) | self._made[changed]]
        for i in touched.tolist():
            sprite = pool[i]
            if states[i] == UNKNOWN:
                # a sprite of size 0 draws no pixels: on a software renderer blank quads still
                # cost their fill, and early in a level most of the view is unknown
                if sprite is not None and sprite.scale_x != 0:
                    sprite.scale = 0
                continue
            if sprite is None:
                sprite = self._make(i)
            if sprite.scale_x != zoom:
                sprite.scale = zoom
            if layered:
                texture, tinted = get(names[i], codes[i], int(unders[i]), int(under_codes[i]), tuple(fgs[i].tolist()),
                                      bool(friends[i]))
            else:
                texture, tinted = get(names[i], codes[i])
            if sprite.texture is not texture:
                sprite.texture = texture
            if tinted:
                r, g, b = fgs[i].tolist()
                sprite.color = (r, g, b, 255)
            else:
                sprite.color = WHITE if states[i] == SEEN else MEMORY_TINT
        self._last = now
        self.updated = int(changed.size)
        return self.updated

    def shown(self, x: int, y: int) -> tuple[str, tuple[int, int, int]] | None:
        """What map cell (x, y) shows after the last update: (glyph, colour); None off the view."""
        cols, rows = self.shape
        col, row = x - self.origin[0], y - self.origin[1]
        if self.cells is None or not (0 <= col < cols and 0 <= row < rows):
            return None
        r, g, b = self.cells.fg[row, col].tolist()
        return chr(self.cells.code[row, col]), (r, g, b)

    def draw(self) -> None:
        self.background.draw(self.rect)
        if self.camera is not None:
            with self.camera.activate():
                self.sprites.draw(pixelated=True)
