"""Terrain with rules (issue #25): deep and shallow water, rubble, tall grass and chasms, placed on
the default game's levels as features (:mod:`engine.plugins.depths._terrain_features`), and the eel
that lives in the lakes.

* ``deep-water`` (``≈``): the player swims it. Worn armour of at least ``heavy_defense`` (chain
  mail, plate) weighs a swimmer down: every step out of a deep-water cell takes ``swim_cost``
  energy (200: half speed), shown by the status ``weighed-down`` ("Weighed down"). Monsters do not
  swim unless their kind says ``params.swims = true`` (the eel): a step of theirs into deep water is
  refused (its turn is spent), and deep water costs paths ``8``, so hunters go round a lake, or
  wait on the shore for a swimmer they cannot reach, and strike from there when beside them (a
  blow is not a step). Items in deep water lie on the bottom and are picked up as anywhere: no
  drifting, no sinking, no dropped packs.
* ``shallow-water`` (``~``): walked at the usual speed (as in Brogue); paths cost 2, so walkers
  keep to dry ground where it is no longer way round.
* ``rubble`` (``:``): paths cost 2, and a step onto it takes ``rubble_cost`` energy (150), for
  anyone.
* ``grass`` (``"``): tall grass, walkable and blocking sight; a creature walking in it tramples it
  flat (floor, which lets light through).
* ``chasm`` (``░``): from depth 3, never on the deepest level (the preset's ``max_depth``). No
  creature's ground (monsters never step in, paths and travel go round); the player walking into
  it falls: ``fall_damage`` HP, a message, and a landing on a random floor cell of the level below.
* the ``eel``: lives in deep water (placed in lakes from depth 3 to 9, never by the spawn tables),
  strikes the player beside its water and swims toward them, never out of the water.

Everything acts only in a preset with ``[params.terrain]`` (the default game); the classic presets
never see these kinds. The rules hang on the kinds' own hooks (``on_enter``/``on_leave``) and on
one ``on_action`` check of a step's two cells: nothing scans the level during a turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import (
    VETO,
    Action,
    ActionResult,
    Attack,
    ChangeLevel,
    Equipped,
    MonsterKind,
    Move,
    StatusKind,
    TerrainKind,
    hears,
    hookimpl,
)
from engine.kit import limits
from engine.plugins.depths._terrain_features import CHASM, DEEP, FLOOR, GRASS, RUBBLE, SHALLOW, furnish

WEIGHED, EEL = "weighed-down", "eel"
TURN = 100  # a step's energy
HEAVY = 3  # armour of at least this defense weighs a swimmer down, by default: chain mail (3), plate (5)
SWIM = 200  # a weighed-down swimmer's step, by default: half speed
CLAMBER = 150  # a step onto rubble, by default
FALL = (1, 4)  # the HP a fall costs, by default
WATER_COST = 8  # what a step into deep water costs a path: walkers go round a lake
# Colours held apart from every other kind of the default game, lit and remembered, by
# tests/test_palette.py: the blues left between the stairs, the kobold and the troll.
DEEP_BLUE, SHALLOW_TEAL = (25, 55, 190), (0, 105, 135)


def _params(game) -> dict | None:
    return game.rules.params.get("terrain")


def weighed_down(game, params: dict) -> bool:
    """Whether the player wears armour of at least ``params.heavy_defense`` (chain mail, plate)."""
    least = int(params.get("heavy_defense", HEAVY))
    for item in game.pack():
        if game.component(item, Equipped) is not None:
            kind = game.kind_of(item)
            if kind.slot == "armour" and kind.defense >= least:
                return True
    return False


# -- the kinds' hooks ------------------------------------------------------------------------
def into_deep(game, entity, x, y):
    """The player in heavy armour swims weighed down: said once, shown in the sidebar."""
    params = _params(game)
    if params is None or entity != game.player or game.has_status(entity, WEIGHED):
        return
    if weighed_down(game, params):
        game.add_status(entity, WEIGHED, None)
        game.log("Your armour drags you under: you swim at half speed.", "warn")


def out_of_deep(game, entity, x, y):
    """Out of deep water (not into more of it): no longer weighed down."""
    here = game.position(entity)
    kind = game.terrain(*here) if here is not None else None
    if (kind is None or kind.name != DEEP) and game.has_status(entity, WEIGHED):
        game.remove_status(entity, WEIGHED)


def trample(game, entity, x, y):
    if _params(game) is not None:
        game.set_terrain(x, y, FLOOR)


KINDS = (
    TerrainKind(name=DEEP, glyph="≈", color=DEEP_BLUE, cost=WATER_COST, flags=frozenset({"water", "deep"}),
                description="deep water", on_enter=into_deep, on_leave=out_of_deep),
    TerrainKind(name=SHALLOW, glyph="~", color=SHALLOW_TEAL, cost=2, flags=frozenset({"water"}),
                description="shallow water"),
    TerrainKind(name=RUBBLE, glyph=":", color=(120, 144, 96), cost=2, description="rubble (slow to cross)"),
    TerrainKind(name=GRASS, glyph='"', color=(0, 130, 20), transparent=False, description="tall grass",
                on_enter=trample),
    TerrainKind(name=CHASM, glyph="░", color=(100, 40, 100), walkable=False, flags=frozenset({"chasm"}),
                description="a chasm (a fall to the level below)"),
)


@hookimpl
def register_terrain(register):
    for kind in KINDS:
        register(kind)


@hookimpl
def register_statuses(register):
    register(StatusKind(name=WEIGHED, label="Weighed down", color=DEEP_BLUE))


# -- steps -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Labour(Move):
    """A step that takes ``cost`` energy instead of a turn's (out of deep water weighed down,
    onto rubble); a bump that becomes a blow is a blow as ever."""

    cost: int = TURN

    def perform(self, game, entity):
        before = game.position(entity)
        result = Move(self.dx, self.dy).perform(game, entity)
        if result.done and result.alternate is None and game.position(entity) != before:
            return ActionResult(True, self.cost, request=result.request)
        return result


@dataclass(frozen=True)
class Fall(Action):
    """The player walks into a chasm: hurt by the fall, and down to a random cell of the level below."""

    def perform(self, game, entity):
        lo, hi = (_params(game) or {}).get("fall_damage", FALL)
        dealt = game.damage(entity, game.rng("depths:terrain").randint(int(lo), int(hi)), by="a fall")
        game.log(f"You fall into the chasm and land hard: {dealt} damage.", "hurt")
        if not game.alive:
            return ActionResult.success()
        return ActionResult.success(request=ChangeLevel(game.depth + 1, fall=True))


def _swims(game, entity) -> bool:
    kind = game.kind_of(entity)
    return kind is not None and bool(kind.params.get("swims"))


@hookimpl
@hears(steps=[CHASM, DEEP, RUBBLE])  # a step between two other cells is let be: it is not called
def on_action(game, entity, action):
    """A step into a chasm is a fall (the player's; not on the deepest level); into deep water,
    refused to a monster that does not swim; onto rubble, or out of deep water weighed down, slow.
    (Called only for a step from or onto one of those kinds: the crowd's steps across the floor
    call it not. A step between cells that cost a path 1 is let be after one look at the level's
    walk cost.)"""
    if not isinstance(action, Move):
        return None
    here = game.position(entity)
    x, y = here[0] + action.dx, here[1] + action.dy
    cost = game.walk_cost()
    h, w = cost.shape
    player = entity == game.player
    # read as Python numbers (item): a numpy bool compared with 1 costs ten times as much
    if 0 <= x < w and 0 <= y < h and cost.item(y, x) == 1 and (not player or cost.item(here[1], here[0]) == 1):
        return None
    params = _params(game)
    if params is None:
        return None
    there = game.terrain(x, y)
    name = there.name if there is not None else ""
    if name == CHASM:
        deepest = game.rules.max_depth
        return Fall() if player and (deepest is None or game.depth < deepest) else None
    if name == DEEP and not player and game.creature_at(x, y) is None and not _swims(game, entity):
        return VETO
    cost = int(params.get("rubble_cost", CLAMBER)) if name == RUBBLE else TURN
    if player and game.terrain(*here).name == DEEP:
        if weighed_down(game, params):
            cost = max(cost, int(params.get("swim_cost", SWIM)))
        elif game.has_status(entity, WEIGHED):  # the armour came off in the water
            game.remove_status(entity, WEIGHED)
    return Labour(action.dx, action.dy, cost) if cost != TURN else None


# -- the eel ---------------------------------------------------------------------------------
def lurk(game, me):
    """An eel's way: beside the player it strikes; noticing the player it swims nearer through
    deep water, never out of it; otherwise it waits under the surface. As near as its water
    goes, it declares itself ``"lurking"``: it will not come, so a walk does not wait for it (an
    awake eel in view kept explore from starting for as long as the player could see its lake)."""
    if not game.notices(me):
        return None
    player = game.player
    if game.adjacent(me, player):
        return Attack(player)
    (x, y), (px, py) = game.position(me), game.position(player)
    best, nearest = None, max(abs(px - x), abs(py - y))
    for dx, dy in game.moves.steps:
        kind = game.terrain(x + dx, y + dy)
        if kind is not None and kind.name == DEEP and game.passable(x + dx, y + dy):
            far = max(abs(px - x - dx), abs(py - y - dy))
            if far < nearest:
                best, nearest = (dx, dy), far
    if best is None:
        game.declare(me, "lurking")
        return None
    return Move(*best)


@hookimpl
def register_behaviours(register):
    register("lurk", lurk)


@hookimpl
def register_monsters(register):
    # min_depth out of reach: the spawn tables never put an eel on dry floor; the lakes get theirs
    # (furnish: [params.terrain] eel, by depth)
    register(MonsterKind(name=EEL, glyph="E", color=(230, 250, 180), hp=18, attack=5, defense=1, sight=6,
                         behaviour="lurk", min_depth=limits.MAX_DEPTH, params={"swims": True, "xp": 12},
                         description="A great eel: it strikes from deep water and never leaves it."))


@hookimpl(trylast=True)  # after the other plugins' (the Amulet and its guards): this keeps off them
def on_level_generated(game, level):
    params = _params(game)
    if params is not None and level.populate:  # a level complete as drawn (--map) is left as it is
        furnish(game, level, params, EEL)
