"""The help screen (``?``): every key the preset knows, said in a player's words, on a panel.

The keymap holds command names (``move upleft``, ``pickup``, ``takeoff``) and key tokens (``kp7``,
``ctrlp``): the screen says them as a player would ("move up-left", "pick up", "take off",
"keypad 7", "Ctrl-P"). A command this table does not know (a preset's own) is shown as it is
written. The panel is opaque and bordered, centred on the map (on the whole window when the map
area is too short for it); a keymap too long for the window's height is laid out in two columns,
and when two are still too long, the rows that fit are shown with a count of the others above and
below, scrolled with Up and Down (as a long menu is: the window's keys, not the game's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.turn import verbkeys
from engine.core.turn.keys import DEFAULT_KEYS
from engine.frontend import aside
from engine.frontend.panel import Rect, TextBox
from engine.frontend.scrolling import Scroll

if TYPE_CHECKING:
    from engine.core.turn.game import Game
    from engine.frontend.camera import Camera

TITLE = (240, 210, 120)
TEXT = (225, 225, 225)
HINT = (130, 140, 160)
WINDOW_KEYS = [("zoom in / out", "Ctrl +  Ctrl -"), ("tileset", "F2"), ("fullscreen", "F11"),
               ("sound on / off", "m"), ("close help", "Esc  ?")]

COMMAND_WORDS = {
    "move upleft": "move up-left", "move upright": "move up-right", "move downleft": "move down-left",
    "move downright": "move down-right", "wait": "wait a turn", "downstairs": "go down the stairs",
    "upstairs": "go up the stairs", "descend": "take the stairs", "drink": "drink a potion",
    "restart": "new run", "help": "this help", "explore": "explore", "travel": "walk to the cell",
    "rest": "rest until healed",
    "pickup": "pick up", "inventory": "pack", "quaff": "drink", "wear": "wear or wield",
    "takeoff": "take off", "look": "look around", "history": "message history",
}
KEY_WORDS = {"left": "Left", "right": "Right", "up": "Up", "down": "Down", "esc": "Esc", "enter": "Enter",
             "space": "Space", "tab": "Tab", "backspace": "Backspace", "click": "click", "ctrlp": "Ctrl-P"}


def command_words(command: str) -> str:
    """A keymap's command as a player says it: ``move upleft`` is "move up-left"."""
    return COMMAND_WORDS.get(command, command)


def key_words(token: str) -> str:
    """A key token as written on the keyboard: ``kp7`` is "keypad 7", ``esc`` is "Esc"."""
    if token.startswith("kp") and token[2:].isdigit():
        return f"keypad {token[2:]}"
    return KEY_WORDS.get(token, token)


def help_rows(game: Game) -> list[tuple[str, str]]:
    """(what, keys) for every command the preset's keys know, in keymap order, then the keys the
    preset's item verbs bring (:mod:`engine.core.turn.verbkeys`: a plugin's ``zap``), then the
    window's."""
    keymap = game.rules.keys or DEFAULT_KEYS
    by_command: dict[str, list[str]] = {}
    for token, command in [*keymap.items(), *verbkeys.keys(game.registry, game.rules).items()]:
        by_command.setdefault(command, []).append(key_words(token))
    window = [(c, t) for c, t in WINDOW_KEYS if not (t == "m" and "m" in keymap)]  # m is the preset's
    verbs = game.registry.verbs
    return [(command_words(command) if command in COMMAND_WORDS or command not in verbs else verbs[command].said,
             "  ".join(tokens)) for command, tokens in by_command.items()] + window


def help_lines(game: Game, most: int | None = None) -> list[str]:
    """The rows as aligned lines; with ``most``, in two columns when there are more rows than that."""
    rows = help_rows(game)
    width = max(len(c) for c, _ in rows)
    lines = [f"{what:<{width}}  {keys}" for what, keys in rows]
    if most is None or len(lines) <= most:
        return lines
    half = (len(lines) + 1) // 2
    left, right = lines[:half], lines[half:]
    column = max(len(line) for line in left)
    return [f"{a:<{column}}    {b}".rstrip() for a, b in zip(left, [*right, ""], strict=False)]


CLOSE_HINT = "Esc or ?: close"
SCROLL_HINT = "Up/down: more   "


class HelpScreen:
    """The help panel, laid out for a window of ``row_px`` text rows."""

    def __init__(self, row_px: int, font_size: float) -> None:
        self.box = TextBox(row_px, font_size)
        self.row_px = row_px
        self._for: tuple = ()
        self.scrolled = Scroll()  # a help too long for the window (:meth:`scroll`)


    def update(self, game: Game, screen: Rect) -> None:
        most = max(4, (screen[3] - 2 * self.box.pad) // self.row_px - 5)  # title (1.5 rows), blanks, hint
        key = (id(game), most, self.scrolled.top)
        if key == self._for:
            return
        rows = help_lines(game, most)
        wide = max(len(row) for row in rows)
        rows = [row.ljust(wide) for row in rows]  # a scrolled panel keeps its width
        # all of them, or those that fit beside the counts above and below
        shown, above, below = self.scrolled.window(rows, len(rows) if len(rows) <= most else max(1, most - 2))
        self._for = (id(game), most, self.scrolled.top)
        lines = [(f"Keys: {game.rules.name}", TITLE, 1.5), ("", TEXT)]
        if self.scrolled.top_most:
            lines += [(above, HINT), *[(line, TEXT) for line in shown], (below, HINT)]
        else:
            lines += [(line, TEXT) for line in shown]
        lines += [("", TEXT), (f"{SCROLL_HINT}{CLOSE_HINT}" if self.scrolled.top_most else CLOSE_HINT, HINT)]
        self.box.show(lines)

    def scroll(self, step: int) -> bool:
        """Move a help too long for the window by ``step`` rows; whether it scrolls at all."""
        return self.scrolled.move(step)

    def opened(self) -> None:
        """Shown again from its first row."""
        self.scrolled.top = 0

    def draw(self, game: Game, area: Rect, view: Camera, screen: Rect) -> None:
        """Centred on the map ``area`` (on the ``screen`` when taller than the area), beside a
        small board (the one ``view`` draws)."""
        self.update(game, screen)
        width, height = self.box.size()
        room = area if width <= area[2] and height <= area[3] else screen
        wanted = self.box.spot_in(room)
        self.box.place(*aside.place_by(self.box.size(), wanted, area, view, screen))
        self.box.draw()

    def strings(self) -> list[str]:
        return self.box.strings()
