"""Captives and allies: a monster in shackles who joins the player once freed.

A **captive** (the status ``captive``, which the sidebar says; :mod:`plugins.depths.vaults` places
one on some levels) does not act. The player frees it by walking into it: each bump is a turn of
work at its shackles, and the ``FREE_TURNS``-th sets it free ("You free the goblin: it joins you.").

Freed, it is an **ally** (the :class:`Ally` component, saved with the run, and the status ``ally``,
which the sidebar says as "your ally"), acting by the behaviour ``ally``, in this order:

1. an awake hostile monster beside it: it strikes the weakest (sleeping ones are left to sleep);
2. an awake hostile monster the player sees within ``NEAR`` cells of the player: it goes for the
   nearest, while it is within ``LEASH + NEAR`` of the player;
3. farther than ``LEASH`` cells from the player: it steps toward them; else it waits.

Hostile monsters fight it back by one rule: a hostile monster whose step would take it onto an
ally's cell, or that stands beside an ally and not beside the player, strikes the ally instead.
The player walking into an ally swaps places with it (a turn), never strikes it. Both statuses are
``friendly``: what the player aims at "the nearest monster" (a scroll's bolt, the cursor's first
pick) passes a captive or an ally by, and the window draws them on a green ground.

An ally beside the player when they take the stairs (down or up) goes with them: it leaves the
level (without dying) and arrives beside the player on the other, with the HP it had, before
anything moves there. One farther away stays behind, on its level, and is found there again (levels are
kept). Who follows is kept on the player meanwhile (:class:`Following`, saved with the run).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import (
    VETO,
    Action,
    ActionResult,
    Attack,
    ChangeLevel,
    Fighter,
    Monster,
    Move,
    StatusKind,
    hears,
    hookimpl,
    player_only,
)

CAPTIVE, ALLY = "captive", "ally"
FREE_TURNS = 3  # bumps (turns) of work at the shackles
LEASH = 3  # an ally keeps within this many cells of the player
NEAR = 4  # it goes for hostile monsters this close to the player


@dataclass
class Ally:
    """A monster on the player's side: it fights for them and follows them."""

    leash: int = LEASH


@dataclass
class Following:
    """On the player who took the stairs: the allies who came along (``kind``, ``hp`` each), to
    arrive beside them on level ``depth``."""

    depth: int = 0
    allies: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Free(Action):
    """A turn of work at a captive's shackles; the last sets it free, an ally."""

    target: int

    def perform(self, game, entity):
        status = game.statuses(self.target).get(CAPTIVE)
        if status is None:
            return ActionResult.not_done()
        name = game.name_of(self.target)
        work = int(status.params.get("work", 0)) + 1
        if work < FREE_TURNS:
            game.add_status(self.target, CAPTIVE, None, work=work)
            game.log(f"You work at the {name}'s shackles.")
            return ActionResult.success()
        game.remove_status(self.target, CAPTIVE)
        befriend(game, self.target)
        game.log(f"You free the {name}: it joins you.", "item")
        return ActionResult.success()


@dataclass(frozen=True)
class Swap(Action):
    """The player walks into an ally: they trade places."""

    target: int

    def perform(self, game, entity):
        return ActionResult.success() if game.swap(entity, self.target) else ActionResult.not_done()


def befriend(game, monster: int) -> None:
    """Make a monster the player's ally: it acts by ``ally`` from now on."""
    game.add_component(monster, Ally())
    game.add_status(monster, ALLY, None)
    game.component(monster, Monster).behaviour = ALLY
    game.wake(monster)


def is_ally(game, monster: int) -> bool:
    return game.component(monster, Ally) is not None


def _hostile(game, monster: int) -> bool:
    """An awake monster that is not the player's ally nor a captive."""
    state = game.component(monster, Monster)
    return (state is not None and state.awake and not is_ally(game, monster)
            and not game.has_status(monster, CAPTIVE))


def ally(game, me):
    """The ally's turn (see the module doc)."""
    player = game.player
    foes = [m for m in game.monsters() if m != me and _hostile(game, m)]
    beside = [m for m in foes if game.adjacent(me, m)]
    if beside:
        return Attack(min(beside, key=lambda m: (game.hp(m)[0], m)))
    bond = game.component(me, Ally)
    leash = bond.leash if bond is not None else LEASH  # a monster given the behaviour without the bond
    near = [m for m in foes if game.distance(m, player) <= NEAR and game.sees(*game.position(m))]
    if near and game.distance(me, player) <= leash + NEAR:
        target = min(near, key=lambda m: (game.distance(me, m), m))
        step = game.step_toward(me, game.position(target))
        if step is not None:
            return Move(*step)
    if game.distance(me, player) > leash:
        step = game.step_toward(me, game.position(player))
        if step is not None:
            return Move(*step)
    return None


@hookimpl
# the player's every action; a captive's; while an ally is on the level, a monster's step (toward it)
@hears(player=True, statuses=[CAPTIVE], present=[Ally])
def on_action(game, entity, action):
    if entity == game.player:
        _arrive(game)
        if not isinstance(action, Move):
            return None
        x, y = game.position(entity)
        other = game.creature_at(x + action.dx, y + action.dy)
        if other is None:
            return None
        if game.has_status(other, CAPTIVE):
            return Free(other)
        return Swap(other) if is_ally(game, other) else None
    if game.has_status(entity, CAPTIVE):  # shackled: it does nothing (and costs nothing asleep)
        game.sleep(entity)
        return VETO
    if not isinstance(action, Move):
        return None
    found = game.query(Ally)
    # no ally (called for a monster only while one is on the level, by the mark: a direct call may not be), or one
    if not found or is_ally(game, entity):
        return None
    allies = [e for e, _ in found]
    x, y = game.position(entity)
    other = game.creature_at(x + action.dx, y + action.dy)
    if other is not None and other in allies:
        return Attack(other)
    if game.adjacent(entity, game.player):
        return None
    beside = [a for a in allies if game.position(a) is not None and game.adjacent(entity, a)]
    return Attack(beside[0]) if beside else None


@hookimpl
@player_only
def after_action(game, entity, action, result):
    """The player takes the stairs: the allies beside them leave the level with them."""
    if entity != game.player or not result.done or not isinstance(result.request, ChangeLevel):
        return
    going = []
    for ally_, _ in game.query(Ally):
        if game.position(ally_) is not None and game.adjacent(ally_, entity):
            fighter = game.component(ally_, Fighter)
            going.append({"kind": game.component(ally_, Monster).kind, "hp": fighter.hp})
            game.remove(ally_)
    if going:
        game.add_component(entity, Following(result.request.depth, going))


@hookimpl
def on_level_generated(game, level):
    _arrive(game)


def _arrive(game) -> None:
    """The allies who followed arrive beside the player on the new level: as a new level is made,
    or before the player's first action on a kept one (its monsters do not move before it)."""
    following = game.component(game.player, Following)
    if following is None or following.depth != game.depth:
        return
    game.remove_component(game.player, Following)
    px, py = game.position(game.player)
    cells = sorted(((abs(x - px) + abs(y - py), y, x) for x, y in game.area((px, py), 3)
                    if (x, y) != (px, py)))
    for one in following.allies:
        for _, y, x in cells:
            monster = game.spawn(one["kind"], x, y) if game.passable(x, y) else None
            if monster is not None:
                fighter = game.component(monster, Fighter)
                fighter.hp = max(1, min(fighter.max_hp, int(one["hp"])))
                befriend(game, monster)
                break


@hookimpl
def register_behaviours(register):
    register(ALLY, ally)


@hookimpl
def register_statuses(register):
    register(StatusKind(name=CAPTIVE, label="captive", color=(170, 170, 170), friendly=True))
    register(StatusKind(name=ALLY, label="your ally", color=(120, 230, 140), friendly=True))


@hookimpl
def register_components(register):
    register(Ally)
    register(Following)
