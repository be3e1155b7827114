"""Whose actions an action hook hears: the marks of ``engine.hears`` (and ``engine.player_only``),
judged for one action.

An ``on_action`` or ``after_action`` implementation marked ``@engine.hears(...)`` says whose actions
it cares about (a :class:`~engine.core.plugin.registry.Hearing`): the player's, those of an entity
with some component or status, anyone's while some entity of the level has some component, a step
from or onto some kinds of terrain. The game calls it for those and passes it by for the rest; an
unmarked implementation hears every action, as the hook's contract has always said.

Why: a crowd of 500 hunters steps 500 times a turn, and each step asked every ``on_action`` hook of
the default game (confusion, deep water and rubble, a vault's lurkers, the allies), each to answer
None for a monster stepping across plain floor: a fifth of the crowd's turn. Marked, they are not
called for such a step at all.

Two ways to judge, with the same answers:

- :meth:`Audience.heard`, one mark when its implementation's turn comes, as the hook caller
  (:meth:`engine.core.plugin.hooks.Hooks.first`) walks them in order: an earlier hook may have
  changed what a later mark reads (given a status), and the later one is judged on the run as it
  is then;
- :meth:`Audience.quiet`, before any is called: whether no implementation of the hook can hear
  the action (every one is marked, and no mark holds for it, judged on what all the marks name at
  once: a component of one of their types, a status at all, a cell of one of their kinds). Then
  the hook caller is not asked: nothing would be called, so nothing could change in between.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.model.components import Position, Statuses
from engine.core.turn.actions import Move

if TYPE_CHECKING:
    from engine.core.plugin.hooks import Ordered
    from engine.core.plugin.registry import Hearing
    from engine.core.turn.run import Run


class Audience:
    """One action hook's implementations in a game (``found``: the hook caller's list, with their
    marks), and the judges of whether they hear an action (see the module doc)."""

    def __init__(self, run: Run, found: list[Ordered]) -> None:
        self.run = run
        marks = [entry[4] for entry in found]
        self.nobody = not found
        # quiet() can say "none hears" only when every one is marked; it reads the marks' union:
        self.marked = all(mark is not None for mark in marks)
        known = [mark for mark in marks if mark is not None]
        self.player = any(mark.player for mark in known)
        # an entity's status is a component of its Statuses: an entity with none cannot hear by status
        statuses = (Statuses,) if any(mark.statuses for mark in known) else ()
        self.having = frozenset(t for mark in known for t in mark.having) | frozenset(statuses)
        self.present = tuple(dict.fromkeys(t for mark in known for t in mark.present))
        self.steps = frozenset(name for mark in known for name in mark.steps)
        # every one marked, and every mark the player's alone: a monster's action is heard by none
        self.players_alone = self.marked and not (self.having or self.present or self.steps)
        # (ground, its revision, its cells of the steps' kinds): asked of the ground again only when
        # the level or its terrain changed (Ground.cells_of keeps them as the terrain changes)
        self._cells: tuple = (None, -1, set())

    def quiet(self, entity: int, action: Any) -> bool:
        """Whether no implementation hears ``entity``'s ``action`` (each marked, and no mark holds):
        the hook caller need not be asked. Read on a crowd's every step: the cheap tests first."""
        if self.nobody:
            return True
        if not self.marked:
            return False
        run = self.run
        state = run.state
        if entity == state.player:
            if self.player:
                return False
        elif self.players_alone:
            return True
        world = state.world
        if (self.having or self.present) and world.bears(entity, self.having, self.present):
            return False
        if self.steps and isinstance(action, Move):
            ground, kept = run.ground, self._cells
            if kept[0] is not ground or kept[1] != ground.revision:
                kept = self._cells = (ground, ground.revision, ground.cells_of(self.steps))
            cells = kept[2]
            pos = world.try_get(entity, Position) if cells else None
            if pos is not None and ((pos.x, pos.y) in cells or (pos.x + action.dx, pos.y + action.dy) in cells):
                return False
        return True

    def heard(self, mark: Hearing, api: Any, entity: int, action: Any, *_: Any) -> bool:
        """Whether the implementation marked ``mark`` hears ``entity``'s ``action`` (the hook's
        arguments, as the hook caller passes them), on the run as it is now."""
        run = self.run
        state = run.state
        if mark.player and entity == state.player:
            return True
        world = state.world
        if mark.having and world.has_any(entity, mark.having):
            return True
        if mark.statuses:
            statuses = world.try_get(entity, Statuses)
            if statuses is not None and not mark.statuses.isdisjoint(statuses.active):
                return True
        if mark.present and world.holds_any(mark.present):
            return True
        if mark.steps and isinstance(action, Move):
            pos = world.try_get(entity, Position)
            cells = run.ground.cells_of(mark.steps)
            if pos is not None and ((pos.x, pos.y) in cells or (pos.x + action.dx, pos.y + action.dy) in cells):
                return True
        return False
