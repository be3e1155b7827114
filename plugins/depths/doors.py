"""Doors, where corridors meet rooms: a closed door (``+``) blocks sight; walking into it opens it
and steps in, as in Brogue (the step is the turn; the door is open, ``'``, and stays open); ``c``
closes an open door beside you (a turn; not while something stands or lies in it). Monsters open
doors the same way, except animals (a monster kind with ``params.animal = true``): a closed door
is ``barred`` to them (``engine.TerrainKind``), a wall to their steps and their paths.

Secret doors (``secret-door``) are drawn, remembered and looked at exactly as walls, and are
walls to everyone, until found: searching (``s``, the ``depths_search`` module) or the
magic-mapping scroll turns one into a closed door (its kind's ``found``).

Where: the generated levels (not a drawn ``--map``) of a preset with ``[params.doors]`` whose
generator marks its ``rooms`` (bsp,
rooms and mazes; caves have none, so no doors). A doorway is a floor cell outside every room,
between two walls, with a room's cell on one side and open ground on the other; ``chance``
percent of them get a door (never two side by side). From depth ``secret_from``, ``secret_chance``
percent of levels hide up to ``secret`` of those doors as secret ones, only where walling the
doorway cuts nothing needed off (see :func:`cuts_nothing`).
"""

from __future__ import annotations

import numpy as np

from engine import Action, ActionResult, KeyCommand, TerrainKind, hookimpl

WOOD = (160, 95, 40)
WOOD_REMEMBERED = (66, 51, 39)
OPEN = (240, 216, 240)  # an open door: pale, apart from the closed one (tests/test_palette.py)
OPEN_REMEMBERED = (116, 111, 116)
# drawn as the default game draws its walls (content/games/undercroft.toml [tiles])
WALL, WALL_REMEMBERED = (165, 160, 175), (82, 81, 84)


def open_door(game, entity, x, y):
    """Walked into: the door opens (the creature stands in the doorway)."""
    game.set_terrain(x, y, "open-door")
    if game.is_player(entity):
        game.log("You open the door.")


@hookimpl
def register_terrain(register):
    register(TerrainKind(name="door", glyph="+", color=WOOD, remembered_color=WOOD_REMEMBERED, transparent=False,
                         flags=frozenset({"door"}), description="a closed door", barred="animal",
                         on_enter=open_door))
    register(TerrainKind(name="open-door", glyph="'", color=OPEN, remembered_color=OPEN_REMEMBERED,
                         flags=frozenset({"door"}), description="an open door"))
    register(TerrainKind(name="secret-door", glyph="#", color=WALL, remembered_color=WALL_REMEMBERED,
                         walkable=False, transparent=False, flags=frozenset({"solid"}), description="wall",
                         found="door"))


# -- closing -----------------------------------------------------------------------------------
class CloseDoor(Action):
    """Close the open door at (x, y)."""

    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y

    def perform(self, game, entity):
        kind = game.terrain(self.x, self.y)
        if kind is None or kind.name != "open-door" or game.entities_at(self.x, self.y):
            return ActionResult.not_done()
        game.set_terrain(self.x, self.y, "door")
        game.log("You close the door.")
        return ActionResult.success()


def open_doors_beside(game, player):
    """The steps to the open doors beside the player."""
    x, y = game.position(player)
    return [(dx, dy) for dx, dy in game.moves.steps
            if (kind := game.terrain(x + dx, y + dy)) is not None and kind.name == "open-door"]


def close(game, player, step):
    if step is None:
        game.log("There is no open door beside you.")
        return None
    x, y = game.position(player)
    x, y = x + step[0], y + step[1]
    there = game.entities_at(x, y)
    if there:
        what = next((e for e in there if game.creature_at(x, y) == e), there[0])
        verb = "stands" if game.creature_at(x, y) == what else "lies"
        name = game.name_of(what)
        game.log(f"The door cannot close: the {name} {verb} in the doorway.", "warn")
        return None
    return CloseDoor(x, y)


@hookimpl
def register_commands(register):
    register(KeyCommand(name="close", key="c", act=close, directions=open_doors_beside, ask="Close which door?",
                        params="doors", summary="close an open door beside you (a turn)"))


# -- placing -----------------------------------------------------------------------------------
def doorways(game, level) -> list[tuple[int, int]]:
    """The doorways of ``level`` (see the module doc), by row."""
    if not level.rooms or "floor" not in level.kinds:
        return []
    terrain = level.terrain
    h, w = terrain.shape
    floor = terrain == level.kinds.index("floor")
    open_ = np.pad(~game.walls(), 1)
    room = np.zeros((h + 2, w + 2), dtype=bool)
    for r in level.rooms:
        room[r.y + 1:r.y2 + 2, r.x + 1:r.x2 + 2] = True

    def at(a, dx, dy):  # a[y + dy, x + dx] for every cell (x, y) of the level
        return a[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx]

    across = ~at(open_, -1, 0) & ~at(open_, 1, 0) & at(open_, 0, -1) & at(open_, 0, 1) \
        & (at(room, 0, -1) ^ at(room, 0, 1))
    along = ~at(open_, 0, -1) & ~at(open_, 0, 1) & at(open_, -1, 0) & at(open_, 1, 0) \
        & (at(room, -1, 0) ^ at(room, 1, 0))
    cells = floor & ~at(room, 0, 0) & (across | along)
    ys, xs = cells.nonzero()
    special = {level.start, level.stairs, level.upstairs, level.exit, game.position(game.player)}
    return [(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)
            if (x, y) not in special and not game.entities_at(x, y)]


def cuts_nothing(game, level, cell: tuple[int, int]) -> bool:
    """Whether walling ``cell`` keeps everything needed reachable: the cells it cuts off from the
    player's start (if any) hold no stairs, no start or exit, no creature, and no item on the
    deepest level (where the Amulet lies)."""
    cost = np.array(game.walk_cost(), dtype=np.float64)
    cost[cell[1], cell[0]] = 0
    start = game.position(game.player) or level.start
    reached = np.isfinite(game.distance_map([start], cost=cost))
    cut = (cost > 0) & ~reached
    if not cut.any():
        return True  # a loop: a shortcut hidden
    for spot in (level.start, level.stairs, level.upstairs, level.exit):
        if spot is not None and cut[spot[1], spot[0]]:
            return False
    deepest = game.depth == game.rules.max_depth
    things = game.monsters() + (game.items() if deepest else [])
    return not any(cut[p[1], p[0]] for p in map(game.position, things) if p is not None)


def place(game, level, params) -> None:
    rng = game.rng(f"depths:doors:{game.depth}")  # per level: a depth is the same however it is reached
    chance = int(params.get("chance", 60))
    doors: list[tuple[int, int]] = []
    for x, y in doorways(game, level):
        if any(max(abs(x - dx), abs(y - dy)) <= 1 for dx, dy in doors):
            continue
        if rng.randrange(100) < chance:
            doors.append((x, y))
            game.set_terrain(x, y, "door")
    if game.depth < int(params.get("secret_from", 2)) or rng.randrange(100) >= int(params.get("secret_chance", 40)):
        return
    rng.shuffle(doors)
    hidden = 0
    for x, y in doors:
        if hidden >= int(params.get("secret", 2)):
            break
        if cuts_nothing(game, level, (x, y)):
            game.set_terrain(x, y, "secret-door")
            hidden += 1


@hookimpl
def on_level_generated(game, level):
    params = game.rules.params.get("doors")
    if params is not None and level.populate:  # a level complete as drawn (--map) is left as it is
        place(game, level, params)
