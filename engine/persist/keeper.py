"""Runs that last: the listener that keeps a Game's files (run save, profile, replay, morgue).

:func:`open_game` is how every front end starts playing (headless and the window alike): it resumes
the saved run or prepares a new one, attaches a :class:`Keeper` to the game's listeners
(``Game.emit``), and only then starts it, so the keeper hears the run's ``start`` and ``level``. The
keeper then

- saves the run at each new level (at the end of the key that got there: a turn boundary) and when
  the quit key asks for it; a quit that keeps nothing (a preset's ``Quit(save=False)``) deletes the
  run save and ends the run in the profile as a death does (cause "quit on depth N");
- on death deletes the run save at once, counts the death in the profile and writes a morgue file;
  on an escape (a preset's exit) counts the escape;
- records every key, writing the replay (``last-run.replay.json``, and ``--record FILE``) at each
  level, death, escape and quit, and on :func:`close`.

True permadeath: loading a run save consumes it, so a run can only be resumed once per quit. There
is one save slot: a new run replaces the saved one at its first level. Whether to resume or start
anew is the caller's to decide (the command line's rule, or the title screen's choice).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.components import Inventory
from engine.core.errors import UsageError
from engine.core.setup import Setup, load, prepare
from engine.persist import files, morgue, profile, replay, runsave

if TYPE_CHECKING:
    from engine.core.game import Game
    from engine.core.registry import Registry

SAVE_NAME = "run.json"


def save_path() -> Path:
    return files.data_dir() / SAVE_NAME


def saved_run() -> dict[str, Any] | None:
    """What a title screen shows for Continue (preset, seed, depth, turn, run), or None when there is
    no saved run. Looking does not consume the save; a bad one is moved aside (one line on stderr)."""
    return files.load(save_path(), runsave.KIND, runsave.SCHEMA, what="run save", then="starting a new run",
                      migrations=runsave.MIGRATIONS, check=runsave.summary)


def open_game(setup: Setup, registry: Registry | None = None, *, choice: str = "new",
              record: str | None = None) -> Game:
    """The game to play: the saved run (consumed) when ``choice`` is "continue" and there is one
    that loads, else a new one. A save that cannot be loaded is moved aside with one line on
    stderr and a new run starts. Raises UsageError like ``prepare``."""
    registry = registry or load(setup.plugins_dirs)
    if choice not in ("continue", "new"):
        raise ValueError(f"choice must be 'continue' or 'new', got {choice!r}")
    if record:
        folder = Path(record).parent
        if not (folder if str(folder) else Path(".")).is_dir() or Path(record).is_dir():
            raise UsageError(f"--record {record}: cannot write a file there")
    loaded = None
    if choice == "continue":
        try:
            loaded = files.load(save_path(), runsave.KIND, runsave.SCHEMA, what="run save", then="starting a new run",
                                migrations=runsave.MIGRATIONS, check=lambda d: runsave.load(d, registry))
        except runsave.NeedsPlugin as e:  # the save is sound: kept where it is, for when the plugin is back
            raise UsageError(f"run save {save_path()}: {e}; install it to play on, or start a new run with --new "
                             "(which replaces this save)") from None
    if loaded is not None:
        game, keys = loaded
        files.remove(save_path())  # permadeath: this save cannot be loaded again
        game.listeners.append(Keeper(game, keys=keys, record=record))
        return game
    game = prepare(setup, registry)
    keeper = Keeper(game, record=record)
    game.listeners.append(keeper)
    game.start()
    keeper.save(game)
    return game


def close(game: Game) -> None:
    """The session is over (the keys ran out, the window closed): write what is pending."""
    for listener in game.listeners:
        if isinstance(listener, Keeper):
            listener.close(game)


def death_lines(game: Game) -> list[str]:
    """The profile as lines of text, for the death screen: the game's own preset's."""
    return profile.lines(profile.load(), game.rules.name)


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
                self.write_replays(game)
        elif event == "start":
            profile.run_started(game.rules.name)
        elif event == "level":
            profile.reached(game.depth, game.rules.name)
            self.level_pending = self.replay_pending = True
        elif event == "death":
            files.remove(save_path())
            self.level_pending = False
            self.end_run(game, escaped=False, cause=morgue.cause_of_death(game))
            try:
                morgue.write(game, morgue.cause_of_death(game), files.data_dir())
            except OSError as e:
                files.warn(f"morgue: cannot write it ({e.strerror or e})")
        elif event == "escape":
            self.end_run(game, escaped=True, cause=f"escaped from depth {game.depth}")
        elif event == "quit":
            if game.alive and data.get("save", True):
                self.save(game)
            elif game.alive:  # a quit that keeps nothing (Quit(save=False)): the run ends here
                files.remove(save_path())
                self.level_pending = False
                self.end_run(game, escaped=False, cause=f"quit on depth {game.depth}")
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
            files.write_json(save_path(), runsave.KIND, runsave.SCHEMA, runsave.capture(game, self.keys))
        except OSError as e:
            files.warn(f"run save {save_path()}: cannot write it ({e.strerror or e})")

    def write_replays(self, game: Game) -> None:
        self.replay_pending = False
        targets = [files.data_dir() / replay.LAST, *([self.record] if self.record else [])]
        for target in targets:
            try:
                replay.write(target, self.header, self.keys, game)
            except OSError as e:
                files.warn(f"replay {target}: cannot write it ({e.strerror or e})")

    def close(self, game: Game) -> None:
        if self.level_pending and game.alive and not game.quit_requested:
            self.save(game)
        self.write_replays(game)
