"""What a level's terrain means for the rules: per cell, whether a creature may step there, whether
light passes, what a step there costs a path, from the level's table of kinds and the registered
:class:`~engine.core.kinds.terrainkinds.TerrainKind`\\ s.

A :class:`Ground` is derived data (never saved): made for a level when it comes into play, changed
cell by cell when the terrain changes (``GameAPI.set_terrain``), its ``revision`` counting those
changes so that what was computed from it (distance maps) knows when it is stale. For a level of the
built-in kinds alone the arrays are what they always were: ``terrain != WALL`` for both walking and
light, and that same bool array as the path cost (cost 1 where walkable). A kind whose cost is
``math.inf`` is walkable but costs 0 in the path cost, as a wall does: no path (a monster's, the
player's travel and explore) enters it. A kind no plugin registered (a level that should not have
reached play) counts as wall.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from engine.core.kinds.terrainkinds import TerrainKind
from engine.kit.mapgen import Level

_UNKNOWN = TerrainKind(name="?", glyph="?", walkable=False, transparent=False)


class Ground:
    """The walking, light and cost arrays of one level (see the module doc)."""

    def __init__(self, level: Level, kinds: Mapping[str, TerrainKind]) -> None:
        self.level = level
        self.revision = 0
        self._registered = kinds
        self.refresh()

    def refresh(self) -> None:
        """Recompute everything from the level (its table grew, or it was replaced)."""
        level = self.level
        self.names = tuple(level.kinds)
        self.kinds = [self._registered.get(name, _UNKNOWN) for name in self.names]
        self.walk_lut = np.array([k.walkable for k in self.kinds], dtype=bool)
        self.clear_lut = np.array([k.transparent for k in self.kinds], dtype=bool)
        # 0: no path enters it (a wall; a kind of cost inf: walkable, but never on a path)
        self.cost_lut = np.array([float(k.cost) if k.walkable and math.isfinite(k.cost) else 0.0 for k in self.kinds],
                                 dtype=np.float64)
        self.weighted = bool((self.cost_lut[self.walk_lut] != 1.0).any())
        self.hooked = any(k.hooked for k in self.kinds)
        # the cells whose kind hears a creature step on or off it (on_enter, on_leave): a step between
        # two others asks no hook (a crowd's every step, on a level with a pool of deep water)
        self._hears = [k.on_enter is not None or k.on_leave is not None for k in self.kinds]
        heard = np.array(self._hears, dtype=bool)[level.terrain] if any(self._hears) else None
        self.listening: set[tuple[int, int]] = set() if heard is None else {
            (int(x), int(y)) for y, x in zip(*np.nonzero(heard), strict=True)}
        self._cells_of: dict[frozenset[str], set[tuple[int, int]]] = {}  # see cells_of
        self.standing = any(k.on_stand is not None for k in self.kinds)
        self.unremembered = not all(k.remembered for k in self.kinds)
        self.barring = frozenset(k.barred for k in self.kinds if k.barred)  # the words some kind bars
        terrain = level.terrain
        self.walkable = self.walk_lut[terrain]
        # the same cells read one at a time, as Python bools (walkable[y, x] is a numpy scalar, at
        # twice the cost): ``walk_flat[y * width + x]``; a view, so it follows changed() in place
        self.walk_flat = memoryview(self.walkable.reshape(-1).data)
        # light: the very array of walking when every kind lets light through exactly where it can
        # be walked (the built-in four), as the FOV has always been given
        self.transparent = self.walkable if np.array_equal(self.walk_lut, self.clear_lut) else self.clear_lut[terrain]
        self.cost = self.cost_lut[terrain] if self.weighted else self.walkable
        self.revision += 1

    def kind(self, x: int, y: int) -> TerrainKind:
        return self.kinds[int(self.level.terrain[y, x])]

    def changed(self, x: int, y: int) -> None:
        """Cell (x, y) of the level got another kind: update its cell in every array."""
        if tuple(self.level.kinds) != self.names:
            self.refresh()
            return
        code = int(self.level.terrain[y, x])
        shared = self.transparent is self.walkable
        self.walkable[y, x] = self.walk_lut[code]
        if not shared:
            self.transparent[y, x] = self.clear_lut[code]
        if self.weighted:
            self.cost[y, x] = self.cost_lut[code]
        if self._hears[code]:
            self.listening.add((x, y))
        else:
            self.listening.discard((x, y))
        name = self.names[code]
        for names, cells in self._cells_of.items():
            if name in names:
                cells.add((x, y))
            else:
                cells.discard((x, y))
        self.revision += 1

    def cells_of(self, names: frozenset[str]) -> set[tuple[int, int]]:
        """The cells (x, y) of the kinds named ``names`` (read only): a hook that hears the steps
        from or onto some kinds (``engine.hears(steps=...)``) asks, on a crowd's every step. Made
        once per set of names while the level is in play, and kept as its cells change."""
        cells = self._cells_of.get(names)
        if cells is None:
            marked = np.array([name in names for name in self.names], dtype=bool)
            ys, xs = np.nonzero(marked[self.level.terrain]) if marked.any() else ((), ())
            cells = self._cells_of[names] = {(int(x), int(y)) for y, x in zip(ys, xs, strict=True)}
        return cells

    def barred(self, words: frozenset[str]) -> np.ndarray:
        """Where a creature barred by ``words`` may not step (bool, ``[y, x]``): the cells of the
        kinds whose ``barred`` is one of them."""
        return np.array([k.barred in words for k in self.kinds], dtype=bool)[self.level.terrain]

    def bars(self, words: frozenset[str], x: int, y: int) -> bool:
        """Whether cell (x, y) is a kind barred to a creature barred by ``words``."""
        return self.kinds[int(self.level.terrain[y, x])].barred in words

    def remembered(self, terrain: np.ndarray) -> np.ndarray:
        """Where (on ``terrain``, a slice of the level's) the player's memory keeps the kind."""
        if not self.unremembered:
            return np.ones(terrain.shape, dtype=bool)
        return np.array([k.remembered for k in self.kinds], dtype=bool)[terrain]
