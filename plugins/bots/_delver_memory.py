"""What the ``delver`` bot remembers between keys of one run (:class:`Memory`), and the trail of
its last keys' cells that makes it bold (:func:`note_step`). A helper of the plugin
``bot_delver``, not a plugin of its own; :mod:`engine.plugins.bots._delver_look` reads it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SIGHTING_TURNS = 20  # turns it keeps a monster in mind where it last saw it
TRAIL_KEYS = 12  # keys whose cells it keeps: all of them on two cells, its walks turn back and forth
BOLD_KEYS = 20  # keys it then walks through monsters (a bump is a blow) instead of round them


@dataclass
class Memory:
    """What a delver remembers between keys of one run."""

    flee_turns: int = 0  # steps fled along the safety map on this level
    chases: int = 0  # keys spent running after a thief on this level
    leaving: bool = False  # fleeing to the stairs or exit of this level: it goes on until there
    ignored: set[tuple[int, int]] = field(default_factory=set)  # unseen cells it stood beside
    last: tuple[int, int] | None = None  # (depth, turn) when it chose its last key
    stuck: int = 0
    waits: int = 0  # keys waited in a row for a monster to come next to it
    commands: dict[str, str] | None = None  # the first key of each command: the preset's, for the run
    route: list[tuple[int, int]] = field(default_factory=list)  # explore's walk to a frontier cell
    want: str | None = None  # the letter it means to choose in the menu its last key opens
    aim: tuple[int, int] | None = None  # the cell it means to choose in the targeting cursor it opens
    prompt_keys: int = 0  # keys pressed in a row into open prompts (bounded: then Escape)
    tries: dict[tuple[int, int, int], int] = field(default_factory=dict)  # (depth, x, y): pickups tried there
    levels: int = 0  # level-up questions answered
    tried: set[str] = field(default_factory=set)  # unknown items it tried to use when safe (by name)
    # what it worked out at earlier keys, kept while what it was worked out from stays the same
    # (``fresh``: nothing kept, everything worked out again at every key, and explore's map made on
    # the whole level: slower, and the same keys, which the tests hold it to)
    fresh: bool = False
    pack: Any = None  # the pack as it last made it: a _delver_look.Pack (which reads this module)
    floor: tuple | None = None  # the known floor the maps below were made on: (shape, bytes)
    searched: set[tuple[int, int]] = field(default_factory=set)  # cells it searched beside, this level
    searches: int = 0  # searches in a row where it stands
    sightings: dict[int, tuple[tuple[int, int], int]] = field(default_factory=dict)  # monster: (cell, turn) last seen
    homeward: int = 0  # keys it walked to the stairs up with the Amulet, this level (delver.homeward)
    charges: int = 0  # keys it ran at monsters that shoot, this level (_delver_ranged.charge)
    collecting: int = 0  # keys spent walking to items since it last picked one up (delver.collect)
    trail: deque = field(default_factory=lambda: deque(maxlen=TRAIL_KEYS))  # (depth, cell) at its last keys
    captive: tuple[int, int] | None = None  # where it last saw a captive to free, this level (_delver_vaults.free)
    freeing: int = 0  # keys it walked to captives, this level
    ventures: int = 0  # steps onto a known trap toward what it has not seen, this level (delver.venture)
    bold: int = 0  # keys left in which its walks go through monsters, not round them (see walk)
    maps: dict[tuple, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # (cost, distance map)
    reach: np.ndarray | None = None  # a distance map over the known floor from a floor cell: see DelverView.reaches

    def new_level(self) -> None:
        """Forget what belongs to the level it left (what it kept of the run stays)."""
        self.ignored.clear()
        self.searched.clear()
        self.sightings.clear()
        self.flee_turns = self.chases = self.searches = 0
        self.collecting = self.charges = self.homeward = self.freeing = self.ventures = 0
        self.leaving, self.captive = False, None


def note_step(memory: Memory, depth: int, here: tuple[int, int]) -> None:
    """Keep the cell of this key; its last TRAIL_KEYS keys all on two cells (a walk round
    monsters that turns back and forth), it is ``bold`` for BOLD_KEYS keys."""
    memory.bold = max(0, memory.bold - 1)
    trail = memory.trail
    trail.append((depth, here))
    # all on two cells: never three different ones in its last three keys (the usual walk on, at
    # once; the set of them all only when that holds)
    if len(trail) == TRAIL_KEYS and (trail[-1] == trail[-2] or trail[-1] == trail[-3] or trail[-2] == trail[-3]) \
            and len(set(trail)) == 2:
        memory.bold, memory.trail = BOLD_KEYS, deque(maxlen=TRAIL_KEYS)
