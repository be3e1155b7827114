"""The default game's monsters: they hunt by pathfinding, remember, search, and lose interest.

``hunt``: a monster that notices the player remembers where, and walks a shortest way there
(around pillars and other monsters, by the preset's pathfinder); beside the player it attacks.
With ``params.flee`` (a percentage), a monster hurt below that share of its HP runs instead, along
Brogue's safety map (toward open ways out, not into a corner).
Once the player is out of its sight it goes to where it last saw them and searches around for a
while (``params.search`` turns, default 8), then gives up and goes back to sleep: a sleeping
monster costs nothing and wakes when it notices the player again. The memory is a component of
its own (``Hunting``), saved with the run.

(The presets keep their original rules: bunyip's goblins ``chase`` with a greedy step, the Rogue
SDL course's monsters and the Godot lesson's step along an ``axis``.)
"""

from dataclasses import dataclass

from engine import Attack, Move, hookimpl

SEARCH = 8  # turns spent searching where the player was last seen, by default


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


def hunt(game, me):
    memory = game.component(me, Hunting)
    if game.notices(me):
        px, py = game.position(game.player)
        search = int(game.kind_of(me).params.get("search", SEARCH))
        if memory is None:
            game.add_component(me, Hunting(px, py, search))
        else:
            memory.x, memory.y, memory.search = px, py, search
        hp, max_hp = game.hp(me)
        if hp * 100 < int(game.kind_of(me).params.get("flee", 0)) * max_hp:
            step = game.step_away(me, [(px, py)])
            if step is not None:
                return Move(*step)
        if game.adjacent(me, game.player):
            return Attack(game.player)
        step = game.step_toward(me, (px, py))
        return Move(*step) if step is not None else None
    if memory is not None and memory.search > 0:
        if game.position(me) != (memory.x, memory.y):
            step = game.step_toward(me, (memory.x, memory.y))
            if step is not None:
                return Move(*step)
        memory.search -= 1  # there (or cannot get nearer): look around
        return _wander(game, me)
    game.sleep(me)  # lost interest: asleep until it notices the player again
    return None


@hookimpl
def register_behaviours(register):
    register("hunt", hunt)


@hookimpl
def register_components(register):
    register(Hunting)
