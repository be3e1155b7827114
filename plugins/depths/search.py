"""Searching (``s``, a turn): what is hidden near the player (a secret door drawn as a wall, a
trap drawn as floor) may be found, as in Brogue's five-turn search.

What is hidden is any terrain kind with ``found`` (``engine.TerrainKind``): the kind it becomes when
found. This module knows no kind by name: the doors and the traps modules register theirs, and
the magic-mapping scroll finds them too (``GameAPI.reveal`` turns the hidden kinds of the cells it
reveals into their ``found`` kinds).

Each turn of searching, every hidden cell the player sees within ``radius`` cells (king moves) is
found with the chance ``chances[d - 1]`` percent at distance ``d``; the ``sure``-th search in a row
(turns one after the other) finds everything within ``sure_radius`` cells for certain. The numbers
are the preset's ``[params.search]``; a preset without that table has no ``s``.
"""

from __future__ import annotations

from engine import Action, ActionResult, KeyCommand, hookimpl

NAME = "depths_search"
RADIUS = 3  # how far a search reaches, by default
CHANCES = (60, 35, 20)  # percent to find a hidden cell at distance 1, 2, 3 on one search
SURE = 5  # the fifth search in a row finds everything within SURE_RADIUS
SURE_RADIUS = 2


def numbers(game) -> tuple[int, list[int], int, int]:
    """``(radius, chances, sure, sure_radius)`` from the preset's ``[params.search]``."""
    params = game.rules.params.get("search") or {}
    radius = max(1, int(params.get("radius", RADIUS)))
    chances = [int(c) for c in params.get("chances", CHANCES)]
    chances += [chances[-1] if chances else 0] * (radius - len(chances))
    return radius, chances, max(1, int(params.get("sure", SURE))), int(params.get("sure_radius", SURE_RADIUS))


def hidden_near(game, x: int, y: int, radius: int) -> list[tuple[int, int, int]]:
    """The hidden cells ``(x, y, distance)`` the player sees within ``radius`` of (x, y), by row."""
    found = []
    for cy in range(y - radius, y + radius + 1):
        for cx in range(x - radius, x + radius + 1):
            kind = game.terrain(cx, cy)
            if kind is not None and kind.found and game.sees(cx, cy):
                found.append((cx, cy, max(abs(cx - x), abs(cy - y))))
    return found


def find(game, x: int, y: int) -> None:
    """The hidden cell (x, y) is found: it becomes its ``found`` kind, and the player is told."""
    kind = game.terrain(x, y)
    game.set_terrain(x, y, kind.found)
    game.log(f"You find {game.terrain(x, y).shown}.", "item")


class Search(Action):
    """One turn of searching around the player (see the module doc)."""

    def perform(self, game, entity):
        radius, chances, sure, sure_radius = numbers(game)
        memory = game.data(NAME)
        streak = memory.get("streak", 0) + 1 if memory.get("turn") == game.turn - 1 else 1
        memory["streak"], memory["turn"] = streak, game.turn
        x, y = game.position(entity)
        rng = game.rng("depths:search")
        thorough = streak % sure == 0
        found = 0
        for cx, cy, distance in hidden_near(game, x, y, radius):
            if (thorough and distance <= sure_radius) or rng.randrange(100) < chances[distance - 1]:
                find(game, cx, cy)
                found += 1
        if not found:
            game.log("You finish a thorough search: nothing is hidden near you." if thorough
                     else f"You search the walls and the floor around you ({streak % sure}/{sure}).")
        return ActionResult.success()


def search(game, player, step):
    return Search()


@hookimpl
def register_commands(register):
    register(KeyCommand(name="search", key="s", act=search, params="search",
                        summary="search around you for secret doors and traps (a turn; five in a row: surely)"))
