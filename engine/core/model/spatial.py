"""Where things stand: the one owner of every entity's position.

Components are the truth: an entity stands where its :class:`Position` says. The index is derived
from them (and rebuilt from them when a save is loaded, never saved), and it is the only code that
adds, moves or removes a ``Position``, so the two never disagree. Fighters (the player, monsters)
block their cell, one per cell; items lie on a cell in a pile, in the order they were put there
(picked up in that order).
"""

from __future__ import annotations

from engine.core.model.components import Fighter, Item, Position
from engine.core.model.world import World

Cell = tuple[int, int]


class SpatialIndex:
    def __init__(self, world: World) -> None:
        self.world = world
        self._blockers: dict[Cell, int] = {}
        self._items: dict[Cell, list[int]] = {}

    @classmethod
    def rebuild(cls, world: World) -> SpatialIndex:
        """The index of a world whose entities already have positions (a loaded save): in entity
        order, which is the order they were placed in."""
        index = cls(world)
        for entity, pos in sorted(world.query(Position)):
            index._put(entity, (pos.x, pos.y))
        return index

    def _put(self, entity: int, cell: Cell) -> None:
        if self.world.has(entity, Fighter):
            other = self._blockers.get(cell)
            if other is not None and other != entity:
                raise ValueError(f"entity {entity} cannot stand on {cell}: entity {other} is there")
            self._blockers[cell] = entity
        elif self.world.has(entity, Item):
            self._items.setdefault(cell, []).append(entity)

    def _take(self, entity: int, cell: Cell) -> None:
        if self._blockers.get(cell) == entity:
            del self._blockers[cell]
            return
        pile = self._items.get(cell)
        if pile and entity in pile:
            pile.remove(entity)
            if not pile:
                del self._items[cell]

    def place(self, entity: int, x: int, y: int) -> None:
        """Put an entity that has no position yet on the map."""
        self._put(entity, (x, y))
        self.world.add(entity, Position(x, y))

    def move(self, entity: int, x: int, y: int) -> tuple[int, int]:
        """Move an entity on the map to (x, y); returns where it stood (a step's hearers ask)."""
        pos = self.world.get(entity, Position)
        blockers, here, there = self._blockers, (pos.x, pos.y), (x, y)
        # a creature's step (a crowd's every turn): _take and _put, inline
        if blockers.get(here) == entity and self.world.has(entity, Fighter):
            other = blockers.get(there)
            if other is not None and other != entity:
                raise ValueError(f"entity {entity} cannot stand on {there}: entity {other} is there")
            del blockers[here]
            blockers[there] = entity
        else:
            self._take(entity, here)
            self._put(entity, there)
        pos.x, pos.y = x, y
        return here

    def remove(self, entity: int) -> None:
        """Take an entity off the map (it dies, or it is picked up); it keeps its other components."""
        pos = self.world.try_get(entity, Position)
        if pos is None:
            return
        self._take(entity, (pos.x, pos.y))
        self.world.remove(entity, Position)

    def blocker_at(self, x: int, y: int) -> int | None:
        return self._blockers.get((x, y))

    def items_at(self, x: int, y: int) -> list[int]:
        return list(self._items.get((x, y), ()))

    def piles(self) -> dict[Cell, list[int]]:
        """Every cell with items lying on it, and its items in the order put there (read only)."""
        return self._items

    def blockers(self) -> dict[Cell, int]:
        """Every blocking entity by cell, in the order they came to stand there (read only)."""
        return self._blockers

    def occupied(self) -> set[Cell]:
        """Cells where something stands or lies."""
        return set(self._blockers) | set(self._items)
