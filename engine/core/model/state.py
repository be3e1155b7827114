"""A run's state as plain data, apart from the behaviour that changes it.

:class:`RunState` is everything the next turn depends on: the counters, the ECS world, the current
level and what the player sees and remembers of it (its cells, and the items last seen there),
the scheduler, the random streams and the message log. Saves write it and read it back
directly, replays rebuild it from the seed and keys; neither generates a level, fires a hook or
builds a game to throw away. The spatial index is
derived from the world's positions, so it is rebuilt on load, never saved.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.core.kinds.saying import LATER, Message, kind_of
from engine.core.model import rng as rngmod
from engine.core.model.scheduler import Scheduler
from engine.core.model.spatial import SpatialIndex
from engine.core.model.world import World
from engine.kit import limits
from engine.kit.mapgen import Level

# what the player remembers lying on a level: an item kind by cell, oldest first
Remembered = dict[tuple[int, int], str]


@dataclass
class View:
    """What the player sees now and has seen of the current level. ``dirty``: the player moved or
    arrived since the view was computed (the view system recomputes it only then). ``items``: the
    kind of the item on top (the newest) of each cell where the player last saw one, in the order
    remembered (:mod:`engine.core.model.memory` keeps it); ``origin``: the player's cell when
    ``visible`` was computed (derived, not saved)."""

    visible: np.ndarray
    seen: np.ndarray
    dirty: bool = True
    items: Remembered = field(default_factory=dict)
    origin: tuple[int, int] | None = None

    @classmethod
    def blank(cls, shape: tuple[int, int]) -> View:
        return cls(np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool))


class Streams:
    """The run's random streams, one per label ("combat", "ai", "spawn:3"), created on first use
    from the run's seed (see :mod:`engine.core.model.rng`)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._streams: dict[str, random.Random] = {}

    def get(self, label: str) -> random.Random:
        stream = self._streams.get(label)
        if stream is None:
            stream = self._streams[label] = rngmod.stream(self.seed, label)
        return stream

    def items(self):
        return self._streams.items()

    def has(self, label: str) -> bool:
        return label in self._streams

    def count(self) -> int:
        return len(self._streams)

    def restore(self, label: str, state: tuple) -> None:
        self.get(label).setstate(state)


@dataclass
class KeptLevel:
    """A level the player left, kept as it was to be found again (a game whose ruleset keeps its
    levels): the level, what the player had seen of it, its things (every entity that had a
    position there) as their components, each with its energy when it was awake and scheduled,
    and the items the player remembers there (:attr:`View.items`). Time stands still on a kept
    level: what moved there while unseen is remembered where it was seen."""

    level: Level
    seen: np.ndarray
    things: list[tuple[list[Any], int | None]] = field(default_factory=list)
    items: Remembered = field(default_factory=dict)

    @property
    def cells(self) -> int:
        return int(self.level.terrain.size)


class MessageLog(list):
    """The messages of the run, oldest first, never longer than ``size`` (the preset's
    ``log_size``, or the engine's limit): the save keeps exactly what the log keeps. Each is a
    :class:`~engine.core.kinds.saying.Message`, its text with its kind (``kinds``: a save's, by message)."""

    def __init__(self, size: int = 0, messages=(), kinds=()) -> None:
        super().__init__()
        self.size = min(size, limits.MAX_MESSAGES) if size else limits.MAX_MESSAGES
        self.held: list[Message] | None = None  # the LATER lines of the action in progress (see hold)
        kinds = list(kinds)
        for i, m in enumerate(messages):
            self.add(m, kinds[i] if i < len(kinds) else None)

    def add(self, message: str, kind: str | None = None) -> None:
        if not message:
            return
        kind = kind_of(message) if kind is None else kind
        # what a save can hold: a lone surrogate (from a plugin's text) as a backslash escape
        text = str(message).encode("utf-8", "backslashreplace").decode("utf-8")
        line = Message(text[: limits.MAX_MESSAGE_CHARS], kind)
        if self.held is not None and kind in LATER:
            self.held.append(line)
            return
        self.append(line)
        if len(self) > self.size:
            del self[: len(self) - self.size]

    def hold(self) -> None:
        """From now on, keep the lines of a LATER kind (a level-up) back until :meth:`release`:
        the player's action is in progress, and its kills are said first."""
        self.held = []

    def release(self) -> None:
        """Say the lines held back since :meth:`hold`, in the order they came."""
        held, self.held = self.held or [], None
        for line in held:
            self.add(line)

    def kinds(self) -> list[str]:
        return [kind_of(m) for m in self]


@dataclass
class RunState:
    """One run. ``first_seed`` and ``run_number`` count runs for presets that go straight on to the
    next (the next run's seed is derived from the first, so a replay of the keys replays every run).
    ``run_number`` is which run of the session this is: 1 for the first (saved as ``run``)."""

    seed: int
    first_seed: int
    run_number: int
    world: World
    player: int
    log: MessageLog
    streams: Streams
    scheduler: Scheduler = field(default_factory=Scheduler)
    spatial: SpatialIndex = field(init=False)
    level: Level | None = None
    depth: int = 0
    view: View = field(default_factory=lambda: View.blank((1, 1)))
    turn: int = 0
    alive: bool = True
    # each plugin's own state, by the plugin's name: JSON values, saved with the run
    plugin_data: dict[str, Any] = field(default_factory=dict)
    # questions plugins asked the player (GameAPI.ask), first to answer first: {name, title, options}
    questions: list[dict[str, Any]] = field(default_factory=list)
    # the levels left behind, by depth, when the ruleset keeps them (engine.core.turn.levels)
    kept: dict[int, KeptLevel] = field(default_factory=dict)
    won: bool = False  # the run was won: it is over, and the player alive
    # what killed the player (a dead run is never saved): a creature's kind, or a named cause (a
    # status, a terrain kind, a trap) that a plugin gave as ``by`` to GameAPI.damage or kill
    killed_by: str = ""
    killed_by_creature: bool = False
    death_applied: bool = False  # the turn loop has applied the death (engine.core.turn.game.Game.apply_death)
    last_target: int | None = None  # the monster the player last aimed at: the next aim starts on it

    def __post_init__(self) -> None:
        self.spatial = SpatialIndex.rebuild(self.world)

    def close(self) -> None:
        self.world.close()
