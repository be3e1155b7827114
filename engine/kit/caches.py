"""Caches with a bound: no table a function keeps between calls grows with play.

``functools.lru_cache(maxsize=N)`` bounds a cache by its count of entries, which is enough when
every entry is about the same size. When entries differ a thousandfold (a window of an FOV light
is 9 cells at reach 1 and 4 million at reach 999 on a 1000x1000 map), a count alone either keeps
too little or lets a few entries take gigabytes: :func:`bounded` also caps the total *cells* of
the entries it keeps, evicting the least recently used first. A hit costs one dictionary lookup
and a move to the end.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple


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
