"""The built-in item verbs, registered exactly as a plugin's own: what ``q``, ``r``, ``w``, ``W``,
``z``, ``e``, ``a`` and ``t`` do with an item whose kind names the verb in its ``use``.

* ``quaff`` (q, "Drink what?") and ``read`` (r, "Read what?"): one of the stack is used up and the
  kind's effect applies (aimed when the kind aims). Potions and scrolls stack.
* ``wear`` (w, "Wear or wield what?") and ``wield`` (W, "Wield what?"): worn or wielded in the
  kind's ``slot`` (the same rule: ``engine.Wear``); the menu offers what is not in use yet. The
  default game's weapons are worn with ``w``; ``wield`` is for a game that names it.
* ``zap`` (z, "Zap what?"): a wand aims (at a cell within sight, unless its kind names its own
  ``target``), spends one of its ``charges``, and its effect applies there; with none left nothing
  happens and no time passes. Wands do not stack.
* ``eat`` (e, "Eat what?"): food. One of the stack is eaten and the kind's effect applies. There is
  no hunger: what food does is its effect (the built-in ``heal`` says "You eat the ration and feel
  better."; a mushroom may confuse). Food stacks.
* ``apply`` (a, "Apply what?"): a tool. Its effect applies (aimed when its kind aims) and it is not
  used up; a tool with ``charges`` spends one, as a wand does.
* ``throw`` (t, "Throw what?"): aimed like a scroll (a cell within sight, unless its kind names
  its own ``target``); one of the stack flies along the line to the first creature or wall, hits a
  creature for the kind's ``attack`` (less its defense, at least 1) and lands where it stopped, to
  be picked up again (``engine.Throw``). Things to throw stack.

A verb's key means it only in a preset whose items use the verb (``engine.core.turn.verbkeys``): none
of the built-in content zaps, eats, applies, throws or wields, so ``z``, ``e``, ``a``, ``t`` and ``W``
mean what they meant before in the built-in presets.
"""

from engine import Equipped, Throw, UseItem, Verb, Wear, hookimpl


def wear(game, entity, item, target):
    return Wear(item)


def not_worn(game, item):
    return game.component(item, Equipped) is None


def apply(game, entity, item, target):
    return UseItem(item, target, keep=True)


def throw(game, entity, item, target):
    return Throw(item, target)


@hookimpl
def register_verbs(register):
    register(Verb(name="quaff", key="q", title="Drink what?", word="drink", stacks=True,
                  summary="drink a potion: one is used up, its effect applies"))
    register(Verb(name="read", key="r", title="Read what?", stacks=True,
                  summary="read a scroll: one is used up, its effect applies"))
    register(Verb(name="wear", key="w", title="Wear or wield what?", act=wear, offer=not_worn,
                  summary="wear or wield equipment in its slot"))
    register(Verb(name="zap", key="z", title="Zap what?", aims=True,
                  summary="zap a wand at a cell: one charge is spent, its effect applies there"))
    register(Verb(name="wield", key="W", title="Wield what?", act=wear, offer=not_worn,
                  summary="wield a weapon in its slot"))
    register(Verb(name="eat", key="e", title="Eat what?", stacks=True,
                  summary="eat food: one is eaten, its effect applies"))
    register(Verb(name="apply", key="a", title="Apply what?", act=apply,
                  summary="apply a tool: its effect applies, and it is kept (a charge is spent, if it has any)"))
    register(Verb(name="throw", key="t", title="Throw what?", aims=True, stacks=True, act=throw,
                  summary="throw one at a cell: it hits the first creature in the way, and lands there"))
