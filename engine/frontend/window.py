"""The game window: the map grid above, the HUD below, keys in, frames out on demand.

The window never decides a rule: a key becomes a token and goes to ``game.press``. It handles only
what is about the window: the help screen (command ``help``), zoom (ctrl + / ctrl -), resizing,
and stopping a held key when a monster comes into view.

Coordinates: the map is drawn through a Camera2D at an integer zoom, positioned so every cell edge
lands on a whole screen pixel (crisp glyphs); the HUD is drawn in plain window pixels.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
import pyglet
from arcade.types import LBWH

from engine.core import limits
from engine.core import status as hud_words
from engine.core.game import Game
from engine.core.rules import GameRules
from engine.frontend.atlas import FONT, GlyphAtlas
from engine.frontend.grid import MapGrid
from engine.frontend.hud import Hud
from engine.frontend.input import KeyReader, Token, Zoom
from engine.frontend.loop import OnDemand
from engine.frontend.title import TitleScreen

MAX_ZOOM = limits.MAX_ZOOM
HUD_ROW_PX = 20  # the tallest HUD text row, in pixels


class GameWindow(arcade.Window):
    """The game's window. With ``title`` (a saved run's summary) it opens on the title screen, and
    ``choose(choice)`` builds the game the player picks ("continue" or "new"); ``game`` is then a
    stand-in that only sizes the window."""

    def __init__(self, game: Game, *, zoom: int = 1, visible: bool = True, title: str = "Undercroft",
                 title_screen: dict | None = None, choose: Callable[[str], Game] | None = None) -> None:
        self.game = game
        self.zoom = max(1, min(MAX_ZOOM, zoom))
        width, height = self.size_for(game.rules)
        # antialiasing off: multisampling would blur the pixel-art glyphs and costs a resolve pass
        super().__init__(width, height, title, resizable=True, visible=visible, antialiasing=False)
        self.frames = OnDemand(self)
        # before the first Text: pyglet caches a font name's lookup, fallback and all
        arcade.load_font(FONT)
        self.background_color = arcade.color.BLACK
        self.reader = KeyReader()
        self.help_open = False
        self.repeat_blocked = False  # a held key stopped because a monster came into view
        self.camera = arcade.Camera2D()
        self.title_screen = TitleScreen(title_screen, HUD_ROW_PX) if title_screen else None
        self.choose = choose
        self.profile_lines: list[str] = []  # the profile, shown on the death screen
        self.dress(game.rules)

    def size_for(self, rules: GameRules) -> tuple[int, int]:
        """The window for a preset: its map at the current zoom, its HUD rows below."""
        cell = max(4, int(rules.cell))
        rows = max(3, int(rules.hud_rows))
        return rules.width * cell * self.zoom, rules.height * cell * self.zoom + rows * min(cell, HUD_ROW_PX)

    def dress(self, rules: GameRules) -> None:
        """Glyphs, grid and HUD for a preset's cell size and HUD rows. HUD text rows are at most
        HUD_ROW_PX tall: a board of 64-px tiles still gets a readable status line."""
        self.cell = max(4, int(rules.cell))
        rows = max(3, int(rules.hud_rows))
        self.atlas = GlyphAtlas(self.cell)
        self.grid = MapGrid(self.atlas)
        self.hud = Hud(rows, min(self.cell, HUD_ROW_PX))
        self.set_minimum_size(min(self.width, self.cell * 24), min(self.height, self.cell * 8))
        self.layout()

    def set_game(self, game: Game) -> None:
        """Play another game in this window (the title screen's choice; it may be another preset)."""
        self.game = game
        self.profile_lines = []
        if self.size_for(game.rules) != self.get_size():
            self.set_size(*self.size_for(game.rules))
        self.dress(game.rules)

    def close(self) -> None:
        # pyglet's Window.__del__ calls close() again, and arcade's close() forgets the active
        # window unconditionally: a garbage-collected old window would orphan a newer one.
        if not getattr(self, "closed", True):
            if "frames" in self.__dict__:
                self.frames.cancel()
            super().close()

    # -- layout --------------------------------------------------------------------------
    @property
    def map_rect(self) -> tuple[int, int, int, int]:
        """The map area in window pixels: left, bottom, width, height (everything above the HUD)."""
        return 0, self.hud.height, self.width, max(1, self.height - self.hud.height)

    def layout(self) -> None:
        left, bottom, width, height = self.map_rect
        self.camera = arcade.Camera2D(viewport=LBWH(left, bottom, width, height), zoom=self.zoom)
        self.hud.layout(self.width, self.height)

    def map_offset(self) -> tuple[int, int]:
        """Where the map's bottom-left corner lands in the map area, in whole screen pixels:
        centred when the map fits, else following the player and clamped to the map's edges."""
        _, _, vw, vh = self.map_rect
        height, width = self.game.level.terrain.shape  # the game's, not the grid's: may be newer
        mw, mh = width * self.cell * self.zoom, height * self.cell * self.zoom
        px, py = self.world_xy(*self.game.position(self.game.player))

        def axis(view: int, size: int, at: float) -> int:
            if size <= view:
                return (view - size) // 2
            return int(min(0, max(view - size, view // 2 - round(at * self.zoom))))

        return axis(vw, mw, px), axis(vh, mh, py)

    def player_screen(self) -> tuple[float, float]:
        """The player's cell centre in window pixels."""
        left, bottom, _, _ = self.map_rect
        ox, oy = self.map_offset()
        px, py = self.world_xy(*self.game.position(self.game.player))
        return left + ox + px * self.zoom, bottom + oy + py * self.zoom

    def world_xy(self, x: int, y: int) -> tuple[float, float]:
        """A cell's centre in world pixels (zoom 1, y up, row 0 at the top), as the grid places it."""
        height = self.game.level.terrain.shape[0]
        return (x + 0.5) * self.cell, (height - 1 - y + 0.5) * self.cell

    def place_camera(self) -> None:
        # screen = world * zoom + offset; Camera2D maps ``position`` to the viewport's centre
        _, _, vw, vh = self.map_rect
        ox, oy = self.map_offset()
        self.camera.position = ((vw / 2 - ox) / self.zoom, (vh / 2 - oy) / self.zoom)

    def set_zoom(self, zoom: int) -> None:
        zoom = max(1, min(MAX_ZOOM, zoom))
        if zoom != self.zoom:
            self.zoom = zoom
            self.layout()
            self.frames.request()

    # -- drawing -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Bring the sprites and the HUD strings in line with the game (only what changed)."""
        self.grid.update(self.game)
        self.hud.update(self.game)

    def on_draw(self) -> None:
        if self.title_screen is not None:
            self.clear()
            self.title_screen.draw(self.width, self.height)
            return
        self.refresh()
        self.clear()
        self.place_camera()
        with self.camera.activate():
            self.grid.draw()
        self.default_camera.use()
        self.hud.draw()
        if not self.game.alive and hud_words.line(self.game, "death_title"):
            if not self.profile_lines:
                from engine.persist import keeper

                self.profile_lines = keeper.death_lines()[:1]  # runs, deaths, deepest, gold
            self.hud.draw_death(self.map_rect, self.player_screen()[1], self.profile_lines)
        if self.help_open:
            self.hud.draw_help(self.game, self.width, self.height)

    def on_resize(self, width: int, height: int) -> None:
        if self._ready():
            self.layout()
            self.frames.request()

    def on_expose(self) -> None:
        if self._ready():
            self.frames.request()

    def _ready(self) -> bool:
        # pyglet may send resize/expose while arcade.Window.__init__ runs, before our parts exist
        return "camera" in self.__dict__

    # -- keys ----------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self.repeat_blocked = False  # a new press is deliberate: walking may resume
        self._handle(self.reader.key_press(symbol, modifiers))

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.reader.key_release(symbol, modifiers)
        self.repeat_blocked = False

    def on_text(self, text: str) -> None:
        self._handle(self.reader.text(text))

    def on_text_motion(self, motion: int) -> None:
        self._handle(self.reader.text_motion(motion))

    def press_title(self, token: str) -> bool:
        choice = self.title_screen.choice(token) if self.title_screen else None
        if choice is None:
            return False
        if choice == "quit":
            self.game.quit_requested = True
            self.close()
            pyglet.app.exit()
            return False
        self.title_screen = None
        if self.choose is not None:
            self.set_game(self.choose(choice))
        self.frames.request()
        return True

    def _handle(self, event: Token | Zoom | None) -> None:
        if isinstance(event, Zoom):
            self.set_zoom(self.zoom + event.step)
        elif isinstance(event, Token):
            self.press(event.token, repeat=event.repeat)

    def press(self, token: str, *, repeat: bool = False) -> bool:
        """One key token, as from the keyboard; returns whether a frame was requested."""
        if self.title_screen is not None:
            return self.press_title(token)
        command = self.game.command(token)  # parsed once: game.press is given it
        if self.help_open:
            if token == "esc" or (command is not None and command.name == "help"):
                self.help_open = False
                self.frames.request()
                return True
            return False
        if command is not None and command.name == "help":
            self.help_open = True
            self.frames.request()
            return True
        if repeat and (self.repeat_blocked or not self.game.rules.key_repeat):
            return False
        changed = self.game.press(token, command)
        if self.game.new_in_view:
            self.repeat_blocked = True  # ignore auto-repeats until the key is released
        if self.game.quit_requested:
            self.close()
            pyglet.app.exit()
            return False
        if changed:
            self.frames.request()
        return changed
