"""One esper world per run.

esper 3 keeps its state in module globals, one context per world name. :class:`World` gives each
run a world of its own and switches to it before every call that needs esper's module state, so
two games in one process (as in the tests) never see each other's entities or processors.

The reads of one entity (:meth:`World.get`, :meth:`World.try_get`, :meth:`World.has`,
:meth:`World.components`) are the hot path of a turn (hundreds of thousands a bot run): they read
the world's own entity table, the dict esper keeps for it whichever world is current (esper swaps
its module globals on a switch, never the dicts), with no switch and no esper call. What they
answer is esper's answer, raised errors included.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Collection, Iterator
from typing import Any, TypeVar

import esper

from engine.kit.limits import MAX_ORDERED_QUERIES

_T = TypeVar("_T")
_names = itertools.count(1)
_entity = operator.itemgetter(0)  # a query's pair's entity: its order


class World:
    """A thin, explicit handle on one esper world."""

    def __init__(self) -> None:
        self.name = f"undercroft-{next(_names)}"
        esper.switch_world(self.name)
        # esper 3's table of this world, {entity: {component type: component}}: the same dict for
        # the world's life (clear_database empties it in place); re-check on upgrade
        self._entities: dict[int, dict[type, Any]] = esper._entities
        # and its {component type: set of entities}, likewise kept (a type no entity has is not in it)
        self._components: dict[type, set[int]] = esper._components
        # ordered(): by the types asked, esper's answer last sorted (held: its identity is the test)
        # and the pairs in entity order
        self._ordered: dict[tuple[type, ...], tuple[list, list]] = {}

    def _use(self) -> None:
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    def create(self, *components: Any) -> int:
        self._use()
        return esper.create_entity(*components)

    def get(self, entity: int, component_type: type[_T]) -> _T:
        """The component (KeyError when the entity or the component is missing, as esper's)."""
        return self._entities[entity][component_type]

    def try_get(self, entity: int, component_type: type[_T]) -> _T | None:
        try:  # one lookup, then the component's: the hottest read of a turn (a crowd's, several a monster)
            return self._entities[entity].get(component_type)
        except KeyError:
            return None

    def has(self, entity: int, component_type: type) -> bool:
        """Whether the entity has the component (KeyError for an entity not in the world, as esper's)."""
        return component_type in self._entities[entity]

    def has_any(self, entity: int, component_types: Collection[type]) -> bool:
        """Whether the entity has a component of one of the types (False for one not in the world):
        one set test, as every action's hooks ask (engine.core.turn.hearing)."""
        comps = self._entities.get(entity)
        return bool(comps) and not comps.keys().isdisjoint(component_types)

    def add(self, entity: int, component: Any) -> None:
        self._use()
        esper.add_component(entity, component)

    def remove(self, entity: int, component_type: type) -> None:
        if component_type in self._entities[entity]:
            self._use()
            esper.remove_component(entity, component_type)

    def components(self, entity: int) -> tuple[Any, ...]:
        return tuple(self._entities[entity].values())

    def entities(self) -> list[int]:
        """Every live entity, in creation order."""
        return sorted(self._entities)  # esper 3 has no public listing; re-check on upgrade

    def count(self) -> int:
        """How many entities live (without listing them)."""
        self._use()
        return len(esper._entities)

    def holds(self, *component_types: type) -> bool:
        """Whether some entity has each of the types (perhaps not one entity all of them): when not,
        a query of them finds nothing. Read without a switch (a plugin asks on every step)."""
        components = self._components
        for component_type in component_types:  # a loop, not all() of a generator: twice as quick
            if not components.get(component_type):
                return False
        return True

    def bears(self, entity: int, having: Collection[type], present: tuple[type, ...]) -> bool:
        """Whether the entity has a component of one of ``having``'s types, or some entity one of
        ``present``'s: :meth:`has_any` and :meth:`holds_any` in one call (a crowd's every step asks)."""
        comps = self._entities.get(entity)
        if comps and not comps.keys().isdisjoint(having):
            return True
        components = self._components
        for component_type in present:
            if components.get(component_type):
                return True
        return False

    def holds_any(self, component_types: tuple[type, ...]) -> bool:
        """Whether some entity has a component of one of the types (read without a switch)."""
        components = self._components
        for component_type in component_types:
            if components.get(component_type):
                return True
        return False

    def query(self, *component_types: type) -> Iterator[tuple[int, Any]]:
        self._use()
        if len(component_types) == 1:
            return iter(esper.get_component(component_types[0]))
        return iter(esper.get_components(*component_types))

    def ordered(self, *component_types: type) -> list[tuple[int, Any]]:
        """:meth:`query`'s pairs in entity order, as a new list. esper keeps its answer to a query
        until a component is added or removed anywhere, and gives that same list back meanwhile:
        the pairs are sorted again only when it made a new one (the hooks and bots that walk the
        monsters, the items or the pack every turn found the same list, sorted it again, each
        time). At most ``MAX_ORDERED_QUERIES`` queries are kept, the oldest forgotten first."""
        self._use()
        found = (esper.get_component(component_types[0]) if len(component_types) == 1
                 else esper.get_components(*component_types))
        kept = self._ordered.get(component_types)
        if kept is None or kept[0] is not found:
            if kept is None and len(self._ordered) >= MAX_ORDERED_QUERIES:
                del self._ordered[next(iter(self._ordered))]
            kept = self._ordered[component_types] = (found, sorted(found, key=_entity))
        return list(kept[1])

    def delete(self, entity: int) -> None:
        """Remove an entity now (its position must already be off the spatial index)."""
        self._use()
        if esper.entity_exists(entity):
            esper.delete_entity(entity, immediate=True)

    # -- processors: the per-turn systems (engine.core.turn.systems) ---------------------------
    def add_processor(self, processor: esper.Processor, priority: int = 0) -> None:
        self._use()
        esper.add_processor(processor, priority)

    def process(self, *args: Any) -> None:
        """Run every processor in priority order (highest first), each with ``args``."""
        self._use()
        esper.process(*args)

    def close(self) -> None:
        """Free the world; the handle must not be used afterwards."""
        if self.name in esper.list_worlds():
            if esper.current_world == self.name:
                esper.switch_world("default")
            esper.delete_world(self.name)
