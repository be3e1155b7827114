"""The per-turn systems: esper processors the turn loop runs at fixed points of a turn.

A turn (see :mod:`engine.core.turn.game`) runs the systems twice, each time in priority order
(highest first):

- ``Phase.AFTER_PLAYER``: the player's action is done; the monsters have not acted yet.
- ``Phase.END_OF_TURN``: the monsters have acted (or the player died); the player acts next.

The order within a phase matters and is:

1. :class:`Reap` (priority 100): entities that died are deleted. A dead monster leaves the
   scheduler and the map the moment it dies (it never acts again and its cell frees up before the
   next monster moves); this only frees its components.
2. :class:`View` (priority 50): the player's view and memory, recomputed when the player moved or
   arrived, in the phase the preset's ruleset chooses (the default game recomputes after the
   player's move, so monsters act on what the player sees now; bunyip at the end of the turn).
3. :class:`StandOnTerrain` (priority 45, at the end of the turn): each creature hears the
   ``on_stand`` of the terrain kind it stands on (a plugin's water, fire or trap).
4. :class:`TickStatuses` (priority 40, at the end of the turn): every status with a duration
   loses a turn; one that runs out is removed, and the player hears of it when it is theirs or a
   monster they see.
5. :class:`Watch` (priority 30, at the end of the turn): a monster that came into the player's
   view since it was made (it walked in while the player stood) is news, which stops a walk, a
   rest or a held key (``new_in_view``).
6. Plugin systems (``register_systems``), at the priority they give (default 0), for example
   regeneration, or poison that hurts while its status lasts.

A system is stateless: what it changes lives in components, so it survives a save (the monsters
the player last saw, which :class:`Watch` compares with, are looked at again when a run resumes:
it was saved between turns, when they were those in view). Subclass :class:`System`, set ``phase``
(or ``phases``) and ``priority``, and write ``run(game)``: a plugin's system is given the game API
(``engine.GameAPI``), as a behaviour is; the ones above are the engine's own and work on the run.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import esper

from engine.core.model.components import Dead
from engine.core.turn import statuses
from engine.core.turn import terrain as terrainrun

if TYPE_CHECKING:
    from engine.core.plugin.isolation import Isolation
    from engine.core.turn.playing import Playing
    from engine.core.turn.run import Run


class Phase(enum.Enum):
    AFTER_PLAYER = "after_player"
    END_OF_TURN = "end_of_turn"


class System(esper.Processor):
    """A per-turn system. ``phases``: when it runs; ``priority``: higher runs first in a phase."""

    name = "system"
    phases: tuple[Phase, ...] = (Phase.END_OF_TURN,)
    priority = 0

    def process(self, game: Run, phase: Phase) -> None:  # called by esper.process
        if phase in self.phases:
            self.run(game)

    def run(self, game: Any) -> None:  # pragma: no cover - protocol
        """One run of the system: ``game`` is the game API (``engine.GameAPI``) for a plugin's."""
        raise NotImplementedError


class Reap(System):
    """Delete the entities that died this turn."""

    name = "reap"
    phases = (Phase.AFTER_PLAYER, Phase.END_OF_TURN)
    priority = 100

    def run(self, game: Run) -> None:
        world = game.world
        if not world.holds(Dead):  # most turns nobody died: no query (it switches to the world)
            return
        for entity in [e for e, _ in world.query(Dead)]:
            world.delete(entity)


class View(System):
    """Recompute what the player sees (and remembers) when the player moved or arrived; else
    remember the items in view as they lie now (only the cells in view are looked at)."""

    name = "view"
    priority = 50

    def __init__(self, phase: Phase) -> None:
        self.phases = (phase,)

    def run(self, game: Playing) -> None:
        if not game.state.alive:
            return
        if game.state.view.dirty:
            game.sight.update_view()
        else:
            game.sight.remember_in_view()


class Watch(System):
    """The turn's last look at the monsters in view: one that came into view since the player's
    view was made (it walked in while the player stood, or after they moved) is news
    (:meth:`engine.core.turn.sight.Sight.watch`)."""

    name = "watch"
    priority = 30  # after the statuses: one that ended may show a monster

    def run(self, game: Playing) -> None:
        if game.state.alive:
            game.sight.watch()


class StandOnTerrain(System):
    """Every creature hears its cell's terrain kind's ``on_stand`` (:func:`engine.core.turn.terrain.stand`;
    nothing for the built-in kinds, which have no hooks)."""

    name = "terrain"
    priority = 45

    def run(self, game: Run) -> None:
        terrainrun.stand(game)


class TickStatuses(System):
    """Statuses tick at the end of every turn and those with a duration lose a turn; the expired
    ones go (:func:`engine.core.turn.statuses.tick`)."""

    name = "statuses"
    priority = 40

    def run(self, game: Run) -> None:
        statuses.tick(game)


class GuardedSystem(System):
    """A plugin's system, run under isolation and given the game API: its failure switches its
    plugin off, or stops the game when the plugin is a chosen one."""

    def __init__(self, system: System, isolation: Isolation, plugin: str | None) -> None:
        self.system, self.isolation, self.plugin = system, isolation, plugin
        self.name, self.phases, self.priority = system.name, tuple(system.phases), system.priority

    def run(self, game: Run) -> None:
        self.isolation.call(self.plugin, f"system {self.name!r}", self.system.run, game.api)
