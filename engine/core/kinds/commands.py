"""Key commands: what the player does with a key that is neither a move nor an item's verb (search,
close a door, list what is known), registered by a plugin like a verb or a status.

A :class:`KeyCommand` names its key, and how it is done:

- ``directions(game, player)``, when given, lists the steps ``(dx, dy)`` the command could take from
  the player's cell (the doors beside the player, for "close"): with none, ``act`` is called with
  ``None`` (it says why there is nothing to do); with one, it is taken at once; with several, the
  player is asked which way (a move key answers, Escape cancels and no time passes);
- ``act(game, player, step)`` does it through the game API (``engine.GameAPI``) and returns an
  ``engine.Action`` for the engine to perform as the player's turn, a :class:`Page` to show (no
  time passes), or None (nothing done, no time passes: say why with ``game.log``).

The key means the command only where the command belongs: a command with ``params`` set belongs to
the presets whose TOML has a ``[params.NAME]`` table of that name (the plugin's numbers there), one
with none to every preset. A preset with a keymap of its own, and a key the preset's keymap binds
already, keep their meaning (see :mod:`engine.core.turn.verbkeys`); a key the default keys, or an
earlier verb or command, have already is warned in one line when the plugin loads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.kinds.fieldchecks import hook_problems

# act(game, player, step) -> Action | Page | None; directions(game, player) -> [(dx, dy), ...]
CommandAct = Callable[[Any, int, "tuple[int, int] | None"], Any]
CommandDirections = Callable[[Any, int], "list[tuple[int, int]]"]
MOST_LINES = 200  # a page's lines


@dataclass(frozen=True)
class Page:
    """What a command shows instead of acting: a ``title`` and its ``lines``, closed by any key."""

    title: str
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class KeyCommand:
    """A key command: ``name`` (a word, as the help and ``plugins`` name it), ``key`` (the key token),
    ``act`` and ``directions`` (see the module doc), ``ask`` (the question when a direction is
    asked, "Close which door?"), ``params`` (the preset params table it belongs with; empty:
    every preset) and ``summary`` (a line for the help and ``plugins``)."""

    name: str
    key: str
    act: CommandAct
    directions: CommandDirections | None = None
    ask: str = "Which way?"
    params: str = ""
    summary: str = ""

    def belongs(self, params: dict[str, Any]) -> bool:
        """Whether the command's key means it in a preset with these ``params`` tables."""
        return not self.params or self.params in params


def problems(command: KeyCommand) -> list[str]:
    """What is wrong with a command built by a plugin, each in a few words (empty: nothing); whether
    its key is a key token is the registrar's to check (the keys live in the turn's room)."""
    found = []
    if not isinstance(command.name, str) or not command.name.strip() or " " in command.name:
        found.append(f"name must be a non-empty word, got {command.name!r}")
    if not isinstance(command.key, str) or not command.key:
        found.append(f"key must be a key token (a printable character or a named key such as 'tab'), "
                     f"got {command.key!r}")
    for what in ("ask", "params", "summary"):
        value = getattr(command, what)
        if not isinstance(value, str) or "\n" in value or len(value) > 100:
            found.append(f"{what} must be one line of at most 100 characters, got {value!r}")
    if not callable(command.act):
        found.append(f"act must be callable (game, player, step), got {command.act!r}")
    return found + hook_problems(command, ("directions",))


def page_problems(page: Any) -> str:
    """Why a command's answer is not a page it may show ('' when it is one)."""
    if not isinstance(page.title, str) or not isinstance(page.lines, list | tuple):
        return "a Page needs a title (str) and lines (a list of str)"
    if len(page.lines) > MOST_LINES or not all(isinstance(line, str) for line in page.lines):
        return f"a Page's lines must be at most {MOST_LINES} strings"
    return ""
