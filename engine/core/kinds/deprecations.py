"""Keys that moved or were renamed in a release of the plugin API, accepted for one more release.

The policy (the README's "Writing a plugin" says it too): a preset or content key that plugin API
``N`` moves or renames is still read by API ``N``, each time with one line naming its replacement,
and refused from API ``N + 1``. Here are the keys plugin API 2 moved (the preset flags that
became rulesets, ``engine.Ruleset``): :func:`rules_data` takes them out of a preset's data, and when
the preset names no ruleset of its own, names a legacy ruleset (:mod:`engine.core.loading.legacy`) that
plays them as the previous release did. A flag at its old default needs no ruleset: it is only said.

While a plugin registers (:func:`registering`, set by the loader), the lines go to that plugin's
notes, said once at start naming the plugin; otherwise they are a ``DeprecationWarning``.
"""

from __future__ import annotations

import contextlib
import json
import sys
import warnings
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from engine.core.version import PLUGIN_API

LEGACY = "legacy:"  # a legacy ruleset's name: this prefix, then its flags joined by "+"

# key -> (its valid old values, its old default, the legacy ruleset flag of each value that differs
# from today's rules, what replaces the key). Moved in plugin API 2. A value at its old default is
# today's rule; one with no flag and no default (keep_saves = true, settings) has no equivalent.
MOVED: dict[str, tuple[tuple[Any, ...], Any, dict[Any, str], str]] = {
    "wall_bump_costs_turn": ((True, False), False, {True: "wall-bump-takes-turn"},
                             "a ruleset whose bump_wall returns ActionResult.success()"),
    "fov_timing": (("move", "turn_end"), "move", {"turn_end": "view-at-turn-end"},
                   "a ruleset whose view_phase is Phase.END_OF_TURN"),
    "restart": ((True, False), True, {False: "no-restart"}, "a ruleset whose restart returns None"),
    "on_death": (("screen", "new_run"), "screen", {"new_run": "new-run-on-death"},
                 "a ruleset whose player_died returns NewRun(...)"),
    "on_exit": (("new_run",), "new_run", {}, "a ruleset's reached_exit (a new run, the default)"),
    "keep_saves": ((True, False), False, {},
                   "nothing: a death ends the run (a ruleset's saves says whether it is saved)"),
    "settings": ((), {}, {}, "params (one table per plugin)"),
}
# Keys plugin API 1 did not require, and the values it read when a preset left them out.
DEFAULTED: dict[str, Any] = {"generators": ((1, "bsp"),), "fov": "symmetric"}


@dataclass
class _Registering:
    notes: list[str]  # deprecation lines
    unread: list[Any]  # the Refused stand-ins handed out and not yet given to register()


_state: ContextVar[_Registering | None] = ContextVar("registering", default=None)


@contextlib.contextmanager
def registering(notes: list[str], unread: list[Any]) -> Iterator[None]:
    """Within: a plugin is registering; :func:`deprecated` lines go to ``notes``, and a bad content
    file or row is handed back as a ``Refused`` (``engine.core.kinds.content``) instead of raised, each
    also put in ``unread`` until ``register`` takes it (so none goes unsaid)."""
    token = _state.set(_Registering(notes, unread))
    try:
        yield
    finally:
        _state.reset(token)


def lenient() -> bool:
    """Whether a plugin is registering (a bad content file is then a Refused, not an error)."""
    return _state.get() is not None


def handed_out(refused: Any) -> None:
    """A Refused was made while a plugin registers: remember it until ``register`` takes it."""
    state = _state.get()
    if state is not None:
        state.unread.append(refused)


def deprecated(line: str) -> None:
    """Say a deprecation once: to the registering plugin's notes, else as a DeprecationWarning."""
    state = _state.get()
    if state is None:
        warnings.warn(line, DeprecationWarning, stacklevel=3)
    elif line not in state.notes:
        state.notes.append(line)


_said: set[str] = set()  # what say_once said in this process (words only: nothing that shapes a game)


def say_once(line: str) -> None:
    """Say a deprecation met in play once per process, on stderr, in one line (``undercroft:
    deprecated: LINE``), and as a DeprecationWarning for whoever records those."""
    if line not in _said:
        _said.add(line)
        print(f"undercroft: deprecated: {line}", file=sys.stderr)
        warnings.warn(line, DeprecationWarning, stacklevel=3)


def _line(where: str, key: str, value: Any, outcome: str, replacement: str) -> str:
    return (f"{where}{key} = {json.dumps(value)} is deprecated (moved in plugin API {PLUGIN_API}, refused from API "
            f"{PLUGIN_API + 1}): {outcome}; write {replacement} instead")


def _same(value: Any, other: Any) -> bool:
    """Equal and of one type (``1`` is no ``true``)."""
    return type(value) is type(other) and value == other


def rules_data(data: dict[str, Any], where: str) -> dict[str, Any]:
    """A preset's data with the moved keys taken out and, when they differ from today's defaults
    and the preset names no ruleset, ``ruleset`` set to the legacy ruleset that plays them. One
    deprecation line per key. A moved key with a value its release refused raises ValueError."""
    found = data.get("monster_kinds")
    rows: dict[str, Any] = found if isinstance(found, dict) else {}
    touches = {name: row["touch"] for name, row in rows.items() if isinstance(row, dict) and "touch" in row}
    moved = [key for key in MOVED if key in data]
    missing = [key for key in DEFAULTED if key not in data]
    if not moved and not touches and not missing:
        return data
    data = dict(data)
    for key in missing:
        data[key] = DEFAULTED[key]
        deprecated(f"{where}{key} is missing: read as {json.dumps(DEFAULTED[key])}, plugin API 1's default (refused "
                   f"from API {PLUGIN_API + 1}); write {key} = {json.dumps(DEFAULTED[key])} instead")
    own = data.get("ruleset")
    said: list[tuple[str, Any, str | None, str]] = []  # (key, value, what became of it (None: a flag), replacement)
    flags: list[str] = []
    for key in moved:
        valid, default, flag_of, replacement = MOVED[key]
        value = data.pop(key)
        if valid and not any(_same(value, v) for v in valid):
            raise ValueError(f"{where}{key}: expected one of {', '.join(map(repr, valid))}, got {value!r} "
                             f"(a key moved in plugin API {PLUGIN_API}: write {replacement} instead)")
        flag = next((f for v, f in flag_of.items() if _same(value, v)), None)
        if flag is not None:
            flags.append(flag)
        said.append((key, value, None if flag is not None else "ignored (it is today's rule)" if _same(value, default)
                     else "ignored (nothing plays it now)", replacement))
    if touches:
        data["monster_kinds"] = {name: {k: v for k, v in row.items() if k != "touch"} if name in touches else row
                                 for name, row in rows.items()}
        if "kill" in touches.values():
            if set(touches) != set(rows) or set(touches.values()) != {"kill"}:
                raise ValueError(f"{where}monster_kinds: touch = 'kill' on some kinds only: write a ruleset whose "
                                 f"touch() kills for those kinds (a key moved in plugin API {PLUGIN_API})")
            flags.append("touch-kills")
            said.append(("monster_kinds.*.touch", "kill", None, "a ruleset whose touch() kills the player"))
        else:
            for name in touches:
                kind_row(rows[name], f"{where}monster_kinds.{name}.")
    if flags and own is None:
        data["ruleset"] = LEGACY + "+".join(sorted(flags))
    flagged = f"ignored: the preset's ruleset {own!r} decides" if own is not None else \
        f"played as ruleset {data.get('ruleset')!r}"
    for key, value, outcome, replacement in said:
        deprecated(_line(where, key, value, outcome or flagged, replacement))
    return data


def kind_row(row: Any, where: str) -> Any:
    """A monster row with its moved ``touch`` taken out (``"fight"``, today's only touch for a
    kind of its own; ``"kill"`` belongs to a preset's ruleset now and raises ValueError)."""
    if not isinstance(row, dict) or "touch" not in row:
        return row
    replacement = "a ruleset whose touch() decides what a meeting does"
    if row["touch"] != "fight":
        raise ValueError(f"{where}touch: {row['touch']!r} is no longer a monster's own (moved in plugin API "
                         f"{PLUGIN_API}): write {replacement}")
    deprecated(_line(where, "touch", "fight", "ignored (it is today's rule)", replacement))
    return {k: v for k, v in row.items() if k != "touch"}
