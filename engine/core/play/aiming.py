"""Aiming an item: the targeting cursor (:class:`Target`) and where it starts (:func:`aim_at`).

The cursor starts where the player most likely means: on the monster last aimed at while it is
in view (the run's ``last_target``, saved with it), else on the nearest visible monster, and on
the player's own cell only when no monster is in view. An aim whose reach includes the player
fires only on a second Enter: the first says what it would do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.play.prompts import CHOOSE, CLOSE, Answer, Cursor, by_distance, monster_at
from engine.core.turn.actions import Action
from engine.core.turn.statuses import friendly

if TYPE_CHECKING:
    from engine.core.turn.run import Run


@dataclass
class Target(Cursor):
    """Aim a used item: a visible monster (``mode="monster"``) or a visible cell (``"cell"``).
    ``affected`` are the cells it would reach (``radius`` around the cursor). Enter (or a click)
    chooses; Escape cancels and no time passes. When what it would reach includes the player,
    the first Enter only says so (``asked`` holds that cell): a second Enter (or a click) on the
    same cell chooses it; any other key asks again. The monster chosen is the run's
    ``last_target``, where the next aim starts."""

    title: str = ""
    item: int = 0
    mode: str = "cell"
    radius: int = 0
    use: Callable[[int, tuple[int, int]], Action] | None = None
    detail: str = ""
    asked: tuple[int, int] | None = None  # the cell the player was warned about: a second choice fires
    kind = "target"

    def key(self, game: Run, key: str, cell: tuple[int, int] | None) -> Answer:
        if key == "esc":
            return CLOSE
        asked, self.asked = self.asked, None
        if self.move(game, key, cell) and key != "click":
            return None
        if key not in (*CHOOSE, "click"):
            return None
        x, y = self.at
        if not game.state.view.visible[y, x]:
            self.detail = game.rules.message("target_unseen")
            return None
        monster = monster_at(game, self.at)
        if self.mode == "monster" and monster is None:
            self.detail = game.rules.message("target_no_monster")
            return None
        if asked != self.at and game.position(game.player) in self.affected(game):
            self.asked = self.at
            self.detail = game.rules.message("target_self")
            return None
        if monster is not None:
            game.state.last_target = monster
        return self.use(self.item, self.at)

    def affected(self, game: Run) -> list[tuple[int, int]]:
        return game.area(self.at, self.radius)

    def describe(self, game: Run) -> dict[str, Any]:
        return {**super().describe(game), "mode": self.mode, "radius": self.radius,
                "affected": sorted([list(c) for c in self.affected(game)], key=lambda c: (c[1], c[0]))}


def nearest_monster(game: Run) -> int | None:
    """The nearest visible monster that is not on the player's side (a status of a ``friendly``
    kind: an ally, a captive), ties by entity id; or None."""
    monsters = by_distance(game, [m for m in game.visible_monsters() if not friendly(game, m)])
    return monsters[0] if monsters else None


def aim_at(game: Run) -> int | None:
    """The monster an aim starts on: the one last aimed at while it is in view, else the nearest
    visible one not on the player's side, else None."""
    last = game.state.last_target
    return last if last is not None and last in game.visible_monsters() else nearest_monster(game)

