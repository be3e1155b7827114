"""The game window: the map through a camera, the sidebar or the preset's status line, frames on demand.

The window never decides a rule: keys go to the game as tokens (its :class:`Controls`, which
also reads the window's own keys: help, zoom, fullscreen, tileset, mute). This module makes the
window's parts, dresses them for a preset, lays them out, answers resizes and does what the
window's own keys ask (zoom, fullscreen, tileset); what a frame shows, and the order it is drawn
in, is its :class:`Painter`'s (:mod:`engine.frontend.drawing`). Both are objects the window owns
and hands itself to; the window passes them its input events and its ``on_draw``.

Coordinates: everything is laid out in framebuffer pixels (more than window units on a HiDPI
screen; :attr:`ratio` is the factor). The map's cells are whole pixels at an integer zoom (the
player's zoom times the rounded pixel ratio), so glyphs stay crisp; text is sized in the same
pixels and scales with the zoom.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import arcade
from arcade.types import LBWH

from engine.core.model.events import Event
from engine.core.play.session import Outcome, Session
from engine.core.turn.game import Game
from engine.frontend import glyphbytes
from engine.frontend import layout as sizes
from engine.frontend.animations import Animations
from engine.frontend.atlas import FONT
from engine.frontend.camera import Camera
from engine.frontend.compose import Names, Tables, look_for
from engine.frontend.controls import Controls, Pointer
from engine.frontend.drawing import Painter, started
from engine.frontend.grid import MapGrid
from engine.frontend.helpscreen import HelpScreen
from engine.frontend.hud import Hud
from engine.frontend.log import Log
from engine.frontend.loop import OnDemand
from engine.frontend.panel import TextBox
from engine.frontend.promptview import PromptView
from engine.frontend.screens import EndScreen
from engine.frontend.settings import MAX_ZOOM, Settings
from engine.frontend.sidebarview import Sidebar
from engine.frontend.sound import Sounds
from engine.frontend.tiles import DEFAULT_TILESET, Textures
from engine.frontend.title import Title, TitleScreen
from engine.kit.tiles import TilesetError
from engine.persist.datadir import warn_once

TOOLTIP_BG = (10, 10, 18, 220)


class GameWindow(arcade.Window):
    """The game's window. With ``title_screen`` (a :class:`~engine.frontend.title.Title`, or a
    saved run's summary) it opens on the title screen, and ``choose(choice)`` builds the game the
    player picks ("continue", "new" or "game:NAME"); ``game`` is then an inert game (or a stand-in)
    that only sizes the window. ``settings`` holds what the window remembers (see
    :mod:`engine.frontend.settings`); ``tilesets`` are the registered sets, ``tileset`` the one to
    start with and ``tileset_file`` the player's sheet for the file set.

    ``controls`` (:class:`~engine.frontend.controls.Controls`) reads the keys and the mouse
    (``pointer``: what the mouse points at); ``painter`` (:class:`~engine.frontend.drawing.Painter`)
    draws each frame."""

    def __init__(self, game: Game, *, zoom: int | None = None, visible: bool = True, title: str = "Undercroft",
                 title_screen: Title | dict | None = None, choose: Callable[[str], Game] | None = None,
                 settings: Settings | None = None, tilesets: dict | None = None, tileset: str | None = None,
                 tileset_file: Path | None = None, sound_player: Callable | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self.game = game
        self.session = Session.of(game)  # the player's keys on the game
        self.last_frame: Callable[[], None] | None = None  # drawn as a quit closes the window (--shot)
        self.zoom = max(1, min(MAX_ZOOM, zoom or self.settings["zoom"]))
        self.tilesets = tilesets if tilesets is not None else _builtin_tilesets()
        self.tileset_file = tileset_file
        self.names = Names()
        self.wanted_tileset = tileset
        self.tileset = self._start_tileset(tileset)
        try:
            self.textures = Textures(self.tilesets[self.tileset], cell=cell_size(game),
                                     file=self._file_for(self.tileset), names=self.names)
        except TilesetError:  # a remembered set that no longer builds: the glyphs, always there
            self.tileset = DEFAULT_TILESET
            self.textures = Textures(self.tilesets[DEFAULT_TILESET], cell=cell_size(game), file=None, names=self.names)
        width, height = sizes.initial_size(game.rules, self.textures.size, self.zoom, self.settings)
        # antialiasing off: multisampling would blur the pixel-art glyphs and costs a resolve pass
        super().__init__(width, height, title, resizable=True, visible=visible, antialiasing=False)
        self.frames = OnDemand(self)
        self.animations = Animations(self.frames.request, lambda: bool(self.settings["animations"]))
        # before the first Text: pyglet caches a font name's lookup, fallback and all
        arcade.load_font(FONT)
        glyphbytes.install()  # the glyphs of texts made without a Python loop per pixel
        self.background_color = arcade.color.BLACK
        self.title_screen = TitleScreen(title_screen, sizes.HUD_ROW_PX) if title_screen is not None else None
        self.choose = choose
        self.failure = None  # a chosen plugin's PluginFailure that closed the window, said when it ends
        self.sounds = Sounds(self.settings, player=sound_player)
        self.grid = MapGrid(self.textures, self.ctx)
        self.map_view: Camera | None = None
        self.ui_camera = arcade.Camera2D()
        self.laid_out_for: object = None  # the level the map's camera was laid out for
        self.controls = Controls(self)
        self.painter = Painter(self, self.controls)
        self.prompt_view: PromptView | None = None
        self.end_screen: EndScreen | None = None
        self.help_screen: HelpScreen | None = None
        self.tooltip: TextBox | None = None
        self.dress(game)
        if self.settings["fullscreen"] and visible:
            self.toggle_fullscreen(remember=False)

    # -- set-up ----------------------------------------------------------------------------
    def _start_tileset(self, wanted: str | None) -> str:
        """``--tileset``, else the preset's own (its ``look``), else the one the player last chose."""
        for name in (wanted, look_for(self.game.rules).tileset, self.settings["tileset"]):
            info = self.tilesets.get(name) if name else None
            if info is not None and (not info.needs_file or self.tileset_file is not None):
                return name  # type: ignore[return-value]
        return DEFAULT_TILESET

    def _file_for(self, name: str) -> Path | None:
        return self.tileset_file if self.tilesets[name].needs_file else None

    def dress(self, game: Game) -> None:
        """Look, tables, texts and layout for a game's preset (at start, and when the game changes)."""
        self.look = look_for(game.rules)
        self.tables = Tables(game.rules, self.look, self.names)
        if self.heard not in game.listeners:
            game.listeners.append(self.heard)
        self.layout()

    def heard(self, event: Event, game: Game) -> None:
        """The window's listener on ``Game.emit``: sounds for what happened."""
        self.sounds.listener(event, game)

    def heard_outcome(self, outcome: Outcome) -> None:
        """A key the player pressed (or a step of their travel) is done: its events animated (see
        :mod:`engine.frontend.animations`; ``--keys`` and replays press without this)."""
        if outcome.events and started(self.game) and self.animations.start(outcome.events, self.game.api.sees):
            self.frames.request()

    def set_game(self, game: Game) -> None:
        """Play another game in this window (the title screen's choice; it may be another preset)."""
        if self.heard in self.game.listeners:
            self.game.listeners.remove(self.heard)
        old_game, self.game = self.game, game
        self.session = Session.of(game)
        self.painter.profile_lines = []
        old_look, old_cell = self.look, self.textures.size
        self.dress(game)
        tileset = self._start_tileset(self.wanted_tileset)
        if tileset != self.tileset or cell_size(game) != cell_size(old_game):
            self.tileset = tileset  # another preset's own set, or its cell size: new textures
            self.textures = Textures(self.tilesets[tileset], cell=cell_size(game), file=self._file_for(tileset),
                                     names=self.names)
            self.grid.set_textures(self.textures)
        if self.look != old_look or self.textures.size != old_cell:
            self.set_size(*sizes.initial_size(game.rules, self.textures.size, self.zoom, self.settings))
            self.layout()

    def close(self) -> None:
        # pyglet's Window.__del__ calls close() again, and arcade's close() forgets the active
        # window unconditionally: a garbage-collected old window would orphan a newer one.
        if not getattr(self, "closed", True):
            last, self.last_frame = getattr(self, "last_frame", None), None
            if last is not None and getattr(self, "failure", None) is None:
                # a quit closes the window: what was asked of its last frame first (not after a
                # chosen plugin failed: drawing could fail the same way)
                last()
            if "frames" in self.__dict__:
                self.animations.skip(redraw=False)
                self.frames.cancel()
                if self.look.sidebar and not self.fullscreen:
                    self.settings["window_size"] = [int(v) for v in self.get_size()]
            super().close()

    # -- layout ----------------------------------------------------------------------------
    @property
    def ratio(self) -> float:
        """Framebuffer pixels per window unit (2 on a typical HiDPI screen)."""
        return self.get_framebuffer_size()[0] / max(1, self.get_size()[0])

    @property
    def pixel_zoom(self) -> int:
        """The map's zoom in framebuffer pixels: the player's zoom times the rounded pixel ratio."""
        return self.zoom * max(1, round(self.ratio))

    def layout(self) -> None:
        """Split the framebuffer into map, sidebar and log (or map and HUD), and size the texts."""
        fw, fh = self.get_framebuffer_size()
        rules = self.game.rules
        plan = sizes.plan(rules, self.look, (fw, fh), self.pixel_zoom)
        self.map_rect = plan.map
        self.ui_camera = arcade.Camera2D(viewport=LBWH(0, 0, fw, fh), position=(fw / 2, fh / 2))
        self.hud = Hud(plan.hud_rows, plan.row_px)
        self.hud.layout(fw, fh)
        self.sidebar = self.log = None
        if self.look.sidebar:
            self.sidebar = Sidebar(plan.row_px, Hud.font_size(plan.row_px))
            self.sidebar.layout(plan.sidebar)
            self.log = Log(plan.hud_rows, plan.row_px, Hud.font_size(plan.row_px))
            self.log.layout(0, 0, plan.map[2])  # under the map: its messages wrap to its width
        font = Hud.font_size(plan.row_px)
        self.prompt_view = PromptView(plan.row_px, font)
        self.end_screen = EndScreen(plan.row_px, font)
        self.help_screen = HelpScreen(plan.row_px, font)
        self.tooltip = TextBox(plan.row_px, font)
        self.tooltip.fill, self.tooltip.border = TOOLTIP_BG, None
        self.set_minimum_size(*sizes.minimum(self.textures.size, plan.row_px, self.look))
        if not started(self.game):  # an inert game behind the title screen: no level to show yet
            self.map_view = None
            return
        shape = self.game.level.terrain.shape
        origin = self.map_view.origin if self.map_view is not None else (0, 0)
        self.map_view = Camera((shape[1], shape[0]), plan.map, self.textures.size, self.pixel_zoom, origin)
        self.map_view.centre_on(*self.game.position(self.game.player))
        self.grid.place(self.map_view)
        self.laid_out_for = self.game.level  # laid out for this level: the first frame need not do it again

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The map cell under window point (px, py) (window units, y up, as mouse events give
        them), or None when the point is not over a shown cell."""
        if self.map_view is None:
            return None
        ratio = self.ratio
        return self.map_view.cell_at(px * ratio, py * ratio)

    def player_screen(self) -> tuple[float, float]:
        """The player's cell centre in framebuffer pixels."""
        rect = self.map_view.cell_rect(*self.game.position(self.game.player)) if self.map_view else None
        if rect is None:
            left, bottom, width, height = self.map_rect
            return left + width / 2, bottom + height / 2
        return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2

    def on_resize(self, width: int, height: int) -> None:
        if self._ready():
            self.layout()
            self.frames.request()

    def on_expose(self) -> None:
        if self._ready():
            self.frames.request()

    def _ready(self) -> bool:
        # pyglet may send resize/expose while arcade.Window.__init__ runs, before our parts exist
        return "map_view" in self.__dict__

    # -- the window's own keys ---------------------------------------------------------------
    def set_zoom(self, zoom: int) -> None:
        zoom = max(1, min(MAX_ZOOM, zoom))
        if zoom != self.zoom:
            self.zoom = zoom
            self.settings["zoom"] = zoom
            self.layout()
            self.frames.request()

    def toggle_fullscreen(self, remember: bool = True) -> None:
        try:
            self.set_fullscreen(not self.fullscreen)
        except Exception:  # headless, or a system that refuses: stay windowed
            return
        if remember:
            self.settings["fullscreen"] = bool(self.fullscreen)
        self.layout()
        self.frames.request()

    def next_tileset(self) -> str:
        """F2: the next registered set (the file set only when a file was given)."""
        usable = [n for n, info in sorted(self.tilesets.items()) if not info.needs_file or self.tileset_file]
        start = usable.index(self.tileset) if self.tileset in usable else -1
        for step in range(1, len(usable) + 1):
            name = usable[(start + step) % len(usable)]
            try:
                self.use_tileset(name)
                return name
            except TilesetError as e:
                warn_once(f"{e}; F2 skips it", key=f"tileset:{name}")
                continue  # a set that cannot be built now is skipped, said once
        return self.tileset

    def use_tileset(self, name: str) -> None:
        textures = Textures(self.tilesets[name], cell=cell_size(self.game), file=self._file_for(name), names=self.names)
        self.tileset, self.textures = name, textures
        if not self.tilesets[name].needs_file:
            self.settings["tileset"] = name
        self.grid.set_textures(textures)
        self.layout()
        self.frames.request()

    # -- input and drawing: the controls' and the painter's ----------------------------------
    @property
    def pointer(self) -> Pointer:
        """What the mouse points at (the controls' :class:`~engine.frontend.controls.Pointer`)."""
        return self.controls.pointer

    def press(self, token: str, *, repeat: bool = False, animate: bool = False) -> bool:
        """One key token (see :meth:`Controls.press`); returns whether a frame was requested."""
        return self.controls.press(token, repeat=repeat, animate=animate)

    def on_draw(self) -> None:
        self.painter.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self.controls.on_key_press(symbol, modifiers)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.controls.on_key_release(symbol, modifiers)

    def on_text(self, text: str) -> None:
        self.controls.on_text(text)

    def on_text_motion(self, motion: int) -> None:
        self.controls.on_text_motion(motion)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.controls.on_mouse_press(x, y, button, modifiers)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.controls.on_mouse_motion(x, y, dx, dy)

    def on_mouse_leave(self, x: int, y: int) -> None:
        self.controls.on_mouse_leave(x, y)


@functools.lru_cache(maxsize=1)
def _builtin_tilesets() -> dict:
    """The built-in sets, for a window opened without a registry's (tests, replays)."""
    from engine.core.loading.loader import load_registry

    return load_registry(entry_points=False).tilesets


def cell_size(game) -> int:
    """The preset's cell size in pixels (at least 4)."""
    return max(4, int(game.rules.cell))
