"""The item and information commands: what ``g i d q r w T x v`` open or do, and the pack menu of
each registered item verb (``q`` quaff, ``r`` read, ``w`` wear, ``z`` zap, a plugin's own).

Each takes the game and answers as a prompt does (:mod:`engine.core.play.prompts`): an action to take
now, a prompt to open, or None when there is nothing to do (it says why in the log, and no time
passes). A menu asks which item only when there is more than one to choose from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core.kinds.commands import Page, page_problems
from engine.core.model.components import Carried, Charges, Equipped
from engine.core.play import itemwords
from engine.core.play.aiming import Target, aim_at, nearest_monster
from engine.core.play.prompts import Direction, History, LookCursor, Menu, Option, Sheet
from engine.core.turn import inventory, naming
from engine.core.turn.actions import Action
from engine.core.turn.item_actions import Drop, PickUp, TakeOff, UseItem, UseVerb
from engine.core.turn.keys import DIRS

if TYPE_CHECKING:
    from engine.core.kinds.verbs import Verb
    from engine.core.turn.run import Run

# the log's word for a command ("You have nothing to drop."); a verb's is its own (Verb.said), and
# these stand in for the built-in verbs' when no plugin registers them
VERBS = {"drop": "drop", "quaff": "drink", "read": "read", "wear": "wear", "takeoff": "take off"}


def label(game: Run, item: int) -> str:
    """An item as a menu line: its name, how many (or its charges left), whether it is in use."""
    amount = inventory.count(game, item)
    name = naming.of_entity(game, item)
    worn = " (in use)" if game.world.has(item, Equipped) else ""
    if inventory.kind(game, item).charges:
        left = charges.left if (charges := game.world.try_get(item, Charges)) is not None else 0
        return f"{name} ({left} charge{'' if left == 1 else 's'}){worn}"
    return f"{name} ({amount}){worn}" if amount > 1 else f"{name}{worn}"


def option(game: Run, letter: str, item: int) -> Option:
    """An item as a menu line: its label, what it adds against what is worn, its description."""
    kind = inventory.kind(game, item)
    return Option(letter, label(game, item), item, itemwords.compared(game, item, kind),
                  naming.item_description(game, item, kind))


def _pick(game: Run, items: list[int], title: str, then: Callable[[Run, int], Any], verb: str) -> Any:
    """One item acted on at once, or a menu of several (by pack letter, or a..z for the floor)."""
    if not items:
        game.log(game.rules.message("nothing_to", verb=verb))
        return None
    if len(items) == 1:
        return then(game, items[0])
    carried = all(game.world.has(e, Carried) for e in items)
    options = [option(game, inventory.letter_of(game, e) if carried else inventory.LETTERS[i], e)
               for i, e in enumerate(items)]
    return Menu(title, options, then)


def pickup(game: Run) -> Any:
    here = game.state.spatial.items_at(*game.position(game.player))
    if not here:
        game.log(game.rules.message("nothing_here"))
        return None
    return _pick(game, here, "Pick up what?", lambda g, e: PickUp(e), "pick up")


def show_inventory(game: Run) -> Any:
    items = inventory.pack(game)
    if not items:
        game.log(game.rules.message("pack_empty"))
        return None
    options = [option(game, inventory.letter_of(game, e), e) for e in items]
    return Menu("Inventory", options, describe_item)


def describe_item(game: Run, item: int) -> str:
    """The inventory's answer to a letter: the item in one line (the menu shows it and stays),
    as look says it: what it is and, for a thing to wear, what it adds (each stat once, in one
    wording), against what is worn, and its slot."""
    kind = inventory.kind(game, item)
    said = itemwords.summary(game, item, kind)
    return f"{said} Slot: {kind.slot}." if kind.equipment and kind.slot else said


def drop(game: Run) -> Any:
    return _pick(game, inventory.pack(game), "Drop what?", lambda g, e: Drop(e), VERBS["drop"])


def take_off(game: Run) -> Any:
    return _pick(game, inventory.worn(game), "Take off what?", lambda g, e: TakeOff(e), VERBS["takeoff"])


def use(game: Run, how: str) -> Any:
    """The pack menu of the verb ``how`` (``quaff``, ``read``, ``wear``, ``zap``, a plugin's): the
    carried items whose kind uses it (those its ``offer`` accepts), titled as the verb says; the one
    chosen is used, aimed first when it aims. A verb no plugin registers has nothing to offer."""
    verb = game.registry.verbs.get(how)
    if verb is None:
        game.log(game.rules.message("nothing_to", verb=VERBS.get(how, how)))
        return None
    items = inventory.of_use(game, how)
    if verb.offer is not None:
        plugin = game.registry.owners.get(("verbs", how))
        items = [e for e in items if game.isolation.call(plugin, f"verb {how!r} offer", verb.offer, game.api, e,
                                                         fallback=False)]
    return _pick(game, items, verb.title, lambda g, e: aim(g, e, verb), verb.said)


def _doing(verb: Verb | None, item: int, cell: tuple[int, int] | None = None) -> Any:
    # a verb with no act of its own uses the item: the engine's UseItem, as it always was
    return UseItem(item, cell) if verb is None or verb.act is None else UseVerb(verb.name, item, cell)


def aim(game: Run, item: int, verb: Verb | None = None) -> Any:
    """Use an item (by ``verb``, when given): at once, at the nearest visible monster, or through a
    targeting cursor that starts on the monster last aimed at (while in view), else the nearest (the
    player's own cell only when no monster is in view). A verb that aims picks a cell when the
    item's kind names no target.

    An item whose kind aims but which the player knows by another name (``item_name``: an unknown
    scroll) goes off at once, at the nearest monster in view, else where the player stands: the
    cursor's kind and blast, or a refusal for want of a target, would say what it is, and Escape
    would keep it unread. Reading it is how the player learns it."""
    kind = inventory.kind(game, item)
    if kind.target and naming.item_name(game, item, kind) != kind.name:
        nearest = nearest_monster(game)
        return _doing(verb, item, game.position(nearest if nearest is not None else game.player))
    mode = kind.target or ("cell" if verb is not None and verb.aims else "")
    if mode == "":
        return _doing(verb, item)
    nearest = nearest_monster(game)
    if mode == "nearest" or (mode == "monster" and nearest is None):
        if nearest is None:
            game.log(game.rules.message("no_target"))
            return None
        if mode == "nearest":
            return _doing(verb, item, game.position(nearest))
    first = aim_at(game)
    start = game.position(first) if first is not None else game.position(game.player)
    title = f"Aim the {naming.item_name(game, item, kind)}"
    return Target(start, title=title, item=item, mode=mode, radius=kind.radius,
                  use=lambda it, cell: _doing(verb, it, cell))


def look(game: Run) -> Any:
    return LookCursor(game.position(game.player))


def history(game: Run) -> Any:
    return History()


COMMANDS: dict[str, Callable[[Run], Any]] = {
    "pickup": pickup, "inventory": show_inventory, "drop": drop, "takeoff": take_off,
    "quaff": lambda g: use(g, "quaff"), "read": lambda g: use(g, "read"), "wear": lambda g: use(g, "wear"),
    "look": look, "history": history,
}


def keyed(game: Run, name: str) -> Any:
    """A plugin's key command (``register_commands``): asked which way when its ``directions`` give
    several, then its ``act``; a :class:`~engine.core.kinds.commands.Page` it answers opens as a
    menu that only shows."""
    found = game.registry.commands[name]
    plugin = game.registry.owners.get(("commands", name))
    steps: list[tuple[int, int]] = []
    if found.directions is not None:
        given = game.isolation.call(plugin, f"command {name!r} directions", found.directions, game.api,
                                    game.player, fallback=[])
        steps = [tuple(s) for s in (given or []) if isinstance(s, tuple | list) and tuple(s) in DIRS.values()]
        if len(steps) > 1:
            return Direction(found.ask, steps, lambda g, step: _do(g, name, step))
    return _do(game, name, steps[0] if steps else None)


def _do(game: Run, name: str, step: tuple[int, int] | None) -> Any:
    found = game.registry.commands[name]
    plugin = game.registry.owners.get(("commands", name))
    answer = game.isolation.call(plugin, f"command {name!r}", found.act, game.api, game.player, step, fallback=None)
    if isinstance(answer, Page):
        problem = page_problems(answer)
        if problem:
            game.isolation.fail(plugin, f"command {name!r}", TypeError(problem))
            return None
        return Sheet(answer.title, [Option("", line) for line in answer.lines])
    if answer is None or isinstance(answer, Action):
        return answer
    game.isolation.fail(plugin, f"command {name!r}", TypeError(
        f"act returned {type(answer).__name__}: expected an Action, a Page or None"))
    return None


def command(game: Run, name: str) -> Callable[[Run], Any] | None:
    """What the command ``name`` opens or does: one of :data:`COMMANDS`, a registered verb's pack
    menu, or a plugin's key command; None for any other (a move, the stairs: the turn's own)."""
    if name in COMMANDS:
        return COMMANDS[name]
    if name in game.registry.verbs:
        return lambda g: use(g, name)
    if name in game.registry.commands:
        return lambda g: keyed(g, name)
    return None
