"""The game: a run that owns its turn. Starting, resuming, the turn loop, and level and run changes.

A :class:`Game` is inert when built: no world, no level, no event. Listeners attach first, then
:meth:`Game.start` begins run 1 (``start`` and ``level`` reach them), or :meth:`Game.resume` wraps
a :class:`~engine.core.model.state.RunState` read from a save (nothing generated, no hook fired).

One turn, and the order is the game's contract (:meth:`Game.take_turn`, for the action a key of a
:class:`~engine.core.play.session.Session` means):

1. An action that is not done (a wall bump, drinking with no potion) costs no time: no monster
   moves (nor does a key that means nothing: the session never asks for a turn).
2. An action that asks for a level or run change (stairs, an exit) ends the turn there: the change
   is applied, the player arrives with a full turn and nobody on the new level moves first.
3. Otherwise the player spends the action's energy; the ``AFTER_PLAYER`` systems run (dead
   monsters reaped; the player's view, where the ruleset puts it there); the scheduler hands turns
   to awake monsters until the player has energy again, stopping the moment the player dies; the
   ``END_OF_TURN`` systems run, then the ``on_turn_end`` hook (if the player lives).
4. A death is applied last: the ruleset says what it means (the death screen, or a new run).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.model import bounds
from engine.core.model import rng as rngmod
from engine.core.model.events import Escaped, LevelEntered, PlayerDied, QuitAsked, RunStarted, Victory
from engine.core.model.requests import ChangeLevel, NewRun, Quit, Request, Won
from engine.core.model.state import RunState
from engine.core.plugin.hooks import Hooks
from engine.core.plugin.isolation import GuardedRuleset, Isolation
from engine.core.turn import entities, levels
from engine.core.turn.acting import Acting
from engine.core.turn.actions import Action, ActionResult
from engine.core.turn.api import GameAPI
from engine.core.turn.ruleset import Ruleset
from engine.core.turn.run import Choices, Run
from engine.core.turn.sight import Sight
from engine.core.turn.systems import GuardedSystem, Phase, Reap, StandOnTerrain, TickStatuses, View, Watch

if TYPE_CHECKING:
    from engine.core.kinds.content import MonsterKind
    from engine.core.kinds.rules import GameRules
    from engine.core.plugin.registry import Registry
    from engine.kit.mapgen import Level



class Game(Run):
    """A :class:`~engine.core.turn.run.Run` that owns its turn (see the module doc). How an action is
    performed and the monsters' turns are its :class:`~engine.core.turn.acting.Acting`'s (``acting``).
    The keys that lead to a turn are a :class:`~engine.core.play.session.Session`'s."""

    def __init__(self, registry: Registry, rules: GameRules, seed: int, choices: Choices | None = None, *,
                 level_source: Level | None = None) -> None:
        choices = choices if choices is not None else Choices()
        fov = registry.choose("fov", choices.fov or rules.fov)
        owner = registry.owners.get
        # the plugins this game cannot do without: a failure of theirs stops it (see isolation)
        chosen = {owner(("games", rules.name)), owner(("fov", fov.name)), owner(("rulesets", rules.ruleset)),
                  *(owner(("generators", name)) for name in ([choices.generator] if choices.generator
                                                              else [g for _, g in rules.generators])),
                  *(owner(("pathfinders", name)) for name in [choices.path or rules.pathfinder] if name)} - {None}
        isolation = Isolation(chosen, log=lambda message: self.state is not None and self.log(message, "warn"))
        ruleset = GuardedRuleset(registry.rulesets[rules.ruleset] if rules.ruleset else Ruleset(), isolation,
                                 owner(("rulesets", rules.ruleset)))
        super().__init__(registry, rules, ruleset, fov, choices=choices, first_seed=seed, level_source=level_source)
        self.isolation = isolation
        self.sight = Sight(self)
        self.hooks = Hooks(registry, isolation)
        self.api = GameAPI(self)
        self.acting = Acting(self)
        self.systems = [Reap(), View(ruleset.view_phase), StandOnTerrain(), TickStatuses(), Watch(),
                        *(GuardedSystem(system, isolation, owner(("systems", name)))
                          for name, system in registry.systems.items())]

    # -- starting and resuming -------------------------------------------------------------
    def start(self) -> Game:
        """Begin run 1 (listeners hear ``start`` and ``level``). Returns the game."""
        self.begin_run(self.first_seed, 1)
        return self

    def resume(self, state: RunState) -> Game:
        """Play on from a loaded state: nothing is generated and no hook fires; only what the
        player sees now is recomputed (the same FOV call as the last view, waking nobody)."""
        self.state = state
        self.names_changed()
        self._install(state)
        state.view.visible, state.view.origin = self.sight.compute_visible(), self.position(self.player)
        state.view.dirty = False
        self.sight.watch(news=False)  # in view when it was saved: no news
        return self

    def _install(self, state: RunState) -> None:
        for system in self.systems:
            state.world.add_processor(system, system.priority)

    def begin_run(self, seed: int, run: int, note: str = "") -> None:
        """A new world and a fresh player, then level 1. ``note`` is logged after the welcome (how
        the last run ended, for presets that go straight on)."""
        if self.state is not None:
            self.state.close()
        self.state = levels.new_state(self, seed, run)
        self.names_changed()  # a new run's plugins name its items afresh
        self._install(self.state)
        self.log(self.rules.message("welcome"))
        self.log(note)
        self.emit(RunStarted(run))
        self.enter_level(1)

    def enter_level(self, depth: int, *, up: bool = False, fall: bool = False) -> None:
        levels.enter(self, depth, up=up, fall=fall)
        self.emit(LevelEntered(depth, up))
        self.apply_death()  # a plugin's on_level_generated may have killed the player

    def close(self) -> None:
        if self.state is not None:
            self.state.close()
            self.state = None

    # -- the turn ---------------------------------------------------------------------------
    def answer(self, choice: int) -> None:
        """The player chose option ``choice`` of the first open question (``GameAPI.ask``):
        plugins hear ``on_answer``."""
        question = self.state.questions.pop(0)
        self.hook("on_answer", question=question["name"], choice=choice)
        self.apply_death()

    def take_turn(self, action: Action) -> bool:
        """The player's action and, if it was done, everybody else's turn (see the module doc)."""
        state = self.state
        before = len(state.log)
        state.log.hold()  # a level-up the action earns is said after it, its kills first (engine.core.kinds.saying)
        try:
            result = self.acting.perform(state.player, action)
        finally:
            state.log.release()
        if not result.done:
            self.apply_death()  # no time passed, but a hook (on_action, after_action) may have killed
            return len(state.log) != before
        state.turn += 1
        request, self.falling = result.request or self.falling, None  # a trapdoor under the step: down at once
        if request is not None:
            return self.apply(request)
        state.scheduler.spend(state.player, result.cost)
        state.world.process(self, Phase.AFTER_PLAYER)
        self.acting.monsters_act()
        state.world.process(self, Phase.END_OF_TURN)
        if state.alive:
            self.hook("on_turn_end")
        self.apply_death()
        request, self.falling = self.falling, None
        if request is not None and state.alive:
            return self.apply(request)
        return True

    def perform(self, entity: int, action: Action) -> ActionResult:
        """Perform ``action`` for ``entity`` now, with the plugins' action hooks (:class:`Acting`)."""
        return self.acting.perform(entity, action)

    def apply_death(self) -> None:
        """The one death path. Whatever took the player's last HP this turn (a monster's blow, an
        effect, a status, terrain, a system or any hook), the death is applied here, once: the
        ruleset's word on it (the ``die`` message, or a new run), then listeners hear ``death``
        (the keeper removes the save, writes the morgue, counts it in the profile)."""
        state = self.state
        if state is None or state.alive or state.death_applied:
            return
        state.death_applied = True
        request = self.ruleset.player_died(self.api)
        self.emit(PlayerDied())
        if request is not None:
            self.apply(request)

    def apply(self, request: Request) -> bool:
        """Apply a change of level or run, or a quit, at the end of a turn."""
        if isinstance(request, ChangeLevel):
            refused = bounds.level_refused(request.depth)
            if refused:  # the stairs of the deepest level a save holds, or a plugin's odd request
                bounds.say_once(self, f"level:{request.depth}", refused)
                self.log("The way leads no further.")
                return True
            self.log(self.rules.message("ascend" if request.up else "descend", depth=request.depth))
            self.enter_level(request.depth, up=request.up, fall=request.fall)
        elif isinstance(request, Won):
            self.state.won = True
            self.log(request.note or self.rules.message("won"))
            self.emit(Victory())
        elif isinstance(request, NewRun):
            if request.escaped:
                self.emit(Escaped())
            run = self.state.run_number + 1
            self.begin_run(rngmod.derive(self.first_seed, f"run:{run}") % rngmod.MAX_SEED, run, request.note)
        elif isinstance(request, Quit):
            self.quit_requested = True
            self.emit(QuitAsked(request.save))
        else:
            raise TypeError(f"unknown request {request!r}")
        return True

    # -- what the play room, the window and tests ask of a game: entities and sight ----------
    def position(self, entity: int) -> tuple[int, int]:
        return entities.position(self, entity)

    def name_of(self, entity: int) -> str:
        return entities.name_of(self, entity)

    def kind_of(self, entity: int) -> MonsterKind:
        return entities.kind_of(self, entity)

    def passable(self, x: int, y: int) -> bool:
        return entities.passable(self, x, y)

    def monster_kind(self, name: str) -> MonsterKind:
        return entities.monster_kind(self, name)

    def spawn_monster(self, kind_name: str, x: int, y: int) -> int:
        return entities.spawn_monster(self, kind_name, x, y)

    def spawn_item(self, kind_name: str, x: int, y: int, amount: int) -> int:
        return entities.spawn_item(self, kind_name, x, y, amount)

    def give(self, kind_name: str, amount: int = 1) -> int | None:
        return entities.give(self, kind_name, amount)

    def move_entity(self, entity: int, x: int, y: int) -> None:
        entities.move_entity(self, entity, x, y)

    def kill(self, entity: int, killer: int | str | None = None) -> None:
        entities.kill(self, entity, killer)

    def update_view(self) -> None:
        self.sight.update_view()

    def visible_monsters(self) -> list[int]:
        return self.sight.visible_monsters()

    def area(self, center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
        return self.sight.area(center, radius)
