"""Key tokens and the commands they mean.

A token is a printable key as itself (``h``, ``.``, ``>``, ``R``) or a named key (``left``,
``kp5``, ``esc``). The same tokens come from ``--keys``, from replays and from the window, so a
run plays the same however its keys arrive. A preset's ``keys`` table replaces the default map.

Two more forms record travel, which plays many turns for one key: ``travel:X,Y`` is a mouse click
on a cell (it means something where the keymap has ``click = "travel"``), and any travel token may
end in ``:N``, the number of steps it took when the window's player interrupted it after N steps
(``o:12``), so that a replay stops where the player did. Without ``:N`` a travel runs until it
stops by itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.core.kinds.rules import GameRules
from engine.core.turn.actions import Action, Descend, Drink, Move, Wait
from engine.kit import limits

NAMED = {"left", "right", "up", "down", "esc", "enter", "space", "tab", "backspace", "click", "ctrlp"} | {
    f"kp{i}" for i in range(10)
}
TRAVELS = ("explore", "downstairs", "upstairs", "travel", "rest")  # commands that may play many turns for one key

DIRS = {
    "left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1),
    "upleft": (-1, -1), "upright": (1, -1), "downleft": (-1, 1), "downright": (1, 1),
}

DEFAULT_KEYS = {
    "h": "move left", "l": "move right", "k": "move up", "j": "move down",
    "y": "move upleft", "u": "move upright", "b": "move downleft", "n": "move downright",
    "left": "move left", "right": "move right", "up": "move up", "down": "move down",
    "kp4": "move left", "kp6": "move right", "kp8": "move up", "kp2": "move down",
    "kp7": "move upleft", "kp9": "move upright", "kp1": "move downleft", "kp3": "move downright",
    ".": "wait", "kp5": "wait", ">": "downstairs", "<": "upstairs", "R": "restart", "esc": "quit",
    "?": "help", "o": "explore", "click": "travel", "Z": "rest",
    "g": "pickup", ",": "pickup", "i": "inventory", "d": "drop", "q": "quaff", "r": "read", "w": "wear",
    "T": "takeoff", "x": "look", "v": "history", "ctrlp": "history",
}
PROMPTS = ("pickup", "inventory", "drop", "quaff", "read", "wear", "takeoff", "look", "history")  # see commands

COMMANDS = ("move", "wait", "descend", "drink", "restart", "quit", "help", *TRAVELS, *PROMPTS)


class BadKey(ValueError):
    """An unknown key token."""


TOKEN = re.compile(r"(?P<key>travel:(?P<x>[0-9]{1,3}),(?P<y>[0-9]{1,3})|[^:\s]|[a-z0-9]{2,9}|:)(?::(?P<n>[0-9]{1,5}))?")


def _key_ok(key: str) -> bool:
    return key in NAMED or key.startswith("travel:") or (len(key) == 1 and key.isprintable() and not key.isspace())


def check_token(token: str) -> str:
    """Return ``token`` if it is a key (see the module doc); raise a one-line error otherwise."""
    match = TOKEN.fullmatch(token) if isinstance(token, str) and len(token) <= limits.MAX_KEY_CHARS else None
    if match is not None and _key_ok(match["key"]) and (match["n"] is None or 0 < int(match["n"]) <= limits.MAX_TRAVEL):
        return token
    raise BadKey(
        f"--keys: unknown key {token!r} (use a printable character, travel:X,Y, or one of: "
        f"{', '.join(sorted(NAMED))}; a travel may end in :STEPS, 1..{limits.MAX_TRAVEL})"
    )


def split_token(token: str) -> tuple[str, tuple[int, int] | None, int | None]:
    """A valid token's key, its cell (``travel:X,Y``) and its step count (``:N``), each or None."""
    match = TOKEN.fullmatch(token)
    if match is None:
        return token, None, None
    cell = (int(match["x"]), int(match["y"])) if match["x"] is not None else None
    return ("click" if cell is not None else match["key"]), cell, int(match["n"]) if match["n"] else None


def parse_keys(text: str) -> list[str]:
    """Split a ``--keys`` string into validated tokens."""
    return [check_token(t) for t in text.split()]


@dataclass(frozen=True)
class Command:
    """What a token means: a command ``name`` with its ``arg`` (a direction), and for travel the
    ``cell`` clicked and the most ``steps`` to take (None: until it stops by itself)."""

    name: str
    arg: str = ""
    cell: tuple[int, int] | None = None
    steps: int | None = None

    def action(self) -> Action | None:
        if self.name == "move":
            dx, dy = DIRS[self.arg]
            return Move(dx, dy)
        return {"wait": Wait, "descend": Descend, "drink": Drink}.get(self.name, lambda: None)()


def command_for(rules: GameRules, token: str, verbs: Mapping[str, str] | None = None) -> Command | None:
    """The command a key means in this preset, or None when the key means nothing here. A step
    count means something only on a travel command. ``verbs``: key -> item verb, for the keys the
    preset's items' verbs bring where its keymap leaves them free (:mod:`engine.core.turn.verbkeys`)."""
    keymap = rules.keys or DEFAULT_KEYS
    key, cell, steps = split_token(token)
    spec = keymap.get(key)
    if spec is None:
        verb = verbs.get(key) if verbs else None
        return Command(verb) if verb is not None and cell is None and steps is None else None
    name, _, arg = spec.partition(" ")
    if name == "move":
        dx, dy = DIRS[arg]
        if rules.movement == 4 and dx and dy:
            return None
    if (steps is not None or cell is not None) and name not in TRAVELS:
        return None
    return Command(name, arg, cell, steps)


def validate_keymap(keymap: dict[str, str], where: str) -> None:
    """Check a preset's keys table; raise ValueError naming the bad entry."""
    for token, spec in keymap.items():
        check_token(token)
        name, _, arg = spec.partition(" ")
        if name not in COMMANDS or (name == "move") != (arg in DIRS):
            valid = ", ".join([*(c for c in COMMANDS if c != "move"), *(f"move {d}" for d in DIRS)])
            raise ValueError(f"{where}: keys.{token}: unknown command {spec!r} (valid: {valid})")
