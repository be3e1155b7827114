"""The ``delver`` bot: a careful player, for ``sim``. It looks only at what the player could know.
(Its plugin, ``bot_delver``, is :mod:`engine.plugins.bots.delver`, which imports this module when
a run first asks for the bot.)

Each key, it asks its concerns in a fixed order, and presses the key of the first that has
something to do (:data:`CONCERNS`):

1. ``answer``: the prompt the game shows (the menu or cursor its last key opened, a plugin's
   question such as a level-up: HP, attack, HP, defense in turn).
2. ``drink``: a healing drink when hurt by at least what it heals and nothing is next to it, or
   in a fight when the next blows could kill.
3. ``read``: an aimed scroll (lightning, fireball, confusion) at the monster in view that would
   cost it the most to fight, when that is a third of its HP or more.
4. ``zap``: a charged wand (lightning, slowing) likewise at such a monster, in a clear line.
5. ``flee``: when the fight in view would cost more HP than it has (and its drinks could give),
   to known stairs (and down them; up them with the Amulet) or an exit, else away along a
   safety map (Brogue's), for a while; a monster that keeps up is fought after all.
6. ``throw``: darts or javelins at a monster coming for it, two to six steps off in a clear
   line (``collect`` picks them up again).
7. ``charge``: at a monster that shoots it from afar (an archer), a few dozen keys a level.
8. ``fight``: an awake monster next to it (the weakest first), a sleeping one only when cheap;
   one that has noticed it two steps away is waited for (a few keys), so it strikes first.
9. ``pursue``: a thief running off with something of its pack (in view, declared fleeing), for
   a while on each level; killed, it drops what it took, which ``collect`` picks up.
10. ``make_room`` and ``pick_up``: what lies where it stands (the pickup key; the first of a
    menu), but not equipment no better than what it has for that slot; with a full pack on the
    Amulet's cell, it first drops what it needs least.
11. ``wear``: equipment better than what it wears in that slot.
12. ``learn``: when safe (full HP, no monster in view), read a scroll of identify, or drink or read
    an unknown potion or scroll to learn it (it knows items only by the names a player sees).
13. ``homeward``: carrying the Amulet (an item only carried), to the stairs up and up them.
    Then ``unlock``: carrying a vault key, to a vault door it has seen and into it; ``free``: to a
    captive in view and into it until it is free (``_delver_vaults``: a captive or an ally is never
    fought, nor counted among the monsters in view).
14. ``collect``: items lying where it has seen them (and would pick up), nearest first.
15. ``dive``: down known stairs at once when it is strong enough (full HP and drinks in hand).
16. ``explore``: toward the nearest cell it has not seen, downhill on a distance map from the
    frontier of the known floor.
17. ``leave``: the level is known: to the stairs (and down) or the exit.
18. ``search``: the level is known and has no stairs in sight: five searches (``s``) at each
    dead end or corridor corner it knows, nearest first (secret doors).
19. ``hold``: monsters that have noticed it in view: it waits for them.

Its walks go around the traps it knows (``_delver_look.DelverView.traps``) wherever there is
another way; a door opens as it walks into it.

Nothing left to do (a level without stairs, all seen): it answers None and the run stops.

What it knows of the game lives in the small functions of ``_delver_look`` (beside this module),
its dealings with items and prompts in ``_delver_items``; add a concern by writing
``fn(look) -> key | None`` and putting it in :data:`CONCERNS`.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from engine import Moves, downhill
from engine.kit import jit
from engine.plugins.bots._delver_items import (
    PICKUP_TRIES,
    answer,
    carrying_quest,
    drink,
    learn,
    make_room,
    pick_up,
    quest_lies,
    read,
    wanted,
    wear,
)
from engine.plugins.bots._delver_look import DelverView, Memory, can_fight, note_step
from engine.plugins.bots._delver_ranged import charge, throw, zap
from engine.plugins.bots._delver_vaults import free, unlock

FLEE_TURNS = 20  # steps it flees along the safety map on one level before it stands and fights
DIVE_POTIONS = 3  # potions in hand (at full HP) to go down before the level is explored
STUCK_KEYS = 3  # keys in a row that changed nothing before it tries a random step
WAITS = 3  # keys it waits for a monster two steps away to come next to it
CLOSING_KEYS = 12  # keys it then walks at such a monster before it lets one that keeps away be
HOMEWARD_KEYS = 150  # keys a level it walks to the stairs up round monsters before it walks through them
COLLECT_KEYS = 150  # keys it walks to items, nothing picked up, before it gives the nearest up


# -- The concerns, in the order it asks them ------------------------------------------------
def outmatched(look: DelverView) -> bool:
    foes = list(dict.fromkeys(look.threats + look.engaged))
    if not foes:
        return False
    if not can_fight(look):
        return True
    return look.fight_cost(foes) >= look.hp + look.potions * look.heal / 2


def flee(look: DelverView) -> str | None:
    """Run from a fight it would lose: down known stairs (or out by an exit), committed until it
    gets there, else along the safety map for at most FLEE_TURNS steps a level (a monster that
    keeps up, or a level it keeps coming back to, is fought after all). Carrying the Amulet, it
    flees up, never down: down and up again, it met the same monsters at the same stairs forever."""
    memory, game = look.memory, look.game
    if not memory.leaving and not outmatched(look):
        return None
    homeward = carrying_quest(look)
    stairs, up = (None, game.upstairs()) if homeward else (game.stairs(), None)
    if stairs is not None and stairs == look.here and look.key("descend", "downstairs"):
        return look.key("descend", "downstairs")
    if up is not None and up == look.here and look.key("upstairs"):
        return look.key("upstairs")
    goals = [c for c in (stairs, game.exit(), up) if c is not None and look.seen[c[1], c[0]]]
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


def fight(look: DelverView) -> str | None:
    """Strike the weakest monster beside it. One that has noticed it two steps away is waited for
    (its step brings it next to us: the first blow is ours), a few keys at most (one stuck behind
    a wall never comes), then met. One farther is left to come: walking to monsters that drop out
    of sight as it moves makes a bot dither."""
    memory = look.memory
    if not look.adjacent and not look.engaged:  # nothing to fight: the usual key, asked cheaply
        if memory.waits and can_fight(look):
            memory.waits = 0
        return None
    if not can_fight(look):
        return None
    game = look.game
    asleep = [m for m in look.adjacent if m not in look.threats and look.fight_cost([m]) * 2 < look.hp]
    if look.threats or asleep:
        memory.waits = 0
        target = min(look.threats or asleep, key=lambda m: (game.hp(m)[0], m))
        return look.step_key(game.position(target))
    near = [m for m in look.engaged if look.near(m, 2)]
    if not near:
        memory.waits = 0
        return None
    if look.key("wait") and memory.waits < WAITS:
        memory.waits += 1
        return look.key("wait")
    if memory.waits >= WAITS + CLOSING_KEYS:
        return None  # it keeps its distance (an archer, a coward): let it be
    memory.waits += 1
    return look.walk([game.position(near[0])])


CHASE_KEYS = 25  # keys it runs after thieves on one level before it lets them go


def pursue(look: DelverView) -> str | None:
    """After a thief that runs with something of its pack: a monster in view whose behaviour is a
    thief's (look says what a kind does) and that is fleeing (the sidebar says so); a thief only
    runs once it has taken something. Bounded: one as fast as it may never be caught."""
    memory, game = look.memory, look.game
    if memory.chases >= CHASE_KEYS:
        return None
    thieves = [m for m in look.monsters if game.declared(m) == "fleeing"
               and getattr(game.kind_of(m), "behaviour", "") == "thief"]
    if not thieves or not can_fight(look):
        return None
    memory.chases += 1
    target = min(thieves, key=lambda m: (game.distance(look.me, m), m))
    return look.walk([game.position(target)])


def collect(look: DelverView) -> str | None:
    """To the nearest item it has seen and would pick up. After COLLECT_KEYS keys of it with
    nothing picked up (a walk that turns back and forth: a monster keeps in the way, in and out
    of view), it gives up the item nearest it; never the Amulet, which it then walks to through
    whatever keeps it (its guardian)."""
    game, seen, memory = look.game, look.seen, look.memory
    cells = sorted(c for c, items in look.lying.items() if seen[c[1], c[0]] and any(wanted(look, i) for i in items))
    tries = memory.tries
    cells = [c for c in cells if c != look.here and tries.get((game.depth, *c), 0) < PICKUP_TRIES]
    if cells:  # an item on a known trap is left there (a dart on a trapdoor sent it down again and again)
        traps = look.traps
        cells = [c for c in cells if not traps[c[1], c[0]]]
    if not cells:
        return None
    memory.collecting += 1
    if memory.collecting > COLLECT_KEYS:
        x, y = look.here
        ordinary = [c for c in cells if not quest_lies(look, c)]
        if not ordinary:
            return look.walk(cells)
        given_up = min(ordinary, key=lambda c: (max(abs(c[0] - x), abs(c[1] - y)), c))
        tries[(game.depth, *given_up)] = PICKUP_TRIES
        memory.collecting = 0
        cells.remove(given_up)
    return look.walk(cells, avoid=True) if cells else None


def homeward(look: DelverView) -> str | None:
    """Carrying the Amulet: to the stairs up, and up them (on the first level that wins). Its
    walk goes round monsters for HOMEWARD_KEYS keys a level, then through them (a guard that
    stays near the stairs, in and out of view, turned it back and forth for ever), and through
    them at once when there is no way round. Where its known way up crosses a known trap, it
    explores first while there is something to see (a trapdoor on it sent it down a level,
    back up, and onto the trap again until the turn limit)."""
    if not carrying_quest(look):
        return None
    up = look.game.upstairs()
    if up is None or not look.seen[up[1], up[0]]:
        return None  # not found yet on this level: explore
    if up == look.here:
        return look.key("upstairs")
    if look.beyond_traps([up]):  # its known way up crosses a trap: a trapdoor would drop it a level
        key = explore(look)  # down again, and again; another way first, while there is more to see
        if key is not None:
            return key
    look.memory.homeward += 1  # round the monsters in the way at first; through them after a while
    avoid = look.memory.homeward <= HOMEWARD_KEYS
    # no way round the monsters it remembers in the way: through them (nothing after it would act)
    return look.walk([up], avoid=avoid) or (look.walk([up]) if avoid else None)


def dive(look: DelverView) -> str | None:
    if look.hp < look.max_hp or look.potions < DIVE_POTIONS or carrying_quest(look):
        return None
    return leave(look, exits=False)


def frontier(look: DelverView, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """The cells it has not seen next to the floor it knows (minus those it stood beside and
    still did not see: the FOV shows them never). ``box``: (x0, y0, x1, y1), the part of the level
    to work out (the cells in it, from the floor one cell around it); default, the whole level."""
    floor = look.floor
    h, w = floor.shape
    x0, y0, x1, y1 = box if box is not None else (0, 0, w, h)
    bh, bw = y1 - y0, x1 - x0
    # the floor of the box and a ring of one cell around it (off the map: no floor); read in place
    # when the ring is on the map (the usual box, away from the level's edges)
    if x0 > 0 and y0 > 0 and x1 < w and y1 < h:
        ring = floor[y0 - 1:y1 + 1, x0 - 1:x1 + 1]
    else:
        ring = np.zeros((bh + 2, bw + 2), dtype=bool)
        ex0, ey0, ex1, ey1 = max(0, x0 - 1), max(0, y0 - 1), min(w, x1 + 1), min(h, y1 + 1)
        ring[ey0 - y0 + 1:ey1 - y0 + 1, ex0 - x0 + 1:ex1 - x0 + 1] = floor[ey0:ey1, ex0:ex1]
    # next to the floor: its cell too, harmlessly (a floor cell is a seen one); 8 ways, the 3x3
    # block by rows then columns; 4 ways, the cross
    if look.moves.movement == 8:
        rows = ring[:, :-2] | ring[:, 1:-1] | ring[:, 2:]
        out = rows[:-2] | rows[1:-1] | rows[2:]
    else:
        out = ring[1:-1, :-2] | ring[1:-1, 2:] | ring[:-2, 1:-1] | ring[2:, 1:-1]
    out &= ~look.seen[y0:y1, x0:x1]
    x, y = look.here
    for dx, dy in look.moves.steps:
        if 0 <= x + dx < w and 0 <= y + dy < h and out[y + dy - y0, x + dx - x0]:
            look.memory.ignored.add((x + dx, y + dy))
    for cx, cy in look.memory.ignored:
        if y0 <= cy < y1 and x0 <= cx < x1:
            out[cy - y0, cx - x0] = False
    return out


EXPLORE_REACH = 12  # how far around it explore looks first for the nearest unseen cell


def descent(dist: np.ndarray, start: tuple[int, int], cost: np.ndarray, moves) -> list[tuple[int, int]]:
    """``engine.descend(dist, start, cost, moves)``: the walk downhill from ``start``, step by step
    the lowest neighbour strictly below (the first in ``moves.steps`` on a tie) that can be entered
    and, unless corners may be cut, is not a diagonal past a wall. The same steps, read from the
    maps as Python numbers once, in a window around ``start`` as wide as its value (each step of
    a walk down a map of whole steps goes one lower), not as a 3x3 block at every step; the whole
    map when the walk comes to the window's edge (a map of other costs)."""
    h, w = dist.shape
    x, y = start
    value = float(dist[y, x])
    r = max(1, int(value) + 2) if value < max(h, w) else max(h, w)
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + r + 1), min(h, y + r + 1)
    d, c = dist[y0:y1, x0:x1].tolist(), cost[y0:y1, x0:x1].tolist()
    steps, cut = moves.steps, moves.cut_corners
    path: list[tuple[int, int]] = []
    while True:
        if (0 < x <= x0) or (x1 - 1 <= x < w - 1) or (0 < y <= y0) or (y1 - 1 <= y < h - 1):
            x0, y0, x1, y1 = 0, 0, w, h  # a neighbour off the window: the whole map
            d, c = dist.tolist(), cost.tolist()
        best, low = None, d[y - y0][x - x0]
        for dx, dy in steps:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h and c[ny - y0][nx - x0] > 0):
                continue
            if dx and dy and not cut and not (c[y - y0][nx - x0] > 0 and c[ny - y0][x - x0] > 0):
                continue
            if d[ny - y0][nx - x0] < low:
                best, low = (nx, ny), d[ny - y0][nx - x0]
        if best is None:
            return path
        path.append(best)
        x, y = best


def box_walk(look: DelverView, box: tuple[int, int, int, int], reach: float = EXPLORE_REACH,
             always: bool = False) -> list[tuple[int, int]] | None:
    """Explore's walk on ``box`` (x0, y0, x1, y1), around the cell it stands on: down the distance
    map of the box's frontier, made within the box and ``reach`` steps; None when the box has no
    frontier, or (unless ``always``: the walk down from a cell the map does not reach, which is
    none) no frontier cell is that near. In one call of the compiled kernel
    (``_delver_explore_jit``) when numba is installed and every step costs one (the preset's
    diagonal too); else with numpy and the game's pathfinder, the reference (the same frontier,
    map and steps)."""
    (x, y), moves = look.here, look.moves
    kernel = _explore_kernel(look.floor.size) if moves.movement == 4 or moves.diagonal_cost == 1.0 else None
    if kernel is not None:
        floor, seen, memory = look.floor, look.seen, look.memory
        w = floor.shape[1]
        ignored = np.array([cy * w + cx for cx, cy in memory.ignored], dtype=np.int64) if len(memory.ignored) \
            else _NONE
        path = np.empty((box[2] - box[0]) * (box[3] - box[1]), dtype=np.int64)
        added = np.empty(len(moves.steps), dtype=np.int64)
        status, steps, beside = kernel.box_walk(floor, seen, look.traps, ignored, *box, x, y, *_steps(moves),
                                                moves.cut_corners, float(reach), always, path, added)
        for i in added[:beside].tolist():
            memory.ignored.add((i % w, i // w))
        return [(i % w, i // w) for i in path[:steps].tolist()] if status == 2 else None
    goals = frontier(look, box)
    if np.count_nonzero(goals):
        cost = look.wary_of_traps(look.floor[box[1]:box[3], box[0]:box[2]] | goals, box, shun=True) \
            if np.count_nonzero(look.traps) else look.floor[box[1]:box[3], box[0]:box[2]] | goals
        dist = look.game.distance_map(goals, limit=reach, cost=cost)
        if always or np.isfinite(dist[y - box[1], x - box[0]]):
            walk = descent(dist, (x - box[0], y - box[1]), cost, moves)
            return [(cx + box[0], cy + box[1]) for cx, cy in walk]
    return None


_NONE = np.empty(0, dtype=np.int64)  # no cells


def _steps(moves) -> tuple[np.ndarray, np.ndarray]:
    """The preset's steps, in order, as the kernel takes them: the dx, then the dy."""
    return _steps_of(moves.steps)


@functools.lru_cache(maxsize=4)  # one entry for 8 ways, one for 4
def _steps_of(steps: tuple[tuple[int, int], ...]) -> tuple[np.ndarray, np.ndarray]:
    return np.array([dx for dx, _ in steps], dtype=np.int64), np.array([dy for _, dy in steps], dtype=np.int64)


def _check(kernel) -> None:
    """Compile the kernel on a tiny level (engine.kit.jit.sibling's check)."""
    floor = np.array([[True, True, False]])
    kernel.box_walk(floor, floor.copy(), np.zeros_like(floor), _NONE, 0, 0, 3, 1, 0, 0, *_steps(Moves(8)), True, 12.0,
                    False, np.empty(3, dtype=np.int64), np.empty(8, dtype=np.int64))


def _explore_kernel(cells: int):
    return jit.sibling(__name__, "_delver_explore_jit", _check, cells)


def explore(look: DelverView) -> str | None:
    """A step downhill on the distance map of the frontier. The walk down is kept while it holds
    (its next cell is a known free floor cell beside it, its end still unseen), so the map is made
    again only when it changes course, not every key.

    The map is made first on the box of EXPLORE_REACH cells around it: when the nearest frontier
    cell is within that many steps there, every cell the walk down looks at is nearer the frontier
    than that, by a way inside the box, so the walk is the one the whole level's map gives (only
    a nearer frontier cell, or a shorter way, could change it, and both would be in the box too)."""
    memory, seen = look.memory, look.seen
    route = memory.route
    if route:
        (nx, ny), (tx, ty), (x, y) = route[0], route[-1], look.here
        if ((nx - x, ny - y) in look.moves.steps and seen[ny, nx] and not look.game.is_wall(nx, ny)
                and not seen[ty, tx] and (tx, ty) not in memory.ignored and route[0] not in look.occupied):
            return look.step_key(route.pop(0))
    (x, y), (h, w), reach = look.here, seen.shape, EXPLORE_REACH
    box = (max(0, x - reach), max(0, y - reach), min(w, x + reach + 1), min(h, y + reach + 1))
    walk = box_walk(look, box) if not memory.fresh else None
    if walk is not None:
        memory.route = walk
        return look.step_key(memory.route.pop(0)) if memory.route else None
    # the whole level: down its map from where it stands, whether that map reaches it or not
    memory.route = box_walk(look, (0, 0, w, h), math.inf, always=True) or []
    return look.step_key(memory.route.pop(0)) if memory.route else None


def leave(look: DelverView, exits: bool = True) -> str | None:
    """The level is known: down the stairs it has seen, else out by an exit. Not with the Amulet,
    whose way is up (``homeward``): on a level it fell to, it explores until it sees the stairs up."""
    game = look.game
    stairs = None if carrying_quest(look) else game.stairs()
    if stairs is not None and look.seen[stairs[1], stairs[0]]:
        return look.key("descend", "downstairs") if stairs == look.here else look.walk([stairs])
    exit_ = game.exit()
    if exits and exit_ is not None and look.seen[exit_[1], exit_[0]]:
        return look.walk([exit_], avoid=True)
    return None


SEARCHES = 5  # searches in a row at one spot (the fifth finds what is within 2 cells for sure)


def search(look: DelverView) -> str | None:
    """Nothing left to explore and no stairs found: search (``s``) where a player would, five
    times at each dead end or corridor corner it knows (a cell with five or more walls around it),
    nearest first, as long as there are such spots it has not searched."""
    game, memory = look.game, look.memory
    key = look.key("search")
    stairs = game.stairs()
    if key is None or game.depth == game.rules.max_depth or look.engaged \
            or (stairs is not None and look.seen[stairs[1], stairs[0]]):
        return None  # the deepest level has no stairs down: nothing to look for
    if memory.searches and memory.searches < SEARCHES:
        memory.searches += 1
        return key
    if memory.searches >= SEARCHES:
        x, y = look.here
        memory.searched |= {(x + dx, y + dy) for dx in range(-2, 3) for dy in range(-2, 3)}
        memory.searches = 0
    floor = look.floor
    walls = np.pad(look.seen & game.walls(), 1)
    h, w = floor.shape
    around = sum(walls[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx].astype(np.int8)
                 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
    ys, xs = (floor & (around >= 5)).nonzero()
    spots = [(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True) if (x, y) not in memory.searched]
    if not spots:
        return None
    if look.here in spots:
        memory.searches = 1
        return key
    return look.walk(spots)


def hold(look: DelverView) -> str | None:
    """Nothing to do, but monsters in view that have noticed it: wait for them (or step, in a
    preset without a wait key) rather than stop."""
    if not look.engaged:
        return None
    return look.key("wait") or random_step(look)


CONCERNS = (answer, drink, read, zap, flee, throw, charge, fight, pursue, make_room, pick_up, wear, learn,
            homeward, unlock, free, collect, dive, explore, leave, search, hold)


class Delver:
    """One run's delver (``register_bots(..., per_run=True)``: a fresh one per run)."""

    def __init__(self, fresh: bool = False) -> None:
        self.memory = Memory(fresh=fresh)

    def __call__(self, game) -> str | None:
        memory = self.memory
        now = (game.depth, game.turn)
        if memory.last is not None and memory.last == now:
            memory.stuck += 1
        else:
            memory.stuck = 0
        if memory.last is not None and memory.last[0] != now[0]:
            memory.new_level()
        look = DelverView(game, memory)
        note_step(memory, game.depth, look.here)
        if game.prompt() is not None:
            memory.stuck = 0  # a prompt passes no time: keys that answer one are not stuck
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


def random_step(look: DelverView) -> str | None:
    """A step to a free neighbour, from the bot's own stream: out of a loop of keys that do nothing."""
    x, y = look.here
    cells = [(x + dx, y + dy) for dx, dy in look.moves.steps if look.game.passable(x + dx, y + dy)]
    return look.step_key(look.game.rng("bot:delver").choice(cells)) if cells else look.key("wait")

