"""Monsters that throw (``depths_ranged``'s helper, not a plugin): the ``thrower`` behaviour and
the :class:`Hurl` it returns.

A thrower carries ``params.missiles`` things to throw (default 3) of the item kind
``params.missile`` (default ``"javelin"``). Noticing the player within ``params.range`` cells
(default 5) along a clear line (no wall, no other creature in the way), it throws one: the
missile flies there (an ``engine.Shot``, as the player's throw), hits the player for the item's
``attack`` less the player's defense (at least 1), and lands under them, to be picked up. With
none left, beside the player, or without a clear line, it hunts (``hunt``: fights in melee).
What it has thrown is kept in a component (:class:`Quiver`), saved with the run.

It throws only in a preset that gives ``[params.ranged]``: elsewhere it hunts.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Action, ActionResult, Item, Shot
from engine.kit.limits import MAX_STAT
from engine.kit.lines import line

RANGE = 5  # cells a thrower throws, by default
MISSILES = 3  # things it carries to throw, by default
MISSILE = "javelin"


@dataclass
class Quiver:
    """How many things a thrower has thrown."""

    thrown: int = 0


def clear_line(game, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether a thing thrown from ``start`` reaches ``end``: no wall and no creature between."""
    return all(not game.is_wall(*cell) and game.creature_at(*cell) is None for cell in line(start, end)[1:-1])


def land(game, kind: str, cell: tuple[int, int]) -> None:
    """One ``kind`` comes to rest on ``cell``: onto a stack of it lying there (one pickup takes
    them all), else a new one."""
    for entity in game.entities_at(*cell):
        stack = game.component(entity, Item)
        if stack is not None and stack.kind == kind and stack.amount < MAX_STAT:
            stack.amount += 1
            return
    game.spawn(kind, *cell)


@dataclass(frozen=True)
class Hurl(Action):
    """A monster throws one ``missile`` (an item kind) at the cell ``target``: it flies along the
    straight line and stops at the first creature (hit for the kind's ``attack`` less its defense,
    at least 1) or before a wall, and lands where it stopped (never on stairs: the cell before),
    onto a stack of it lying there; one that hits breaks as the player's throw does
    (``game.breaks``: ``params.breaks`` percent of the time)."""

    missile: str
    target: tuple[int, int]

    def perform(self, game, entity) -> ActionResult:
        kind = game.item_kind(self.missile)
        start = game.position(entity)
        if kind is None or start is None:
            return ActionResult.not_done()
        path, struck = [start], None
        for cell in line(start, self.target)[1:]:
            if game.is_wall(*cell):
                break
            path.append(cell)
            struck = game.creature_at(*cell)
            if struck is not None:
                break
        game.announce(Shot(start, path[-1]))  # the window draws it flying
        quiver = game.component(entity, Quiver)
        if quiver is None:
            game.add_component(entity, Quiver(1))
        else:
            quiver.thrown += 1
        stairs = {game.stairs(), game.upstairs(), game.exit()}
        landing = next((cell for cell in reversed(path) if cell not in stairs), path[-1])
        broken = struck is not None and game.breaks(kind)  # the player's throw's rule
        if landing != start and not broken:
            land(game, kind.name, landing)
        thrower = game.name_of(entity)
        if struck is None:
            game.log(f"The {thrower}'s {kind.name} misses.")
            return ActionResult.success()
        damage = max(1, kind.attack - game.attack_defense(struck)[1])
        name = game.name_of(struck)
        dealt = game.damage(struck, damage, by=entity)
        if game.is_player(struck):
            game.log(f"The {thrower} throws a {kind.name}: it hits you for {dealt}.", kind="hurt")
        else:
            game.log(f"The {thrower}'s {kind.name} hits the {name} for {dealt}.")
        return ActionResult.success()


def thrower(game, me):
    """Throws what it carries at the player from afar, then fights: noticing the player within
    ``params.range`` cells (default 5) along a clear line, not beside them, with something left
    to throw (``params.missiles``, default 3, of the item kind ``params.missile``, default
    ``"javelin"``), it throws one (:class:`Hurl`); otherwise it hunts (``hunt``, with its params).
    Only in a preset with ``[params.ranged]``: elsewhere it hunts."""
    hunting = game.behaviour("hunt")(game, me)  # first: it remembers where the player is, as a hunter does
    if game.rules.params.get("ranged") is None or not game.notices(me):
        return hunting
    params = game.kind_of(me).params
    missile = str(params.get("missile", MISSILE))
    quiver = game.component(me, Quiver)
    left = int(params.get("missiles", MISSILES)) - (quiver.thrown if quiver is not None else 0)
    player = game.player
    if left <= 0 or game.item_kind(missile) is None or game.adjacent(me, player):
        return hunting
    here, there = game.position(me), game.position(player)
    if game.distance(me, player) > int(params.get("range", RANGE)) or not clear_line(game, here, there):
        return hunting
    return Hurl(missile, there)
