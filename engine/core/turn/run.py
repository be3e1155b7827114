"""A run in play: its state, the registry and preset it plays, and what can be done to it.

:class:`Run` is what actions, behaviours, effects and systems act on: entities and where they
stand, the message log, the random streams, what the player sees. It holds no turn loop and never
changes the level or the run: that is :class:`engine.core.turn.game.Game`, which is a Run that owns the
turn. (The split keeps imports one way: actions and rulesets know a Run; the Game knows them.)
What a Run does to entities is :mod:`engine.core.turn.entities`' functions over it; what the player
sees and who notices the player, its :class:`engine.core.turn.sight.Sight` (``run.sight``, given by
the game: both modules know a Run, so it imports neither).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core.model.ground import Ground
from engine.core.model.state import RunState, View
from engine.kit.mapgen import Level

if TYPE_CHECKING:
    from engine.core.kinds.rules import GameRules
    from engine.core.model.events import Event
    from engine.core.model.scheduler import Scheduler
    from engine.core.model.world import World
    from engine.core.plugin.hooks import Hooks
    from engine.core.plugin.registry import Registry
    from engine.kit.fov import FovAlgorithm
    from engine.kit.path import Pathfinder


class Choices(dict):
    """The plugin choices of a run (``--plugin fov=...``, ``generator=...``, ``path=...``), over the
    preset's defaults."""

    @property
    def fov(self) -> str | None:
        return self.get("fov")

    @property
    def generator(self) -> str | None:
        return self.get("generator")

    @property
    def path(self) -> str | None:
        return self.get("path")

    def as_dict(self) -> dict[str, str]:
        return {k: v for k, v in sorted(self.items()) if v}


GROUNDS_KEPT = 4  # levels whose ground is kept for the player's return (stairs up and down again)


# the values of Run.names_version: never the same twice in a process, so that a value kept from
# one run never matches another run's
_NAMES_VERSIONS = itertools.count(1)


class Run:
    """``ruleset`` is the preset's :class:`engine.core.turn.ruleset.Ruleset` (typed loosely here: the
    ruleset module depends on this one, not the other way). ``first_seed`` seeds run 1 (later runs
    derive theirs from it); ``level_source`` is a fixed level 1 (``--map``), or None."""

    def __init__(self, registry: Registry, rules: GameRules, ruleset: Any, fov: FovAlgorithm, *,
                 choices: Choices, first_seed: int, level_source: Level | None = None) -> None:
        self.registry = registry
        self.rules = rules
        self.ruleset = ruleset
        self.fov = fov
        self.choices = choices
        self.first_seed = first_seed
        self.level_source = level_source
        self.state: RunState | None = None  # None until the game starts or resumes
        # given by the game: what plugins are handed (engine.core.turn.api.GameAPI), the guard every
        # call into a plugin goes through (engine.core.plugin.isolation.Isolation), and the one caller
        # of the plugins' hooks (engine.core.plugin.hooks.Hooks)
        self.api: Any = None
        self.isolation: Any = None
        self.hooks: Hooks | None = None
        self.sight: Any = None  # what the player sees, and who notices (engine.core.turn.sight.Sight)
        # called as listener(event, game) with a typed event (engine.core.model.events); see emit()
        self.listeners: list[Callable[[Event, Any], Any]] = []
        self.session: Any = None  # the player's keys on this run (engine.core.play.session), set by it
        self.new_in_view = False  # a monster came into view this key (held keys stop walking)
        self.quit_requested = False
        self.falling: Any = None  # a ChangeLevel a plugin asked for this turn (api.fall), applied as it ends
        # what each monster's behaviour declared it is doing (api.declare), with the level's world:
        # until its next turn; a run save keeps the level's (a walk reads "fleeing")
        self.declared: dict[int, tuple[Any, str]] = {}
        self._pathfinder: tuple | None = None  # see pathfinder()
        self._ground: Ground | None = None  # see ground
        self._grounds: list[Ground] = []  # the last few levels' grounds, to find again (see ground)
        # changes whenever what the player calls an item may have (GameAPI.names_version): a new state,
        # or a plugin's names_changed()
        self.names_version = next(_NAMES_VERSIONS)

    def names_changed(self) -> None:
        """What the player calls some item may have changed (an item identified, a new state):
        :attr:`names_version` takes a value it never had."""
        self.names_version = next(_NAMES_VERSIONS)

    def emit(self, event: Event) -> None:
        """Tell the listeners (the keeper that saves and records, ``sim``'s tally, the window's
        sounds, the session) what happened: one of :mod:`engine.core.model.events`."""
        for listener in list(self.listeners):
            listener(event, self)

    # -- the state, as the game and plugins read it ---------------------------------------
    @property
    def world(self) -> World:
        return self.state.world

    @property
    def player(self) -> int:
        return self.state.player

    @property
    def level(self) -> Level:
        return self.state.level

    @property
    def ground(self) -> Ground:
        """What the current level's terrain means: where creatures walk, where light passes, what
        paths cost (:mod:`engine.core.model.ground`), made once per level."""
        ground, level = self._ground, self.state.level
        if ground is None or ground.level is not level:
            ground = self._ground = self._ground_of(level)
        return ground

    def _ground_of(self, level: Level) -> Ground:
        """A level's ground: the one made when it was last in play, when it was one of the last
        :data:`GROUNDS_KEPT` levels (a level kept is put back with the same terrain array, which
        changes only while in play, through its ground); else made anew. A ground found again counts
        one more revision, as a new one differs from the last: what was computed from it is stale."""
        grounds = self._grounds
        for i, found in enumerate(grounds):
            if found.level.terrain is level.terrain and found.level.kinds is level.kinds:
                del grounds[i]
                found.level = level
                if tuple(level.kinds) != found.names:
                    found.refresh()
                else:
                    found.revision += 1
                break
        else:
            found = Ground(level, self.registry.terrain)
        grounds.append(found)
        if len(grounds) > GROUNDS_KEPT:
            del grounds[0]
        return found

    @property
    def floor(self) -> View:
        """What the player sees (``visible``) and has seen (``seen``) of the current level."""
        return self.state.view

    @property
    def depth(self) -> int:
        return self.state.depth

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def won(self) -> bool:
        """The run was won: it is over, the player alive (the victory screen)."""
        return self.state.won

    @property
    def playing(self) -> bool:
        """The run goes on: the player is alive and has not won."""
        return self.state.alive and not self.state.won

    @property
    def alive(self) -> bool:
        return self.state.alive

    @property
    def messages(self) -> list[str]:
        return self.state.log

    @property
    def scheduler(self) -> Scheduler:
        return self.state.scheduler

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def run_number(self) -> int:
        """Which run of the session this is: 1 for the first, one more for each new run (a preset
        that goes straight on after a death or an exit)."""
        return self.state.run_number

    def rng(self, label: str) -> random.Random:
        """The run's random stream for ``label`` ("combat", "ai", ...), created on first use."""
        return self.state.streams.get(label)

    def log(self, message: str, kind: str | None = None) -> None:
        """Say ``message`` in the log, as an event of ``kind`` (engine.core.kinds.saying; None: the
        message's own, "" for plain text)."""
        self.state.log.add(message, kind)

    def hook(self, name: str, **kwargs: Any) -> None:
        """Call an event hook (``on_level_generated``, ``on_turn_end``, ``on_death``) of every plugin,
        each under isolation, in pluggy's order, with the game API as ``game`` (the hook caller,
        :mod:`engine.core.plugin.hooks`)."""
        if self.hooks is not None:
            self.hooks.call(name, game=self.api, **kwargs)

    def pathfinder(self) -> Pathfinder:
        """The pathfinder in use: the run's choice, else the preset's, else the only (or first by
        name) registered one."""
        name = self.choices.path or self.rules.pathfinder or min(self.registry.pathfinders, default=None)
        if name is None:
            raise LookupError("no pathfinder is registered")
        made = self._pathfinder  # made once for the registered one (every distance map asks)
        if made is not None and self.registry.pathfinders.get(name) is made[0]:
            return made[1]
        found = self.registry.choose("path", name)
        plugin = self.registry.owners.get(("pathfinders", name))
        if plugin is None:
            return found
        self.isolation.chosen.add(plugin)  # the game cannot do without the pathfinder it uses
        where = f"pathfinder {name!r}"
        # its functions run under isolation; the methods' checks of their arguments stay the caller's
        guarded = dataclasses.replace(
            found, dijkstra_fn=functools.partial(self.isolation.call, plugin, where, found.dijkstra_fn),
            astar_fn=functools.partial(self.isolation.call, plugin, where, found.astar_fn))
        self._pathfinder = (found, guarded)
        return guarded

