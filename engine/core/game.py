"""The game: a run that owns its turn. Starting, resuming, the turn loop, and level and run changes.

A :class:`Game` is inert when built: no world, no level, no event. Listeners attach first, then
:meth:`Game.start` begins run 1 (``start`` and ``level`` reach them), or :meth:`Game.resume` wraps
a :class:`~engine.core.state.RunState` read from a save (nothing generated, no hook fired).

One turn, and the order is the game's contract (:meth:`Game.play`):

1. A key that means nothing here, or an action that is not done (a wall bump, drinking with no
   potion), costs no time: no monster moves.
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

from engine.core import levels
from engine.core import rng as rngmod
from engine.core.acting import Acting, hook_calls
from engine.core.actions import Action
from engine.core.api import GameAPI
from engine.core.commands import COMMANDS
from engine.core.isolation import GuardedRuleset, Isolation
from engine.core.keys import TRAVELS, Command, command_for, split_token
from engine.core.prompts import CLOSE, Chosen, Prompt, Question
from engine.core.requests import ChangeLevel, NewRun, Quit, Request, Won
from engine.core.ruleset import Ruleset
from engine.core.run import Choices, Run
from engine.core.state import RunState
from engine.core.systems import GuardedSystem, Phase, Reap, TickStatuses, View
from engine.core.travel import Travel, Travelling

if TYPE_CHECKING:
    from engine.core.registry import Registry
    from engine.core.rules import GameRules
    from engine.kit.mapgen import Level

COMMANDS_KEPT = 256  # key tokens whose meaning a game remembers (see Game.command)


class Game(Travelling, Acting, Run):
    """A :class:`~engine.core.run.Run` that owns its turn (see the module doc). How an action is
    performed and the monsters' turns are :class:`~engine.core.acting.Acting`'s; a travel's steps,
    :class:`~engine.core.travel.Travelling`'s: both mixed in here."""

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
        isolation = Isolation(chosen, log=lambda message: self.state is not None and self.log(message))
        ruleset = GuardedRuleset(registry.rulesets[rules.ruleset] if rules.ruleset else Ruleset(), isolation,
                                 owner(("rulesets", rules.ruleset)))
        super().__init__(registry, rules, ruleset, fov, choices=choices, first_seed=seed, level_source=level_source)
        self.isolation = isolation
        self.api = GameAPI(self)
        self.systems = [Reap(), View(ruleset.view_phase), TickStatuses(),
                        *(GuardedSystem(system, isolation, owner(("systems", name)))
                          for name, system in registry.systems.items())]
        self._behaviours: dict[str, tuple] = {}  # see Acting._behaviour
        self.travelling: Travel | None = None  # a travel key in progress (see press)
        self.prompt: Prompt | None = None  # what the keys answer now (engine.core.prompts)
        self._held: list[str] = []  # the keys of an open prompt, recorded when it closes (see press)
        self._commands: tuple = (None, {})  # the preset and what each key token means in it (see command)
        self._on_action = hook_calls(registry, "on_action")
        self._after_action = hook_calls(registry, "after_action")

    # -- starting and resuming -------------------------------------------------------------
    def start(self) -> Game:
        """Begin run 1 (listeners hear ``start`` and ``level``). Returns the game."""
        self.begin_run(self.first_seed, 1)
        return self

    def resume(self, state: RunState) -> Game:
        """Play on from a loaded state: nothing is generated and no hook fires; only what the
        player sees now is recomputed (the same FOV call as the last view, waking nobody)."""
        self.state = state
        self._install(state)
        state.view.visible, state.view.origin = self.compute_visible(), self.position(self.player)
        state.view.dirty = False
        self.ask_next()
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
        self._install(self.state)
        self.log(self.rules.message("welcome"))
        self.log(note)
        self.emit("start")
        self.enter_level(1)

    def enter_level(self, depth: int, *, up: bool = False) -> None:
        levels.enter(self, depth, up=up)
        self.emit("level")
        self.apply_death()  # a plugin's on_level_generated may have killed the player

    def close(self) -> None:
        if self.state is not None:
            self.state.close()
            self.state = None

    # -- the turn loop -----------------------------------------------------------------------
    def command(self, token: str) -> Command | None:
        """What a key token means in this preset (None: nothing); worked out once per token (a
        bot's run presses a few keys thousands of times), at most COMMANDS_KEPT tokens."""
        rules, known = self._commands
        if rules is not self.rules:
            known = {}
            self._commands = (self.rules, known)
        found = known.get(token, known)  # the dict itself: not worked out yet
        if found is known:
            if len(known) >= COMMANDS_KEPT:
                known.clear()
            found = known[token] = command_for(self.rules, token)
        return found

    def press(self, token: str, command: Command | None = None, *, step_by_step: bool = False) -> bool:
        """Play one key token (``command``: what it means, when the caller has already asked);
        returns whether anything changed. Listeners hear ``key`` after it.

        A travel key walks to its end now, unless ``step_by_step``: then the caller (the window,
        which draws each step) calls :meth:`travel_step` until it returns False, or
        :meth:`stop_travel` when the player presses a key; ``key`` is heard when the travel ends,
        with the steps it took (``o:12``) when it was interrupted, so a replay stops there too."""
        if self.prompt is not None:
            key, cell, _ = split_token(token)
            changed = self.answer_prompt(self.prompt.key(self, key, cell))
            self.record(token)
            return changed
        command = command if command is not None else self.command(token)
        if command is not None and command.name in TRAVELS and self.state.alive and not self.state.won:
            self.new_in_view = False
            before = len(self.state.log)
            changed = self.start_travel(command, token)
            if self.travelling is None:  # not a travel after all: it said why, or took the stairs
                self.emit("key", token=token)
                return changed or len(self.state.log) != before
            if step_by_step:
                return True
            while self.travel_step():
                changed = True
            self.end_travel()
            return changed or len(self.state.log) != before
        changed = self.play(command)
        self.record(token)
        return changed

    def record(self, token: str) -> None:
        """Listeners hear the key (``key``): at once, or, while a menu, cursor or the history is
        open, when it closes. Such a prompt changes nothing until it closes, so a run saved while
        one is open resumes with the prompt closed and without its keys, and its replay agrees."""
        if self.prompt is not None and not isinstance(self.prompt, Question):
            self._held.append(token)
            return
        held, self._held = [*self._held, token], []
        for key in held:
            self.emit("key", token=key)

    @property
    def held_keys(self) -> list[str]:
        """The keys of the prompt open now, not yet heard (see :meth:`record`)."""
        return list(self._held)

    # -- prompts: menus, cursors, the history, plugins' questions (engine.core.prompts) --------
    def answer_prompt(self, answer) -> bool:
        """Do what a command or an open prompt answered: stay, close, open another, or act."""
        if answer is None:
            return self.prompt is not None
        if answer is CLOSE or isinstance(answer, Chosen):
            self.prompt = None
            if isinstance(answer, Chosen):
                self.answer(answer.choice)
            self.ask_next()
            return True
        if isinstance(answer, Prompt):
            self.prompt = answer
            return True
        self.prompt = None
        changed = self.take_turn(answer)
        self.ask_next()
        return changed

    def ask_next(self) -> None:
        """Open the first question a plugin asked (``GameAPI.ask``), when nothing else is open."""
        if self.prompt is None and self.state is not None and self.state.alive and self.state.questions:
            q = self.state.questions[0]
            self.prompt = Question(q["title"], list(q["options"]), name=q["name"])

    def answer(self, choice: int) -> None:
        """The player chose option ``choice`` of the open question: plugins hear ``on_answer``."""
        question = self.state.questions.pop(0)
        self.hook("on_answer", question=question["name"], choice=choice)
        self.apply_death()

    def play(self, command: Command | None) -> bool:
        """One turn for one command (see the module doc); returns whether anything changed."""
        self.new_in_view = False
        state = self.state
        if command is None:
            return False
        if command.name == "quit":
            return self.apply(self.ruleset.escape(self))
        if not state.alive or state.won:
            request = self.ruleset.restart(self) if command.name == "restart" else None
            return self.apply(request) if request is not None else False
        if command.name in COMMANDS:
            before = len(state.log)
            return self.answer_prompt(COMMANDS[command.name](self)) or len(state.log) != before
        action = command.action()
        if action is None:
            return False
        changed = self.take_turn(action)
        self.ask_next()
        return changed

    def take_turn(self, action: Action) -> bool:
        """The player's action and, if it was done, everybody else's turn (see the module doc)."""
        state = self.state
        before = len(state.log)
        result = self.perform(state.player, action)
        if not result.done:
            self.apply_death()  # no time passed, but a hook (on_action, after_action) may have killed
            return len(state.log) != before
        state.turn += 1
        if result.request is not None:
            return self.apply(result.request)
        state.scheduler.spend(state.player, result.cost)
        state.world.process(self, Phase.AFTER_PLAYER)
        self.monsters_act()
        state.world.process(self, Phase.END_OF_TURN)
        if state.alive:
            self.hook("on_turn_end")
        self.apply_death()
        return True

    def apply_death(self) -> None:
        """The one death path. Whatever took the player's last HP this turn (a monster's blow, an
        effect, a status, terrain, a system or any hook), the death is applied here, once: the
        ruleset's word on it (the ``die`` message, or a new run), then listeners hear ``death``
        (the keeper removes the save, writes the morgue, counts it in the profile)."""
        state = self.state
        if state is None or state.alive or state.death_applied:
            return
        state.death_applied = True
        request = self.ruleset.player_died(self)
        self.emit("death")
        if request is not None:
            self.apply(request)

    def apply(self, request: Request) -> bool:
        """Apply a change of level or run, or a quit, at the end of a turn."""
        if isinstance(request, ChangeLevel):
            self.log(self.rules.message("ascend" if request.up else "descend", depth=request.depth))
            self.enter_level(request.depth, up=request.up)
        elif isinstance(request, Won):
            self.state.won = True
            self.log(request.note or self.rules.message("won"))
            self.emit("victory")
        elif isinstance(request, NewRun):
            if request.escaped:
                self.emit("escape")
            run = self.state.run + 1
            self.begin_run(rngmod.derive(self.first_seed, f"run:{run}") % rngmod.MAX_SEED, run, request.note)
        elif isinstance(request, Quit):
            self.quit_requested = True
            self.emit("quit", save=request.save)
        else:
            raise TypeError(f"unknown request {request!r}")
        return True
