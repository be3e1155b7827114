"""Bats for Undercroft: a third-party plugin, found through the ``undercroft`` entry-point group.

A bat is weak and fast (speed 200: two moves per player turn). Its behaviour, ``flutter``,
spends half its turns on a random legal step and the other half chasing like everybody else.
"""

from engine import MonsterKind, Move, hookimpl

__version__ = "0.1.0"

STEPS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


def flutter(game, entity):
    if not game.notices(entity):
        return None
    rng = game.rng("ai")
    if rng.random() < 0.5:
        x, y = game.position(entity)
        legal = [(dx, dy) for dx, dy in STEPS if game.passable(x + dx, y + dy)]
        return Move(*rng.choice(legal)) if legal else None
    return game.behaviour("chase")(game, entity)


@hookimpl
def register_monsters(register):
    register(MonsterKind(name="bat", glyph="b", color=(150, 100, 50), hp=3, attack=1, sight=8,
                         speed=200, behaviour="flutter", min_depth=1, weight=30,
                         description="A cave bat: fast, erratic, and it bites."))


@hookimpl
def register_behaviours(register):
    register("flutter", flutter)
