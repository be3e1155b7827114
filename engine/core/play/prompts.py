"""Prompts: what the keys mean while the game asks something. A menu of items, a targeting cursor
(:mod:`engine.core.play.aiming`), look mode, the message history, and a plugin's question (the
level-up choice).

While a prompt is open, :meth:`engine.core.play.session.Session.press` hands it each key token; it
answers with what happens next (an :data:`Answer`):

* ``None``: it stays open (a cursor moved, a page scrolled);
* :data:`CLOSE`: it closes and no time passes;
* an :class:`~engine.core.turn.actions.Action`: it closes and the player does that (a turn);
* another :class:`Prompt`: that one opens instead (a scroll chosen from a menu asks for a target);
* :class:`Chosen`: the open question is answered with that option.

A menu's choice may also answer text: the menu stays open and shows it (the inventory describing
an item).

Menus, cursors and the history change nothing in the run until they close with an action, and
say what they have to say in their own ``detail`` line, never the message log: so a prompt left
open when the window closes loses nothing, and the keys it took are recorded only when it closes
(see ``Session.press``). A :class:`Question` is different: a plugin asked it (``GameAPI.ask``), it is
part of the run (``RunState.questions``, saved), and it stays until answered.

Every prompt describes itself as plain data (:meth:`Prompt.describe`) for ``--dump json``, the
tests and the window, which draws it without knowing its class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core.model import memory
from engine.core.model.components import Fighter, Item, Monster
from engine.core.play import itemwords
from engine.core.turn import naming
from engine.core.turn.keys import DIRS, command_for
from engine.kit.mapgen import BUILTIN_KINDS, WALL

if TYPE_CHECKING:
    from engine.core.turn.run import Run

class Close:
    """A prompt's answer: it closes, and no time passes (:data:`CLOSE` is the one instance)."""


CLOSE = Close()


@dataclass(frozen=True)
class Chosen:
    """The answer to a plugin's question: the index of the option chosen."""

    choice: int


# What a prompt's key or a command answers (see the module doc): stay open (None), close, a chosen
# option, another prompt, or the action to take.
Answer = "None | Close | Chosen | Prompt | Action"

LETTERS = "abcdefghijklmnopqrstuvwxyz"
CHOOSE = ("enter", "kp5", ".")  # keys that choose the cell under a cursor
PAGE = 10  # lines the history scrolls per space


class Prompt:
    """A question the keys answer. ``kind`` names it in ``describe``; ``title`` is its heading."""

    kind = "prompt"
    # each prompt has a ``title`` and a ``detail``: a line it says about itself (what is under the
    # cursor, why not there)

    def key(self, game: Run, key: str, cell: tuple[int, int] | None) -> Answer:
        raise NotImplementedError

    def describe(self, game: Run) -> dict[str, Any]:
        return {"kind": self.kind, "title": getattr(self, "title", ""), "detail": getattr(self, "detail", "")}


@dataclass
class Option:
    """A menu's line: its letter, its label (an item's name, how many, in use), the thing chosen;
    ``note``, what it adds compared with what is worn, and ``about``, what it is (an item's
    description), said beside the label."""

    letter: str
    label: str
    value: Any = None
    note: str = ""
    about: str = ""


@dataclass
class Menu(Prompt):
    """A list to choose one line from by its letter; Escape closes it. ``choose(game, value)``
    answers as a prompt does. A menu with no ``choose`` only shows (the inventory)."""

    title: str
    options: list[Option]
    choose: Callable[[Run, Any], Answer | str] | None = None  # text: shown, the menu stays
    detail: str = ""
    kind = "menu"

    def key(self, game: Run, key: str, cell: tuple[int, int] | None) -> Answer:
        if key in ("esc", "enter", "space") or (self.choose is None and key not in self._letters()):
            return CLOSE
        option = next((o for o in self.options if o.letter == key), None)
        if option is None:
            return None
        if self.choose is None:
            return CLOSE
        answer = self.choose(game, option.value)
        if isinstance(answer, str):
            self.detail = answer
            return None
        return answer

    def _letters(self) -> set[str]:
        return {o.letter for o in self.options}

    def describe(self, game: Run) -> dict[str, Any]:
        return {**super().describe(game), "options": [{"letter": o.letter, "label": o.label, "note": o.note,
                                                        "about": o.about} for o in self.options]}


@dataclass
class Cursor(Prompt):
    """A cell picked with the movement keys, Tab (the next visible monster) or a click."""

    at: tuple[int, int]

    def move(self, game: Run, key: str, cell: tuple[int, int] | None) -> bool:
        """Move the cursor for ``key`` (a move key, ``tab``, a click); whether it was one."""
        command = command_for(game.rules, key) if key != "click" else None
        if key == "click" and cell is not None:
            self.at = _clamp(game, cell)
        elif key == "tab":
            monsters = by_distance(game, game.visible_monsters())
            if monsters:
                cells = [game.position(e) for e in monsters]
                self.at = cells[(cells.index(self.at) + 1) % len(cells)] if self.at in cells else cells[0]
        elif key in DIRS or (command is not None and command.name == "move"):
            dx, dy = DIRS[key if key in DIRS else command.arg]
            self.at = _clamp(game, (self.at[0] + dx, self.at[1] + dy))
        else:
            return False
        self.detail = ""
        return True

    def describe(self, game: Run) -> dict[str, Any]:
        return {**super().describe(game), "cursor": list(self.at)}


@dataclass
class LookCursor(Cursor):
    """Look mode: the cursor says what is under it (what is seen now, or remembered)."""

    title: str = "Look"
    detail: str = ""
    kind = "look"

    def key(self, game: Run, key: str, cell: tuple[int, int] | None) -> Answer:
        if key in ("esc", "enter", "x"):
            return CLOSE
        self.move(game, key, cell)
        return None

    def describe(self, game: Run) -> dict[str, Any]:
        return {**super().describe(game), "detail": describe_cell(game, self.at)}


@dataclass
class History(Prompt):
    """The message log, newest last, scrolled with the up/down keys and space; any other key closes."""

    title: str = "Messages"
    back: int = 0  # lines scrolled back from the newest
    kind = "history"

    def key(self, game: Run, key: str, cell: tuple[int, int] | None) -> Answer:
        command = command_for(game.rules, key)
        direction = command.arg if command is not None and command.name == "move" else key
        most = max(0, len(game.messages) - 1)
        if direction in ("up", "upleft", "upright"):
            self.back = min(most, self.back + 1)
        elif direction in ("down", "downleft", "downright"):
            self.back = max(0, self.back - 1)
        elif key == "space":
            self.back = min(most, self.back + PAGE)
        else:
            return CLOSE
        return None

    def describe(self, game: Run) -> dict[str, Any]:
        return {**super().describe(game), "back": self.back, "lines": len(game.messages)}


class Sheet(Menu):
    """Lines a plugin's key command shows (an ``engine.Page``): a menu with nothing to choose, closed
    by any key."""

    kind = "page"


@dataclass
class Direction(Prompt):
    """Which way a plugin's key command goes (``KeyCommand.directions`` gave several): a move key
    toward one of ``steps`` answers ``then(game, step)``; Escape closes and no time passes."""

    title: str
    steps: list[tuple[int, int]]
    then: Callable[[Run, tuple[int, int]], Answer]
    detail: str = ""
    kind = "direction"

    def key(self, game: Run, key: str, cell: tuple[int, int] | None) -> Answer:
        if key == "esc":
            return CLOSE
        command = command_for(game.rules, key)
        step = DIRS.get(command.arg) if command is not None and command.name == "move" else None
        if step not in self.steps:
            self.detail = "Press a direction key toward one of them, or Esc."
            return None
        return self.then(game, step)


@dataclass
class Question(Prompt):
    """A plugin's question (``GameAPI.ask``): one option by its letter; it cannot be put off."""

    title: str
    options: list[str] = field(default_factory=list)
    plugin: str = ""
    name: str = ""
    kind = "question"

    def key(self, game: Run, key: str, cell: tuple[int, int] | None) -> Answer:
        if key in LETTERS[: len(self.options)]:
            return Chosen(LETTERS.index(key))
        return None

    def describe(self, game: Run) -> dict[str, Any]:
        return {**super().describe(game),
                "options": [{"letter": LETTERS[i], "label": o} for i, o in enumerate(self.options)]}


# -- what a cell holds, in words ---------------------------------------------------------------
def describe_cell(game: Run, at: tuple[int, int]) -> str:
    """What the player knows of a cell: its creature and items when in view, else its memory (the
    item last seen there, or its terrain)."""
    x, y = at
    view, world = game.state.view, game.world
    if not view.seen[y, x]:
        return game.rules.message("look_unknown")
    terrain = _terrain_name(game, at)
    if not view.visible[y, x]:
        kind = view.items.get(at)
        if kind is not None:
            found = game.registry.items.get(kind)
            shown = naming.item_name(game, None, found) if found is not None else None
            item = memory.with_article(game.registry.items, kind, shown)
            return game.rules.message("look_remembered_item", item=item, what=terrain)
        return game.rules.message("look_remembered", what=terrain)
    parts = []
    for entity in game.api.entities_at(x, y):
        if entity == game.player:
            parts.append(game.rules.message("look_you"))
        elif world.has(entity, Monster):
            if game.sight.veiled(entity):
                continue  # seen only near the player
            fighter = world.get(entity, Fighter)
            state = "awake" if world.get(entity, Monster).awake else "asleep"
            said = game.rules.message("look_monster", monster=game.name_of(entity), hp=fighter.hp,
                                      max_hp=fighter.max_hp, state=state)
            about = game.kind_of(entity).description.rstrip(".")  # the parts are joined by "; "
            parts.append(f"{said}: {about}" if about else said)
        elif world.has(entity, Item):
            item = world.get(entity, Item)
            said = itemwords.summary(game, entity, game.registry.items[item.kind]).rstrip(".")  # as the player knows it
            parts.append(f"{item.amount} {said}" if item.amount > 1 else said)
    parts.append(terrain)
    return "; ".join(parts)


def _terrain_name(game: Run, at: tuple[int, int]) -> str:
    level = game.level
    for name, cell in (("stairs down", level.stairs), ("stairs up", level.upstairs), ("the way out", level.exit)):
        if cell == at:
            return name
    code = int(level.terrain[at[1], at[0]])
    if code >= len(BUILTIN_KINDS):  # a plugin's kind: its own words
        return game.ground.kind(*at).shown
    return "wall" if code == WALL else "floor"


def _clamp(game: Run, cell: tuple[int, int]) -> tuple[int, int]:
    h, w = game.level.terrain.shape
    return min(max(cell[0], 0), w - 1), min(max(cell[1], 0), h - 1)


def by_distance(game: Run, entities: list[int]) -> list[int]:
    px, py = game.position(game.player)

    def dist(e: int) -> tuple[int, int]:
        x, y = game.position(e)
        return max(abs(x - px), abs(y - py)), e

    return sorted(entities, key=dist)


def monster_at(game: Run, at: tuple[int, int]) -> int | None:
    entity = game.state.spatial.blocker_at(*at)
    seen = entity is not None and game.world.has(entity, Monster) and not game.sight.veiled(entity)
    return entity if seen else None
