"""The wands' effects (``depths_ranged``'s helper, not a plugin): each is a bolt from the zapper
along the straight line through the cell aimed at, announced as an ``engine.Bolt`` before the harm
it does, so the window lights the line as it does the scroll of lightning's.

* ``slow_bolt``: the first creature on the line is ``slowed`` for ``params.turns`` turns (default
  10): it acts at ``[params.ranged] slow`` percent of its speed (default 50: half as often).
* ``lightning_bolt``: every creature on the line, up to ``params.reach`` cells (default 8) or the
  first wall, takes ``params.damage`` (default 9): Brogue's lightning, which passes through.
* ``dig_bolt``: the wall cells on the line, up to ``params.reach`` cells (default 6), become
  floor; the level's outer border and terrain flagged ``impregnable`` stop it, never dug.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Actor, Bolt
from engine.kit.lines import line

LIGHTNING = (190, 220, 255)  # the scroll of lightning's colour: the same bolt
SLOWING = (150, 120, 255)
DIGGING = (200, 160, 110)
SLOW = 50  # percent of its speed a slowed creature keeps, by default
REACH = 8  # cells a bolt flies past the zapper, by default


def bolt_line(start: tuple[int, int], target: tuple[int, int], reach: int) -> list[tuple[int, int]]:
    """The ``reach`` cells a bolt crosses from ``start`` (left out) through ``target`` and on: the
    straight line to ``target``, then the same steps again past it, so the cell aimed at is always
    on it. Empty when ``target`` is ``start``."""
    steps = [(x - start[0], y - start[1]) for x, y in line(start, target)[1:]]
    if not steps:
        return []
    dx, dy = steps[-1]
    cells: list[tuple[int, int]] = []
    k = 0
    while len(cells) < reach:
        cells.extend((start[0] + k * dx + ox, start[1] + k * dy + oy) for ox, oy in steps)
        k += 1
    return cells[:reach]


def _on_map(game, cell) -> bool:
    width, height = game.size
    return 0 <= cell[0] < width and 0 <= cell[1] < height


def _flight(game, entity, target, reach, *, through: bool):
    """The cells a bolt from ``entity`` toward ``target`` lights, stopping before a wall (and,
    unless ``through``, at the first creature), and the creatures it meets, in order."""
    start = game.position(entity)
    lit, met = [], []
    for cell in bolt_line(start, target, reach):
        if not _on_map(game, cell) or game.is_wall(*cell):
            break
        lit.append(cell)
        creature = game.creature_at(*cell)
        if creature is not None and creature != entity:
            met.append(creature)
            if not through:
                break
    return start, lit, met


def _the(game, entity) -> str:
    return "you" if game.is_player(entity) else f"the {game.name_of(entity)}"


def _announce(game, start, lit, color) -> None:
    game.announce(Bolt(start, lit[-1] if lit else start, color=color))


def slow_bolt(game, entity, kind, amount, target=None):
    """The first creature on the line from the zapper through ``target`` is ``slowed`` for
    ``params.turns`` turns (default 10)."""
    if target is None or game.position(entity) is None:
        return game.rules.message("no_target")
    start, lit, met = _flight(game, entity, target, int(kind.params.get("reach", REACH)), through=False)
    _announce(game, start, lit, SLOWING)
    if not met:
        return "The bolt fizzles out."
    game.add_status(met[0], "slowed", int(kind.params.get("turns", 10)))
    return f"{_the(game, met[0]).capitalize()} slow{'' if game.is_player(met[0]) else 's'} down."


def lightning_bolt(game, entity, kind, amount, target=None):
    """``params.damage`` (default 9) to every creature on the line from the zapper through
    ``target``, up to ``params.reach`` cells (default 8) or the first wall; a kill is said after."""
    if target is None or game.position(entity) is None:
        return game.rules.message("no_target")
    start, lit, met = _flight(game, entity, target, int(kind.params.get("reach", REACH)), through=True)
    _announce(game, start, lit, LIGHTNING)
    if not met:
        return "The lightning crackles into the dark."
    damage = int(kind.params.get("damage", 9))
    struck = [(creature, game.name_of(creature), game.damage(creature, damage, by=entity)) for creature in met]
    said = ", ".join(f"{_the(game, c)} ({dealt})" for c, _, dealt in struck)
    game.log(f"The lightning strikes {said}.", kind="hurt" if any(game.is_player(c) for c in met) else "hit")
    for creature, name, dealt in struck:
        if game.hp(creature)[0] == 0 and not game.is_player(creature):
            key = "player_kill" if game.is_player(entity) else "monster_kill_monster"
            game.log(game.rules.message(key, attacker=game.name_of(entity), target=name, damage=dealt))
    return None


def diggable(game, cell) -> bool:
    """A wall the digging bolt turns to floor: not the level's outer border, not terrain flagged
    ``impregnable`` (a vault's walls)."""
    (x, y), (width, height) = cell, game.size
    if not (0 < x < width - 1 and 0 < y < height - 1) or not game.is_wall(x, y):
        return False
    kind = game.terrain(x, y)
    return kind is not None and "impregnable" not in kind.flags


def dig_bolt(game, entity, kind, amount, target=None):
    """The wall cells on the line from the zapper through ``target``, up to ``params.reach``
    cells (default 6), become floor (``game.set_terrain``: sight and paths follow); the level's
    outer border, or an ``impregnable`` wall, stops the bolt."""
    start = game.position(entity)
    if target is None or start is None:
        return game.rules.message("no_target")
    lit, dug = [], 0
    for cell in bolt_line(start, target, int(kind.params.get("reach", 6))):
        if not _on_map(game, cell) or (game.is_wall(*cell) and not diggable(game, cell)):
            break
        lit.append(cell)
        if game.is_wall(*cell):
            dug += 1
    _announce(game, start, lit, DIGGING)
    for cell in lit:  # after the announcement: the bolt is drawn over the walls it digs
        if game.is_wall(*cell):
            game.set_terrain(*cell, "floor")
    if not dug:
        return "The bolt passes through the air, and digs nothing."
    return f"The rock melts away: you dig through {dug} wall{'' if dug == 1 else 's'}."


@dataclass
class SlowedFrom:
    """The speed a slowed creature had before: given back when the slowing ends (saved with the
    run, so a save taken while slowed resumes slowed and speeds up on time)."""

    speed: int


def slow_start(game, entity, status) -> None:
    actor_speed = _speed(game, entity)
    if actor_speed is None or game.component(entity, SlowedFrom) is not None:
        return
    share = int(game.rules.params.get("ranged", {}).get("slow", SLOW))
    game.add_component(entity, SlowedFrom(actor_speed))
    game.set_speed(entity, max(1, actor_speed * share // 100))


def slow_end(game, entity, status) -> None:
    before = game.component(entity, SlowedFrom)
    if before is None:
        return
    game.remove_component(entity, SlowedFrom)
    game.set_speed(entity, before.speed)


def _speed(game, entity) -> int | None:
    actor = game.component(entity, Actor)
    return None if actor is None else actor.speed
