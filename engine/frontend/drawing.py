"""The window's drawing: what one frame shows, brought in line with the game, and the order it is drawn in.

:class:`Drawing` is mixed into :class:`engine.frontend.window.GameWindow`, which owns the parts
(grid, camera, sidebar or HUD, log, prompt view, end screen, help screen, tooltip) and lays them
out; this module fills them from the game (:meth:`Drawing.refresh`, only what changed) and draws
them (:meth:`Drawing.on_draw`, called by :class:`engine.frontend.loop.OnDemand`, never on a
timer). The panels (prompt, end and help screens) come last, opaque, over the map: on a small
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


class Drawing:
    """Refreshing and drawing a frame; expects the GameWindow's parts (game, look, map_view, grid,
    sidebar, log, hud, prompt view, end screen, help screen, tooltip, the pointer's hover state...)."""

    def refresh(self) -> None:
        """Bring the view, the sprites and the texts in line with the game (only what changed)."""
        game = self.game
        shape = game.level.terrain.shape
        if game.level is not self._level or self.map_view is None or self.map_view.map_size != (shape[1], shape[0]):
            self._level = game.level
            self.layout()  # a new level: the camera starts on the player
        self.map_view.follow(*game.position(game.player))
        self.grid.place(self.map_view)
        ys, xs = self.map_view.window()
        cells = compose(game, ys, xs, self.tables, self.look, self.names, self.wall_view())
        hover = self.hover if self.pointing else None
        self.prompt_view.update(game, self.map_rect, self.map_view, hover, self.screen_rect())
        self.prompt_view.tint(cells, self.map_view)
        self.grid.update(cells)
        about = self.hover_text()
        if self.look.sidebar:
            self.sidebar.update(game, about)
            self.sidebar.hovered = self._hovered_row()
            self.log.update(game)
            self.hud.update_death(game)
        else:
            self.hud.update(game, self.look.warn_low_hp)
            self.tooltip.show([(about, (225, 225, 225))] if about else [])
            if about:
                self.tooltip.place_in(self.map_rect, "top")
        if (self.ended() and self.look.death != "dim") or won(game):
            if self._profile_for != (id(game), game.run):  # read once per ended run
                self._profile_for = (id(game), game.run)
                self.profile_lines = profile_line(game)
            self.end_screen.update(game, self.profile_lines, self.look.death_color)
        self.sounds.observe(game)

    def wall_view(self) -> WallView:
        """How walls are drawn: the preset's rule (its look), else the level's generator's when
        its walls are natural rock (each its glyph), else the tileset's."""
        made_by = self.game.registry.generators.get(self.game.level.generator)
        rule = self.look.walls or ("facing" if made_by is not None and made_by.natural_walls else None) \
            or rule_of(self.textures.tileset)
        if getattr(self, "_walls", None) is None or self._walls.rule != rule:
            self._walls = WallView(rule)
        return self._walls

    def screen_rect(self) -> tuple[int, int, int, int]:
        """The whole framebuffer, where a panel may go beside a small board."""
        width, height = self.get_framebuffer_size()
        return 0, 0, width, height

    def ended(self) -> bool:
        """The player is dead and the preset has a death screen (an empty title: none)."""
        return not self.game.alive and bool(hud_words.line(self.game, "death_title"))

    def hover_text(self) -> str:
        """What the mouse points at, when no prompt is open: the map cell's description, or the
        monster of the sidebar row under it."""
        if not self.pointing or self.session.prompt is not None:
            return ""
        if self.hover_entity is not None:
            pos = self.game.world.try_get(self.hover_entity, Position)
            return describe_cell(self.game, (pos.x, pos.y)) if pos is not None else ""
        return describe_cell(self.game, self.hover) if self.hover is not None else ""

    def highlighted(self) -> tuple[int, int] | None:
        """The map cell of the monster the mouse points at: on its sidebar row, or on its cell."""
        if not self.pointing:
            return None
        if self.hover_entity is None:
            row = self.sidebar.hovered if self.sidebar is not None else None
            return self.hover if row is not None else None  # a cell whose monster has a row
        pos = self.game.world.try_get(self.hover_entity, Position)
        return (pos.x, pos.y) if pos is not None else None

    def _hovered_row(self) -> int | None:
        """The sidebar row of the monster the mouse points at (on its row, or on its cell)."""
        if not self.pointing:
            return None
        for i, row in enumerate(self.sidebar.rows):
            entity = getattr(row, "entity", None)
            if entity is None:
                continue
            if entity == self.hover_entity:
                return i
            pos = self.game.world.try_get(entity, Position)
            if pos is not None and (pos.x, pos.y) == self.hover:
                return i
        return None

    def draw_pointing(self) -> None:
        """The monster of the sidebar row (or the map cell) the mouse is on, outlined in the
        highlight's colour; an empty cell pointed at gets a thin grey outline (no prompt open:
        a prompt draws its own cursor)."""
        cell = self.highlighted()
        if cell is None and self.pointing and self.hover is not None and self.session.prompt is None:
            rect = self.map_view.cell_rect(*self.hover)
            if rect is not None:
                arcade.draw_lbwh_rectangle_outline(*rect, POINTED, max(1, rect[2] // 16))
            return
        rect = self.map_view.cell_rect(*cell) if cell is not None else None
        if rect is not None:
            arcade.draw_lbwh_rectangle_outline(*rect, HIGHLIGHT, max(2, rect[2] // 8))

    def on_draw(self) -> None:
        if self.title_screen is not None or not started(self.game):
            self.clear()
            with self.ui_camera.activate():
                if self.title_screen is not None:
                    self.title_screen.draw(*self.get_framebuffer_size())
            return
        self.refresh()
        self.clear()
        self.grid.draw()
        with self.ui_camera.activate():
            if self.look.sidebar:
                self.sidebar.draw()
                self.log.draw()
            else:
                self.hud.draw()
            self.draw_pointing()
            if not self.look.sidebar:
                self.tooltip.draw()
            view, screen = self.map_view, self.screen_rect()
            if won(self.game):
                self.end_screen.draw(self.map_rect, self.player_screen()[1], view, screen)
            elif self.ended():
                if self.look.death == "dim":
                    self.hud.draw_dim_death(*self.get_framebuffer_size(), self.look.death_color)
                else:
                    self.end_screen.draw(self.map_rect, self.player_screen()[1], view, screen)
            self.prompt_view.draw(self.map_view)
            if self.help_open:
                self.help_screen.draw(self.game, self.map_rect, view, screen)
