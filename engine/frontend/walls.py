"""How the window draws walls: a rule per look, so that corridors read at a glance.

A rule is one of :data:`RULES`:

- ``plain``: every known wall is its glyph (the classic look: another game's screen, as it was).
- ``facing``: the walls beside a known open cell are their glyph; a wall deep in rock (its eight
  neighbours all known to be walls: a mapped level's rock) is drawn dark and blank, named
  ``wall:deep`` for tilesets. A wall seen alone, beside cells the player does not know, is drawn.
- ``lines``, ``double``: as ``facing``, and each wall that faces an open cell is a box-drawing
  glyph joined to its neighbours (:mod:`engine.kit.walls`): rooms are outlined, a corridor runs
  between two lines, and a maze reads as a maze rather than a lattice of ``#``.

The rule in use is the preset's (its ``look.walls``; the classic look's is ``plain``), else
``facing`` on a level whose generator registered ``natural_walls`` (caves: rock faces read best as
rough glyphs), else the tileset's (a set's ``walls`` attribute: the glyph sets join their walls,
sprite sets keep one picture per wall), else ``facing``. Only known cells are read, so a joint
never tells of a corridor the player has not seen. A terrain kind flagged ``solid`` (a secret door) is part of
the wall under every rule, so that no gap in an outline gives it away.
"""

from __future__ import annotations

import numpy as np

from engine.kit import walls as joining

RULES = joining.RULES
DEFAULT_RULE = "facing"
DEEP = "wall:deep"  # what a tileset is asked for on a wall deep in rock


def rule_of(tileset: object) -> str:
    """A tileset's wall rule: its ``walls`` attribute when it is one of :data:`RULES`, else the default."""
    rule = getattr(tileset, "walls", DEFAULT_RULE)
    return rule if isinstance(rule, str) and rule in RULES else DEFAULT_RULE


def margin(shape: tuple[int, int], ys: slice, xs: slice) -> tuple[tuple[slice, slice], tuple[slice, slice]]:
    """The window (rows ``ys``, columns ``xs``) with one cell around it inside a map of ``shape``
    (the neighbours its walls are read from), and where the window lies inside that."""
    height, width = shape
    y0, y1 = max(0, ys.start - 1), min(height, ys.stop + 1)
    x0, x1 = max(0, xs.start - 1), min(width, xs.stop + 1)
    inner = (slice(ys.start - y0, ys.stop - y0), slice(xs.start - x0, xs.stop - x0))
    return (slice(y0, y1), slice(x0, x1)), inner


class WallView:
    """A view's walls under a rule: (codes, facing, deep) for the window's cells."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        self.style = rule if rule in joining.STYLES else None

    def shape(self, solid: np.ndarray, known: np.ndarray,
              inner: tuple[slice, slice]) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        """For the window ``inner`` of a :func:`margin` region whose walls are ``solid`` and whose
        known cells are ``known``: the joined glyphs' code points (None unless the rule joins), the
        walls that face an open or unknown cell, and the walls deep in rock."""
        wall, open_ = solid & known, ~solid & known
        facing = joining.facing(wall, open_, known)[inner]
        deep = wall[inner] & ~facing
        codes = None
        if self.style is not None:
            codes = joining.glyphs(joining.joins(wall, open_)[inner], self.style)
        return codes, facing, deep
