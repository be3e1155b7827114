"""What play may put in a run, held to what a save holds, so that every run can always be saved.

A run save holds every value to a limit of :mod:`engine.kit.limits` (the spec is
:mod:`engine.persist.runspec`), and a value past one makes the run unsaveable. Each limit is kept
in play in one of three ways:

- **Out of reach.** The counters that only grow (turns, runs, entity ids: a kept level found again
  gives its things new ids) are held to ``MAX_COUNT``, which a million a second would take thirty
  years to reach. Depth stops at ``MAX_DEPTH``: stairs lead no deeper (:func:`level_refused`).
- **Forgotten or saturated.** The things of a run (in play and on kept levels) stay within
  ``MAX_ENTITIES``: a new level is populated up to the limit, and kept levels make room, the one
  farthest from the player's depth forgotten first (made anew on return), as they do for
  ``MAX_KEPT_LEVELS`` and ``MAX_KEPT_CELLS`` (:func:`fit_things`); remembered items forget past
  ``MAX_REMEMBERED`` (:mod:`engine.core.model.memory`); the log keeps ``MAX_MESSAGES``, a replay's keys stop
  at ``MAX_KEYS``, energy saturates at its debt. A stack in the pack, gold, a status's stacked
  turns and a stat grown by the growth rules saturate at ``MAX_STAT`` (:func:`saturated`).
- **Refused where it enters**, in one line naming the value and the limit: a content kind's params
  (a number past ``MAX_STAT``, when the kind is loaded); the game API's amounts (``spawn``,
  ``give``), a status's turns, params and number per creature (``add_status``), random streams
  (``rng``: at most ``MAX_STREAMS``, labels of at most ``MAX_LABEL_CHARS``), registered names
  (at most ``MAX_LABEL_CHARS``: :mod:`engine.core.loading.registrars`), a thing spawned or given
  when the run holds ``MAX_ENTITIES`` and no kept level is left to forget (None, said once), and a
  plugin's data past ``MAX_PLUGIN_DATA_BYTES`` (left out of the save, said once:
  :func:`engine.persist.keeper.savable_plugin_data`).

What a plugin changes in place (a component's fields, through ``GameAPI.component``) enters no
door: a value there past a limit is said at every save point that cannot be written, and the run
resumes from its last save point.
"""

from __future__ import annotations

import sys
import weakref
from typing import TYPE_CHECKING, Any, Protocol

from engine.core.kinds.specs import Json, is_int, shown_number
from engine.kit import limits

if TYPE_CHECKING:
    from engine.core.model.state import RunState


class Run(Protocol):
    """What this module needs of a run (a :class:`engine.core.turn.run.Run` is one, which imports it)."""

    state: RunState

_said: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


def say_once(run: Run, key: str, line: str) -> None:
    """One line on stderr, once per run for each ``key``."""
    said = _said.setdefault(run, set())
    if key not in said:
        said.add(key)
        print(f"undercroft: {line}", file=sys.stderr)


# -- values that enter through the game API ------------------------------------------------------
def whole(where: str, what: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..hi``, else ValueError naming it and the limit."""
    if not is_int(value) or not lo <= value <= hi:
        raise ValueError(f"{where}: {what} {shown_number(value)}: expected a whole number in {lo}..{hi} "
                         "(what a run save holds)")
    return int(value)


def amount(where: str, value: Any) -> int:
    """An item's amount (``spawn``, ``give``): 1..MAX_STAT."""
    return whole(where, "amount", value, 1, limits.MAX_STAT)


def turns(where: str, value: Any) -> int | None:
    """A status's turns (``add_status``): None (until removed), or 1..MAX_STAT."""
    return None if value is None else whole(where, "turns", value, 1, limits.MAX_STAT)


def params(where: str, value: dict[str, Any]) -> dict[str, Any]:
    """A status's params: JSON values a save can hold (SchemaError, a ValueError, when not)."""
    return Json().check(value, f"{where}: params")


def saturated(value: int) -> int:
    """A stat, an amount or a count of turns that grew: at most MAX_STAT."""
    return min(limits.MAX_STAT, value)


def stream_label(state: RunState, label: Any) -> str:
    """A random stream's label: a text of at most MAX_LABEL_CHARS characters, and a new one only
    while the run has fewer than MAX_STREAMS streams."""
    streams = state.streams
    if not isinstance(label, str) or len(label) > limits.MAX_LABEL_CHARS:
        raise ValueError(f"rng: label {shown_number(label)}: expected a text of at most {limits.MAX_LABEL_CHARS} "
                         "characters (what a run save holds)")
    if streams.has(label):
        return label
    if streams.count() >= limits.MAX_STREAMS:
        raise ValueError(f"rng: a new label {label[:40]!r}, but the run has {streams.count()} random streams, the "
                         f"most a run save holds ({limits.MAX_STREAMS}): reuse a label")
    return label


def status_room(statuses: dict[str, Any] | None, name: str) -> None:
    """ValueError when a creature with MAX_STATUSES statuses would get another one."""
    if statuses is not None and name not in statuses and len(statuses) >= limits.MAX_STATUSES:
        raise ValueError(f"add_status: {str(name)[:40]!r} on a creature with {len(statuses)} statuses, the most a "
                         f"run save holds ({limits.MAX_STATUSES} at once)")


def level_refused(depth: Any) -> str | None:
    """Why a run cannot go to level ``depth`` (past MAX_DEPTH, or below 1), or None."""
    if is_int(depth) and 1 <= depth <= limits.MAX_DEPTH:
        return None
    return (f"level {shown_number(depth)}: a run's levels are 1..{limits.MAX_DEPTH} (what a run save holds); "
            "the player stays where they are")


# -- the run's things --------------------------------------------------------------------------
def things(state: RunState) -> int:
    """The run's entities: those in play (the player and the pack included) and on kept levels."""
    return state.world.count() + sum(len(kept.things) for kept in state.kept.values())


def fit_things(state: RunState, more: int = 0) -> bool:
    """Forget kept levels, the farthest from the player's depth first, until the run has room for
    ``more`` things within MAX_ENTITIES; returns whether it has."""
    while state.kept and things(state) + more > limits.MAX_ENTITIES:
        forget_farthest(state)
    return things(state) + more <= limits.MAX_ENTITIES


def forget_farthest(state: RunState) -> None:
    """Forget the kept level farthest from the player's depth (the deeper of two as far)."""
    del state.kept[max(state.kept, key=lambda d: (abs(d - state.depth), d))]


def room_for_one(run: Run, what: str) -> bool:
    """Whether ``what`` (a spawn, a gift) may make one more thing: kept levels make room first.
    When none is left, one line says so (once a run) and the caller makes nothing."""
    if fit_things(run.state, 1):
        return True
    say_once(run, "things-full", f"{what}: the run holds {limits.MAX_ENTITIES} things, the most a run save "
                                 "holds; nothing more is made while it does")
    return False
