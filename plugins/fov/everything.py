"""Everything: every cell within the light's radius is visible, walls or not (a debugging view,
and the way a preset shows a whole level). Trivially symmetric."""

from __future__ import annotations

import numpy as np

from engine import hookimpl
from engine.kit.fov import radius_mask


def everything_fov(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """All cells in range (all cells when ``radius`` is None): the FOV contract's ``fn``."""
    return radius_mask(transparent.shape, origin, radius)


@hookimpl
def register_fov_algorithms(register):
    register("everything", everything_fov, symmetric=True, through_walls=True,
             summary="every cell within the radius is visible, through walls (debugging, map reveal)")
