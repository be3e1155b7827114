"""One run of ``sim``: a bot plays a seeded game headless, to its end, and says how it went.

:func:`play_batch` is what a worker process (local, or a Dask worker) is sent: a list of
:class:`RunSpec`, each a seed and what to play it with; it returns one plain dict per run (JSON
values only, so it travels between processes and machines as is). A run is a pure function of its
spec: the same spec gives the same dict in any process, in any order, on any machine with the same
plugins, which is why the sim's table is the same whatever ``--jobs`` or ``--cluster`` is.

Runs touch no file: no keeper is attached (no run save, profile, replay or morgue). A run that
raises (in the bot or in the game) comes back as ``"crashed"`` with the error and, so that it can
be replayed, the replay's header and keys; the caller writes the replay file.
"""

from __future__ import annotations

import functools
import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.model.events import Escaped, Event, LevelEntered, PlayerDied, QuitAsked, Victory
from engine.core.play.session import Session
from engine.core.play.setup import Setup, load, prepare
from engine.core.turn.keys import BadKey, check_token
from engine.kit import limits
from engine.persist import morgue, replay

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry
    from engine.core.turn.game import Game

STALL_KEYS = 1000  # keys in a row that pass no turn: the bot is stuck, and the run ends (also at MAX_KEYS keys)
END_EVENTS = {PlayerDied: "died", Escaped: "escaped", QuitAsked: "quit", Victory: "won"}


@dataclass(frozen=True)
class RunSpec:
    """What one run plays: a seed, the preset (None: the default one), the bot, the turn limit,
    and the plugin folders to load (they must exist where the run is played)."""

    seed: int
    game: str | None
    bot: str
    max_turns: int
    plugins_dirs: tuple[str, ...] = ()


@functools.lru_cache(maxsize=4)  # a process plays with one set of plugin folders
def registry_for(plugins_dirs: tuple[str, ...]) -> Registry:
    """The registry a process plays with, loaded once per process and plugin folders (a forked
    worker inherits its parent's)."""
    return load(plugins_dirs)


class Ending:
    """A Game listener that remembers how the run ended: the first death, escape, quit or win,
    with the depth, turn and cause at that moment (a preset that goes straight on to a new run
    has replaced the state by the time the key returns), and the deepest depth reached."""

    def __init__(self) -> None:
        self.outcome: str | None = None
        self.depth = self.turns = 0
        self.cause: str | None = None

    def __call__(self, event: Event, game: Game) -> None:
        if isinstance(event, LevelEntered) and self.outcome is None:
            self.depth = max(self.depth, game.depth)
        if type(event) not in END_EVENTS or self.outcome is not None:
            return
        self.outcome, self.turns = END_EVENTS[type(event)], game.turn
        if isinstance(event, PlayerDied):
            self.cause = re.sub(r" on depth \d+$", "", morgue.cause_of_death(game))


def won(game: Game) -> bool:
    """Whether the run was won (a ``won`` flag on the run's state: the default game's amulet)."""
    return bool(getattr(game.state, "won", False)) if game.state is not None else False


def play_batch(specs: list[RunSpec]) -> list[dict[str, Any]]:
    """Play each run; a worker's task."""
    return [play_one(spec) for spec in specs]


def play_batch_on_worker(specs: list[RunSpec]) -> tuple[str, list[dict[str, Any]]]:
    """Play each run on a Dask worker; with the worker's address, so that ``sim`` can say which
    workers played."""
    from distributed import get_worker

    return get_worker().address, play_batch(specs)


def play_one(spec: RunSpec) -> dict[str, Any]:
    """Play one run to its end, the turn limit, or the bot's stop; never raises for the bot's or
    the game's failure (the run comes back crashed)."""
    registry = registry_for(spec.plugins_dirs)
    ending, keys = Ending(), []
    result: dict[str, Any] = {"seed": spec.seed, "outcome": None, "won": False, "depth": 0, "turns": 0,
                              "keys": 0, "cause": None}
    game = None
    try:
        game = prepare(Setup(game=spec.game, seed=spec.seed, plugins_dirs=spec.plugins_dirs), registry)
        game.listeners.append(ending)
        game.start()
        session = Session(game)
        ending.depth = game.depth
        if spec.bot not in registry.bots:  # a worker without the bot's plugin
            raise LookupError(f"no bot named {spec.bot!r} here (valid: {', '.join(sorted(registry.bots))}): "
                              "install its plugin where the runs are played")
        bot = registry.bots[spec.bot].start()
    except Exception as e:  # noqa: BLE001 - the game's failure, reported with its seed
        return _crashed(result, "game", e, game, keys)
    idle = 0
    while ending.outcome is None:
        if won(game):
            ending.outcome, ending.turns = "won", game.turn
            break
        if game.turn >= spec.max_turns:
            ending.outcome, ending.turns = "turn limit", game.turn
            break
        if idle >= STALL_KEYS or len(keys) >= limits.MAX_KEYS:
            ending.outcome, ending.turns = "stalled", game.turn
            break
        try:
            token = bot(game.api)
            if token is not None:
                _check_answer(token)
        except Exception as e:  # noqa: BLE001 - the bot's failure, reported with its seed
            return _crashed(result, "bot", e, game, keys)
        if token is None:
            ending.outcome, ending.turns = "stopped", game.turn
            break
        keys.append(token)
        before = (game.state.run_number, game.turn)
        try:
            outcome = session.press(token)
        except Exception as e:  # noqa: BLE001 - the game's failure, reported with its seed
            return _crashed(result, "game", e, game, keys)
        idle = idle + 1 if (game.state.run_number, game.turn) == before else 0
        if outcome.quit and ending.outcome is None:
            ending.outcome, ending.turns = "quit", game.turn
    result.update(outcome=ending.outcome, won=ending.outcome == "won" or won(game), depth=max(ending.depth, 1),
                  turns=ending.turns, keys=len(keys), cause=ending.cause)
    off = sorted(game.isolation.off) if game.isolation is not None else []
    if off:
        result["plugins_off"] = off  # plugins that failed during the run and were switched off
    return result


@functools.lru_cache(maxsize=256)  # a bot presses a few keys thousands of times
def _valid(token: str) -> bool:
    try:
        check_token(token)
    except BadKey:
        return False
    return True


def _check_answer(token: Any) -> None:
    """A bot's answer must be a key token (or None); anything else is the bot's failure."""
    if isinstance(token, str) and _valid(token):
        return
    raise TypeError(f"the bot answered {token!r}, which is not a key token (a printable character or a named "
                    "key: see GameAPI.keys()) or None")


def _crashed(result: dict[str, Any], where: str, error: BaseException, game: Game | None,
             keys: list[str]) -> dict[str, Any]:
    """The run's crash: where (the bot or the game), the error in one line and the last frame, and
    the replay's header and keys (None when the game could not even be built)."""
    frames = traceback.extract_tb(error.__traceback__)
    at = f"{Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    reason = " ".join(str(error).split())[:300]
    state = game.state if game is not None else None
    result.update(outcome="crashed", depth=state.depth if state is not None else 0,
                  turns=state.turn if state is not None else 0, keys=len(keys),
                  crash={"where": where, "error": f"{type(error).__name__}: {reason}".rstrip(": "), "at": at})
    try:
        result["replay"] = None
        if game is not None:
            header = replay.header(game)
            # a bot's failure leaves the game at a turn boundary: its end is recorded, to be checked;
            # the game's own leaves it mid-key, with no end to record
            end = replay.end_of({**header, "keys": keys}, game) if where == "bot" else None
            result["replay"] = {"header": header, "keys": list(keys), "end": end}
    except Exception:  # noqa: BLE001 - a game too broken to describe is still reported
        result["replay"] = None
    return result
