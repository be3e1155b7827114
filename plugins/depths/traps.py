"""Traps, hidden until found or sprung: a dart that poisons (``trap-dart``), an alarm that wakes the
level and brings its monsters (``trap-alarm``), a trapdoor to the next level (``trap-trapdoor``) and
a teleport trap (``trap-teleport``).

Each trap is two terrain kinds: hidden (``hidden-trap-dart``...), drawn, remembered and looked at
exactly as floor, and found (``trap-dart``...), drawn ``^`` in its own colour. The hidden kind's
``found`` names the found one (``engine.TerrainKind``): searching (``s``, the ``depths_search``
module) and the magic-mapping scroll (``GameAPI.reveal``) find them.

Only the player springs a trap, by stepping on it, hidden or found (the step onto a found trap is
the player's own choice; explore and travel never take it): monsters are the dungeon's own, know
its traps and never spring them. A found trap's path cost (``FOUND_COST``) keeps the monsters'
paths, the player's explore and travel, and the delver bot off it wherever there is another way.

Where: the generated levels (not a drawn ``--map``) of a preset with ``[params.traps]``:
``count = [least, most]`` traps a level, one more at most every ``more_every`` depths; each on a
floor cell away from the start (``clear`` cells) with nothing on it, of a kind whose depth has come
(``depths``: the first depth of each; a trapdoor never on the deepest level). A trapdoor or a
teleport trap is never the only way between the stairs (``doors.cuts_nothing``): sprung on the way
back up with the Amulet, it would send the player away again and again.
``dart = [damage, poison turns]``. The alarm's woken monsters get the status ``alerted`` at the
trap's cell, which the built-in ``hunt`` behaviour reads: they go there and search.
"""

from __future__ import annotations

from engine import StatusKind, TerrainKind, hookimpl
from engine.plugins.depths.doors import cuts_nothing

TRAPS = ("dart", "alarm", "trapdoor", "teleport")
LOOKS = {  # found: the glyph's colour lit, remembered
    "dart": ((168, 252, 0), (92, 111, 54)),
    "alarm": ((0, 180, 144), (34, 74, 66)),
    "trapdoor": ((252, 48, 108), (89, 43, 56)),
    "teleport": ((80, 80, 0), (37, 37, 19)),
}
NAMES = {"dart": "a dart trap", "alarm": "an alarm trap", "trapdoor": "a trapdoor", "teleport": "a teleport trap"}
MOVERS = ("trapdoor", "teleport")  # traps that send you elsewhere: never on the only way between stairs
DEPTHS = {"dart": 1, "alarm": 2, "teleport": 3, "trapdoor": 3}  # the first depth of each, by default
FOUND_COST = 100  # a path's cost to step on a found trap: every way around, if there is one
# drawn as the default game draws its floor (content/games/undercroft.toml [tiles])
FLOOR, FLOOR_REMEMBERED = (95, 95, 105), (48, 48, 50)
POISON = (120, 220, 60)


# -- springing ---------------------------------------------------------------------------------
def dart(game, entity, x, y, params):
    damage, turns = (list(params.get("dart", [2, 5])) + [2, 5])[:2]
    game.log("A dart shoots out of the floor and pricks you!", "hurt")
    game.damage(entity, int(damage), by="dart trap")
    if game.alive:
        game.add_status(entity, "poisoned", int(turns), damage=1)


def alarm(game, entity, x, y, params):
    game.log("A shrill alarm rings out through the level!", "warn")
    for monster in game.monsters():
        game.wake(monster)
        game.add_status(monster, "alerted", None, x=x, y=y)


def trapdoor(game, entity, x, y, params):
    if game.fall():
        game.log("A trapdoor opens beneath you: you fall!", "warn")
    else:
        game.log("A trapdoor creaks under you, but holds.")


def teleport(game, entity, x, y, params):
    game.log("A flash of light: you are elsewhere!", "warn")
    game.teleport(entity, "depths:traps")


SPRING = {"dart": dart, "alarm": alarm, "trapdoor": trapdoor, "teleport": teleport}


def springer(trap: str):
    def spring(game, entity, x, y):
        if not game.is_player(entity):
            return  # the dungeon's own know its traps
        kind = game.terrain(x, y)
        if kind is not None and kind.found:
            game.set_terrain(x, y, kind.found)  # sprung: now it is known
        SPRING[trap](game, entity, x, y, game.rules.params.get("traps") or {})
    return spring


def poison(game, entity, status):
    game.damage(entity, int(status.params.get("damage", 1)), by="poison")


@hookimpl
def register_terrain(register):
    for trap in TRAPS:
        lit, remembered = LOOKS[trap]
        register(TerrainKind(name=f"trap-{trap}", glyph="^", color=lit, remembered_color=remembered,
                             cost=FOUND_COST, flags=frozenset({"trap"}), description=NAMES[trap],
                             on_enter=springer(trap)))
        register(TerrainKind(name=f"hidden-trap-{trap}", glyph=".", color=FLOOR, remembered_color=FLOOR_REMEMBERED,
                             description="floor", found=f"trap-{trap}", on_enter=springer(trap)))


@hookimpl
def register_statuses(register):
    register(StatusKind(name="poisoned", label="Poisoned", color=POISON, stacking="add", on_tick=poison))


# -- placing -----------------------------------------------------------------------------------
def place(game, level, params) -> None:
    rng = game.rng(f"depths:traps:{game.depth}")  # per level, as the doors
    least, most = (list(params.get("count", [0, 2])) + [0, 2])[:2]
    most = int(most) + (game.depth - 1) // max(1, int(params.get("more_every", 3)))
    depths = {**DEPTHS, **(params.get("depths") or {})}
    kinds = [t for t in TRAPS if game.depth >= int(depths.get(t, 1))
             and not (t == "trapdoor" and game.rules.max_depth is not None and game.depth >= game.rules.max_depth)]
    if not kinds or "floor" not in level.kinds:
        return
    clear = int(params.get("clear", 3))
    start = game.position(game.player) or level.start
    ys, xs = (level.terrain == level.kinds.index("floor")).nonzero()
    cells = [(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)
             if max(abs(x - start[0]), abs(y - start[1])) > clear]
    for _ in range(rng.randint(int(least), max(int(least), most))):
        for _try in range(20):
            if not cells:
                return
            x, y = cells[rng.randrange(len(cells))]
            if (x, y) in (level.stairs, level.upstairs, level.exit) or game.entities_at(x, y) \
                    or game.terrain(x, y).name != "floor":
                continue
            kind = rng.choice(kinds)
            if kind in MOVERS and not cuts_nothing(game, level, (x, y)):
                continue  # the only way between the stairs: a player could never get past it
            game.set_terrain(x, y, f"hidden-trap-{kind}")
            break


@hookimpl
def on_level_generated(game, level):
    params = game.rules.params.get("traps")
    if params is not None and level.populate:  # a level complete as drawn (--map) is left as it is
        place(game, level, params)
