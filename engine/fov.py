"""The field-of-view contract and helpers shared by FOV plugins.

An FOV algorithm is ``fn(transparent, origin, radius) -> visible``:

- ``transparent``: numpy bool array of shape (height, width), indexed ``[y, x]``.
- ``origin``: ``(x, y)``, always inside the map.
- ``radius``: an int, or ``None`` for unlimited. The light is round: a cell is in range when
  ``dx*dx + dy*dy <= radius*radius``.
- returns a numpy bool array of the same shape. The origin is visible; an opaque cell is visible
  when the algorithm lights it (walls are lit).

Algorithms are registered by plugins through ``register_fov_algorithms(register)`` with
``register(name, fn, *, symmetric=False, summary="", python=None)``. ``python`` is for an ``fn``
that runs a compiled kernel when it can (see ``engine.jit``): the pure-Python version it must agree
with, which the tests compare it to and the bench times beside it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

FovFn = Callable[[np.ndarray, tuple[int, int], "int | None"], np.ndarray]


@dataclass(frozen=True)
class FovAlgorithm:
    """A registered FOV algorithm and the properties it claims."""

    name: str
    fn: FovFn
    symmetric: bool = False
    summary: str = ""
    python: FovFn | None = None  # the pure-Python reference of a compiled ``fn``

    def __call__(self, transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
        return self.fn(transparent, origin, radius)


def radius_mask(shape: tuple[int, int], origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """Cells within the round light of ``radius`` around ``origin`` (all cells when None)."""
    h, w = shape
    if radius is None:
        return np.ones(shape, dtype=bool)
    ox, oy = origin
    ys, xs = np.ogrid[0:h, 0:w]
    return (xs - ox) ** 2 + (ys - oy) ** 2 <= radius * radius


def reach(shape: tuple[int, int], origin: tuple[int, int], radius: int | None) -> int:
    """How far (in cells, along an axis) the light can possibly reach on this map."""
    h, w = shape
    longest = max(h, w)
    return longest if radius is None else min(radius, longest)


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


@functools.cache
def window_disc(r: int, radius: int | None) -> np.ndarray:
    """Cells of an r-window that are in the round light of ``radius`` (read-only; cached per size)."""
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
    lit = lit.reshape(side, side) & window_disc(r, radius)  # a new array: ``lit`` may be read-only
    lit[r, r] = True  # the origin is always visible
    out = np.zeros(shape, dtype=bool)
    x0, x1 = max(0, ox - r), min(w, ox + r + 1)
    y0, y1 = max(0, oy - r), min(h, oy + r + 1)
    out[y0:y1, x0:x1] = lit[y0 - oy + r:y1 - oy + r, x0 - ox + r:x1 - ox + r]
    return out
