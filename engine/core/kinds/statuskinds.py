"""Status kinds: what a status is, registered by a plugin like a monster or an item.

A status on a creature is a name, the turns it has left and its params (:class:`engine.core.model.components.Status`);
its kind, registered with ``register_statuses``, says what it is: its sidebar label and colour, how a
second dose stacks, and what happens when it starts, on each turn it lasts and when it ends. Applying
a status no plugin registered is an error naming the ones that are (a misspelled ``"poisned"`` is a
bug, not a new status).

When the hooks run (the order matters):

- ``on_start(game, entity, status)``: when the status is put on a creature that did not have it
  (``GameAPI.add_status``), at once, wherever in the turn that is.
- ``on_tick(game, entity, status)``: at the end of every turn the status is on the creature, after
  the monsters have acted, before the plugins' ``END_OF_TURN`` systems and ``on_turn_end``; then the
  status loses a turn. So a status of N turns ticks exactly N times, whenever in a turn it was
  added: added during turn T (an effect, a blow), it ticks at the end of turns T .. T+N-1; added
  in ``on_turn_end``, at the end of the next N turns.
- ``on_end(game, entity, status)``: when it runs out (after its last tick) or is removed with
  ``GameAPI.remove_status``; not when its creature dies.

``game`` is the game API (``engine.GameAPI``); ``status`` the :class:`~engine.core.model.components.Status`
(its ``turns`` left and ``params``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.kinds.fieldchecks import hook_problems, is_rgb, name_problems

RGB = tuple[int, int, int]
StatusHook = Callable[[Any, int, Any], None]

# how a second dose of a status the creature already has combines with the first
STACKINGS = {
    "max": "the longer of the two durations stays (the default)",
    "refresh": "the new dose's duration replaces the old",
    "add": "the durations add up",
}


@dataclass(frozen=True)
class StatusKind:
    """A kind of status: ``name`` (what ``add_status`` names), ``label`` (the sidebar's word for
    it; the name when empty), ``color`` (its sidebar colour), ``stacking`` (a key of
    :data:`STACKINGS`) and the optional ``on_start``, ``on_tick`` and ``on_end`` hooks (see the
    module doc for when each runs). A second dose keeps the new params.

    ``friendly``: a creature with the status is on the player's side (an ally, a captive to free):
    what aims at "the nearest monster" (a scroll's bolt, the targeting cursor's first pick) passes
    it by, and the window draws it on a green ground (told apart from a foe of its kind at a
    glance). The player may still aim at it by hand."""

    name: str
    label: str = ""
    color: RGB = (200, 200, 200)
    stacking: str = "max"
    on_start: StatusHook | None = None
    on_tick: StatusHook | None = None
    on_end: StatusHook | None = None
    friendly: bool = False  # last: a plugin that names the fields by place keeps working

    @property
    def shown(self) -> str:
        """The word the sidebar shows."""
        return self.label or self.name

    def stacked(self, old: int | None, new: int | None) -> int | None:
        """The turns a status has after a second dose of ``new`` turns on top of ``old`` (None:
        until removed, which wins over any count)."""
        if old is None or new is None:
            return None
        return {"max": max(old, new), "refresh": new, "add": old + new}[self.stacking]


def problems(kind: StatusKind) -> list[str]:
    """What is wrong with a status kind built by a plugin, each in a few words (empty: nothing)."""
    found = name_problems(kind.name)
    if not isinstance(kind.label, str):
        found.append(f"label must be a string, got {kind.label!r}")
    if not is_rgb(kind.color):
        found.append(f"color must be (r, g, b) with each 0..255, got {kind.color!r}")
    if kind.stacking not in STACKINGS:
        found.append(f"stacking {kind.stacking!r}: expected one of {', '.join(STACKINGS)}")
    if not isinstance(kind.friendly, bool):
        found.append(f"friendly must be True or False, got {kind.friendly!r}")
    return found + hook_problems(kind, ("on_start", "on_tick", "on_end"))
