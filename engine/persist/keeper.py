"""Runs that last: the session glue between a Game and its files (run save, profile, replay, morgue).

:func:`open_game` is how every front end starts playing (headless ``play_headless`` and the window
alike): it resumes the saved run or starts a new one, and attaches a :class:`Keeper` to the game's
listeners (``Game.emit``). The keeper then

- saves the run at each new level (at the end of the key that got there: a turn boundary) and when
  the quit key is pressed;
- on death deletes the run save at once, counts the death in the profile and writes a morgue file;
  on an escape (a preset's exit) counts the escape;
- records every key, writing the replay (``last-run.replay.json``, and ``--record FILE``) at each
  level, death, escape and quit, and on :func:`close`.

True permadeath: loading a run save consumes it, so a run can only be resumed once per quit. A
preset with ``keep_saves = true`` (a roguelite) keeps the save when it is loaded and when the player
dies. There is one save slot: a new run replaces the saved one at its first level.

When to resume, headless: when a save exists and the command line asks for nothing else; ``--new``,
``--seed``, ``--map``, ``--size``, ``--game`` or ``--plugin`` start a new run. A window's title screen asks the
player instead: :func:`saved_run` says whether to offer Continue, and ``open_game(setup,
choice="continue" | "new")`` does what they chose.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core import setup as session
from engine.core.components import Inventory
from engine.persist import files as savefile
from engine.persist import morgue, profile, replay
from engine.persist import runsave as save

if TYPE_CHECKING:
    from engine.core.game import Game
    from engine.core.registry import Registry

SAVE_NAME = "run.json"


def save_path() -> Path:
    return savefile.data_dir() / SAVE_NAME


def saved_run() -> dict[str, Any] | None:
    """What a title screen shows for Continue (preset, seed, depth, turn, run), or None when there is
    no saved run. Looking does not consume the save; a bad one is moved aside (one line on stderr)."""

    def summary(data: dict[str, Any]) -> dict[str, Any]:
        out = save.summary(data)
        if not isinstance(out["game"], str) or not all(isinstance(out[k], int) for k in ("seed", "depth", "turn")):
            raise ValueError("the summary fields have the wrong types")
        return out

    return savefile.load(save_path(), save.KIND, save.SCHEMA, what="run save", then="starting a new run",
                         migrations=save.MIGRATIONS, check=summary)


def wants_new(setup: session.Setup) -> bool:
    """The headless rule: anything that describes a run on the command line starts a new one."""
    return bool(setup.new_run or setup.seed is not None or setup.map_file or setup.game or setup.plugins
                or setup.size)


def open_game(setup: session.Setup, registry: Registry | None = None, *, choice: str | None = None) -> Game:
    """The game to play: the saved run (consumed) when ``choice`` is "continue", else a new one.
    ``choice=None`` applies the headless rule (:func:`wants_new`). A save that cannot be loaded is
    moved aside with one line on stderr and a new run starts. Raises UsageError like ``new_game``."""
    registry = registry or session.load(setup.plugins_dirs)
    if choice is None:
        choice = "new" if wants_new(setup) else "continue"
    if choice not in ("continue", "new"):
        raise ValueError(f"choice must be 'continue' or 'new', got {choice!r}")
    if setup.record:
        folder = Path(setup.record).parent
        if not (folder if str(folder) else Path(".")).is_dir() or Path(setup.record).is_dir():
            raise session.UsageError(f"--record {setup.record}: cannot write a file there")
    loaded = None
    if choice == "continue":
        loaded = savefile.load(save_path(), save.KIND, save.SCHEMA, what="run save", then="starting a new run",
                               migrations=save.MIGRATIONS, check=lambda d: (save.restore(d, registry), d["keys"]))
    if loaded is not None:
        game, keys = loaded
        if not game.rules.keep_saves:
            savefile.remove(save_path())  # permadeath: this save cannot be loaded again
        game.listeners.append(Keeper(game, keys=keys, record=setup.record))
        return game
    game = session.new_game(setup, registry)
    keeper = Keeper(game, record=setup.record)
    game.listeners.append(keeper)
    keeper("start", game)
    keeper("level", game)
    keeper.save(game)
    return game


def close(game: Game) -> None:
    """The session is over (the keys ran out, the window closed): write what is pending."""
    for listener in game.listeners:
        if isinstance(listener, Keeper):
            listener.close(game)


def death_lines() -> list[str]:
    """The profile as lines of text, for the death screen."""
    return profile.lines(profile.load())


class Keeper:
    """A Game listener (see ``Game.emit``) that keeps the run's files; one per game."""

    def __init__(self, game: Game, *, keys: list[str] | None = None, record: str | None = None) -> None:
        self.keys: list[str] = list(keys or [])  # every key of the whole game, from its first seed
        self.record = Path(record) if record else None
        self.header = replay.header(game)
        self.level_pending = False  # a level was entered mid-key: save when the key is done
        self.replay_pending = False

    def __call__(self, event: str, game: Game, **data: Any) -> None:
        if event == "key":
            self.keys.append(data["token"])
            if self.level_pending and game.alive and not game.quit_requested:
                self.save(game)
            if self.replay_pending:
                self.write_replays()
        elif event == "start":
            profile.run_started()
        elif event == "level":
            profile.reached(game.depth)
            self.level_pending = self.replay_pending = True
        elif event == "death":
            if not game.rules.keep_saves:
                savefile.remove(save_path())
            self.level_pending = False
            self.end_run(game, escaped=False, cause=morgue.cause_of_death(game))
            try:
                morgue.write(game, morgue.cause_of_death(game), savefile.data_dir())
            except OSError as e:
                savefile.warn(f"morgue: cannot write it ({e.strerror or e})")
        elif event == "escape":
            self.end_run(game, escaped=True, cause=f"escaped from depth {game.depth}")
        elif event == "quit":
            if game.alive:
                self.save(game)
            self.replay_pending = True

    def end_run(self, game: Game, *, escaped: bool, cause: str) -> None:
        gold = game.world.get(game.player, Inventory).gold
        profile.run_ended(escaped=escaped, seed=game.seed, preset=game.rules.name, depth=game.depth,
                          turns=game.turn, gold=gold, cause=cause)
        self.replay_pending = True

    def save(self, game: Game) -> None:
        """Write the run save now (the game must be at a turn boundary)."""
        self.level_pending = False
        try:
            savefile.write_json(save_path(), save.KIND, save.SCHEMA, save.capture(game, self.keys))
        except OSError as e:
            savefile.warn(f"run save {save_path()}: cannot write it ({e.strerror or e})")

    def write_replays(self) -> None:
        self.replay_pending = False
        targets = [savefile.data_dir() / replay.LAST, *([self.record] if self.record else [])]
        for target in targets:
            try:
                replay.write(target, self.header, self.keys)
            except OSError as e:
                savefile.warn(f"replay {target}: cannot write it ({e.strerror or e})")

    def close(self, game: Game) -> None:
        if self.level_pending and game.alive and not game.quit_requested:
            self.save(game)
        self.write_replays()
