"""The default monster behaviour: ``chase``."""

from engine import Attack, Move, hookimpl
from engine.components import Position


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def chase(game, entity):
    """Act only when noticing the player (standing where the player can see, the player within
    sight). Adjacent (8-neighbourhood): attack. Otherwise step toward the player: the diagonal
    first, then the two straight steps, so a monster slides along walls; never into a wall, a
    monster or the player."""
    if not game.notices(entity):
        return None
    me = game.world.get(entity, Position)
    target = game.world.get(game.player, Position)
    dx, dy = target.x - me.x, target.y - me.y
    if max(abs(dx), abs(dy)) == 1:
        return Attack(game.player)
    sx, sy = sign(dx), sign(dy)
    for step in ((sx, sy), (sx, 0), (0, sy)):
        if step != (0, 0) and game.passable(me.x + step[0], me.y + step[1]):
            return Move(*step)
    return None


@hookimpl
def register_behaviours(register):
    register("chase", chase)
