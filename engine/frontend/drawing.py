"""The window's drawing: what one frame shows, brought in line with the game, and the order it is drawn in.

:class:`Painter` is an object the window owns: the window holds the parts (grid, camera, sidebar
or HUD, log, prompt view, end screen, help screen, tooltip) and lays them out; the painter fills
them from the game (:meth:`Painter.refresh`, only what changed) and draws them
(:meth:`Painter.draw`, called through the window's ``on_draw`` by
:class:`engine.frontend.loop.OnDemand`, never on a timer). What it keeps is its own: the wall
view and the end screens' profile lines.
The panels (prompt, end and help screens) come last, opaque, over the map: on a small
board they sit beside it (:mod:`engine.frontend.aside`).
It also says what the mouse points at: a map cell's description, the monster of a sidebar row,
outlined on the map.

Coordinates are framebuffer pixels, as in the window's layout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from engine.core.model.components import Position
from engine.core.play import status as hud_words
from engine.core.play.prompts import describe_cell
from engine.frontend.compose import compose
from engine.frontend.screens import won
from engine.frontend.walls import WallView, rule_of
from engine.persist import keeper

if TYPE_CHECKING:
    from engine.core.turn.game import Game
    from engine.frontend.controls import Controls

HIGHLIGHT = (255, 240, 120, 255)  # a monster whose sidebar row the mouse is on
POINTED = (200, 200, 210, 255)  # the map cell the mouse is on


def profile_line(game: Game) -> list[str]:
    """The profile's counters for the end screens (runs, deaths, wins, deepest, gold), or nothing
    when no run of this preset was recorded (a tool's or a test's game: zeros would mislead)."""
    from engine.persist import profile

    recorded = (profile.load()["presets"].get(game.rules.name) or {}).get("runs", 0)
    return keeper.death_lines(game)[:1] if recorded else []


def started(game: Game) -> bool:
    """Whether the game has a run (an inert game, behind the title screen, has none)."""
    return getattr(game, "state", None) is not None


class Painter:
    """Refreshing and drawing a frame of ``window``'s parts (the
    :class:`~engine.frontend.window.GameWindow`, which owns this object); ``controls`` says what the mouse
    points at and whether help is open."""

    def __init__(self, window: arcade.Window, controls: Controls) -> None:
        self.window = window
        self.controls = controls
        self.pointer = controls.pointer
        self.walls: WallView | None = None
        self.profile_lines: list[str] = []  # the profile, shown on the death and victory screens
        self._profile_for: tuple = ()  # the (game, run) whose profile lines those are

    def refresh(self) -> None:
        """Bring the view, the sprites and the texts in line with the game (only what changed)."""
        window = self.window
        game = window.game
        shape = game.level.terrain.shape
        view = window.map_view
        if game.level is not window.laid_out_for or view is None or view.map_size != (shape[1], shape[0]):
            window.layout()  # a new level: the camera starts on the player
        window.map_view.follow(*game.position(game.player))
        window.grid.place(window.map_view)
        ys, xs = window.map_view.window()
        cells = compose(game, ys, xs, window.tables, window.look, window.names, self.wall_view())
        hover = self.pointer.hover if self.pointer.pointing else None
        window.prompt_view.update(game, window.map_rect, window.map_view, hover, self.screen_rect())
        window.prompt_view.tint(cells, window.map_view)
        window.grid.update(cells)
        about = self.hover_text()
        if window.look.sidebar:
            window.sidebar.update(game, about)
            window.sidebar.hovered = self._hovered_row()
            window.log.update(game)
            window.hud.update_death(game)
        else:
            window.hud.update(game, window.look.warn_low_hp)
            window.tooltip.show([(about, (225, 225, 225))] if about else [])
            if about:
                window.tooltip.place_in(window.map_rect, "top")
        if (self.ended() and window.look.death != "dim") or won(game):
            if self._profile_for != (id(game), game.run_number):  # read once per ended run
                self._profile_for = (id(game), game.run_number)
                self.profile_lines = profile_line(game)
            window.end_screen.update(game, self.profile_lines, window.look.death_color)
        window.sounds.observe(game)

    def wall_view(self) -> WallView:
        """How walls are drawn: the preset's rule (its look), else the level's generator's when
        its walls are natural rock (each its glyph), else the tileset's."""
        window = self.window
        made_by = window.game.registry.generators.get(window.game.level.generator)
        rule = window.look.walls or ("facing" if made_by is not None and made_by.natural_walls else None) \
            or rule_of(window.textures.tileset)
        if self.walls is None or self.walls.rule != rule:
            self.walls = WallView(rule)
        return self.walls

    def screen_rect(self) -> tuple[int, int, int, int]:
        """The whole framebuffer, where a panel may go beside a small board."""
        width, height = self.window.get_framebuffer_size()
        return 0, 0, width, height

    def ended(self) -> bool:
        """The player is dead and the preset has a death screen (an empty title: none)."""
        window = self.window
        return not window.game.alive and bool(hud_words.line(window.game, "death_title"))

    def hover_text(self) -> str:
        """What the mouse points at, when no prompt is open: the map cell's description, or the
        monster of the sidebar row under it."""
        window = self.window
        if not self.pointer.pointing or window.session.prompt is not None:
            return ""
        if self.pointer.entity is not None:
            pos = window.game.world.try_get(self.pointer.entity, Position)
            return describe_cell(window.game, (pos.x, pos.y)) if pos is not None else ""
        return describe_cell(window.game, self.pointer.hover) if self.pointer.hover is not None else ""

    def highlighted(self) -> tuple[int, int] | None:
        """The map cell of the monster the mouse points at: on its sidebar row, or on its cell."""
        window = self.window
        if not self.pointer.pointing:
            return None
        if self.pointer.entity is None:
            row = window.sidebar.hovered if window.sidebar is not None else None
            return self.pointer.hover if row is not None else None  # a cell whose monster has a row
        pos = window.game.world.try_get(self.pointer.entity, Position)
        return (pos.x, pos.y) if pos is not None else None

    def _hovered_row(self) -> int | None:
        """The sidebar row of the monster the mouse points at (on its row, or on its cell)."""
        window = self.window
        if not self.pointer.pointing:
            return None
        for i, row in enumerate(window.sidebar.rows):
            entity = getattr(row, "entity", None)
            if entity is None:
                continue
            if entity == self.pointer.entity:
                return i
            pos = window.game.world.try_get(entity, Position)
            if pos is not None and (pos.x, pos.y) == self.pointer.hover:
                return i
        return None

    def draw_pointing(self) -> None:
        """The monster of the sidebar row (or the map cell) the mouse is on, outlined in the
        highlight's colour; an empty cell pointed at gets a thin grey outline (no prompt open:
        a prompt draws its own cursor)."""
        window = self.window
        cell = self.highlighted()
        if cell is None and self.pointer.pointing and self.pointer.hover is not None and window.session.prompt is None:
            rect = window.map_view.cell_rect(*self.pointer.hover)
            if rect is not None:
                arcade.draw_lbwh_rectangle_outline(*rect, POINTED, max(1, rect[2] // 16))
            return
        rect = window.map_view.cell_rect(*cell) if cell is not None else None
        if rect is not None:
            arcade.draw_lbwh_rectangle_outline(*rect, HIGHLIGHT, max(2, rect[2] // 8))

    def draw(self) -> None:
        """One frame: the title screen, or the game refreshed and drawn."""
        window = self.window
        if window.title_screen is not None or not started(window.game):
            window.clear()
            with window.ui_camera.activate():
                if window.title_screen is not None:
                    window.title_screen.draw(*window.get_framebuffer_size())
            return
        self.refresh()
        window.clear()
        window.grid.draw()
        with window.ui_camera.activate():
            window.animations.draw(window.map_view.cell_rect)
            if window.look.sidebar:
                window.sidebar.draw()
                window.log.draw()
            else:
                window.hud.draw()
            self.draw_pointing()
            if not window.look.sidebar:
                window.tooltip.draw()
            view, screen = window.map_view, self.screen_rect()
            if won(window.game):
                window.end_screen.draw(window.map_rect, window.player_screen()[1], view, screen)
            elif self.ended():
                if window.look.death == "dim":
                    window.hud.draw_dim_death(*window.get_framebuffer_size(), window.look.death_color)
                else:
                    window.end_screen.draw(window.map_rect, window.player_screen()[1], view, screen)
            window.prompt_view.draw(window.map_view)
            if self.controls.help_open:
                window.help_screen.draw(window.game, window.map_rect, view, screen)
