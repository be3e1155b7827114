"""Statuses on creatures: putting one on, taking it off, and the end-of-turn tick.

What a status is comes from its registered kind (:mod:`engine.core.kinds.statuskinds`); this module
applies it to a run: ``add`` (GameAPI.add_status), ``remove`` (GameAPI.remove_status) and ``tick``
(the statuses system, :class:`engine.core.turn.systems.TickStatuses`). A kind's hooks are plugin code,
called under isolation like any other: a failure switches its plugin off with one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.errors import valid_names
from engine.core.kinds.statuskinds import StatusKind
from engine.core.model import bounds
from engine.core.model.components import Dead, Position, Status, Statuses

if TYPE_CHECKING:
    from engine.core.turn.run import Run


class UnknownStatus(ValueError):
    """A status no plugin registered was named (a plugin's bug: a typo, or a missing register_statuses)."""


def kind_of(run: Run, name: str) -> StatusKind:
    """The registered kind of status ``name``; UnknownStatus, naming the valid ones, when none is."""
    kind = run.registry.statuses.get(name)
    if kind is None:
        raise UnknownStatus(f"no plugin's register_statuses registers a status named {name!r} "
                            f"{valid_names(name, run.registry.statuses)}")
    return kind


def friendly(run: Run, creature: int) -> bool:
    """Whether a creature has a status of a ``friendly`` kind: on the player's side (an ally, a
    captive), which an aim at the nearest monster passes by and the window marks."""
    statuses = run.world.try_get(creature, Statuses)
    if statuses is None or not statuses.active:
        return False
    kinds = run.registry.statuses
    return any(kind.friendly for name in statuses.active if (kind := kinds.get(name)) is not None)


def _call(run: Run, kind: StatusKind, hook: str, entity: int, status: Status) -> None:
    fn = getattr(kind, hook)
    if fn is not None:
        plugin = run.registry.owners.get(("statuses", kind.name))
        run.isolation.call(plugin, f"status {kind.name!r} {hook}", fn, run.api, entity, status)


def add(run: Run, entity: int, name: str, turns: int | None, params: dict[str, Any]) -> None:
    """Put status ``name`` on ``entity`` for ``turns`` turns (None: until removed). A creature that
    has it already keeps it, its turns combined by the kind's stacking, with the new params; one
    that did not hears the kind's ``on_start``."""
    kind = kind_of(run, name)
    world = run.world
    statuses = world.try_get(entity, Statuses)
    bounds.status_room(statuses.active if statuses is not None else None, name)
    if statuses is None:
        statuses = Statuses()
        world.add(entity, statuses)
    old = statuses.active.get(name)
    if old is not None:
        turns = kind.stacked(old.turns, turns)
        turns = bounds.saturated(turns) if turns is not None else None
    status = statuses.active[name] = Status(turns, dict(params))
    if old is None:
        _call(run, kind, "on_start", entity, status)


def remove(run: Run, entity: int, name: str) -> None:
    """Take status ``name`` off ``entity`` at once, its kind's ``on_end`` heard (nothing if it has none)."""
    statuses = run.world.try_get(entity, Statuses)
    status = statuses.active.pop(name, None) if statuses is not None else None
    if status is not None:
        kind = run.registry.statuses.get(name)
        if kind is not None:
            _call(run, kind, "on_end", entity, status)


def tick(run: Run) -> None:
    """The end of a turn: every status ticks (its kind's ``on_tick``), then one with a duration loses
    a turn; one that runs out goes, its ``on_end`` heard, and the player reads of it when it was theirs
    or on a monster they see. A creature killed by a tick counts down no further."""
    world, visible, player = run.world, run.state.view.visible, run.state.player
    for entity, statuses in list(world.query(Statuses)):
        for name, status in list(statuses.active.items()):
            kind = run.registry.statuses.get(name)
            if kind is not None and kind.on_tick is not None:
                _call(run, kind, "on_tick", entity, status)
                if world.has(entity, Dead) or (entity == player and not run.state.alive):
                    break  # it killed its creature: the dead have no statuses left to count down
                if statuses.active.get(name) is not status:
                    continue  # the tick took it off: nothing left to count down
            if status.turns is None:
                continue
            status.turns -= 1
            if status.turns <= 0:
                del statuses.active[name]
                if kind is not None:
                    _call(run, kind, "on_end", entity, status)
                pos = world.try_get(entity, Position)
                if entity == player or (pos is not None and visible[pos.y, pos.x]):
                    who = "You are" if entity == player else f"The {run.name_of(entity)} is"
                    run.log(run.rules.message("status_end", who=who, status=name))
        if not statuses.active and world.has(entity, Statuses):
            world.remove(entity, Statuses)
