"""What the player does with items: pick up, drop, use (drink, read, zap, eat, apply), wear or wield
and take off, throw, and a plugin's verb (:class:`UseVerb`).

Each is an action like a step or a blow: it returns a result, and not done (the pack is full, there
is nothing here) costs no time. The engine knows no item by name: what an item does is its kind's
``effect`` (a plugin's function), where it is worn is its ``slot``, what it aims at its ``target``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.model import bounds
from engine.core.model.components import Charges, Equipped, Fighter, Item, LeftBehind, Position
from engine.core.model.events import Shot
from engine.core.plugin.isolation import safe_repr
from engine.core.turn import entities, inventory, naming
from engine.core.turn.actions import Action, ActionResult
from engine.kit.lines import line

if TYPE_CHECKING:
    from engine.core.turn.api import GameAPI
    from engine.core.turn.run import Run


@dataclass(frozen=True)
class PickUp(Action):
    """Pick up one item from the cell the player stands on (gold applies at once)."""

    item: int

    def perform(self, api: GameAPI, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        pos = game.world.try_get(self.item, Position)
        here = game.world.get(entity, Position)
        if pos is None or (pos.x, pos.y) != (here.x, here.y):
            return ActionResult.not_done()
        return ActionResult.success() if entities.pick_up(game, self.item) else ActionResult.not_done()


@dataclass(frozen=True)
class Drop(Action):
    """Put a carried item down where the player stands (not on the stairs: they would hide it),
    :class:`LeftBehind` as ``dropped``: explore does not pick it up again."""

    item: int

    def perform(self, api: GameAPI, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        x, y = game.position(entity)
        if (x, y) in (game.level.stairs, game.level.exit, game.state.level.upstairs):
            game.log(game.rules.message("no_drop_here"))
            return ActionResult.not_done()
        name = naming.of_entity(game, self.item)
        inventory.release(game, self.item)
        game.state.spatial.place(self.item, x, y)
        game.world.add(self.item, LeftBehind(dropped=True))
        game.log(game.rules.message("drop", item=name))
        return ActionResult.success()


@dataclass(frozen=True)
class UseItem(Action):
    """Drink, read, eat or zap a carried item, aimed at ``target`` (a cell) when it aims: one of its
    charges is spent when its kind has charges (with none left nothing happens, and no time
    passes), else one of its stack is used up (unless ``keep``: a tool applied stays as it was);
    its effect says what happens."""

    item: int
    target: tuple[int, int] | None = None
    keep: bool = False

    def perform(self, api: GameAPI, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        kind = inventory.kind(game, self.item)
        if kind.charges:
            charges = game.world.try_get(self.item, Charges)
            if charges is None or charges.left <= 0:
                game.log(game.rules.message("no_charges", item=naming.item_name(game, self.item, kind)))
                return ActionResult.not_done()
            charges.left -= 1
        elif not self.keep:
            inventory.take_one(game, self.item)
        entities.apply_item(game, entity, kind, 1, target=self.target)
        return ActionResult.success()


@dataclass(frozen=True)
class UseVerb(Action):
    """Do a registered verb's ``act`` with a carried item (aimed at ``target`` when it aims): the
    plugin's function, given the game API, answers False (nothing done, no time passes), an Action
    to perform instead, or None (done). A verb without ``act`` uses the item (:class:`UseItem`)."""

    verb: str
    item: int
    target: tuple[int, int] | None = None

    def perform(self, api: GameAPI, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        verb = game.registry.verbs[self.verb]
        if verb.act is None:
            return ActionResult.instead(UseItem(self.item, self.target))
        plugin = game.registry.owners.get(("verbs", verb.name))
        where = f"verb {verb.name!r}"
        answer = game.isolation.call(plugin, where, verb.act, api, entity, self.item, self.target,
                                     fallback=False)
        if isinstance(answer, Action):
            return ActionResult.instead(answer)
        if answer is False:
            return ActionResult.not_done()
        if answer is not None and answer is not True:
            game.isolation.check(plugin, where, False, f"returned {safe_repr(answer)}, not None, False or an Action")
        return ActionResult.success()


@dataclass(frozen=True)
class Wear(Action):
    """Wear or wield a carried item (its kind's use is ``wear`` or ``wield``) in its kind's slot;
    what was there is taken off (it stays in the pack)."""

    item: int

    def perform(self, api: GameAPI, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        kind = inventory.kind(game, self.item)
        if not kind.equipment:
            game.log(game.rules.message("cannot_wear", item=naming.item_name(game, self.item, kind)))
            return ActionResult.not_done()
        if game.world.has(self.item, Equipped):
            game.log(game.rules.message("already_worn", item=naming.item_name(game, self.item, kind)))
            return ActionResult.not_done()
        for other in inventory.worn(game, kind.slot):
            game.world.remove(other, Equipped)
            game.log(game.rules.message("take_off", item=naming.of_entity(game, other)))
        game.world.add(self.item, Equipped(kind.slot))
        game.log(game.rules.message("wear", item=naming.item_name(game, self.item, kind)))
        return ActionResult.success()


@dataclass(frozen=True)
class TakeOff(Action):
    """Take off a worn item (it stays in the pack: it always has its letter)."""

    item: int

    def perform(self, api: GameAPI, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        if not game.world.has(self.item, Equipped):
            return ActionResult.not_done()
        game.world.remove(self.item, Equipped)
        game.log(game.rules.message("take_off", item=naming.of_entity(game, self.item)))
        return ActionResult.success()


def flight(start: tuple[int, int], end: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells a thrown item crosses from ``start`` (left out) to ``end`` (the last): a straight
    line (:func:`engine.kit.lines.line`, the same cells every time)."""
    return line(start, end)[1:]


@dataclass(frozen=True)
class Throw(Action):
    """Throw one of a carried item at ``target`` (a cell): it flies along the straight line there
    (:func:`flight`) and stops at the first creature, which it hits for the kind's ``attack`` less the
    creature's defense, at least 1 (a kill is the thrower's, as a blow's is), or before the first
    wall, or on the cell aimed at. It lands where it stopped (under the creature it hit; never on
    stairs, which it would hide: the cell before them), one of its stack, to be picked up again
    (worn, it is taken off), unless it breaks: a kind's ``params.breaks`` is the percent chance
    that one which hits a creature breaks (``GameAPI.breaks``: default 0; the run's ``"throw"`` stream).
    Aimed at the thrower's own cell it is not thrown, and no time passes."""

    item: int
    target: tuple[int, int] | None = None

    def perform(self, api: GameAPI, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        kind = inventory.kind(game, self.item)
        start = entities.position(game, entity)
        if self.target is None or tuple(self.target) == start:
            game.log(game.rules.message("throw_nowhere", item=naming.item_name(game, self.item, kind)))
            return ActionResult.not_done()
        if inventory.count(game, self.item) > 1 and not bounds.room_for_one(game, f"throw {kind.name!r}"):
            return ActionResult.not_done()
        path, struck = [start], None
        walkable = game.ground.walkable  # a thrown thing stops where a creature could not step: a wall, a door
        for x, y in flight(start, self.target):
            if not (0 <= x < walkable.shape[1] and 0 <= y < walkable.shape[0]) or not walkable[y, x]:
                break
            path.append((x, y))
            struck = game.state.spatial.blocker_at(x, y)
            if struck is not None:
                break
        game.emit(Shot(start, path[-1]))  # the window draws it flying
        stairs = (game.level.stairs, game.level.exit, game.state.level.upstairs)
        landing = next((cell for cell in reversed(path) if cell not in stairs), path[-1])
        name = naming.item_name(game, self.item, kind)
        hits = struck is not None and game.world.has(struck, Fighter)
        breaks = hits and api.breaks(kind)
        if breaks:
            inventory.take_one(game, self.item)
        elif inventory.count(game, self.item) > 1:
            game.world.get(self.item, Item).amount -= 1
            entities.spawn_item(game, kind.name, *landing, 1)
        else:
            inventory.release(game, self.item)
            game.state.spatial.place(self.item, *landing)
        if hits:
            self._hit(game, entity, struck, name, kind.attack)
            if breaks:
                game.log(game.rules.message("throw_break", item=name))
        else:
            game.log(game.rules.message("throw_land", item=name))
        return ActionResult.success()

    @staticmethod
    def _hit(game: Run, entity: int, struck: int, item: str, attack: int) -> None:
        damage = max(1, attack - inventory.defense_of(game, struck))
        entities.hurt(game, struck, damage, entity)
        killed = game.world.get(struck, Fighter).hp == 0
        game.log(game.rules.message("throw_kill" if killed else "throw_hit", item=item,
                                    target=entities.name_of(game, struck), damage=damage))
        if killed:
            entities.kill(game, struck, entity)
