"""What happened, as typed events: told to the game's listeners and returned with each key.

The game tells its listeners (the keeper that saves and records, ``sim``'s tally, the window's
sounds) what happened by calling ``listener(event, game)`` with one of these frozen dataclasses;
a :class:`~engine.core.play.session.Session` also hands back the events of each key in its
:class:`~engine.core.play.session.Outcome`. A listener dispatches on the type (``match event:``), never on
a string, so a misspelled event is a name error, not silence.

Lifecycle events come at turn boundaries, in this order for a run: :class:`RunStarted`, then
:class:`LevelEntered` (each level entered), :class:`KeyPlayed` after every key (always a turn
boundary), and one ending: :class:`PlayerDied`, :class:`Victory`, :class:`Escaped` (the run goes on
as a new run) or :class:`QuitAsked`. :class:`Hurt` and :class:`GoldFound` come as they happen, in
the middle of a turn, for what a frame cannot tell (sounds, animations); so do :class:`Shot`,
:class:`Bolt` and :class:`Blast`, which only the window's animations read: a missile's flight, a
bolt's line, an area's blast (announced by the actions and effects that make them, before the
harm they do).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    """Something that happened in a game."""


@dataclass(frozen=True)
class RunStarted(Event):
    """A new run began (before its first level)."""

    run: int


@dataclass(frozen=True)
class LevelEntered(Event):
    """A level was entered, at the end of a turn (``up``: by stairs up)."""

    depth: int
    up: bool = False


@dataclass(frozen=True)
class KeyPlayed(Event):
    """A key was played: heard after it was handled, always at a turn boundary. A travel's key is
    heard when the travel ends (``o:12`` when it was interrupted after 12 steps); the keys of a
    menu or cursor when it closes."""

    token: str


@dataclass(frozen=True)
class PlayerDied(Event):
    """The player died; the run's state is final."""


@dataclass(frozen=True)
class Victory(Event):
    """The run was won."""


@dataclass(frozen=True)
class Escaped(Event):
    """The player reached an exit; the next run starts right after."""


@dataclass(frozen=True)
class QuitAsked(Event):
    """The quit key, at a turn boundary (``save``: the run is kept to resume)."""

    save: bool = True


@dataclass(frozen=True)
class Hurt(Event):
    """A creature lost ``amount`` HP (``killed``: to 0), from ``by``: an entity, or a cause's name;
    ``at``: its cell then."""

    entity: int
    amount: int
    by: int | str | None = None
    killed: bool = False
    at: tuple[int, int] | None = None


@dataclass(frozen=True)
class GoldFound(Event):
    """The player picked up ``amount`` gold."""

    amount: int


@dataclass(frozen=True)
class LevelledUp(Event):
    """A creature reached experience level ``level`` (told by the plugin that keeps experience)."""

    entity: int
    level: int


@dataclass(frozen=True)
class Shot(Event):
    """A missile flew from cell ``start`` to cell ``end`` (an archer's arrow, a thrown thing): the
    window draws it flying cell by cell. Nothing in the run changes."""

    start: tuple[int, int]
    end: tuple[int, int]


@dataclass(frozen=True)
class Bolt(Event):
    """A bolt went from cell ``start`` to cell ``end`` (lightning): the window lights the cells of
    its line for a moment, in ``color`` (None: the window's). Nothing in the run changes."""

    start: tuple[int, int]
    end: tuple[int, int]
    color: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Blast(Event):
    """An area effect lit ``cells`` (a fireball's burst): the window lights them for a moment, in
    ``color`` (None: the window's). Nothing in the run changes."""

    cells: tuple[tuple[int, int], ...]
    color: tuple[int, int, int] | None = None
