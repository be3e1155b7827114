"""What the ``delver`` bot (``bot_delver``) knows of the game and sees at one key.

"The game, as the bot knows it" is every rule it relies on, each a small function to replace when
the game changes (inventory letters, scrolls, equipment and XP): how melee hurts, what a
potion heals, which pack items it can drink, how fast a monster strikes, whether melee is a fight
at all. :class:`DelverView` is the game at one key as the player knows it (the floor it has seen, the
monsters in view, its pack), worked out lazily; :class:`Memory` is what it keeps between keys.
What it knows of items and its pack is :mod:`engine.plugins.bots._delver_pack`. A helper of the
plugin ``bot_delver``, not a plugin of its own.
"""

from __future__ import annotations

import numpy as np

import engine
from engine import downhill
from engine.plugins.bots._delver_memory import SIGHTING_TURNS, Memory, note_step  # noqa: F401 - read here as always
from engine.plugins.bots._delver_pack import (
    Carried,
    Pack,
    make_pack,
    pack_key,
)
from engine.plugins.rules.effects import healed

DIRECTIONS = {(-1, 0): "left", (1, 0): "right", (0, -1): "up", (0, 1): "down",
              (-1, -1): "upleft", (1, -1): "upright", (-1, 1): "downleft", (1, 1): "downright"}
MOVES = {step: "move " + name for step, name in DIRECTIONS.items()}  # each step's command


# -- The game, as the bot knows it ----------------------------------------------------------
def damage(attack: int, defense: int) -> int:
    """A blow's damage (the engine's melee: attack minus defense, at least 1)."""
    return max(1, attack - defense)


def blows_per_turn(game, monster: int) -> float:
    """A monster's actions per player turn (speed 100 is one)."""
    return max(0.0, getattr(game.kind_of(monster), "speed", 100) / 100)


def can_fight(look: DelverView) -> bool:
    """Whether melee is a fight at all: with no attack (lesson28's touch kills), it is not."""
    return look.attack > 0


class once:
    """``functools.cached_property`` without its lock (Python 3.11 takes one on every first read,
    and a DelverView is read afresh at every key): the value is worked out at the first read and kept in
    the instance, where later reads find it without calling this."""

    def __init__(self, fn) -> None:
        self.fn, self.name, self.__doc__ = fn, fn.__name__, fn.__doc__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.fn(instance)
        return value


TRAP_COST = 50  # a path cost this high is a known trap's (plugins/depths/traps.py): it never walks there
TRAP_DETOUR = 10_000  # what its walks count a step onto a known trap: any other way first, however long
MAPS = 16  # distance maps kept for one known floor (the walks of a few goals, with and without monsters)


# -- What it sees this key ------------------------------------------------------------------
class DelverView:
    """The game at one key, as the player knows it; each piece is worked out when first asked."""

    def __init__(self, game, memory: Memory) -> None:
        self.game, self.memory = game, memory
        self.me = game.player
        self.here = game.position(self.me)
        self.hp, self.max_hp = game.hp(self.me)
        self.moves = game.moves

    @once
    def prompt(self) -> dict | None:
        """The prompt the game shows (``game.prompt()``), or None."""
        return self.game.prompt()

    @once
    def _attack_defense(self) -> tuple[int, int]:
        """Its attack and defense now (``game.attack_defense``: what it wears counts), asked on
        the keys that weigh a fight, not on every key (exploring, nothing in view, asks none)."""
        return self.game.attack_defense(self.me)

    attack = property(lambda self: self._attack_defense[0], doc="Its attack now.")
    defense = property(lambda self: self._attack_defense[1], doc="Its defense now.")

    @property
    def commands(self) -> dict[str, str]:
        """The first key of each command (``"move left"``, ``"drink"``...): the preset's keys do
        not change during a run."""
        if self.memory.commands is None:
            first: dict[str, str] = {}
            for token, spec in self.game.keys().items():
                first.setdefault(spec, token)
            self.memory.commands = first
        return self.memory.commands

    def key(self, *commands: str) -> str | None:
        """The key of the first of ``commands`` the preset has (``"descend"`` in the classic
        presets, ``"downstairs"`` in the default game), or None."""
        table = self.commands
        for command in commands:  # a loop, not next() of a generator: every step asks
            if command in table:
                return table[command]
        return None

    def step_key(self, cell: tuple[int, int] | None) -> str | None:
        if cell is None:
            return None
        return self.commands.get(MOVES[(cell[0] - self.here[0], cell[1] - self.here[1])])

    @once
    def seen(self) -> np.ndarray:
        return self.game.seen()

    @once
    def floor(self) -> np.ndarray:
        """The floor it knows: seen, and not a wall. The distance maps made on another floor are
        forgotten (see :meth:`distance`)."""
        floor = np.greater(self.seen, self.game.walls())  # seen and not a wall, in one step
        known, now = self.memory.floor, (floor.shape, floor.tobytes())
        if known != now:
            self.memory.floor, self.memory.maps, self.memory.reach = now, {}, None
        return floor

    def reaches(self, cell: tuple[int, int]) -> bool:
        """Whether it can walk to ``cell`` over the floor it knows. Asked of a distance map from
        where it stands over the known floor, kept while the floor stays the same and it stands on
        a cell that map reaches: the cells a floor cell reaches are those of its part of the floor,
        the same from any cell of that part (a step back is a step: the ways are the same both ways)."""
        floor, here = self.floor, self.here
        reach = self.memory.reach
        if reach is None or self.memory.fresh or not np.isfinite(reach[here[1], here[0]]):
            reach = self.game.distance_map([here], cost=floor.astype(float))
            # only a map from a floor cell stands for its part (another cell may join two parts)
            self.memory.reach = reach if floor[here[1], here[0]] else None
        return bool(reach[cell[1], cell[0]] < float("inf"))

    @once
    def traps(self) -> np.ndarray:
        """The traps it knows (seen, found): cells whose path cost is :data:`TRAP_COST` or more, a
        cost no terrain a player walks on has (a hidden trap costs what floor does)."""
        cost = self.game.walk_cost()
        if cost.dtype == bool:
            return np.zeros(cost.shape, dtype=bool)
        return self.seen & (cost >= TRAP_COST)

    def wary_of_traps(self, cost: np.ndarray, box: tuple[int, int, int, int] | None = None,
                      shun: bool = False) -> np.ndarray:
        """``cost`` (where it may walk) as floats, the traps it knows at :data:`TRAP_DETOUR`: its
        walks go around them wherever there is another way, however long (at the traps' own cost,
        a detour of 50 steps was worth a trapdoor, on the way up with the Amulet, again and again),
        and over them where there is none.
        ``shun``: never over them (explore: no unseen cell is worth a known trap; a teleport
        trap in the only doorway of a patch of tall grass sent it away again and again).
        ``box``: (x0, y0, x1, y1), the part of the level ``cost`` covers (default: all of it)."""
        traps = self.traps if box is None else self.traps[box[1]:box[3], box[0]:box[2]]
        cost = cost.astype(np.float64)
        cost[traps & (cost > 0)] = 0 if shun else TRAP_DETOUR
        return cost

    @once
    def lying(self) -> dict[tuple[int, int], list[int]]:
        """The items lying on the level, by cell (pick up and collect both ask)."""
        game, out = self.game, {}
        position = game.position
        for item in game.items():
            cell = position(item)
            if cell is not None:
                if cell in out:
                    out[cell].append(item)
                else:
                    out[cell] = [item]
        return out

    @once
    def in_view(self) -> list[int]:
        """The monsters in view, foes or not (``game.visible_monsters``, asked once a key)."""
        return self.game.visible_monsters()

    @once
    def monsters(self) -> list[int]:
        """The monsters in view that are foes (a captive or an ally is none: ``game.is_friendly``)."""
        game = self.game
        return [m for m in self.in_view if not game.is_friendly(m)]

    @once
    def occupied(self) -> set[tuple[int, int]]:
        return {self.game.position(m) for m in self.monsters}

    @once
    def remembered(self) -> set[tuple[int, int]]:
        """Where monsters are as far as it knows: those in view, and those it saw on this level in
        the last SIGHTING_TURNS turns, at the cell it last saw them, while it cannot see that cell.
        Walks go around these: a walk that forgot a monster once out of sight turned back toward
        it, saw it, and turned away again, forever."""
        game, sightings, now = self.game, self.memory.sightings, self.game.turn
        for m in self.monsters:
            sightings[m] = (game.position(m), now)
        visible = game.visible()
        for m, ((x, y), when) in list(sightings.items()):
            if now - when > SIGHTING_TURNS or (visible[y, x] and m not in self.monsters):
                del sightings[m]
        return {cell for cell, _ in sightings.values()}

    @once
    def _pack(self) -> Pack:
        key, known = pack_key(self.game), self.memory.pack
        if known is None or known.key != key or self.memory.fresh:
            known = self.memory.pack = make_pack(self.game, key)
        return known

    def of_pack(self, fn):
        """``fn(carried)``, worked out once per pack (what to wear, the drinks, the scrolls: the pack
        changes far less often than a key is pressed)."""
        worked_out = self._pack.worked_out
        if fn not in worked_out:
            worked_out[fn] = fn(self._pack.carried)
        return worked_out[fn]

    @property
    def pack(self) -> dict[str, int]:
        return self._pack.counts

    @property
    def carried(self) -> list[Carried]:
        """The pack, item by item: entity, kind, count, letter, worn."""
        return self._pack.carried

    @property
    def potions(self) -> int:
        return self._pack.potions

    @property
    def least_heal(self) -> int:
        """The least amount one of its drinks heals, unscaled (0: none); :attr:`heal` is at least
        that when it is more than 0."""
        return self._pack.heal

    @once
    def heal(self) -> int:
        """HP one of its drinks gives back now: the least amount it carries, scaled as the game
        scales it (``effects.healed``: a share of max HP in some presets)."""
        least = self._pack.heal
        return healed(self.game, self.me, least) if least else 0

    def near(self, monster: int, steps: int = 1) -> bool:
        """Whether a monster is within ``steps`` moves (by the preset's 4 or 8 ways)."""
        (mx, my), (x, y) = self.game.position(monster), self.here
        dx, dy = abs(mx - x), abs(my - y)
        return (dx + dy if self.moves.movement == 4 else max(dx, dy)) <= steps

    @once
    def adjacent(self) -> list[int]:
        monsters = self.monsters
        return [m for m in monsters if self.near(m)] if monsters else []

    @once
    def threats(self) -> list[int]:
        """The monsters next to it that are awake (a sleeping one strikes no blow)."""
        adjacent = self.adjacent
        return [m for m in adjacent if self.awake(m)] if adjacent else []

    def awake(self, monster: int) -> bool:
        """Whether a monster is awake (look mode tells the player so)."""
        state = self.game.component(monster, engine.Monster)
        return state is None or state.awake

    def blows(self, monster: int) -> float:
        return blows_per_turn(self.game, monster)

    @once
    def nearest(self) -> int | None:
        """The monster a scroll aimed at "the nearest" strikes (king-move distance, then id)."""
        monsters = self.monsters
        if not monsters:
            return None
        return min(monsters, key=lambda m: (self.game.distance(self.me, m), m))

    def distance_to(self, cell: tuple[int, int]) -> int:
        return max(abs(cell[0] - self.here[0]), abs(cell[1] - self.here[1]))

    @once
    def engaged(self) -> list[int]:
        """The monsters in view that have noticed it (they come), nearest first."""
        monsters = self.monsters
        if not monsters:
            return []
        return sorted((m for m in monsters if self.game.notices(m)), key=lambda m: self.game.distance(self.me, m))

    def foe(self, monster: int) -> tuple[int, float]:
        """(the blows it takes to fell ``monster``, the HP that strikes it for a turn), worked out
        once a key (flee, fight, read and zap weigh the same monsters, some more than once)."""
        known = self.__dict__.setdefault("_foes", {})
        found = known.get(monster)
        if found is None:
            game = self.game
            hp = game.hp(monster)[0]
            attack, defense = game.attack_defense(monster)
            turns = -(-hp // damage(self.attack, defense))  # blows to fell it
            found = known[monster] = (turns, damage(attack, self.defense) * blows_per_turn(game, monster))
        return found

    def fight_cost(self, monsters: list[int]) -> float:
        """The HP it would lose killing ``monsters`` one by one, weakest first, while every one
        still standing strikes it each turn."""
        foes = sorted([self.foe(m) for m in monsters])
        lost, elapsed = 0.0, 0
        for turns, blow in foes:
            elapsed += turns
            lost += blow * (elapsed - 1)  # it strikes until the turn it falls; ours is the first blow
        return lost

    def distance(self, key: tuple, goals, make_cost) -> tuple[np.ndarray, np.ndarray]:
        """``(cost, distance map of goals over cost)``, where ``make_cost()`` makes the cost from
        the known floor and ``key`` names what else it depends on (the goals, where monsters
        stand). Kept while the known floor stays the same (at most :data:`MAPS`), so walking on
        over known ground toward the same goals makes no map again: the same map, the same steps."""
        _ = self.floor  # first: forgets the maps of another floor
        maps = self.memory.maps
        found = maps.get(key) if not self.memory.fresh else None
        if found is None:
            cost = make_cost()
            found = (cost, self.game.distance_map(goals, cost=cost))
            if len(maps) >= MAPS:
                del maps[next(iter(maps))]
            maps[key] = found
        return found

    def beyond_traps(self, goals) -> bool:
        """Whether its known floor leads to the nearest of ``goals`` only across a trap it knows
        (a walk there steps on it: :data:`TRAP_DETOUR`). The map is the one :meth:`walk` makes
        when no monster is in the way, kept with the others."""
        if not np.count_nonzero(self.traps):
            return False
        named = tuple(goals)
        _, dist = self.distance(("around", named, ()), named,
                                lambda: self.wary_of_traps(np.where(self.floor, self.game.walk_cost(), 0)))
        x, y = self.here
        return bool(TRAP_DETOUR <= dist[y, x] < np.inf)

    def walk(self, goals, *, avoid: bool = False) -> str | None:
        """The key of a step toward the nearest of ``goals`` (cells) over the known floor; None
        when no step brings it nearer. Into monsters on the way (a bump is an attack), or with
        ``avoid`` around them, and around where they could strike next when there is such a way
        (not while it is ``bold``: walks that turned back and forth on two cells, round monsters
        that keep in the way, go through them for a while: :func:`note_step`)."""
        named = tuple(goals)
        avoid = avoid and not (self.memory.bold and can_fight(self))  # round them got it nowhere: through them
        occupied = tuple(sorted(self.remembered)) if avoid else ()

        def around() -> np.ndarray:
            # the known floor at what its terrain costs a walker (deep water, rubble: gone round
            # where a player would; all 1 on a level of the built-in kinds), and the traps it knows
            cost = self.wary_of_traps(np.where(self.floor, self.game.walk_cost(), 0))
            for x, y in occupied:
                cost[y, x] = 0
            return cost

        def wary_of() -> np.ndarray:
            cost = around()
            wary = cost.copy()
            h, w = cost.shape
            for x, y in occupied:
                for dx, dy in self.moves.steps:
                    if 0 <= x + dx < w and 0 <= y + dy < h:
                        wary[y + dy, x + dx] = 0
            for x, y in named:
                wary[y, x] = cost[y, x]  # a goal is worth reaching even beside a monster
            return wary

        if avoid:
            wary, dist = self.distance(("wary", named, occupied), named, wary_of)
            step = self.step_key(downhill(dist, self.here, wary, self.moves))
            if step is not None:
                return step
            cost, dist = self.distance(("around", named, occupied), named, around)
            h, w = cost.shape
            x, y = self.here
            safe = [(dist[y + dy, x + dx], i, (x + dx, y + dy)) for i, (dx, dy) in enumerate(self.moves.steps)
                    if 0 <= x + dx < w and 0 <= y + dy < h and wary[y + dy, x + dx] > 0
                    and np.isfinite(dist[y + dy, x + dx])]
            if safe:  # no way round them now: the safe step that keeps it nearest
                return self.step_key(min(safe)[2])
        cost, dist = self.distance(("around", named, occupied), named, around)
        return self.step_key(downhill(dist, self.here, cost, self.moves))
