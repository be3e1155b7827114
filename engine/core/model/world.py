"""One esper world per run.

esper 3 keeps its state in module globals, one context per world name. :class:`World` gives each
run a world of its own and switches to it before every call, so two games in one process (as in
the tests) never see each other's entities or processors.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, TypeVar

import esper

_T = TypeVar("_T")
_names = itertools.count(1)


class World:
    """A thin, explicit handle on one esper world."""

    def __init__(self) -> None:
        self.name = f"undercroft-{next(_names)}"
        esper.switch_world(self.name)

    def _use(self) -> None:
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    def create(self, *components: Any) -> int:
        self._use()
        return esper.create_entity(*components)

    def get(self, entity: int, component_type: type[_T]) -> _T:
        self._use()
        return esper.component_for_entity(entity, component_type)

    def try_get(self, entity: int, component_type: type[_T]) -> _T | None:
        self._use()
        return esper.try_component(entity, component_type)

    def has(self, entity: int, component_type: type) -> bool:
        self._use()
        return esper.has_component(entity, component_type)

    def add(self, entity: int, component: Any) -> None:
        self._use()
        esper.add_component(entity, component)

    def remove(self, entity: int, component_type: type) -> None:
        self._use()
        if esper.has_component(entity, component_type):
            esper.remove_component(entity, component_type)

    def components(self, entity: int) -> tuple[Any, ...]:
        self._use()
        return esper.components_for_entity(entity)

    def entities(self) -> list[int]:
        """Every live entity, in creation order."""
        self._use()
        return sorted(esper._entities)  # esper 3 has no public listing; re-check on upgrade

    def count(self) -> int:
        """How many entities live (without listing them)."""
        self._use()
        return len(esper._entities)

    def query(self, *component_types: type) -> Iterator[tuple[int, Any]]:
        self._use()
        if len(component_types) == 1:
            return iter(esper.get_component(component_types[0]))
        return iter(esper.get_components(*component_types))

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
