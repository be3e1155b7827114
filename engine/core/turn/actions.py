"""Actions and their results.

An action is performed by an entity and returns an :class:`ActionResult` instead of raising:
done (it cost energy), not done (nothing happened, no time passes: drinking with no potion), or an
alternate action to perform instead (bumping a monster becomes an attack). An action never starts
a level or a run itself: it asks for it with a :class:`Request` in its result (take the stairs,
reach the exit), and the turn loop applies the request at the end of the turn. Exceptions are for
bugs, never for "you can't go there".

What differs between presets (a wall bump, a touch) is asked of the preset's ruleset
(:mod:`engine.core.turn.ruleset`), not read from flags here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.model.components import Fighter, Player, Position
from engine.core.model.events import Shot
from engine.core.model.requests import ChangeLevel, Request
from engine.core.model.scheduler import TURN_COST
from engine.core.turn import entities, inventory


class _Veto:
    """What an ``on_action`` hook returns to stop an action (see ``Game.perform``)."""

    def __repr__(self) -> str:
        return "VETO"


VETO = _Veto()


@dataclass(frozen=True)
class ActionResult:
    done: bool
    cost: int = TURN_COST
    alternate: Action | None = None
    request: Request | None = None

    @staticmethod
    def success(cost: int = TURN_COST, request: Request | None = None) -> ActionResult:
        if cost == TURN_COST and request is None:
            return _DONE  # frozen, so one serves every turn: a crowd's steps each made one
        return ActionResult(True, cost, request=request)

    @staticmethod
    def not_done() -> ActionResult:
        return ActionResult(False, 0)

    @staticmethod
    def instead(action: Action) -> ActionResult:
        return ActionResult(False, 0, action)


_DONE = ActionResult(True, TURN_COST)


class Action:
    """Something an entity does on its turn."""

    def perform(self, game: Any, entity: int) -> ActionResult:  # pragma: no cover - protocol
        """Do it for ``entity``: ``game`` is the game API (``engine.GameAPI``: a plugin's action uses
        it as a behaviour does; the engine's own work on the run behind it)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Wait(Action):
    def perform(self, api: Any, entity: int) -> ActionResult:
        return ActionResult.success()


@dataclass(frozen=True)
class Move(Action):
    """A step of (dx, dy). Bumping a wall or the map's edge is the ruleset's to decide for the
    player (no time passes, by default), and never takes time for a monster (nor a step onto a
    kind ``barred`` to it: ``engine.TerrainKind``). When the player and a
    monster meet, the ruleset's ``touch`` decides (an attack, by default). Monsters never push or
    swap with each other."""

    dx: int
    dy: int

    def perform(self, api: Any, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        state = game.state
        world = state.world
        pos = world.get(entity, Position)
        x, y = pos.x + self.dx, pos.y + self.dy
        is_player = entity == state.player
        ground = game.ground
        h, w = ground.walkable.shape
        if not (0 <= x < w and 0 <= y < h) or not ground.walk_flat[y * w + x]:
            return game.ruleset.bump_wall(api, entity) if is_player else ActionResult.not_done()
        if ground.barring and not is_player and ground.bars(entities.barring(game, entity), x, y):
            return ActionResult.not_done()  # a kind barred to it (a closed door to a rat): as a wall
        other = state.spatial.blocker_at(x, y)
        if other is not None:
            if is_player == world.has(other, Player):
                return ActionResult.not_done()
            return game.ruleset.touch(api, entity, other)  # type: ignore[no-any-return]  # a Run's ruleset: Any
        entities.move_entity(game, entity, x, y)  # Game.move_entity's, without the call between
        if is_player:
            return ActionResult.success(request=entities.player_arrived(game))
        return _DONE  # ActionResult.success()'s, without the call: a crowd's every step


@dataclass(frozen=True)
class Attack(Action):
    """A blow, or with ``ranged`` a shot from afar (an archer's): damage is attack minus defense
    (each with what equipment adds), at least 1; HP never shows below 0. A shot is said as one
    ("The goblin archer shoots you for 2."), a blow as a blow; a kill is said as a kill either way."""

    target: int
    ranged: bool = False

    def perform(self, api: Any, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        defender = game.world.try_get(self.target, Fighter)
        if defender is None:
            return ActionResult.not_done()
        damage = max(1, inventory.attack_of(game, entity) - inventory.defense_of(game, self.target))
        if self.ranged:  # the arrow's flight, for the window's animations
            start, end = game.world.try_get(entity, Position), game.world.try_get(self.target, Position)
            if start is not None and end is not None:
                game.emit(Shot((start.x, start.y), (end.x, end.y)))
        entities.hurt(game, self.target, damage, entity)
        names = {"attacker": game.name_of(entity), "target": game.name_of(self.target), "damage": damage}
        killed = defender.hp == 0
        verb = "shoot" if self.ranged else "hit"
        if game.world.has(entity, Player):
            game.log(game.rules.message("player_kill" if killed else f"player_{verb}", **names))
        elif game.world.has(self.target, Player):
            game.log(game.rules.message("monster_kill" if killed else f"monster_{verb}", **names))
        else:
            game.log(game.rules.message("monster_kill_monster" if killed else f"monster_{verb}_monster", **names))
        if killed:
            game.kill(self.target, entity)
        return ActionResult.success()


@dataclass(frozen=True)
class Drink(Action):
    """Drink the first potion in the pack, by kind name (the classic games' one drink key); with
    none it says so and takes no time."""

    def perform(self, api: Any, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        potions = sorted(inventory.of_use(game, "quaff"), key=lambda e: inventory.kind(game, e).name)
        if not potions:
            game.log(game.rules.message("no_potion"))
            return ActionResult.not_done()
        entities.apply_item(game, entity, inventory.kind(game, potions[0]), 1)
        inventory.take_one(game, potions[0])
        return ActionResult.success()


@dataclass(frozen=True)
class Descend(Action):
    """Go down the stairs (the turn loop takes the player there at the end of the turn)."""

    def perform(self, api: Any, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        pos = game.world.get(entity, Position)
        if game.level.stairs != (pos.x, pos.y):
            game.log(game.rules.message("no_stairs"))
            return ActionResult.not_done()
        return ActionResult.success(request=ChangeLevel(game.state.depth + 1))


@dataclass(frozen=True)
class Ascend(Action):
    """Climb the stairs up: to the level above, or, from the first, out (the ruleset says what
    that means)."""

    def perform(self, api: Any, entity: int) -> ActionResult:
        game = api._run  # the engine's own action works on the run behind the API
        pos = game.world.get(entity, Position)
        if game.level.upstairs != (pos.x, pos.y):
            game.log(game.rules.message("no_upstairs"))
            return ActionResult.not_done()
        if game.state.depth <= 1:
            return game.ruleset.climb_out(api)  # type: ignore[no-any-return]  # a Run's ruleset: Any
        return ActionResult.success(request=ChangeLevel(game.state.depth - 1, up=True))
