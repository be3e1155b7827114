"""Terrain in play: changing a cell's kind, and the kinds' hooks as creatures step on and off
cells and stand on them (when each runs: :mod:`engine.core.kinds.terrainkinds`).

A kind's hooks are plugin code: each runs under isolation (a failing hook is its plugin's failure,
said once), with the game API. Nothing here runs for the built-in kinds, which have no hooks: a
level of them alone costs a turn what it always did.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import valid_names
from engine.core.kinds.terrainkinds import TerrainKind
from engine.core.model.components import Position

# The run (engine.core.turn.run.Run), typed loosely: the run's entities import this module, so it
# may not import the run back, not even for its types (the import contracts count those too).
Run = Any


def change(run: Run, x: int, y: int, name: str) -> None:
    """Make cell (x, y) of the current level terrain kind ``name``; sight, paths and the picture
    follow (the view is recomputed before it is next read). ValueError off the map or for a kind
    no plugin registered."""
    level = run.level
    h, w = level.terrain.shape
    if not (isinstance(x, int) and isinstance(y, int) and 0 <= x < w and 0 <= y < h):
        raise ValueError(f"set_terrain: ({x!r}, {y!r}) is not on the {w}x{h} map")
    if name not in run.registry.terrain:
        raise ValueError(f"set_terrain: no terrain kind named {name!r} is registered "
                         f"{valid_names(str(name), run.registry.terrain)}; a plugin registers its kinds with "
                         "register_terrain")
    ground = run.ground
    before = ground.kind(x, y)
    level.paint(x, y, name)
    ground.changed(x, y)
    after = ground.kind(x, y)
    view = run.state.view
    if before.transparent != after.transparent and view.origin is not None and run.state.alive:
        # the light changed: what the player sees follows now (the picture of this very turn), and
        # the view system computes it again, with its noticing, when it next runs
        run.sight.look()
        view.seen |= view.visible
        view.dirty = True


def _call(run: Run, kind: TerrainKind, hook: str, entity: int, x: int, y: int) -> None:
    fn = getattr(kind, hook)
    if fn is not None:
        plugin = run.registry.owners.get(("terrain", kind.name))
        run.isolation.call(plugin, f"terrain {kind.name!r} {hook}", fn, run.api, entity, x, y)


def moved(run: Run, entity: int, old: tuple[int, int], new: tuple[int, int]) -> None:
    """A creature moved from ``old`` to ``new``: the old cell's kind hears ``on_leave``, then the
    new one's ``on_enter`` (only when the level has kinds with hooks)."""
    ground = run.ground
    if old == new or (old not in ground.listening and new not in ground.listening):
        return  # neither kind has a hook to hear it
    _call(run, ground.kind(*old), "on_leave", entity, *old)
    if run.world.has(entity, Position):  # still on the map (a hook may have killed it)
        _call(run, ground.kind(*new), "on_enter", entity, *new)


def stand(run: Run) -> None:
    """The end of a turn: every creature hears its cell's kind's ``on_stand``, in entity order."""
    ground = run.ground
    if not ground.standing:
        return
    spatial = run.state.spatial
    for entity in sorted(spatial.blockers().values()):
        pos = run.world.try_get(entity, Position)
        if pos is not None and spatial.blocker_at(pos.x, pos.y) == entity:  # not moved off by a hook
            _call(run, ground.kind(pos.x, pos.y), "on_stand", entity, pos.x, pos.y)
