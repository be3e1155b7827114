"""The monster behaviours: ``chase`` (the default game's, and bunyip's goblins) and ``axis``
(one step along the farther axis: the Rogue SDL course's monsters and the Godot lesson's enemies)."""

from engine import Attack, Move, hookimpl


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _offset(game, entity):
    (mx, my), (px, py) = game.position(entity), game.position(game.player)
    return mx, my, px - mx, py - my


def chase(game, entity):
    """Act only when noticing the player (standing where the player can see, the player within
    sight). Adjacent (8-neighbourhood): attack. Otherwise step toward the player: the diagonal
    first, then the two straight steps, so a monster slides along walls; never into a wall, a
    monster or the player."""
    if not game.notices(entity):
        return None
    mx, my, dx, dy = _offset(game, entity)
    if max(abs(dx), abs(dy)) == 1:
        return Attack(game.player)
    sx, sy = sign(dx), sign(dy)
    for step in ((sx, sy), (sx, 0), (0, sy)):
        if step != (0, 0) and game.passable(mx + step[0], my + step[1]):
            return Move(*step)
    return None


def axis(game, entity):
    """Act only when noticing the player. Params (from the monster kind):

    - ``attack``: ``"orthogonal"`` (default) attacks when the player is one orthogonal step away
      (Manhattan distance 1); ``"none"`` never attacks: its step may land on the player, and the
      monster's ``touch`` decides what that means.
    - ``tie``: on equal distances step along ``"y"`` (default) or ``"x"``.

    Otherwise one step along the axis where the player is farther; a wall or a monster there and it
    stands still."""
    if not game.notices(entity):
        return None
    params = game.kind_of(entity).params
    mx, my, dx, dy = _offset(game, entity)
    if params.get("attack", "orthogonal") == "orthogonal" and abs(dx) + abs(dy) == 1:
        return Attack(game.player)
    along_x = abs(dx) > abs(dy) or (abs(dx) == abs(dy) and params.get("tie", "y") == "x")
    step = (sign(dx), 0) if along_x else (0, sign(dy))
    x, y = mx + step[0], my + step[1]
    if (x, y) == game.position(game.player) or game.passable(x, y):
        return Move(*step)
    return None


@hookimpl
def register_behaviours(register):
    register("chase", chase)
    register("axis", axis)
