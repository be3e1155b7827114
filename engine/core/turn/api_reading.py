"""The game API's reading part: the map and what is on it, as :class:`engine.core.turn.api.GameAPI` gives it.

A part of ``GameAPI`` (which owns one and gives its members under their own names: see
``engine/core/turn/api.py``): it reads the run it is given; it changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np

from engine.core.model.components import Fighter, Item, Monster, Player, Position
from engine.core.turn import entities, inventory, naming

if TYPE_CHECKING:
    from engine.core.kinds.content import ItemKind, MonsterKind
    from engine.core.kinds.terrainkinds import TerrainKind
    from engine.core.turn.playing import Playing
    from engine.core.turn.run import Run

T = TypeVar("T")


class Reading:
    """Reading the map and what is on it.

    What the level is made of, what the player sees and remembers of it, and the creatures and
    items on it: where they stand, what they are, how they fare."""

    def __init__(self, run: Run) -> None:
        self._run = cast("Playing", run)  # read only while the run plays

    # -- the map -----------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """The level's (width, height) in cells."""
        h, w = self._run.level.terrain.shape
        return w, h

    def is_wall(self, x: int, y: int) -> bool:
        """A wall (terrain no creature may step on), or off the map."""
        walkable = self._run.ground.walkable
        return not (0 <= x < walkable.shape[1] and 0 <= y < walkable.shape[0]) or not walkable[y, x]

    def passable(self, x: int, y: int) -> bool:
        """On the map, not a wall, and nobody standing there."""
        return entities.passable(self._run, x, y)

    def sees(self, x: int, y: int) -> bool:
        """Whether the player sees the cell now."""
        visible = self._run.state.view.visible
        return 0 <= y < visible.shape[0] and 0 <= x < visible.shape[1] and bool(visible[y, x])

    def stairs(self) -> tuple[int, int] | None:
        """The stairs down, known or not (a bot that plays fair asks :meth:`seen` first)."""
        return self._run.level.stairs

    def upstairs(self) -> tuple[int, int] | None:
        """The stairs up, known or not (None on a level without them)."""
        return self._run.level.upstairs

    def exit(self) -> tuple[int, int] | None:
        """The level's exit (a preset's goal: stepping on it ends the run), known or not; None
        when the level has none."""
        return self._run.level.exit

    def seen(self) -> np.ndarray:
        """What the player has seen of the level (bool, ``[y, x]``; a copy): their memory."""
        return self._run.state.view.seen.copy()

    def visible(self) -> np.ndarray:
        """What the player sees now (bool, ``[y, x]``; a copy)."""
        return self._run.state.view.visible.copy()

    def remembered(self) -> dict[tuple[int, int], str]:
        """The items the player remembers on the level: by cell ``(x, y)``, the kind of the item on
        top where they last saw one (a copy). What moved while unseen is remembered where it was."""
        return dict(self._run.state.view.items)

    def walls(self) -> np.ndarray:
        """Where the walls are: the terrain no creature may step on (bool, ``[y, x]``; a copy). What
        the player knows is ``walls & seen``."""
        return ~self._run.ground.walkable  # type: ignore[no-any-return]  # numpy's ~ says Any

    def features(self) -> list[str]:
        """The set pieces plugins noted in the level (``GameAPI.note_feature``), in the order noted (a copy)."""
        return list(self._run.level.features)

    def terrain(self, x: int, y: int) -> TerrainKind | None:
        """The kind of terrain on cell (x, y) (an ``engine.TerrainKind``: its ``name``, ``flags``...), or
        None off the map."""
        run = self._run
        h, w = run.level.terrain.shape
        return run.ground.kind(x, y) if 0 <= x < w and 0 <= y < h else None

    def area(self, center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
        """The cells a blast of ``radius`` around ``center`` reaches (what the FOV sees from there,
        walls excepted), sorted: the cells a targeting cursor shows as affected."""
        return self._run.sight.area(center, radius)

    # -- entities ----------------------------------------------------------------------------
    def monsters(self) -> list[int]:
        """Every monster on the level."""
        return [e for e, _ in self._run.world.ordered(Monster, Position)]

    def items(self) -> list[int]:
        """Every item lying on the level."""
        return [e for e, _ in self._run.world.ordered(Item, Position)]

    def visible_monsters(self) -> list[int]:
        """The monsters standing where the player sees."""
        return self._run.sight.visible_monsters()

    def creature_at(self, x: int, y: int) -> int | None:
        """The creature standing on the cell (the player or a monster), or None."""
        return self._run.state.spatial.blocker_at(x, y)

    def entities_at(self, x: int, y: int) -> list[int]:
        """Who stands on the cell (at most one creature), then the items lying there."""
        spatial = self._run.state.spatial
        blocker = spatial.blocker_at(x, y)
        return ([blocker] if blocker is not None else []) + spatial.items_at(x, y)

    def position(self, entity: int) -> tuple[int, int] | None:
        """Where it stands, or None when it is not on the map (dead, carried)."""
        pos = self._run.state.world.try_get(entity, Position)  # the state's: a crowd's every step asks
        return (pos.x, pos.y) if pos is not None else None

    def is_player(self, entity: int) -> bool:
        """Whether ``entity`` is the player."""
        return self._run.state.world.has(entity, Player)

    def name_of(self, entity: int) -> str:
        """"you" for the player, a monster's kind's name, an item's name as the player knows it
        (:meth:`item_name`: its kind's ``kind_of(item).name`` unless a plugin names it otherwise)."""
        if self._run.world.has(entity, Item):
            return naming.of_entity(self._run, entity)
        return entities.name_of(self._run, entity)

    def item_name(self, item: int | None, kind: ItemKind | str | None = None) -> str:
        """An item as the player knows it: the name every place that shows the player an item
        uses (the pack, look, the messages, the sidebar), its kind's name unless a plugin's
        ``item_name`` hook answers (the default game's unknown potions: "murky potion"). ``item``
        is the item entity; or None, with ``kind`` (an ``ItemKind`` or a kind's name), for a kind
        alone (an effect's message, an item remembered). A bot that plays fair reads items this way."""
        run = self._run
        if item is not None:
            return naming.of_entity(run, item)
        found = run.registry.items[kind] if isinstance(kind, str) else kind
        if found is None:
            raise ValueError("item_name: give an item entity, or None and its kind")
        return naming.item_name(run, None, found)

    def item_description(self, item: int | None, kind: ItemKind | str | None = None) -> str:
        """What the player is told an item does (look, the pack's menus): its kind's ``description``
        unless a plugin's ``item_description`` hook answers. Arguments as :meth:`item_name`'s."""
        run = self._run
        found = inventory.kind(run, item) if item is not None else (
            run.registry.items[kind] if isinstance(kind, str) else kind)
        if found is None:
            raise ValueError("item_description: give an item entity, or None and its kind")
        return naming.item_description(run, item, found)

    def kind_of(self, entity: int) -> MonsterKind | ItemKind | None:
        """A monster's or item's kind (with its ``params``); None for the player."""
        world = self._run.state.world
        monster = world.try_get(entity, Monster)  # a monster's, read once (every hunter's turn asks)
        if monster is not None:
            return entities.monster_kind(self._run, monster.kind)
        world.has(entity, Monster)  # not a monster: only an entity not of the world raises (KeyError), as ever
        item = world.try_get(entity, Item)
        return self._run.registry.items[item.kind] if item is not None else None

    def item_kind(self, name: str) -> ItemKind | None:
        """An item kind by name (an ``engine.Item``'s ``kind``), or None."""
        return self._run.registry.items.get(name)

    def terrain_kind(self, name: str) -> TerrainKind | None:
        """A registered terrain kind by name (``"secret-door"``), or None when no plugin registers it:
        a plugin using another's kind asks first."""
        return self._run.registry.terrain.get(name)
    def item_kinds(self) -> list[ItemKind]:
        """Every registered item kind, by name (what a plugin giving kinds appearances shuffles)."""
        items = self._run.registry.items
        return [items[name] for name in sorted(items)]

    def monster_kinds(self, depth: int | None = None) -> list[MonsterKind]:
        """The monster kinds this game's table may place at ``depth`` (the current one when None),
        by name: a plugin placing a guard or a summon picks among these."""
        return entities.monster_kinds_at(self._run, self._run.state.depth if depth is None else depth)

    def hp(self, entity: int) -> tuple[int, int]:
        """(hp, max_hp); (0, 0) for what cannot be hurt."""
        fighter = self._run.state.world.try_get(entity, Fighter)
        return (fighter.hp, fighter.max_hp) if fighter is not None else (0, 0)

    def attack_defense(self, entity: int) -> tuple[int, int]:
        """A creature's (attack, defense) now, the player's equipment included; (0, 0) for what
        cannot fight."""
        if not self._run.world.has(entity, Fighter):
            return (0, 0)
        return inventory.stats(self._run, entity)

    def notices(self, monster: int) -> bool:
        """Whether a monster notices the player (it stands where the player sees, within its sight)."""
        return self._run.sight.notices(monster)

    def distance(self, a: int, b: int) -> int:
        """King-move distance between two entities on the map."""
        ax: int
        ay: int
        bx: int
        by: int
        (ax, ay), (bx, by) = self.position(a), self.position(b)  # type: ignore[misc]  # off the map: a TypeError
        return max(abs(ax - bx), abs(ay - by))

    def component(self, entity: int, cls: type[T]) -> T | None:
        """An entity's component of type ``cls`` (the engine's, like ``engine.Inventory``, or one your
        plugin registered), or None. Change it in place; positions only through :meth:`move`."""
        if cls is Position:
            raise TypeError("positions change only through move() and teleport(); read them with position()")
        return self._run.state.world.try_get(entity, cls)

    def query(self, *types: type) -> list[tuple[int, Any]]:
        """Every entity that has a component of each of ``types`` (the engine's, like
        ``engine.Statuses``, or one your plugin registered), in entity order: ``(entity, component)``
        for one type, ``(entity, (component, ...))`` for several, as esper gives them. A system's
        way over the world: read and change the components in place (positions only through
        :meth:`move`, so no query gives ``engine.Position``); the list is a copy, so adding and
        removing components meanwhile is safe.

        Example::

            for entity, regen in game.query(Regenerates):
                game.heal(entity, regen.amount)"""
        if not types:
            raise TypeError("query: expected at least one component type")
        if Position in types:
            raise TypeError("query: positions are read with position() and entities_at(), not queried")
        world = self._run.state.world
        if not world.holds(*types):  # none of one of them (no ally on the level: a hook asks before it walks them)
            return []
        return world.ordered(*types)

    def pack(self) -> list[int]:
        """The item entities the player carries, as a list in letter order (each has
        ``Carried(letter)``; worn ones also ``Equipped(slot)``): ``game.pack()[0]`` is the one under
        the first letter in use."""
        return inventory.pack(self._run)
