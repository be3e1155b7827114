"""Caches with a bound: no table a function keeps between calls grows with play.

``functools.lru_cache(maxsize=N)`` bounds a cache by its count of entries, which is enough when
every entry is about the same size. When entries differ a thousandfold (a window of an FOV light
is 9 cells at reach 1 and 4 million at reach 999 on a 1000x1000 map), a count alone either keeps
too little or lets a few entries take gigabytes: :func:`bounded` also caps the total *cells* of
the entries it keeps, evicting the least recently used first. A hit costs one dictionary lookup
and a move to the end. :class:`Spares` keeps work arrays for reuse within the same two bounds.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

T = TypeVar("T")

# cells: a work array of 8 bytes a cell up to this size (128 kB, the C allocator's threshold for
# asking the system for new memory) comes from memory already mapped, and making it afresh costs
# less than :class:`Spares`' lock; past it, callers take their arrays from a pool
SPARE_FROM = 16_384


class CacheInfo(NamedTuple):
    """What a bounded cache holds now, and its bounds."""

    entries: int
    cells: int
    max_entries: int
    max_cells: int


def bounded(max_entries: int, max_cells: int,
            cells: Callable[[Any], int]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a function of hashable arguments with an LRU cache of at most ``max_entries`` results
    of at most ``max_cells`` cells together, a result's cells counted by ``cells(result)``. A result
    bigger than ``max_cells`` on its own is returned but not kept. The wrapper has ``cache_info()``
    (a :class:`CacheInfo`) and ``cache_clear()``, like ``functools.lru_cache``'s."""
    if max_entries < 1 or max_cells < 1:
        raise ValueError(f"bounded cache: max_entries and max_cells must be at least 1, got {max_entries}, {max_cells}")

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        kept: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        total = 0

        @functools.wraps(fn)
        def cached(*args: Any) -> Any:
            nonlocal total
            found = kept.get(args)
            if found is not None:
                kept.move_to_end(args)
                return found[0]
            value = fn(*args)
            size = cells(value)
            if size <= max_cells:
                while kept and (len(kept) >= max_entries or total + size > max_cells):
                    total -= kept.popitem(last=False)[1][1]
                kept[args] = (value, size)
                total += size
            return value

        def cache_info() -> CacheInfo:
            return CacheInfo(len(kept), total, max_entries, max_cells)

        def cache_clear() -> None:
            nonlocal total
            kept.clear()
            total = 0

        cached.cache_info = cache_info  # type: ignore[attr-defined]
        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        return cached

    return decorate


class Spares(Generic[T]):
    """Big scratch objects (work arrays) kept between calls to be used again, with a bound.

    A search on a big map that makes its work arrays afresh each call pays for more than making
    them: the system hands out new memory untouched, and the first write to each page of it is a
    fault, which on a 500x500 map cost more than the search. :meth:`take` hands out a kept object
    of at least ``cells`` cells (the smallest such, so a big one stays for big maps) or makes one
    with ``make(cells)``; :meth:`give` puts it back. An object is out of the pool while taken, so
    two threads (a numba kernel releases the GIL) never share one, and a call that raises loses
    only its own. Kept are at most ``max_entries`` objects of at most ``max_cells`` cells together
    (an object's cells counted by ``cells(obj)``), the least recently given back going first; an
    object bigger than ``max_cells`` on its own is never kept."""

    def __init__(self, max_entries: int, max_cells: int, make: Callable[[int], T],
                 cells: Callable[[T], int]) -> None:
        if max_entries < 1 or max_cells < 1:
            raise ValueError(f"spares: max_entries and max_cells must be at least 1, got {max_entries}, {max_cells}")
        self.max_entries, self.max_cells = max_entries, max_cells
        self._make, self._cells = make, cells
        self._kept: list[tuple[T, int]] = []  # (object, its cells), least recently given back first
        self._total = 0  # cells kept
        self._lock = threading.Lock()

    def take(self, cells: int) -> T:
        """A kept object of at least ``cells`` cells, no longer kept, or a new one."""
        with self._lock:
            kept = self._kept
            if kept and kept[-1][1] == cells:  # the usual call: the same map as the last one
                obj, size = kept.pop()
                self._total -= size
                return obj
            best = -1
            for k, (_, size) in enumerate(kept):
                if size >= cells and (best < 0 or size < kept[best][1]):
                    best = k
            if best >= 0:
                obj, size = kept.pop(best)
                self._total -= size
                return obj
        return self._make(cells)

    def give(self, obj: T) -> None:
        """Keep ``obj`` for a later :meth:`take`, within the bounds."""
        size = self._cells(obj)
        if size > self.max_cells:
            return
        with self._lock:
            kept = self._kept
            kept.append((obj, size))
            self._total += size
            while len(kept) > self.max_entries or self._total > self.max_cells:
                self._total -= kept.pop(0)[1]

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(len(self._kept), self._total, self.max_entries, self.max_cells)

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._total = 0
