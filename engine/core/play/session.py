"""A session: the player's keys on a game. What a key means, the prompt it answers, the travel it
walks, and the record of keys; each key returns an :class:`Outcome`.

The :class:`~engine.core.turn.game.Game` owns the turn (start, resume, a turn, level and run changes);
the session owns everything between a key and a turn: it turns a token into a command
(:mod:`engine.core.turn.keys`), hands keys to the open prompt (:mod:`engine.core.play.prompts`) and does
what the prompt answers, walks travels (:mod:`engine.core.play.travel`) one turn a step, and tells the
game's listeners each key it played (:class:`~engine.core.model.events.KeyPlayed`), holding the keys
of an open menu or cursor until it closes. Every caller (the CLI, replays, ``sim``, the window,
the test kit) presses keys here and reads the outcome; none polls the game afterwards.

A game has at most one session; ``game.session`` names it, so that what plugins and ``--dump
json`` read of the prompt (``GameAPI.prompt``) is what the player is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.model.events import Event, Hurt, KeyPlayed
from engine.core.play import commands
from engine.core.play.prompts import Answer, Chosen, Close, Prompt, Question
from engine.core.play.travel import Travel, next_step, threat_in_view
from engine.core.turn import verbkeys
from engine.core.turn.actions import Action, Ascend, Descend, Move
from engine.core.turn.keys import TRAVELS, Command, command_for, split_token

if TYPE_CHECKING:
    from engine.core.turn.game import Game

COMMANDS_KEPT = 256  # key tokens whose meaning a session remembers (see Session.command)


@dataclass(frozen=True)
class Outcome:
    """What one key (or one step of a walk) did.

    ``changed``: the picture may differ (draw a frame); ``walking``: a travel goes on, one
    :meth:`Session.step` a step (only when the key was pressed ``step_by_step``); ``quit``: the
    run asked to end the session (Escape, a preset's quit); ``noticed``: something came into view
    or noticed the player (held keys stop repeating); ``events``: what the game's listeners heard
    during the key, in order."""

    changed: bool = False
    walking: bool = False
    quit: bool = False
    noticed: bool = False
    events: tuple[Event, ...] = ()


class Session:
    """The player's keys on ``game`` (see the module doc). Build it once the game has started or
    resumed: it opens the first question a plugin left asked."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.prompt: Prompt | None = None  # what the keys answer now
        self.travel: Travel | None = None  # a travel key in progress
        self._held: list[str] = []  # the keys of an open menu or cursor, heard when it closes
        self._heard: list[Event] = []
        # the preset, what each key token means in it, and the keys its items' verbs bring
        self._commands: tuple = (None, {}, {})
        game.listeners.append(self._hear)
        game.session = self
        self.ask_next()

    @classmethod
    def of(cls, game: Game) -> Session:
        """``game``'s session, made now if it has none."""
        return game.session if game.session is not None else cls(game)

    def _hear(self, event: Event, game: Game) -> None:
        self._heard.append(event)

    def _outcome(self, changed: bool, walking: bool = False) -> Outcome:
        events, self._heard = tuple(self._heard), []
        return Outcome(changed=changed, walking=walking, quit=self.game.quit_requested,
                       noticed=self.game.new_in_view, events=events)

    @property
    def held_keys(self) -> list[str]:
        """The keys of the prompt open now, not yet heard (see :meth:`press`)."""
        return list(self._held)

    def command(self, token: str) -> Command | None:
        """What a key token means in this preset (None: nothing); worked out once per token (a
        bot's run presses a few keys thousands of times), at most COMMANDS_KEPT tokens."""
        rules, known, verbs = self._commands
        if rules is not self.game.rules:
            known, verbs = {}, verbkeys.keys(self.game.registry, self.game.rules)
            self._commands = (self.game.rules, known, verbs)
        found = known.get(token, known)  # the dict itself: not worked out yet
        if found is known:
            if len(known) >= COMMANDS_KEPT:
                known.clear()
            found = known[token] = command_for(self.game.rules, token, verbs)
        return found

    # -- a key ---------------------------------------------------------------------------------
    def press(self, token: str, command: Command | None = None, *, step_by_step: bool = False) -> Outcome:
        """Play one key token (``command``: what it means, when the caller has already asked).

        A travel key walks to its end now, unless ``step_by_step``: then the outcome says
        ``walking`` and the caller (the window, which draws each step) calls :meth:`step` until
        it stops, or :meth:`interrupt` when the player presses a key. The travel's key is heard
        when it ends, with the steps it took (``o:12``) when it was interrupted, so a replay stops
        there too. The keys of an open menu or cursor are heard when it closes: such a prompt
        changes nothing until then, so a run saved while one is open resumes with it closed and
        without its keys, and its replay agrees."""
        game = self.game
        game.new_in_view = False
        if self.prompt is not None:
            key, cell, _ = split_token(token)
            changed = self._answer(self.prompt.key(game, key, cell))
            self._record(token)
            return self._outcome(changed)
        command = command if command is not None else self.command(token)
        state = game.state
        if command is not None and command.name in TRAVELS and state.alive and not state.won:
            before = len(state.log)
            changed = self._start_travel(command, token)
            if self.travel is None:  # not a travel after all: it said why, or took the stairs
                game.emit(KeyPlayed(token))
                return self._outcome(changed or len(game.state.log) != before)
            if step_by_step:
                return self._outcome(True, walking=True)
            while self._travel_step():
                changed = True
            self._end_travel()
            return self._outcome(changed or len(game.state.log) != before)
        changed = self._play(command)
        self._record(token)
        return self._outcome(changed)

    def _play(self, command: Command | None) -> bool:
        """One command with no prompt open; returns whether anything changed."""
        game = self.game
        state = game.state
        if command is None:
            return False
        if command.name == "quit":
            return game.apply(game.ruleset.escape(game.api))
        if not state.alive or state.won:
            request = game.ruleset.restart(game.api) if command.name == "restart" else None
            return game.apply(request) if request is not None else False
        run = commands.command(game, command.name)
        if run is not None:
            before = len(state.log)
            return self._answer(run(game)) or len(game.state.log) != before
        action = command.action()
        if action is None:
            return False
        return self._act(action)

    def _act(self, action: Action) -> bool:
        changed = self.game.take_turn(action)
        self.ask_next()
        return changed

    def _record(self, token: str) -> None:
        if self.prompt is not None and not isinstance(self.prompt, Question):
            self._held.append(token)
            return
        held, self._held = [*self._held, token], []
        for key in held:
            self.game.emit(KeyPlayed(key))

    # -- prompts: menus, cursors, the history, plugins' questions (engine.core.play.prompts) --------
    def _answer(self, answer: Answer) -> bool:
        """Do what a command or the open prompt answered: stay, close, open another, or act."""
        match answer:
            case None:
                return self.prompt is not None
            case Close():
                self.prompt = None
                self.ask_next()
                return True
            case Chosen(choice=choice):
                self.prompt = None
                self.game.answer(choice)
                self.ask_next()
                return True
            case Prompt():
                self.prompt = answer
                return True
            case _:
                self.prompt = None
                return self._act(answer)

    def ask_next(self) -> None:
        """Open the first question a plugin asked (``GameAPI.ask``), when nothing else is open."""
        state = self.game.state
        if self.prompt is None and state is not None and state.alive and state.questions:
            q = state.questions[0]
            self.prompt = Question(q["title"], list(q["options"]), name=q["name"])

    # -- travel: one key, many steps (engine.core.play.travel) --------------------------------------
    def step(self, turns: int = 1) -> Outcome:
        """One step of the travel in progress (a normal turn), or up to ``turns`` of them (a rest's
        turns, many to a drawn frame: nothing moves); the outcome says ``walking`` while it goes on,
        and holds the events of all of them. When it stops (it got there, saw something new, was
        hurt, changed level, or has no step to take) its key is heard."""
        for _ in range(max(1, turns)):
            going = self._travel_step()
            if not going:
                self._end_travel()
                break
        return self._outcome(True, walking=going)

    def interrupt(self) -> Outcome:
        """The window's player pressed a key: the travel stops where it is."""
        if self.travel is None:
            return self._outcome(False)
        self.travel.interrupted = True
        self._end_travel()
        return self._outcome(True)

    def _start_travel(self, command: Command, token: str) -> bool:
        """Begin a travel (``self.travel``), or say why not; returns whether a message was said.
        ``downstairs`` on the stairs is not a travel: it takes them; nor is ``rest`` at full HP."""
        game = self.game
        state, api = game.state, game.api
        goal = None
        if command.name in ("downstairs", "upstairs"):
            down = command.name == "downstairs"
            here, stairs = api.position(state.player), state.level.stairs if down else state.level.upstairs
            if stairs is not None and here == stairs:
                self.travel = None
                return self._act(Descend() if down else Ascend())
            if stairs is None or not state.view.seen[stairs[1], stairs[0]]:
                game.log(game.rules.message("no_stairs_known" if down else "no_upstairs_known"))
                return True
            goal = stairs
        elif command.name == "travel":
            if command.cell is None:
                return False
            goal = command.cell
        elif command.name == "rest":
            hp, max_hp = api.hp(state.player)
            if hp >= max_hp:
                game.log(game.rules.message("rest_full"))
                return True
        threat = threat_in_view(api)
        if threat is not None:
            game.log(game.rules.message("not_in_view", monster=api.name_of(threat)))
            return True
        self.travel = Travel(command.name, goal, command.steps, token=token)
        return False

    def _travel_step(self) -> bool:
        travel, game = self.travel, self.game
        state = game.state
        if travel is None or travel.spent or not state.alive:
            return False
        step = next_step(game.api, travel)
        if not isinstance(step, tuple | Action):
            if step:
                game.log(step)
            return False
        hp, depth, run = game.api.hp(state.player)[0], state.depth, state.run_number
        game.new_in_view = False
        travel.steps += 1
        heard = len(self._heard)
        if not game.take_turn(step if isinstance(step, Action) else Move(*step)):
            return False
        state = game.state
        hurt = game.api.hp(state.player)[0] < hp
        if hurt and travel.kind == "rest" and state.alive and not self._struck(heard):
            game.log(game.rules.message("rest_hurt"))  # a poison, a burning floor: no blow says why
        return not (game.new_in_view or hurt or state.depth != depth
                    or state.run_number != run or not state.alive or game.quit_requested or state.questions)

    def _struck(self, since: int) -> bool:
        """Whether a creature struck the player among the events heard from ``since`` on."""
        player = self.game.state.player
        return any(isinstance(e, Hurt) and e.entity == player and isinstance(e.by, int) for e in self._heard[since:])

    def _end_travel(self) -> None:
        """The travel is over: listeners hear its key (with its steps when it was interrupted)."""
        travel, self.travel = self.travel, None
        self.ask_next()
        if travel is None or (travel.interrupted and travel.steps == 0):
            return  # nothing happened: nothing to record
        self.game.emit(KeyPlayed(travel.recorded()))
