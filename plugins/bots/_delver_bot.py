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
   cost it the most to fight, when that is a third of its HP or more; else an unknown scroll, to
   learn it, with a monster in view but not near (one that aims goes off at the nearest monster).
4. ``zap``: a charged wand (lightning, slowing) likewise at such a monster, in a clear line.
5. ``flee``: when the fight in view would cost more HP than it has (and its drinks could give),
   by a known scroll of teleport when a blow can reach it, else to known stairs (and down them;
   up them with the Amulet) or an exit, else away along a safety map (Brogue's), for a while; a
   monster that keeps up is fought after all.
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
12. ``learn``: when safe (full HP, no monster in view), read a scroll of identify, or drink an
    unknown potion to learn it (it knows items only by the names a player sees).
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
20. ``venture``: nothing else left, and what it has not seen lies only across a trap it knows:
    over the trap, a few times a level at most (not while monsters come for it: it holds).

Its walks go around the traps it knows (``_delver_look.DelverView.traps``) wherever there is
another way; a door opens as it walks into it.

Nothing left to do (a level without stairs, all seen): it answers None and the run stops.

What it knows of the game lives in the small functions of ``_delver_look`` (beside this module),
its dealings with items and prompts in ``_delver_items``; add a concern by writing
``fn(look) -> key | None`` and putting it in :data:`CONCERNS`.
"""

from __future__ import annotations

import math

import numpy as np

from engine import downhill
from engine.plugins.bots._delver_frontier import box_walk, frontier
from engine.plugins.bots._delver_items import (
    PICKUP_TRIES,
    answer,
    carrying_quest,
    drink,
    escape,
    learn,
    make_room,
    pick_up,
    quest_lies,
    read,
    wanted,
    wanted_lying,
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
    losing = outmatched(look)
    if not memory.leaving and not losing:
        return None
    if losing and (key := escape(look)) is not None:  # a known teleport, with a blow in reach
        return key
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
    known = look.of_pack(wanted_lying)  # wanted's answers with this pack: read here, asked for the rest
    cells = sorted(c for c, items in look.lying.items()
                   if seen[c[1], c[0]] and any(known[i] if i in known else wanted(look, i) for i in items))
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


EXPLORE_REACH = 12  # how far around it explore looks first for the nearest unseen cell


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
    walk = box_walk(look, box, reach) if not memory.fresh else None
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


VENTURES = 3  # steps onto a known trap a level, toward what it has not seen, when nothing else is left


def venture(look: DelverView) -> str | None:
    """Nothing else left to do, and what it has not seen lies only across a trap it knows: over
    the trap (explore never steps on one). Back up the stairs with the Amulet, into a room whose
    only doorway held a dart trap it had found, it stood there and the run stopped. At most
    VENTURES steps onto traps a level: a teleport trap that sends it back again and again is
    given up, as explore gives it up."""
    memory = look.memory
    if memory.ventures >= VENTURES or not np.count_nonzero(look.traps):
        return None
    goals = frontier(look)
    if not np.count_nonzero(goals):
        return None
    cost = look.wary_of_traps(look.floor | goals)  # a trap costs a detour: crossed only where there is no other way
    step = downhill(look.game.distance_map(goals, cost=cost), look.here, cost, look.moves)
    if step is not None and look.traps[step[1], step[0]]:
        memory.ventures += 1
    return look.step_key(step)


def hold(look: DelverView) -> str | None:
    """Nothing to do, but monsters in view that have noticed it: wait for them (or step, in a
    preset without a wait key) rather than stop."""
    if not look.engaged:
        return None
    return look.key("wait") or random_step(look)


CONCERNS = (answer, drink, read, zap, flee, throw, charge, fight, pursue, make_room, pick_up, wear, learn,
            homeward, unlock, free, collect, dive, explore, leave, search, hold, venture)

# The concerns that act only on a foe in view: with none in view they answer None and change
# nothing (what they read of the pack and the view is only kept for the key), so a key with no
# foe in view passes them by (most keys: exploring, collecting). ``flee`` too, unless it is on
# its way out (``memory.leaving``: then it goes on without a foe in view).
FOES_ONLY = frozenset({read, zap, throw, charge, pursue, hold})
_QUIET: dict[tuple, tuple] = {}  # (concerns, leaving): those concerns, less the ones passed by


def quiet(concerns: tuple, leaving: bool) -> tuple:
    """``concerns`` without those that answer None with no foe in view (:data:`FOES_ONLY`, and
    ``flee`` unless ``leaving``), kept for each tuple of concerns."""
    found = _QUIET.get((concerns, leaving))
    if found is None:
        found = _QUIET[(concerns, leaving)] = tuple(
            c for c in concerns if c not in FOES_ONLY and (leaving or c is not flee))
    return found


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
        prompt = look.prompt
        if prompt is not None:
            memory.stuck = 0  # a prompt passes no time: keys that answer one are not stuck
        key = None
        if memory.stuck < STUCK_KEYS:
            # no prompt (answer's, always answered) and no foe in view: the foes' concerns pass
            concerns = CONCERNS if prompt is not None or look.monsters else quiet(CONCERNS, memory.leaving)
            for concern in concerns:
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

