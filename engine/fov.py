"""The field-of-view contract and helpers shared by FOV plugins.

An FOV algorithm is ``fn(transparent, origin, radius) -> visible``:

- ``transparent``: numpy bool array of shape (height, width), indexed ``[y, x]``.
- ``origin``: ``(x, y)``, always inside the map.
- ``radius``: an int, or ``None`` for unlimited. The light is round: a cell is in range when
  ``dx*dx + dy*dy <= radius*radius``.
- returns a numpy bool array of the same shape. The origin is visible; an opaque cell is visible
  when the algorithm lights it (walls are lit).

Algorithms are registered by plugins through ``register_fov_algorithms(register)`` with
``register(name, fn, *, symmetric=False, summary="")``.
"""

from __future__ import annotations

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
