"""Vaults and set pieces (Brogue's "machines"), built into levels already made, from depth 2.

In a preset whose TOML has ``[params.vaults]`` (the default game), each new level from
``min_depth`` on may hold, each by its own chance (``[start, per_depth]`` percent: ``start`` at
``min_depth``, ``per_depth`` more each level deeper):

* a **vault**: a small room carved into solid rock beside a room or corridor, shut by a
  ``vault-door`` that nobody walks through. Its ``vault key`` lies elsewhere on the level, far
  from the arrival, guarded by a monster or two beside it; the player who walks into the door
  carrying the key of this level unlocks it (a turn: the key is used up, and the door becomes an
  ``open-door`` where that kind is registered, else floor). A key opens only the vault of the level
  it was found on. Inside, three treasures on altars, drawn from ``prizes`` (``[min_depth,
  max_depth, item]`` rows: the depth's better loot; a row naming an item no plugin registers is
  passed over): picking one up seals the others ("The other treasures sink into the floor.").
* an **ambush room**: a room of the level (not the arrival's, not the stairs') where monsters lie
  still, not acting even when they see the player, until the player steps inside: then all wake
  at once ("It's an ambush!").
* a **treasure room** behind a ``secret-door`` (found by searching), only where a plugin registers
  that kind: a small room of a few items from ``treasure``.
* a **captive**: a monster in shackles (the status ``captive``, :mod:`plugins.depths.allies`), who
  joins the player once freed.

Each is noted on the level (``game.note_feature``: ``vault 34,12`` at its door), which
``undercroft catalog`` lists. Placement draws from a stream seeded by the level's depth and terrain,
so a level is the same whichever levels were made before it; set pieces go on floor alone, never on
the stairs, the start or where something is, and the level keeps every path it had.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from engine import VETO, Action, ActionResult, ItemKind, Move, TerrainKind, hears, hookimpl, player_only
from engine.plugins.depths._rooms import Spot, spots

NAME = "vaults"
VAULT_DOOR, ALTAR, KEY = "vault-door", "altar", "vault key"
GOLD = (248, 136, 112)  # brass: the vault door and its key (apart from the gold coins, tests/test_palette.py)
SEALED = "The other treasures sink into the floor."


@dataclass
class VaultKey:
    """A vault key, and the depth of the level whose vault it opens."""

    depth: int = 0


@dataclass
class VaultPrize:
    """One of a vault's treasures, lying on its altar: taking one seals the others."""

    depth: int = 0


@dataclass
class Lurking:
    """A monster of an ambush room, still until the player steps into its room (``x``, ``y``,
    ``w``, ``h``: the room's floor)."""

    x: int = 0
    y: int = 0
    w: int = 0
    h: int = 0

    def holds(self, cell: tuple[int, int]) -> bool:
        return self.x <= cell[0] < self.x + self.w and self.y <= cell[1] < self.y + self.h


@dataclass(frozen=True)
class Unlock(Action):
    """The player walks into a vault door: with this level's key it opens (a turn), else it is
    said to be locked (no time passes)."""

    x: int
    y: int

    def perform(self, game, entity):
        keys = [e for e in game.pack() if game.component(e, VaultKey) is not None]
        fitting = [e for e in keys if game.component(e, VaultKey).depth == game.depth]
        if not fitting:
            game.log("This key is for a vault on another level." if keys else
                     "The vault door is locked. Its key lies somewhere on this level.", "warn")
            return ActionResult.not_done()
        game.remove(fitting[0])
        game.set_terrain(self.x, self.y, "open-door" if game.terrain_kind("open-door") else "floor")
        game.log("You unlock the vault door.", "item")
        return ActionResult.success()


# -- registration ---------------------------------------------------------------------------------
@hookimpl
def register_terrain(register):
    register(TerrainKind(name=VAULT_DOOR, glyph="=", color=GOLD, remembered_color=(102, 76, 71), walkable=False,
                         transparent=False, flags=frozenset({"door", "vault"}),
                         description="a vault door, locked (its key lies on this level)"))
    register(TerrainKind(name=ALTAR, glyph="_", color=(168, 0, 0), remembered_color=(52, 14, 14),
                         flags=frozenset({"vault"}), description="an altar"))


@hookimpl
def register_items(register):
    register(ItemKind(name=KEY, glyph="-", color=GOLD, effect="inert", use="carry", stack=1,
                      params={"opens": VAULT_DOOR}, min_depth=100_000, weight=1,
                      description="A heavy key. It opens the vault door of the level it was found on."))


@hookimpl
def register_components(register):
    register(VaultKey)
    register(VaultPrize)
    register(Lurking)


# -- play -------------------------------------------------------------------------------------------
@hookimpl
@hears(player=True, having=[Lurking])  # the player at a vault door; a lurker, still until the player steps in
def on_action(game, entity, action):
    if entity == game.player:
        if isinstance(action, Move):
            x, y = game.position(entity)
            x, y = x + action.dx, y + action.dy
            kind = game.terrain(x, y)
            if kind is not None and kind.name == VAULT_DOOR:
                return Unlock(x, y)
        return None
    if game.component(entity, Lurking) is not None:  # still, until the player steps in
        game.sleep(entity)
        return VETO
    return None


@hookimpl
@player_only  # the player takes a prize, steps into an ambush: a monster's action is not told
def after_action(game, entity, action, result):
    if entity != game.player or not result.done:
        return
    _seal(game)
    _spring(game)


def _seal(game) -> None:
    """A treasure taken from its altar: the others of its vault sink into the floor."""
    prizes = game.query(VaultPrize)
    taken = {prize.depth for e, prize in prizes if game.position(e) is None}
    if not taken:
        return
    for e, prize in prizes:
        if prize.depth in taken:
            if game.position(e) is None:
                game.remove_component(e, VaultPrize)
            else:
                game.remove(e)
    game.log(SEALED, "item")


def _spring(game) -> None:
    """The player stepped into an ambush room: all who lurk there wake at once."""
    here = game.position(game.player)
    sprung = [e for e, lurk in game.query(Lurking) if lurk.holds(here)]
    for e in sprung:
        game.remove_component(e, Lurking)
        game.wake(e)
    if sprung:
        game.log("It's an ambush!", "warn")


# -- building -------------------------------------------------------------------------------------
def _mark(game, level) -> None:
    """A level drawn with a vault (a ``--map``, a generator's own): the keys lying on it open its
    vault, and the items on its altars are its treasures."""
    if ALTAR not in level.kinds and VAULT_DOOR not in level.kinds:
        return
    for e in game.items():
        x, y = game.position(e)
        if game.name_of(e) == KEY and game.component(e, VaultKey) is None:
            game.add_component(e, VaultKey(game.depth))
        elif game.terrain(x, y).name == ALTAR and game.component(e, VaultPrize) is None:
            game.add_component(e, VaultPrize(game.depth))


def _chance(params: dict, name: str, depth: int) -> int:
    start, per_depth = params.get(name, [0, 0])
    return int(start) + int(per_depth) * (depth - int(params.get("min_depth", 2)))


def _rng(game, level) -> random.Random:
    """This level's own stream, seeded by its depth and terrain (which the level's own stream
    made): a level's set pieces are the same whichever levels were made before it, and the run
    keeps no state for them (no plugin data, no stream of its own)."""
    return random.Random(b"depths:vaults:%d:" % game.depth + level.terrain.tobytes())


@hookimpl
def on_level_generated(game, level):
    _mark(game, level)
    params = game.rules.params.get(NAME)
    if not params or game.depth < int(params.get("min_depth", 2)) or not level.populate:  # (--map: as drawn)
        return
    rng = _rng(game, level)
    site = _Site(game, level)
    if rng.randrange(100) < _chance(params, "vault", game.depth):
        _vault(game, site, rng, params)
    if rng.randrange(100) < _chance(params, "ambush", game.depth):
        _ambush(game, site, rng, params)
    if game.terrain_kind("secret-door") is not None and rng.randrange(100) < _chance(params, "hidden", game.depth):
        _treasure(game, site, rng, params)
    if rng.randrange(100) < _chance(params, "captive", game.depth):
        _captive(game, site, rng)


class _Site:
    """What a set piece needs to know of the level: the plain floor reachable from the start, how
    far each cell is, and the cells nothing may go on."""

    def __init__(self, game, level) -> None:
        self.game, self.level = game, level
        self.keep = {c for c in (level.start, level.stairs, level.upstairs, level.exit) if c is not None}
        self.distance = game.distance_map([level.start])

    def floor(self) -> np.ndarray:
        """Plain floor cells (not the stairs or another kind), bool ``[y, x]``."""
        level = self.level  # the level in play: set_terrain changes it
        floor = level.terrain == level.kinds.index("floor")
        for x, y in self.keep:
            floor[y, x] = False
        return floor

    def free(self, x: int, y: int) -> bool:
        """Plain floor with nothing on it, reachable, and not kept clear."""
        kind = self.game.terrain(x, y)
        return (kind is not None and kind.name == "floor" and (x, y) not in self.keep
                and not self.game.entities_at(x, y) and self.distance[y, x] < np.inf)

    def carve(self, rng: random.Random, w: int, h: int, door: str) -> Spot | None:
        """A room of ``w`` x ``h`` carved into the rock beside the floor, shut by ``door``."""
        floor = self.floor()
        found = [s for s in spots(self.game.walls(), floor, w, h) if self.free(*s.outside)]
        if not found:
            return None
        spot = found[rng.randrange(len(found))]
        for x, y in spot.cells():
            self.game.set_terrain(x, y, "floor")
        self.game.set_terrain(*spot.door, door)
        return spot

    def far_cell(self, rng: random.Random, least: int) -> tuple[int, int] | None:
        """A free floor cell at least ``least`` steps from the start (the farthest third of those)."""
        ys, xs = np.nonzero(np.isfinite(self.distance) & (self.distance >= least))
        cells = sorted((int(self.distance[y, x]), int(x), int(y)) for y, x in zip(ys, xs, strict=True))
        cells = [(x, y) for _, x, y in cells[len(cells) * 2 // 3:] if self.free(x, y)]
        return cells[rng.randrange(len(cells))] if cells else None


def _kinds(game, depth: int) -> list[str]:
    return sorted(k.name for k in game.monster_kinds(depth))


def _vault(game, site: _Site, rng: random.Random, params: dict) -> None:
    depth = game.depth
    rows = [str(row[2]) for row in params.get("prizes", []) if int(row[0]) <= depth <= int(row[1])]
    prizes = sorted({name for name in rows if game.item_kind(name) is not None})
    if len(prizes) < 2:
        return
    key_cell = site.far_cell(rng, 8)
    if key_cell is None:
        return
    spot = site.carve(rng, 3, 3, VAULT_DOOR)
    if spot is None:
        return
    chosen = rng.sample(prizes, min(3, len(prizes)))
    for (x, y), name in zip(spot.back(), chosen, strict=False):
        game.set_terrain(x, y, ALTAR)
        prize = game.spawn(name, x, y)
        if prize is not None:
            game.add_component(prize, VaultPrize(depth))
    key = game.spawn(KEY, *key_cell)
    if key is not None:
        game.add_component(key, VaultKey(depth))
    kinds = _kinds(game, depth)
    guards = rng.randint(*params.get("guards", [1, 2])) if kinds else 0
    beside = [(key_cell[0] + dx, key_cell[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    rng.shuffle(beside)
    for cell in beside:
        if guards <= 0:
            break
        if site.free(*cell) and game.spawn(rng.choice(kinds), *cell) is not None:
            guards -= 1
    game.note_feature(f"vault {spot.door[0]},{spot.door[1]} key {key_cell[0]},{key_cell[1]}")


def _ambush(game, site: _Site, rng: random.Random, params: dict) -> None:
    level, kinds = site.level, _kinds(game, game.depth)
    rooms = [r for r in level.rooms if r.w * r.h >= 9 and not any(r.contains(*c) for c in site.keep)]
    if not rooms or not kinds:
        return
    room = rooms[rng.randrange(len(rooms))]
    cells = [(x, y) for y in range(room.y, room.y2 + 1) for x in range(room.x, room.x2 + 1) if site.free(x, y)]
    rng.shuffle(cells)
    placed = 0
    for cell in cells[:rng.randint(*params.get("ambushers", [2, 3]))]:
        monster = game.spawn(rng.choice(kinds), *cell)
        if monster is not None:
            game.add_component(monster, Lurking(room.x, room.y, room.w, room.h))
            placed += 1
    if placed:
        game.note_feature(f"ambush {room.center[0]},{room.center[1]}")


def _treasure(game, site: _Site, rng: random.Random, params: dict) -> None:
    names = sorted({str(n) for n in params.get("treasure", []) if game.item_kind(str(n)) is not None})
    if not names:
        return
    spot = site.carve(rng, 2, 2, "secret-door")
    if spot is None:
        return
    for cell in rng.sample(spot.cells(), min(len(spot.cells()), rng.randint(*params.get("treasures", [2, 3])))):
        game.spawn(rng.choice(names), *cell)
    game.note_feature(f"treasure {spot.door[0]},{spot.door[1]}")


def _captive(game, site: _Site, rng: random.Random) -> None:
    kinds = sorted(game.monster_kinds(game.depth + 1), key=lambda k: (-k.hp, k.name))[:3]
    cell = site.far_cell(rng, 6)
    if not kinds or cell is None:
        return
    monster = game.spawn(rng.choice(kinds).name, *cell)
    if monster is not None:
        game.add_status(monster, "captive", None)
        game.note_feature(f"captive {cell[0]},{cell[1]}")
