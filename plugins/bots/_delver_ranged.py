"""The ``delver`` bot's ranged attacks (``bot_delver``'s helper, not a plugin): wands zapped at a
monster it would rather not meet, and things thrown at the ones coming for it.

It knows what a player knows: a wand's kind and the charges the pack shows, a thing to throw by
its ``throw`` use and what it hits for; a monster slowed says so on the sidebar. What it throws
lands where it stopped, and its ``collect`` concern picks it up again afterwards.
"""

from __future__ import annotations

from engine import Charges
from engine.kit.lines import line
from engine.plugins.bots._delver_items import use, worth_a_shot
from engine.plugins.bots._delver_look import DelverView, can_fight
from engine.plugins.bots._delver_pack import Carried

THROW_RANGE = 6  # king moves: farther off, a monster may yet turn away


def harmful(kind) -> bool:
    """A wand that hurts or hinders what it is zapped at (lightning, slowing), not one that digs."""
    return kind.use == "zap" and kind.target in ("monster", "cell") and (
        "damage" in kind.params or "turns" in kind.params)


def wands(carried: list[Carried]) -> list[Carried]:
    return [c for c in carried if harmful(c.kind)]


def throwables(carried: list[Carried]) -> list[Carried]:
    return [c for c in carried if c.kind.use == "throw" and c.kind.attack > 0]


def clear(look: DelverView, cell: tuple[int, int]) -> bool:
    """Whether a thing thrown from where it stands reaches ``cell``: no wall, nobody between."""
    game = look.game
    return all(not game.is_wall(*c) and c not in look.occupied for c in line(look.here, cell)[1:-1])


def zap(look: DelverView) -> str | None:
    """A charged wand that hurts or hinders at the monster in view that would cost it the most to
    fight, when that fight is a third of its HP or more (as a scroll is read): the strongest bolt
    first; a slowed monster is not slowed again."""
    held = look.of_pack(wands)
    if not held or not look.engaged:
        return None
    game = look.game
    costly = worth_a_shot(look)
    if costly is None:
        return None
    target = game.position(costly)
    for c in sorted(held, key=lambda c: (-int(c.kind.params.get("damage", 0)), c.letter)):
        charges = game.component(c.item, Charges)
        if charges is None or charges.left <= 0:
            continue
        if "turns" in c.kind.params and game.has_status(costly, "slowed"):
            continue
        if not clear(look, target):
            continue  # the bolt would strike the one in the way first
        return use(look, "zap", c.letter, target)
    return None


def throw(look: DelverView) -> str | None:
    """Something to throw at the nearest monster coming for it, two to THROW_RANGE steps off along
    a clear line: the hardest-hitting first. Beside it, it fights instead."""
    held = look.of_pack(throwables)
    if not held or look.threats:
        return None
    game = look.game
    for monster in look.engaged:
        cell = game.position(monster)
        if not 2 <= look.distance_to(cell) <= THROW_RANGE or not clear(look, cell):
            continue
        best = max(held, key=lambda c: (c.kind.attack, c.letter))
        return use(look, "throw", best.letter, cell)
    return None


CHARGE_KEYS = 30  # keys on one level it runs at monsters that shoot it before it lets them be


def charge(look: DelverView) -> str | None:
    """At a monster that shoots (look tells a kind's ``range``) and has noticed it, from afar:
    straight at it, a bump being a blow, as a player closes on an archer rather than stand in
    its arrows or walk away from them. A few dozen keys a level at most (one that keeps its
    distance across open ground is let be)."""
    memory = look.memory
    if memory.charges >= CHARGE_KEYS or look.threats:
        return None
    game = look.game
    shooters = [m for m in look.engaged if int(getattr(game.kind_of(m), "params", {}).get("range", 0)) > 1
                and not look.near(m)]
    if not shooters or not can_fight(look):
        return None
    memory.charges += 1
    return look.walk([game.position(shooters[0])])
