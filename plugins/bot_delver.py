"""The ``delver`` bot: a careful player, for ``sim``. It looks only at what the player could know.

Each key, it asks its concerns in a fixed order, and presses the key of the first that has
something to do (:data:`CONCERNS`):

1. ``drink``: a potion when hurt by at least what it heals and nothing is next to it, or in a
   fight when the next blows could kill.
2. ``flee``: when the fight in view would cost more HP than it has (and its potions could give),
   to known stairs (and down them) or an exit, else away along a safety map (Brogue's), for a
   while; a monster that keeps up is fought after all.
3. ``fight``: a monster next to it (the weakest first); one that has noticed it two steps away
   is waited for, so it strikes first; one farther is walked to.
4. ``collect``: items lying where it has seen them, nearest first (walking over them picks up).
5. ``dive``: down known stairs at once when it is strong enough (full HP and potions in hand).
6. ``explore``: toward the nearest cell it has not seen, downhill on a distance map from the
   frontier of the known floor.
7. ``leave``: the level is known: to the stairs (and down) or the exit.

Nothing left to do (a level without stairs, all seen): it answers None and the run stops.

What it knows of the game lives in the small functions under "The game, as the bot knows it":
replace them when the game changes (issue 13's inventory letters, scrolls, equipment and XP add
concerns: ``read`` before ``fight``, ``equip`` after ``collect``), and add a concern by writing
``fn(look) -> key | None`` and putting it in :data:`CONCERNS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from engine import descend, downhill, hookimpl

NAME = "delver"
FLEE_TURNS = 20  # steps it flees along the safety map on one level before it stands and fights
DIVE_POTIONS = 3  # potions in hand (at full HP) to go down before the level is explored
STUCK_KEYS = 3  # keys in a row that changed nothing before it tries a random step

DIRECTIONS = {(-1, 0): "left", (1, 0): "right", (0, -1): "up", (0, 1): "down",
              (-1, -1): "upleft", (1, -1): "upright", (-1, 1): "downleft", (1, 1): "downright"}


# -- The game, as the bot knows it ----------------------------------------------------------
def damage(attack: int, defense: int) -> int:
    """A blow's damage (the engine's melee: attack minus defense, at least 1)."""
    return max(1, attack - defense)


def heal_per_potion(game, pack: dict[str, int]) -> int:
    """HP one of its drinks gives back: the least of the ``heal`` items it carries (0: none)."""
    heals = [int(kind.params.get("amount", 0)) for name in pack
             if (kind := game.item_kind(name)) is not None and kind.effect == "heal"]
    return min(heals, default=0)


def potions(game, pack: dict[str, int]) -> int:
    """How many drinks it carries (the ``drink`` key drinks one of them)."""
    return sum(n for name, n in pack.items()
               if (kind := game.item_kind(name)) is not None and kind.use == "quaff")


def blows_per_turn(game, monster: int) -> float:
    """A monster's actions per player turn (speed 100 is one)."""
    return max(0.0, getattr(game.kind_of(monster), "speed", 100) / 100)


def can_fight(look: Look) -> bool:
    """Whether melee is a fight at all: with no attack (lesson28's touch kills), it is not."""
    return look.attack > 0


# -- What it sees this key ------------------------------------------------------------------
@dataclass
class Memory:
    """What a delver remembers between keys of one run."""

    flee_turns: int = 0  # steps fled along the safety map on this level
    leaving: bool = False  # fleeing to the stairs or exit of this level: it goes on until there
    ignored: set[tuple[int, int]] = field(default_factory=set)  # unseen cells it stood beside
    last: tuple[int, int] | None = None  # (depth, turn) when it chose its last key
    stuck: int = 0
    commands: dict[str, str] | None = None  # the first key of each command: the preset's, for the run
    route: list[tuple[int, int]] = field(default_factory=list)  # explore's walk to a frontier cell


class Look:
    """The game at one key, as the player knows it; each piece is worked out when first asked."""

    def __init__(self, game, memory: Memory) -> None:
        self.game, self.memory = game, memory
        self.me = game.player
        self.here = game.position(self.me)
        self.hp, self.max_hp = game.hp(self.me)
        self.attack, self.defense = game.attack_defense(self.me)
        self.moves = game.moves

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

    def key(self, command: str) -> str | None:
        return self.commands.get(command)

    def step_key(self, cell: tuple[int, int] | None) -> str | None:
        if cell is None:
            return None
        return self.key("move " + DIRECTIONS[(cell[0] - self.here[0], cell[1] - self.here[1])])

    @cached_property
    def seen(self) -> np.ndarray:
        return self.game.seen()

    @cached_property
    def floor(self) -> np.ndarray:
        """The floor it knows: seen, and not a wall."""
        return self.seen & ~self.game.walls()

    @cached_property
    def monsters(self) -> list[int]:
        return self.game.visible_monsters()

    @cached_property
    def occupied(self) -> set[tuple[int, int]]:
        return {self.game.position(m) for m in self.monsters}

    @cached_property
    def pack(self) -> dict[str, int]:
        return self.game.pack()

    @cached_property
    def potions(self) -> int:
        return potions(self.game, self.pack)

    @cached_property
    def heal(self) -> int:
        return heal_per_potion(self.game, self.pack)

    def near(self, monster: int, steps: int = 1) -> bool:
        """Whether a monster is within ``steps`` moves (by the preset's 4 or 8 ways)."""
        (mx, my), (x, y) = self.game.position(monster), self.here
        dx, dy = abs(mx - x), abs(my - y)
        return (dx + dy if self.moves.movement == 4 else max(dx, dy)) <= steps

    @cached_property
    def adjacent(self) -> list[int]:
        return [m for m in self.monsters if self.near(m)]

    @cached_property
    def engaged(self) -> list[int]:
        """The monsters in view that have noticed it (they come), nearest first."""
        return sorted((m for m in self.monsters if self.game.notices(m)), key=lambda m: self.game.distance(self.me, m))

    def fight_cost(self, monsters: list[int]) -> float:
        """The HP it would lose killing ``monsters`` one by one, weakest first, while every one
        still standing strikes it each turn."""
        game = self.game
        foes = []
        for m in monsters:
            hp = game.hp(m)[0]
            attack, defense = game.attack_defense(m)
            turns = -(-hp // damage(self.attack, defense))  # blows to fell it
            foes.append((turns, damage(attack, self.defense) * blows_per_turn(game, m)))
        foes.sort()
        lost, elapsed = 0.0, 0
        for turns, blow in foes:
            elapsed += turns
            lost += blow * (elapsed - 1)  # it strikes until the turn it falls; ours is the first blow
        return lost

    def walk(self, goals, *, avoid: bool = False) -> str | None:
        """The key of a step toward the nearest goal over the known floor; None when no step
        brings it nearer. Into monsters on the way (a bump is an attack), or with ``avoid`` around
        them, and around where they could strike next when there is such a way."""
        cost = self.floor.astype(np.float64)
        if avoid:
            for x, y in self.occupied:
                cost[y, x] = 0
            wary = cost.copy()
            h, w = cost.shape
            for x, y in self.occupied:
                for dx, dy in self.moves.steps:
                    if 0 <= x + dx < w and 0 <= y + dy < h:
                        wary[y + dy, x + dx] = 0
            for x, y in goals if not isinstance(goals, np.ndarray) else ():
                wary[y, x] = cost[y, x]  # a goal is worth reaching even beside a monster
            step = self.step_key(downhill(self.game.distance_map(goals, cost=wary), self.here, wary, self.moves))
            if step is not None:
                return step
            dist = self.game.distance_map(goals, cost=cost)
            x, y = self.here
            safe = [(dist[y + dy, x + dx], i, (x + dx, y + dy)) for i, (dx, dy) in enumerate(self.moves.steps)
                    if 0 <= x + dx < w and 0 <= y + dy < h and wary[y + dy, x + dx] > 0
                    and np.isfinite(dist[y + dy, x + dx])]
            if safe:  # no way round them now: the safe step that keeps it nearest
                return self.step_key(min(safe)[2])
        dist = self.game.distance_map(goals, cost=cost)
        return self.step_key(downhill(dist, self.here, cost, self.moves))


# -- The concerns, in the order it asks them ------------------------------------------------
def drink(look: Look) -> str | None:
    key = look.key("drink")
    if key is None or look.potions == 0:
        return None
    hurt = look.max_hp - look.hp
    if not look.adjacent:
        return key if look.heal and hurt >= look.heal else None
    incoming = sum(damage(look.game.attack_defense(m)[0], look.defense) * blows_per_turn(look.game, m)
                   for m in look.adjacent)
    finishing = len(look.adjacent) == 1 and look.game.hp(look.adjacent[0])[0] <= damage(
        look.attack, look.game.attack_defense(look.adjacent[0])[1])
    return key if look.hp <= 2 * incoming and not finishing else None


def outmatched(look: Look) -> bool:
    foes = look.engaged or look.adjacent
    if not foes:
        return False
    if not can_fight(look):
        return True
    return look.fight_cost(foes) >= look.hp + look.potions * look.heal / 2


def flee(look: Look) -> str | None:
    """Run from a fight it would lose: down known stairs (or out by an exit), committed until it
    gets there, else along the safety map for at most FLEE_TURNS steps a level (a monster that
    keeps up, or a level it keeps coming back to, is fought after all)."""
    memory, game = look.memory, look.game
    if not memory.leaving and not outmatched(look):
        return None
    stairs = game.stairs()
    if stairs is not None and stairs == look.here and look.key("descend"):
        return look.key("descend")
    goals = [c for c in (stairs, game.exit()) if c is not None and look.seen[c[1], c[0]]]
    step = look.walk(goals, avoid=True) if goals else None
    if step is not None:
        memory.leaving = True  # no turning back for an item: that is how a bot dithers
        return step
    if memory.flee_turns >= FLEE_TURNS and can_fight(look):
        return None  # stand and fight
    memory.flee_turns += 1
    cost = look.floor.astype(np.float64)
    for x, y in look.occupied:
        cost[y, x] = 0
    threats = game.distance_map(sorted(look.occupied), cost=look.floor)
    seeds = np.where(np.isfinite(threats), threats * -1.2, np.inf)
    safety = game.distance_map(seeds, cost=cost)
    return look.step_key(downhill(safety, look.here, cost, look.moves))


def fight(look: Look) -> str | None:
    if not can_fight(look):
        return None
    game = look.game
    if look.adjacent:
        target = min(look.adjacent, key=lambda m: (game.hp(m)[0], m))
        return look.step_key(game.position(target))
    if not look.engaged:
        return None
    nearest = look.engaged[0]
    if look.near(nearest, 2) and look.key("wait"):
        return look.key("wait")  # let it come: the first blow is ours
    return look.walk([game.position(nearest)])


def collect(look: Look) -> str | None:
    game = look.game
    cells = sorted({c for i in game.items() if (c := game.position(i)) is not None and look.seen[c[1], c[0]]})
    cells = [c for c in cells if c != look.here]
    return look.walk(cells, avoid=True) if cells else None


def dive(look: Look) -> str | None:
    if look.hp < look.max_hp or look.potions < DIVE_POTIONS:
        return None
    return leave(look, exits=False)


def frontier(look: Look) -> np.ndarray:
    """The cells it has not seen next to the floor it knows (minus those it stood beside and
    still did not see: the FOV shows them never)."""
    floor, out = look.floor, np.zeros_like(look.floor)
    h, w = floor.shape
    for dx, dy in look.moves.steps:
        out[max(0, dy):h + min(0, dy), max(0, dx):w + min(0, dx)] |= \
            floor[max(0, -dy):h - max(0, dy), max(0, -dx):w - max(0, dx)]
    out &= ~look.seen
    x, y = look.here
    for dx, dy in look.moves.steps:
        if 0 <= x + dx < w and 0 <= y + dy < h and out[y + dy, x + dx]:
            look.memory.ignored.add((x + dx, y + dy))
    for cx, cy in look.memory.ignored:
        if cy < h and cx < w:
            out[cy, cx] = False
    return out


def explore(look: Look) -> str | None:
    """A step downhill on the distance map of the frontier. The walk down is kept while it holds
    (its next cell is a known free floor cell beside it, its end still unseen), so the map is made
    again only when it changes course, not every key."""
    memory, seen = look.memory, look.seen
    route = memory.route
    if route:
        (nx, ny), (tx, ty), (x, y) = route[0], route[-1], look.here
        if (max(abs(nx - x), abs(ny - y)) == 1 and look.floor[ny, nx] and not seen[ty, tx]
                and (tx, ty) not in memory.ignored and route[0] not in look.occupied):
            return look.step_key(route.pop(0))
    goals = frontier(look)
    if not goals.any():
        memory.route = []
        return None
    cost = look.floor | goals
    dist = look.game.distance_map(goals, cost=cost)
    memory.route = descend(dist, look.here, cost, look.moves)
    return look.step_key(memory.route.pop(0)) if memory.route else None


def leave(look: Look, exits: bool = True) -> str | None:
    game = look.game
    stairs = game.stairs()
    if stairs is not None and look.seen[stairs[1], stairs[0]]:
        return look.key("descend") if stairs == look.here else look.walk([stairs])
    exit_ = game.exit()
    if exits and exit_ is not None and look.seen[exit_[1], exit_[0]]:
        return look.walk([exit_], avoid=True)
    return None


def hold(look: Look) -> str | None:
    """Nothing to do, but monsters in view that have noticed it: wait for them (or step, in a
    preset without a wait key) rather than stop."""
    if not look.engaged:
        return None
    return look.key("wait") or random_step(look)


CONCERNS = (drink, flee, fight, collect, dive, explore, leave, hold)


class Delver:
    """One run's delver (``register_bots(..., per_run=True)``: a fresh one per run)."""

    def __init__(self) -> None:
        self.memory = Memory()

    def __call__(self, game) -> str | None:
        memory = self.memory
        now = (game.depth, game.turn)
        if memory.last is not None and memory.last == now:
            memory.stuck += 1
        else:
            memory.stuck = 0
        if memory.last is not None and memory.last[0] != now[0]:  # a new level
            memory.ignored.clear()
            memory.flee_turns, memory.leaving = 0, False
        look = Look(game, memory)
        key = None
        if memory.stuck < STUCK_KEYS:
            for concern in CONCERNS:
                key = concern(look)
                if key is not None:
                    break
        else:
            key = random_step(look)
        memory.last = now
        return key


def random_step(look: Look) -> str | None:
    """A step to a free neighbour, from the bot's own stream: out of a loop of keys that do nothing."""
    x, y = look.here
    cells = [(x + dx, y + dy) for dx, dy in look.moves.steps if look.game.passable(x + dx, y + dy)]
    return look.step_key(look.game.rng("bot:delver").choice(cells)) if cells else look.key("wait")


@hookimpl
def register_bots(register):
    register(NAME, Delver, per_run=True,
             summary="explores, fights, collects, drinks when hurt, flees when outmatched, takes the stairs")
