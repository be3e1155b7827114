"""The built-in item verbs, registered exactly as a plugin's own: what ``q``, ``r``, ``w`` and ``z``
do with an item whose kind names the verb in its ``use``.

* ``quaff`` (q, "Drink what?") and ``read`` (r, "Read what?"): one of the stack is used up and the
  kind's effect applies (aimed when the kind aims). Potions and scrolls stack.
* ``wear`` (w, "Wear or wield what?"): worn or wielded in the kind's ``slot``; the menu offers what
  is not worn yet.
* ``zap`` (z, "Zap what?"): a wand aims (at a cell within sight, unless its kind names its own
  ``target``), spends one of its ``charges``, and its effect applies there; with none left nothing
  happens and no time passes. Wands do not stack.

A verb's key means it only in a preset whose items use the verb (``engine.core.turn.verbkeys``): the
presets' wands are plugins' (none of the built-in content zaps), so ``z`` keeps its meaning there.
"""

from engine import Equipped, Verb, Wear, hookimpl


def wear(game, entity, item, target):
    return Wear(item)


def not_worn(game, item):
    return game.component(item, Equipped) is None


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
