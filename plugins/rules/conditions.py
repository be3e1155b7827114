"""What the statuses items put on creatures do: ``hasted`` and ``confused``.

* ``hasted``: the creature acts ``params.haste`` times as often (default 2) while it lasts; its own
  speed comes back when the status ends. The speed it had is kept in a ``BaseSpeed`` component
  (saved with the run), so a save taken while hasted resumes hasted and slows down on time.
* ``confused``: a confused monster stumbles: whatever its behaviour chose (a step, a blow), it
  takes a step in a random direction instead, hitting whoever stands there. A confused player
  stumbles on ``params.stumble`` percent of their steps (default 50), from the preset's
  ``[params.conditions]``. The direction comes from the run's own stream, so a replay agrees.

Nothing happens in a game whose items put no such status on anyone (the presets).
"""

from dataclasses import dataclass

from engine import VETO, Actor, Attack, Move, Phase, Statuses, StatusKind, System, hears, hookimpl
from engine.kit import limits

HASTE = 2  # times as often, by default
SIDEBAR = (120, 200, 235)  # the statuses' colour in the sidebar
STUMBLE = 50  # percent of a confused player's steps that go astray, by default


@dataclass
class BaseSpeed:
    """The speed a hasted creature had before: given back when the haste ends."""

    speed: int


@dataclass(frozen=True)
class Stagger(Move):
    """A confused creature's step: into a wall it bumps and stops, into a creature it hits it."""

    def perform(self, game, entity):
        x, y = game.position(entity)
        other = game.creature_at(x + self.dx, y + self.dy)
        if other is not None:
            return Attack(other).perform(game, entity)
        return super().perform(game, entity)


def _params(game) -> dict:
    return game.rules.params.get("conditions", {})


@hookimpl
@hears(statuses=["confused"])  # nobody else's action: a crowd's steps call it not
def on_action(game, entity, action):
    """A confused creature's step (or a monster's blow) goes in a random direction."""
    if isinstance(action, Stagger) or not game.has_status(entity, "confused"):
        return None
    player = game.is_player(entity)
    if not (type(action) is Move or (not player and isinstance(action, Attack))):
        return None
    rng = game.rng("conditions:confusion")
    if player and rng.randrange(100) >= int(_params(game).get("stumble", STUMBLE)):
        return None
    x, y = game.position(entity)
    steps = [(dx, dy) for dx, dy in game.moves.steps if not game.is_wall(x + dx, y + dy)]
    if not steps:
        return VETO
    if player:
        game.log(_params(game).get("stumble_message", "You stumble."), kind="warn")
    return Stagger(*rng.choice(steps))


class Haste(System):
    """At the end of a turn: the newly hasted speed up; those whose haste ran out slow down."""

    name = "haste"
    phases = (Phase.END_OF_TURN,)

    def run(self, game):
        factor = int(_params(game).get("haste", HASTE))
        for entity, base in game.query(BaseSpeed):
            if not game.has_status(entity, "hasted"):
                game.set_speed(entity, base.speed)
                game.remove_component(entity, BaseSpeed)
        for entity, statuses in game.query(Statuses):
            if "hasted" in statuses.active and game.component(entity, BaseSpeed) is None:
                actor = game.component(entity, Actor)
                if actor is not None:
                    game.add_component(entity, BaseSpeed(actor.speed))
                    game.set_speed(entity, min(limits.MAX_SPEED, actor.speed * factor))


@hookimpl
def register_components(register):
    register(BaseSpeed)


@hookimpl
def register_systems(register):
    register(Haste())


@hookimpl
def register_statuses(register):
    # the speed itself changes at the end of the turn (the Haste system): when the potion was drunk
    # matters to the scheduler, and a save keeps the speed a hasted creature had (BaseSpeed)
    register(StatusKind(name="hasted", label="Hasted", color=SIDEBAR))
    register(StatusKind(name="confused", label="Confused", color=SIDEBAR))
