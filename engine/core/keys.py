"""Key tokens and the commands they mean.

A token is a printable key as itself (``h``, ``.``, ``>``, ``R``) or a named key (``left``,
``kp5``, ``esc``). The same tokens come from ``--keys``, from replays and from the window, so a
run plays the same however its keys arrive. A preset's ``keys`` table replaces the default map.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.actions import Action, Descend, Drink, Move, Wait
from engine.core.rules import GameRules

NAMED = {"left", "right", "up", "down", "esc", "enter", "space", "tab", "backspace"} | {
    f"kp{i}" for i in range(10)
}

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
    ".": "wait", "kp5": "wait", ">": "descend", "q": "drink", "R": "restart", "esc": "quit",
    "?": "help",
}

COMMANDS = ("move", "wait", "descend", "drink", "restart", "quit", "help")


class KeyError_(ValueError):
    """An unknown key token."""


def check_token(token: str) -> str:
    """Return ``token`` if it names a key; raise a one-line error otherwise."""
    if token in NAMED or (len(token) == 1 and token.isprintable() and not token.isspace()):
        return token
    raise KeyError_(
        f"--keys: unknown key {token!r} (use a printable character, or one of: {', '.join(sorted(NAMED))})"
    )


def parse_keys(text: str) -> list[str]:
    """Split a ``--keys`` string into validated tokens."""
    return [check_token(t) for t in text.split()]


@dataclass(frozen=True)
class Command:
    name: str
    arg: str = ""

    def action(self) -> Action | None:
        if self.name == "move":
            dx, dy = DIRS[self.arg]
            return Move(dx, dy)
        return {"wait": Wait, "descend": Descend, "drink": Drink}.get(self.name, lambda: None)()


def command_for(rules: GameRules, token: str) -> Command | None:
    """The command a key means in this preset, or None when the key means nothing here."""
    keymap = rules.keys or DEFAULT_KEYS
    spec = keymap.get(token)
    if spec is None:
        return None
    name, _, arg = spec.partition(" ")
    if name == "move":
        dx, dy = DIRS[arg]
        if rules.movement == 4 and dx and dy:
            return None
    return Command(name, arg)


def validate_keymap(keymap: dict[str, str], where: str) -> None:
    """Check a preset's keys table; raise ValueError naming the bad entry."""
    for token, spec in keymap.items():
        check_token(token)
        name, _, arg = spec.partition(" ")
        if name not in COMMANDS or (name == "move") != (arg in DIRS):
            valid = ", ".join([*(c for c in COMMANDS if c != "move"), *(f"move {d}" for d in DIRS)])
            raise ValueError(f"{where}: keys.{token}: unknown command {spec!r} (valid: {valid})")
