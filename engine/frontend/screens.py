"""The end of a run, said over the map: the death screen and the victory screen.

Both shade the map and put an opaque, bordered band of lines in the half away from the player
(the end of the run stays visible beside it; on a small board the box goes beside the board:
:func:`engine.frontend.aside.place`), with room between lines: the preset's title (its ``death_title``
template; "Victory" when the run is won), what happened (killed by what, on which depth: the
morgue's own words, :func:`engine.persist.morgue.cause_of_death`; for a win, the game's last
message), after how many turns and with how much gold, the profile's line, and the keys (the
preset's ``death_hint``).

A run is won when the game says so: ``game.won`` (read with ``getattr``: a game without wins
has no such property). The bunyip preset's "dim" death screen (the whole window dimmed, one
line) is the HUD's (:meth:`engine.frontend.hud.Hud.draw_dim_death`) and is not drawn here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import arcade

from engine.core.kinds.messages import with_article
from engine.core.model.components import Monster, Position
from engine.core.play import status as words
from engine.frontend import aside
from engine.frontend.panel import Rect, TextBox

if TYPE_CHECKING:
    from engine.core.turn.game import Game
    from engine.frontend.camera import Camera

SHADE = (0, 0, 0, 150)  # over the map: it stays readable under the box
DEATH_BOX = (25, 4, 4, 255)  # opaque: no wall shows behind "You die."
VICTORY_BOX = (24, 20, 4, 255)
DEATH_BORDER = (120, 40, 36, 255)
VICTORY_BORDER = (130, 110, 40, 255)
VICTORY = (250, 210, 80)
TEXT = (225, 225, 225)
FACTS = (190, 190, 200)
PROFILE = (140, 150, 170)
SPACING = 1.6  # rows per line: room between lines


def won(game: Game) -> bool:
    """Whether the run is won (False for a game that has no wins)."""
    return bool(getattr(game, "won", False))


def cause(game: Game) -> str:
    """What killed the player, in the morgue's words, with a capital: "Killed by a rat on depth 3".

    The morgue names the first monster beside the player; when several stand there, the message
    that ended the run ("The goblin kills you.") names the one that struck, and that one is said."""
    from engine.persist.morgue import cause_of_death

    text = cause_of_death(game)
    struck = killer_named(game)
    if struck is not None and game.state.killed_by_creature:
        text = f"killed by {with_article(struck)} on depth {game.depth}"
    return text[:1].upper() + text[1:]


def killer_named(game: Game) -> str | None:
    """The kind of a monster beside the player that the last message before the death names."""
    me = game.position(game.player)
    beside = {m.kind for _, (m, pos) in game.world.query(Monster, Position)
              if max(abs(pos.x - me[0]), abs(pos.y - me[1])) <= 1}
    die = game.rules.message("die")
    last = next((m for m in reversed(game.messages) if m != die), "")
    said = set(re.findall(r"[\w'-]+", last.lower()))
    named = [kind for kind in beside if set(kind.lower().split()) <= said]
    return named[0] if len(named) == 1 else None


def facts(game: Game) -> str:
    """After how many turns, with how much gold."""
    v = words.values(game)
    turns = "1 turn" if v["turn"] == 1 else f"{v['turn']} turns"
    return f"after {turns}, with {v['gold']} gold"


def death_lines(game: Game, profile: list[str], color: tuple[int, int, int]) -> list[tuple]:
    """The death screen's lines: the title, what killed the player, the facts, then the close."""
    lines: list[tuple] = [(words.line(game, "death_title"), color, 2.0), (cause(game), TEXT), (facts(game), FACTS)]
    return lines + _closing(game, profile)


def victory_lines(game: Game, profile: list[str]) -> list[tuple]:
    """The victory screen's lines: the title, the game's last word on it, the facts, then the close."""
    last = game.messages[-1] if game.messages else ""
    v = words.values(game)
    lines: list[tuple] = [("Victory!", VICTORY, 2.0), *([(last, TEXT)] if last else [])]
    lines.append((f"Won on depth {v['depth']} {facts(game)}", FACTS))
    return lines + _closing(game, profile)


def _closing(game: Game, profile: list[str]) -> list[tuple]:
    """Both end screens end alike: the profile's line (when the preset has one), then what to press."""
    hint = words.line(game, "death_hint")
    return [*([("   ".join(profile), PROFILE)] if profile else []), *([(hint, TEXT)] if hint else [])]


class EndScreen:
    """The death or victory box; its words are read once per ended run (they cannot change)."""

    def __init__(self, row_px: int, font_size: float) -> None:
        self.box = TextBox(row_px, font_size)
        self._for: tuple = ()
        self.kind = ""  # "death" or "victory" once shown

    def update(self, game: Game, profile: list[str], color: tuple[int, int, int]) -> None:
        key = (id(game), game.run_number, game.turn, won(game), tuple(profile), color)
        if key == self._for:
            return
        self._for = key
        self.kind = "victory" if won(game) else "death"
        lines = victory_lines(game, profile) if self.kind == "victory" else death_lines(game, profile, color)
        self.box.fill = VICTORY_BOX if self.kind == "victory" else DEATH_BOX
        self.box.border = VICTORY_BORDER if self.kind == "victory" else DEATH_BORDER
        self.box.show(lines, spacing=SPACING, center=True)

    def draw(self, area: Rect, player_y: float, view: Camera | None = None, screen: Rect | None = None) -> None:
        """Shade ``area`` (the map) and put the box across it, in the half away from the player;
        beside the board ``view`` draws when that would hide a small one (``screen``: the window)."""
        left, bottom, width, height = area
        arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, SHADE)
        _, box_h = self.box.size()
        box_h = min(box_h, height)
        upper = player_y < bottom + height / 2
        middle = bottom + height * (0.72 if upper else 0.28)
        low = int(max(bottom, min(bottom + height - box_h, middle - box_h / 2)))
        wanted = (left, low, width, box_h)
        if view is not None:
            wanted = aside.place_by(self.box.size(), wanted, area, view, screen)
        self.box.place(*wanted)
        self.box.draw()

    def strings(self) -> list[str]:
        return self.box.strings()
