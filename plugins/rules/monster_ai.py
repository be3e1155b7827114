"""The default game's monsters: they hunt by pathfinding, remember, search, and lose interest.

``hunt``: a monster that notices the player remembers where, and walks a shortest way there
(around pillars and other monsters, by the preset's pathfinder); beside the player it attacks.
With ``params.flee`` (a percentage), a monster hurt below that share of its HP runs instead, along
Brogue's safety map (toward open ways out, not into a corner).
Once the player is out of its sight it goes to where it last saw them (or where the status
``alerted`` tells it: an alarm) and searches around for a
while (``params.search`` turns, default 8), then gives up and goes back to sleep: a sleeping
monster costs nothing and wakes when it notices the player again. The memory is a component of
its own (``Hunting``), saved with the run.

``coward``: ``hunt`` with ``params.flee`` 50 by default. ``archer``: keeps its distance and shoots
from up to ``params.range`` cells, steps back when the player is beside it. A kind with
``params.regen = [hp, turns]`` regains ``hp`` every ``turns`` turns (the ``on_turn_end`` hook).

(The presets keep their original rules: bunyip's goblins ``chase`` with a greedy step, the Rogue
SDL course's monsters and the Godot lesson's step along an ``axis``.)
"""

from dataclasses import dataclass

from engine import Attack, Monster, Move, StatusKind, hookimpl

SEARCH = 8  # turns spent searching where the player was last seen, by default
COWARD = 50  # a coward runs below this percent of its HP, by default
RANGE = 6  # an archer shoots this far (king moves), by default


# a Move is frozen: one per step serves every hunter (a crowd made one each, every turn)
_MOVES = {(dx, dy): Move(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}


@dataclass
class Hunting:
    """Where a monster last saw the player, and the turns it will still search there."""

    x: int
    y: int
    search: int


def _wander(game, me):
    """A random legal step (searching): from the run's own stream, so a replay is the same."""
    x, y = game.position(me)
    steps = [(dx, dy) for dx, dy in game.moves.steps if game.passable(x + dx, y + dy)]
    return Move(*game.rng("hunt").choice(steps)) if steps else None


def _remember(game, me, memory, params):
    """The monster sees the player: it remembers where, and will search there when it loses them.
    ``params``: its kind's."""
    px, py = game.position(game.player)
    search = int(params.get("search", SEARCH))
    if memory is None:
        game.add_component(me, Hunting(px, py, search))
    else:
        memory.x, memory.y, memory.search = px, py, search
    return px, py


def hunt(game, me, flee: int = 0):
    """Noticing the player, it remembers where and walks a shortest way there (around pillars and
    other monsters, by the preset's pathfinder); beside the player it attacks. Out of its sight, it
    goes where it last saw the player and searches around, then goes back to sleep. One woken with
    the status ``alerted`` (params ``x``, ``y``: an alarm, a noise; ``game.wake`` it too) goes there
    and searches the same way. Params:

    - ``flee``: below this percent of its HP it runs from the player instead, along the safety map
      (toward open ways out, not into a corner); default 0, never.
    - ``search``: the turns it searches where it last saw the player; default 8.

    (Called from a plugin's own behaviour, ``flee`` is the default of ``params.flee``.)"""
    memory = game.component(me, Hunting)
    if game.notices(me):
        params = game.kind_of(me).params
        px, py = _remember(game, me, memory, params)
        percent = int(params.get("flee", flee))
        if percent > 0:  # HP never shows below 0: one that never flees need not read its own
            hp, max_hp = game.hp(me)
            if hp * 100 < percent * max_hp:
                step = game.step_away(me, [(px, py)])
                if step is not None:
                    game.declare(me, "fleeing")  # the sidebar says so; a travel does not wait for it
                    return Move(*step)
        # beside the player: game.adjacent, read off the cells at hand (a crowd's every turn asks;
        # the preset's movement only for the few within a king's move: 4 ways, not a diagonal)
        x, y = game.position(me)
        if -1 <= px - x <= 1 and -1 <= py - y <= 1 and (px != x or py != y) and (
                px == x or py == y or game.rules.movement != 4):
            return Attack(game.player)
        step = game.step_toward(me, (px, py))
        return None if step is None else _MOVES.get(step) or Move(*step)
    if (memory is None or memory.search <= 0) and game.has_status(me, "alerted"):
        told = game.statuses(me)["alerted"].params  # an alarm, a noise: a place to search
        game.remove_status(me, "alerted")
        if "x" in told and "y" in told:
            search = int(game.kind_of(me).params.get("search", SEARCH))
            if memory is None:
                memory = Hunting(int(told["x"]), int(told["y"]), search)
                game.add_component(me, memory)
            else:
                memory.x, memory.y, memory.search = int(told["x"]), int(told["y"]), search
    if memory is not None and memory.search > 0:
        if game.position(me) != (memory.x, memory.y):
            step = game.step_toward(me, (memory.x, memory.y))
            if step is not None:
                return Move(*step)
        memory.search -= 1  # there (or cannot get nearer): look around
        return _wander(game, me)
    game.sleep(me)  # lost interest: asleep until it notices the player again
    return None


def coward(game, me):
    """``hunt``, but below ``params.flee`` percent of its HP (default 50) it runs from the player
    along the safety map, and only turns to fight when cornered. Params: ``flee``, ``search`` (as
    ``hunt``'s)."""
    return hunt(game, me, flee=COWARD)


def archer(game, me):
    """Keeps its distance and shoots: in the player's view within range it shoots (a blow from
    afar: its attack, less the player's defense); beside the player it steps back along the safety
    map, and strikes only when it cannot; farther off it hunts. Params:

    - ``range``: how far it shoots, in king moves; default 6.
    - ``shoot``: a line said before each shot, with ``{monster}`` (none by default: the shot
      itself is said as one, "The goblin archer shoots you for 2.", the preset's ``monster_shoot``).
    - ``flee``, ``search``: as ``hunt``'s, when it hunts."""
    if not game.notices(me):
        return hunt(game, me)
    params = game.kind_of(me).params
    player = game.player
    if game.adjacent(me, player):
        step = game.step_away(me, [game.position(player)])
        if step is not None:
            return Move(*step)
        return Attack(player)
    if game.distance(me, player) <= int(params.get("range", RANGE)):
        _remember(game, me, game.component(me, Hunting), params)
        if params.get("shoot"):
            game.log(params["shoot"].format(monster=game.name_of(me)))
        return Attack(player, ranged=True)
    return hunt(game, me)


def regenerate(game):
    """Monsters whose kind has ``params.regen = [hp, turns]`` regain ``hp`` every ``turns`` turns,
    awake or asleep."""
    # every turn asks, for every monster on the level: in one pass, each kind present asked once
    # (by its first monster) what it regains this turn, and most kinds regain nothing
    turn, due = game.turn, {}
    for monster, state in game.query(Monster):
        amount = due.get(state.kind)
        if amount is None:
            regen = game.kind_of(monster).params.get("regen")
            amount = due[state.kind] = int(regen[0]) if regen and turn % max(1, int(regen[1])) == 0 else 0
        if amount and game.position(monster) is not None:
            game.heal(monster, amount)


@hookimpl
def on_turn_end(game):
    regenerate(game)


@hookimpl
def register_behaviours(register):
    register("hunt", hunt)
    register("coward", coward)
    register("archer", archer)


@hookimpl
def register_components(register):
    register(Hunting)


@hookimpl
def register_statuses(register):
    register(StatusKind(name="alerted", label="Alerted", color=(230, 200, 90)))
