"""The field-of-view contract and helpers shared by FOV plugins.

An FOV algorithm is ``fn(transparent, origin, radius) -> visible``:

- ``transparent``: numpy bool array of shape (height, width), indexed ``[y, x]``.
- ``origin``: ``(x, y)``, always inside the map.
- ``radius``: an int, or ``None`` for unlimited. The light has the shape the algorithm declares
  (``shape=``, :data:`LIGHT_SHAPES`), round by default: a cell is in range when
  ``dx*dx + dy*dy <= radius*radius`` (round), ``|dx| + |dy| <= radius`` (diamond) or
  ``max(|dx|, |dy|) <= radius`` (square).
- returns a numpy bool array of the same shape. The origin is visible; an opaque cell is visible
  when the algorithm lights it (walls are lit).

Algorithms are registered by plugins through ``register_fov_algorithms(register)`` with
``register(name, fn, *, symmetric=False, summary="", python=None, max_reach=None, tcod=None,
through_walls=False, shape="round")``. ``through_walls=True`` claims that opaque cells hide nothing (a map
reveal); ``python`` is
for an ``fn`` that runs a compiled kernel when it can (see ``engine.kit.jit``): the pure-Python version
it must agree with, which the tests compare it to and the bench times beside it. ``max_reach`` is for
an algorithm whose tables grow too fast to light far: the farthest window half-side it accepts
(``table_reach``); a game whose light reaches farther is refused before play (``reach_error``).
``tcod`` names libtcod's counterpart (``"FOV_SHADOW"``, a ``tcod.constants`` name), which the bench
times beside it. ``reach`` is a cap on the light, which the game honours (a fog, a "sight 4" rule):
the algorithm is called with ``reach`` for a larger radius or None, so nothing farther is ever lit,
and the test kit holds it to that.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.kit import limits
from engine.kit.caches import bounded

FovFn = Callable[[np.ndarray, tuple[int, int], "int | None"], np.ndarray]


@dataclass(frozen=True)
class FovAlgorithm:
    """A registered FOV algorithm and the properties it claims."""

    name: str
    fn: FovFn
    symmetric: bool = False
    summary: str = ""
    python: FovFn | None = None  # the pure-Python reference of a compiled ``fn``
    max_reach: int | None = None  # the farthest table_reach it can light, None for any
    tcod: str | None = None  # libtcod's counterpart, a tcod.constants name, for the bench to compare
    through_walls: bool = False  # it claims to see through opaque cells (a map reveal), so walls hide nothing
    shape: str = "round"  # the shape of its light (LIGHT_SHAPES): what the test kit holds it to
    reach: int | None = None  # the farthest it ever lights, whatever the radius asked (``fn`` is capped)

    def __call__(self, transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
        return self.fn(transparent, origin, radius)

    def radius_for(self, radius: int | None) -> int | None:
        """The radius it lights when asked for ``radius``: its ``reach`` when that is nearer."""
        return capped_radius(radius, self.reach)


def capped_radius(radius: int | None, reach: int | None) -> int | None:
    """``radius``, or ``reach`` when that is nearer (None: unlimited)."""
    if reach is None or (radius is not None and radius <= reach):
        return radius
    return reach


def capped(fn: FovFn, reach: int) -> FovFn:
    """``fn`` whose light never goes farther than ``reach``: a larger radius, or None, becomes ``reach``."""
    @functools.wraps(fn)
    def lit(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
        return fn(transparent, origin, capped_radius(radius, reach))
    return lit


# The shapes a light may have, and when a cell (dx, dy) from the origin is within ``radius``.
LIGHT_SHAPES: dict[str, str] = {
    "round": "dx*dx + dy*dy <= radius*radius",
    "diamond": "|dx| + |dy| <= radius",
    "square": "max(|dx|, |dy|) <= radius",
}


def radius_mask(shape: tuple[int, int], origin: tuple[int, int], radius: int | None,
                light: str = "round") -> np.ndarray:
    """Cells within the light of ``radius`` around ``origin`` (all cells when None), for a map of
    ``shape`` (height, width); ``light`` is the light's shape, one of :data:`LIGHT_SHAPES`."""
    h, w = shape
    if radius is None:
        return np.ones(shape, dtype=bool)
    ox, oy = origin
    ys, xs = np.ogrid[0:h, 0:w]
    dx, dy = np.abs(xs - ox), np.abs(ys - oy)
    if light == "round":
        return dx * dx + dy * dy <= radius * radius
    if light == "diamond":
        return dx + dy <= radius
    if light == "square":
        return np.maximum(dx, dy) <= radius
    raise ValueError(f"light shape {light!r}: expected one of {', '.join(LIGHT_SHAPES)}")


# --- Helpers for fast algorithms -------------------------------------------------------------------
#
# The fast built-in algorithms all work on a *window*: the square of side 2*R+1 centred on the
# origin, where R is the farthest the light can reach on this map. Cells of the window that fall
# outside the map are opaque (they can only ever cut light that would leave the map anyway), so an
# algorithm never checks bounds. The window's centre is at flat index ``R * (2*R+1) + R``.


def window_reach(shape: tuple[int, int], origin: tuple[int, int], radius: int | None) -> int:
    """Half-side R of the window: the radius, capped by the Chebyshev distance to the farthest edge."""
    h, w = shape
    ox, oy = origin
    edge = max(ox, w - 1 - ox, oy, h - 1 - oy)
    return edge if radius is None else max(0, min(radius, edge))


def table_reach(shape: tuple[int, int], radius: int | None) -> int:
    """A window half-side that serves every origin on a map of this shape: the radius, capped by
    the farthest any cell is from any other along an axis. Algorithms with tables built per window
    size use it, so that a light wider than the map builds one table per map, not one per origin."""
    longest = max(shape) - 1
    return longest if radius is None else max(0, min(radius, longest))


class ReachError(ValueError):
    """An algorithm with a ``max_reach`` was asked to light farther."""


def reach_error(name: str, max_reach: int | None, shape: tuple[int, int], radius: int | None) -> str | None:
    """Why FOV ``name`` cannot light a map of ``shape`` with ``radius``, in one line (the caller says
    what to do about it); None when it can. The algorithm itself calls ``limited_reach``."""
    reach = table_reach(shape, radius)
    if max_reach is None or reach <= max_reach:
        return None
    h, w = shape
    light = f"a radius of {radius}" if radius is not None else "a light with no radius"
    return (f"fov {name!r} lights at most {max_reach} cells away (its tables grow with the cube of the "
            f"distance), but {light} reaches {reach} on a {w}x{h} map")


def limited_reach(name: str, max_reach: int, shape: tuple[int, int], radius: int | None) -> int:
    """``table_reach`` for an algorithm that lights at most ``max_reach`` away; ReachError beyond."""
    problem = reach_error(name, max_reach, shape, radius)
    if problem:
        raise ReachError(problem)
    return table_reach(shape, radius)


def window(transparent: np.ndarray, origin: tuple[int, int], r: int) -> np.ndarray:
    """A new (2r+1, 2r+1) bool window of ``transparent`` centred on ``origin``; off-map cells are False."""
    h, w = transparent.shape
    ox, oy = origin
    side = 2 * r + 1
    if r <= ox < w - r and r <= oy < h - r:  # the common case: no padding needed
        return np.array(transparent[oy - r:oy + r + 1, ox - r:ox + r + 1], dtype=bool)  # a copy
    out = np.zeros((side, side), dtype=bool)
    x0, x1 = max(0, ox - r), min(w, ox + r + 1)
    y0, y1 = max(0, oy - r), min(h, oy + r + 1)
    out[y0 - oy + r:y1 - oy + r, x0 - ox + r:x1 - ox + r] = transparent[y0:y1, x0:x1]
    return out


def lit_cells(shape: tuple[int, int], radius: int | None) -> int:
    """The cells an FOV call can light: its light's square with a radius, else the whole map (the
    size of its work, for a play session's deferring of numba: engine.kit.jit.sibling)."""
    size = shape[0] * shape[1]
    return size if radius is None else min(size, (2 * radius + 1) ** 2)


EAGER_REACH = 32  # up to this window half-side, per-slope tables are built whole (see slope_rows)


def slope_rows(r: int, keys: Iterable[int] | Callable[[], Iterable[int]],
               build: Callable[[int], tuple[Any, ...]]) -> list[Any] | LazyRows:
    """A table from a slope's key to that slope's per-row values ``build(key)``, for an r-window.

    Small windows get a list, built whole (the fastest lookup), of the slopes ``keys`` names: the
    keys, or a function that lists them. A light that reaches far would make a table of every slope
    for every row too big to build (it grows with r cubed), so larger windows get a ``LazyRows``
    that works out a slope's rows the first time a scan meets it, and never list the keys of a
    function (there are r squared of them: listing them was most of a first call with no radius on
    a 1000x1000 map)."""
    if r > EAGER_REACH:
        return LazyRows(build)
    keys = list(keys() if callable(keys) else keys)
    table: list[Any] = [None] * (max(keys) + 1)
    for key in keys:
        table[key] = build(key)
    return table


class LazyRows(dict[int, tuple[Any, ...]]):
    """A table from a key (a slope, say) to that key's per-row values, each built by ``build(key)``
    the first time it is asked for. It keeps at most ``limits.MAX_FOV_ROW_CELLS`` values: past
    them the keys built first go first (scans meet new slopes all over a big map, and a walk with
    no radius would keep them all), to be built again if they are asked for again."""

    __slots__ = ("build", "cells")

    def __init__(self, build: Callable[[int], tuple[Any, ...]]):
        super().__init__()
        self.build = build
        self.cells = 0  # values held, over all keys

    def __missing__(self, key: int) -> tuple[Any, ...]:
        rows = self.build(key)
        while self and self.cells + len(rows) > limits.MAX_FOV_ROW_CELLS:
            self.cells -= len(self.pop(next(iter(self))))
        self[key] = rows
        self.cells += len(rows)
        return rows


def _disc_cells(disc: np.ndarray) -> int:
    return disc.size


# Per (window reach, radius): a light with no radius on a big map has a new reach at almost every
# origin, so the discs are kept by count and by cells (a reach of 999 is 4 million cells).
@bounded(limits.MAX_FOV_CACHE_ENTRIES, limits.MAX_FOV_CACHE_CELLS, _disc_cells)
def window_disc(r: int, radius: int | None) -> np.ndarray:
    """Cells of an r-window that are in the round light of ``radius`` (read-only; the most recently
    used are kept, see ``engine.kit.caches.bounded``)."""
    d = np.arange(-r, r + 1)
    disc = d[:, None] ** 2 + d[None, :] ** 2 <= (2 * r * r if radius is None else radius * radius)
    disc.flags.writeable = False
    return disc


def paste(lit: np.ndarray, shape: tuple[int, int], origin: tuple[int, int], r: int,
          radius: int | None) -> np.ndarray:
    """Turn a window of lit cells into the full-map result, clipped to the map and the light's radius.

    ``lit`` is a (2r+1, 2r+1) bool array, or a flat array of that many cells.
    """
    h, w = shape
    ox, oy = origin
    side = 2 * r + 1
    if radius is None or radius * radius >= 2 * r * r:  # the light covers the window: no disc to cut by
        lit = lit.reshape(side, side).copy()  # a copy: ``lit`` may be read-only
    else:
        lit = lit.reshape(side, side) & window_disc(r, radius)  # a new array: ``lit`` may be read-only
    lit[r, r] = True  # the origin is always visible
    out = np.zeros(shape, dtype=bool)
    x0, x1 = max(0, ox - r), min(w, ox + r + 1)
    y0, y1 = max(0, oy - r), min(h, oy + r + 1)
    out[y0:y1, x0:x1] = lit[y0 - oy + r:y1 - oy + r, x0 - ox + r:x1 - ox + r]
    return out
