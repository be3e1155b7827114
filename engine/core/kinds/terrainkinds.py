"""Terrain kinds: what a cell of a level is made of, registered by a plugin like a monster or an item.

A level stores its terrain by kind: a small table of kind names (``Level.kinds``) and, per cell, an
index into it. Wall, floor, stairs and stairs up are four kinds like any other, registered by the
built-in plugin ``terrain``; a plugin adds water, doors or traps with ``register_terrain``. A kind
says how it looks (glyph, colour lit and remembered), whether a creature may step on it
(``walkable``), whether light passes (``transparent``), what a step onto it costs a walker's path
(``cost``, 1 for floor; more is slower to cross, so paths go around it; ``math.inf``: a path never
enters it, though a creature may step there: a known trap, a door that will not open), whether
the player's memory keeps it (``remembered``), ``flags`` a generator or a rule can ask about, and
optional hooks.

Two fields make kinds that only some creatures, or only a player who looks, know:

- ``barred``: a word; a monster whose kind's ``params`` has it true may not enter the kind (its
  steps refuse it and its paths go around it, as around a wall): ``barred="animal"`` on a closed
  door keeps rats out. The player and every other monster walk it as its ``walkable`` says.
- ``found``: the kind a hidden one becomes when the player finds it (a secret door drawn as a wall
  becomes a door): a kind with ``found`` is hidden. ``GameAPI.reveal`` (the magic-mapping scroll)
  finds the hidden kinds in the cells it reveals; a plugin's search finds them with
  ``set_terrain(x, y, kind.found)``.

When the hooks run (the order matters):

- ``on_leave(game, entity, x, y)``: a creature stepped off the cell (its own step, or ``GameAPI.move``),
  after it has moved.
- ``on_enter(game, entity, x, y)``: a creature stepped onto the cell, right after ``on_leave`` of the
  cell it left; before the player picks up what lies there.
- ``on_stand(game, entity, x, y)``: at the end of every turn, for each creature on the cell, after
  the monsters have acted and before the statuses tick.

``game`` is the game API (``engine.GameAPI``); a hook changes the terrain with
``game.set_terrain(x, y, name)`` (a door opening), which updates sight, paths and the picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.kinds.fieldchecks import hook_problems, is_rgb, name_problems

RGB = tuple[int, int, int]
TerrainHook = Callable[[Any, int, int, int], None]


@dataclass(frozen=True)
class TerrainKind:
    """A kind of terrain: ``name`` (what a level's table and ``set_terrain`` name), ``glyph`` (one
    character; the window draws it, a tileset may draw a picture of the name instead), ``color``
    (lit), ``remembered_color`` (out of view; None: the window dims ``color``), ``walkable``,
    ``transparent``, ``cost`` (what entering it costs a path, a number of at least 1; only
    walkable kinds have one; ``math.inf``: never on a path, neither a monster's nor the player's
    travel and explore, yet walkable when a creature steps there itself), ``remembered`` (False:
    out of view the cell is drawn as unknown, like a gas), ``flags`` (words a generator or rule asks
    about with ``"deep" in kind.flags``; the window draws a ``"solid"`` kind as part of the wall, as
    the wall's own flag says: joined into its lines, known where it bounds a floor seen, dark deep
    in rock), ``description`` (what looking at it says; the name when
    empty), ``barred`` and ``found`` (see the module doc) and the optional hooks ``on_enter``,
    ``on_stand`` and ``on_leave`` (see the module doc for when each runs)."""

    name: str
    glyph: str
    color: RGB = (200, 200, 200)
    remembered_color: RGB | None = None
    walkable: bool = True
    transparent: bool = True
    cost: float = 1.0
    remembered: bool = True
    flags: frozenset[str] = frozenset()
    description: str = ""
    on_enter: TerrainHook | None = None
    on_stand: TerrainHook | None = None
    on_leave: TerrainHook | None = None
    barred: str = ""
    found: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.flags, list | tuple | set):  # a list of words is read as the set it means
            object.__setattr__(self, "flags", frozenset(self.flags))

    @property
    def shown(self) -> str:
        """What looking at the cell calls it."""
        return self.description or self.name

    @property
    def hooked(self) -> bool:
        return self.on_enter is not None or self.on_leave is not None or self.on_stand is not None


def problems(kind: TerrainKind) -> list[str]:
    """What is wrong with a terrain kind built by a plugin, each in a few words (empty: nothing)."""
    found = name_problems(kind.name)
    if not isinstance(kind.glyph, str) or len(kind.glyph) != 1 or not kind.glyph.isprintable() or kind.glyph == " ":
        found.append(f"glyph must be one printable character, got {kind.glyph!r}")
    if not is_rgb(kind.color):
        found.append(f"color must be (r, g, b) with each 0..255, got {kind.color!r}")
    if kind.remembered_color is not None and not is_rgb(kind.remembered_color):
        found.append(f"remembered_color must be (r, g, b) with each 0..255 or None, got {kind.remembered_color!r}")
    for flag in ("walkable", "transparent", "remembered"):
        if not isinstance(getattr(kind, flag), bool):
            found.append(f"{flag} must be True or False, got {getattr(kind, flag)!r}")
    cost = kind.cost
    if isinstance(cost, bool) or not isinstance(cost, int | float) or math.isnan(cost) or cost < 1:
        found.append(f"cost must be a number of at least 1 (math.inf: never on a path), got {cost!r}")
    if not isinstance(kind.flags, frozenset) or not all(isinstance(f, str) for f in kind.flags):
        found.append(f"flags must be a set of words, got {kind.flags!r}")
    for word in ("description", "barred", "found"):
        if not isinstance(getattr(kind, word), str):
            found.append(f"{word} must be a string, got {getattr(kind, word)!r}")
    return found + hook_problems(kind, ("on_enter", "on_stand", "on_leave"))
