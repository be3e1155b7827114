"""Runs that last: the listener that keeps a Game's files (run save, profile, replay, morgue).

:func:`open_game` is how every front end starts playing (headless and the window alike): it claims
the save slot, resumes the saved run or prepares a new one, attaches a :class:`Keeper` to the
game's listeners (``Game.emit``: typed events, :mod:`engine.core.model.events`), and only then starts
it, so the keeper hears the run's ``RunStarted`` and ``LevelEntered``; :func:`close` ends the
session.

Permadeath as DCSS and Brogue keep it. The save stays on disk while its run is played, so a crash
(SIGKILL, a power cut, a bug) resumes from the last save point, and never from anything earlier:

- **Save points** are written at a turn boundary (the end of a key): when a run begins (its first
  level) and at each new level; every :data:`SAVE_EVERY` turns, so a crash loses at most that many
  turns; and when the session ends while the run goes on (the quit key, the window closed, the keys
  run out). A session that ends in an exception writes nothing more: its last state may be half a
  turn, and the last save point stands.
- **The run is over**, and its save removed before anything else happens (before the profile and
  the morgue, so nothing can read a dead run's save), at a death, an escape (the victory) and a
  quit that ends the run (a ruleset's ``Quit(save=False)``). A save that could not be removed (an
  I/O error) is marked ended twice over: an ended mark is written over it in place, and the
  profile records its bytes. Either is enough for the next start to remove it instead of resuming
  it (so a death is final when the disk fails twice); when both fail too, one line says to delete it.
- **A preset without saves** (its ruleset's ``saves`` is False, as in the sources of bunyip,
  rogue-sdl and lesson28) never writes a run save, so no exit leaves one to resume (the quit key,
  the keys run out, the window closed, a stop signal, a crash) and the saved run of another preset
  stays as it was. Its run ends with its session: the profile counts a quit, unless the session
  ended in a crash (an exception or a kill: not the player's doing, and a kill cannot be counted
  at all, so neither is), which counts in no ending. A run save of such a preset (left by an older
  Undercroft) is removed, not resumed (one line).
- **One player per save**: the slot is claimed (:func:`~engine.persist.saveslot.claim`, the run lock of
  :mod:`engine.persist.lock`) before the save is read, and held until the session ends; the OS
  releases it if the process dies. While another process holds it, resuming is refused in one line
  and a new run may be played, but is not saved (the slot is the other player's). A second claim in
  one process takes the slot over from the first (whose game then writes no save).
- **An unwritable folder** cannot remove a dead run's save, so a saved run is not resumed while
  the folder cannot be written (one line); a new run plays on, not saved.

The keeper also counts runs, depths, deaths, quits and escapes in the profile, writes a morgue at
each death, and records every key, writing the replay (``last-run.replay.json``, and ``--record
FILE``) at each level, death, escape and quit, and when the session ends. There is one save slot: a
new run (of a preset that saves) replaces the saved one at its first level. Whether to resume or
start anew is the caller's to decide (the command line's rule, or the title screen's choice).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.errors import UsageError, show_traceback
from engine.core.kinds.specs import Json, Str
from engine.core.model.components import Inventory
from engine.core.model.events import Escaped, Event, KeyPlayed, LevelEntered, PlayerDied, QuitAsked, RunStarted, Victory
from engine.core.play.setup import Setup, load, prepare
from engine.core.plugin.isolation import described, one_line, players
from engine.kit import limits
from engine.persist import disk, files, morgue, needs, profile, replay, runsave, runspec
from engine.persist.saveslot import Slot, claim, digest, drop_ended, drop_if_ended, exists, release_claim, saved_run

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry
    from engine.core.turn.game import Game

# the session's names; the slot's (claim, saved_run, Slot: engine.persist.saveslot) are named here too
__all__ = ["SAVE_EVERY", "Keeper", "Slot", "claim", "close", "death_lines", "open_game", "saved_run"]

# turns between save points during play: at most this much is lost to a crash (or gained by killing
# the game to undo a bad fight, which no save kept on disk can prevent: DCSS's cannot either). A save
# point of the default 80x43 game takes 3-4 ms (median, fsync included), of a 1000x1000 map 20-35 ms.
SAVE_EVERY = 100


def open_game(setup: Setup, registry: Registry | None = None, *, choice: str = "new",
              record: str | None = None, slot: Slot | None = None, settle_later: bool = False,
              implied: bool = False) -> Game:
    """The game to play: the saved run when ``choice`` is "continue" and there is one that loads,
    else a new one. A save that cannot be loaded is moved aside with one line on stderr and a new
    run starts. ``slot``: claimed already (the title screen claims it before reading the save).
    ``settle_later``: a new run's first writes (the profile's run and level, its first save point)
    wait for :func:`settle` (a window calls it after its first frame), or for the run's first event
    or the session's end, whichever comes first; the slot is claimed now all the same.
    Raises UsageError like ``prepare``, and when the saved run cannot be resumed (another process
    plays it, or the folder cannot be written). A new run over a saved one counts that one as a
    quit; ``implied``: the player did not ask for a new run by name (``--seed`` starts one), so
    that its end is said (:func:`replace_saved`)."""
    registry = registry or load(setup.plugins_dirs)
    if choice not in ("continue", "new"):
        raise ValueError(f"choice must be 'continue' or 'new', got {choice!r}")
    if record:
        folder = Path(record).parent  # "." for a bare name: a parent is never empty
        if not folder.is_dir() or Path(record).is_dir():
            raise UsageError(f"--record {record}: cannot write a file there")
        special = files.not_a_file(Path(record))  # written atomically, a device would be replaced
        if special:
            raise UsageError(f"--record {record}: {special} (expected a file to write the replay to)")
        try:  # a folder that exists but takes no file (no permission, read-only, /proc): said before the run
            disk.probe(folder)
        except OSError as e:
            raise UsageError(f"--record {record}: cannot write a file there ({e.strerror or e})") from None
    slot = slot if slot is not None else claim()
    loaded = None
    if choice == "continue":
        if slot.blocked and (slot.busy or exists(slot.path)):
            hint = "close it first" if slot.busy else "make the folder writable"
            raise UsageError(f"{slot.blocked}; {hint}, or start a new run with --new")
        if drop_if_ended(slot):
            loaded = None
        else:
            try:
                loaded = files.load(slot.path, runspec.KIND, runspec.SCHEMA, what="run save",
                                    then="starting a new run", migrations=runspec.MIGRATIONS,
                                    check=lambda d: runsave.load(d, registry))
            except needs.NeedsPlugin as e:  # the save is sound: kept where it is, for when the plugin is back
                raise UsageError(f"run save {slot.path}: {e}; {e.remedy()} to play on, or start a new run with "
                                 "--new (which replaces this save)") from None
            except runspec.RunEnded as e:  # the save carries its own end: a dead run is never resumed
                drop_ended(slot, str(e))
    if loaded is not None and not saves(loaded[0]):
        drop_unsaved(slot, loaded[0])
        loaded = None
    if loaded is not None:
        game, keys = loaded
        game.listeners.append(Keeper(game, slot, keys=keys, record=record, resumed=True))
        return game
    files.data_dir()  # an unwritable folder is said now (once), before play
    game = prepare(setup, registry)
    if slot.busy and saves(game):  # a preset that never saves loses nothing to another player
        files.warn(f"{slot.blocked}: this new run will not be saved")
    replace_saved(slot, registry, say=implied)
    keeper = Keeper(game, slot, record=record, settle_later=settle_later)
    game.listeners.append(keeper)
    game.start()
    if not settle_later:
        keeper.save(game)
    return game


def replace_saved(slot: Slot, registry: Registry, say: bool) -> None:
    """A new run started over a saved one: the saved run ends here, counted as a quit (it left the
    profile's counts), and ``say``: said in one line (``--seed``, ``--map``... start a new run, and
    a player who typed no ``--new`` lost theirs without a word). Its file is replaced by the new
    run's first save point."""
    if not slot.mine:
        return
    info = saved_run(slot, registry)
    if info is None or info.get("blocked"):
        return
    if say:
        files.warn(f"the run saved in {slot.path} ({info['game']}, depth {info['depth']}, turn {info['turn']}) "
                   "ends here, counted as a quit: a new run replaces it (--new, --seed, --map, --size, --game and "
                   "--plugin each start one)")
    profile.run_ended(escaped=False, quit=True, seed=info["seed"], preset=info["game"], depth=info["depth"],
                      turns=info["turn"], gold=0, cause="left for a new run")


def saves(game: Game) -> bool:
    """Whether the game's preset saves its runs (its ruleset's ``saves``)."""
    return bool(getattr(game.ruleset, "saves", True))


def savable_plugin_data(data: dict[str, Any]) -> dict[str, Any]:
    """The plugins' data as a save holds it. A plugin whose data a save cannot hold (a value that
    holds itself, nests past the limit, or is no JSON value, or more than is left of
    ``MAX_PLUGIN_DATA_BYTES`` for all plugins, taken in name order) is left out of the save, in one
    line naming it, once: the run is still saved, and that plugin's data starts empty on resume."""
    out, left = {}, limits.MAX_PLUGIN_DATA_BYTES
    for name, value in sorted(data.items(), key=lambda pair: str(pair[0])):
        try:
            Str(100, 1).check(name, "plugin_data: a plugin's name")  # as the save's spec keys it
            checked = Json().check(value, f"plugin_data.{name}")
            # as the writer writes it (an int of 5000 digits is refused here)
            size = len(json.dumps(checked, separators=(",", ":"), allow_nan=False))
            if size > left:
                raise ValueError(f"{size} bytes, more than the {left} left of the {limits.MAX_PLUGIN_DATA_BYTES} "
                                 "all plugins' data may take in a save")
            left -= size
            out[name] = checked
        except (ValueError, TypeError, RecursionError) as e:
            reason = " ".join(str(e).split())[:200] or type(e).__name__
            files.warn_once(f"plugin {str(name)[:40]!r}: its data cannot be saved ({reason}); the run is saved "
                            "without it", key=f"plugin-data:{name}")
    return {name: out[name] for name in data if name in out}  # in the run's order


def drop_unsaved(slot: Slot, game: Game) -> None:
    """A run save of a preset without saves (an older Undercroft wrote them): removed, one line."""
    try:
        files.remove(slot.path)
        files.warn(f"run save {slot.path}: {game.rules.name} has no saves (an older Undercroft kept its run); "
                   "removed it; starting a new run")
    except OSError as e:
        files.warn(f"run save {slot.path}: {game.rules.name} has no saves, but it cannot be removed "
                   f"({e.strerror or e}); starting a new run")


def close(game: Game | None = None, *, failed: bool = False) -> None:
    """The session is over (the keys ran out, the window closed): save the run if it goes on, write
    what is pending, and let the slot go. ``failed``: it ended in an exception, mid-turn perhaps:
    nothing more is written (the last save point stands)."""
    keepers = [listener for listener in (game.listeners if game is not None else ()) if isinstance(listener, Keeper)]
    for keeper in keepers:
        keeper.close(game, failed=failed)
    if not keepers:  # a slot claimed for a title screen, and never played
        release_claim()


def settle(game: Game) -> None:
    """Write what ``open_game(..., settle_later=True)`` put off, now (at a turn boundary)."""
    for listener in list(game.listeners):
        if isinstance(listener, Keeper):
            listener.settle(game)


def death_lines(game: Game) -> list[str]:
    """The profile as lines of text, for the death screen: the game's own preset's."""
    return profile.lines(profile.load(), game.rules.name)


class Keeper:
    """A Game listener (see ``Game.emit``) that keeps the run's files; one per game."""

    def __init__(self, game: Game, slot: Slot, *, keys: list[str] | None = None, record: str | None = None,
                 resumed: bool = False, settle_later: bool = False) -> None:
        self.slot = slot
        # profile writes put off until settle() (settle_later), in order; None once settled
        self.unsettled: list[Callable[[], object]] | None = [] if settle_later else None
        self.keys: list[str] = list(keys or [])  # every key of the whole game, from its first seed
        self.record = Path(record) if record else None
        self.header = replay.header(game)
        self.saved_turn = game.turn if resumed else 0  # the turn of the last save point
        # where the last save point written leaves the run (what a resume would play from)
        self.written = f"depth {game.depth}, turn {game.turn}" if resumed else None
        self.level_pending = False  # a level was entered mid-key: save when the key is done
        self.replay_pending = False
        self.unwritten: set[Path] = set()  # the replays whose last write failed (said once until one succeeds)
        self.starting = False  # a run started, its first level not yet made

    def __call__(self, event: Event, game: Game) -> None:
        if self.unsettled is not None and not isinstance(event, RunStarted | LevelEntered):
            self._write_profile()  # the run's first writes come first, before any event of its keys
        match event:
            case KeyPlayed(token=token):
                self.note_key(token)
                if game.playing and not game.quit_requested and (
                        self.level_pending or game.turn - self.saved_turn >= SAVE_EVERY):
                    self.save(game)
                if self.replay_pending:
                    self.write_replays(game)
            case RunStarted():
                self.starting = True  # counted when its first level is made (one that never is is no run)
            case LevelEntered():
                if self.starting:
                    self.starting = False
                    self._profile(functools.partial(profile.run_started, game.rules.name))
                self._profile(functools.partial(profile.reached, game.depth, game.rules.name))
                self.level_pending = self.replay_pending = True
            case PlayerDied():
                cause = morgue.cause_of_death(game)
                self.forget(game, cause)  # first: nothing may read a dead run's save
                self.level_pending = False
                self.end_run(game, escaped=False, cause=cause)
                self.write_morgue(game, cause)
            case Victory():
                cause = f"won on turn {game.turn}"
                self.forget(game, cause)  # the run is won: it is over, like a death, and remembered as a win
                self.end_run(game, escaped=True, cause=cause)
                self.write_morgue(game, cause)
            case Escaped():
                cause = f"escaped from depth {game.depth}"
                self.forget(game, cause)  # the run is won: its save goes; the next run is saved at its first level
                self.end_run(game, escaped=True, cause=cause)
            case QuitAsked(save=save):
                if game.playing and save and saves(game):
                    self.save(game)
                elif game.playing:  # a quit that ends the run, as the classic games' quit does
                    self.forget(game, f"quit on depth {game.depth}")
                    self.end_run(game, quit=True)
                self.replay_pending = True

    def _profile(self, write: Callable[[], object]) -> None:
        if self.unsettled is not None:
            self.unsettled.append(write)
        else:
            write()

    def _write_profile(self) -> None:
        writes, self.unsettled = self.unsettled or [], None
        for write in writes:
            write()

    def settle(self, game: Game) -> None:
        """The writes put off (``settle_later``), now, at a turn boundary: the profile's, then the
        run's first save point unless a key has saved since (a key's end saves a new level)."""
        if self.unsettled is None:
            return
        self._write_profile()
        if self.level_pending and game.playing and not game.quit_requested:
            self.save(game)

    @staticmethod
    def write_morgue(game: Game, cause: str) -> None:
        try:
            morgue.write(game, cause, files.data_dir())
        except OSError as e:
            files.warn(f"morgue: cannot write it ({e.strerror or e})")

    def note_key(self, token: str) -> None:
        if len(self.keys) < limits.MAX_KEYS:
            self.keys.append(token)
        else:  # a replay holds no more: it stops here (and will say it does not reach this run's end)
            files.warn_once(f"this run is longer than a replay holds ({limits.MAX_KEYS} keys): its replay "
                            "stops there", key="keys-full")

    def end_run(self, game: Game, *, escaped: bool = False, quit: bool = False, cause: str = "") -> None:
        """Count the run's end in the profile: a death, an escape, or (``quit``) a quit."""
        gold = game.world.get(game.player, Inventory).gold
        profile.run_ended(escaped=escaped, quit=quit, seed=game.seed, preset=game.rules.name, depth=game.depth,
                          turns=game.turn, gold=gold, cause=cause or f"quit on depth {game.depth}")
        self.replay_pending = True

    def save(self, game: Game) -> None:
        """Write the run save now, a save point (the game must be at a turn boundary). A save the
        loader would refuse is not written: the last save point stands, and every save point that
        cannot be written says so (one line each: the run is not being kept)."""
        self.level_pending = False
        self.saved_turn = game.turn
        if not self.slot.mine or not saves(game):
            return
        path = self.slot.path
        try:
            data = runsave.capture(game, self.keys)
            data["plugin_data"] = savable_plugin_data(game.state.plugin_data)
            runsave.check_writable(data, game)
            if files.write_json(path, runspec.KIND, runspec.SCHEMA, data):
                self.written = f"depth {game.depth}, turn {game.turn}"
        except OSError as e:
            files.warn(f"run save {path}: cannot write it ({e.strerror or e})")
        except BaseException as e:  # noqa: BLE001 - a plugin's component JSON cannot hold, or whose copy raises
            if players(e):
                raise
            show_traceback(e)  # UNDERCROFT_DEBUG=1: the traceback too
            reason = one_line(e, 200) if isinstance(e, ValueError | TypeError) else described(e, 200)
            since = f"it would resume from its last save point ({self.written})" if self.written else \
                "it has no save point to resume from"
            files.warn(f"run save {path}: this run cannot be saved ({reason}); {since}")

    def forget(self, game: Game, cause: str) -> None:
        """The run is over (``cause``: how): remove its save. One that cannot be removed carries its
        own end (an ended mark written over it in place) and is marked ended in the profile by the
        bytes it is left with, so that no later start resumes it even when one of the two fails. A
        preset without saves wrote none: the slot's file, if any, is another preset's run, and stays."""
        if not self.slot.mine or not saves(game):
            return
        path = self.slot.path
        try:
            files.remove(path)
            return
        except OSError as e:
            failure = e.strerror or str(e)
        try:
            marked = files.overwrite_json(path, runspec.KIND, runspec.SCHEMA, runspec.ended_mark(cause))
        except OSError:
            marked = False  # cut short, perhaps: then no start takes it for a save either
        ended = digest(path)  # the bytes it has now, whatever the mark left
        if ended is not None:
            marked = profile.update_written(lambda p: p.__setitem__("ended_save", ended)) or marked
        files.warn(f"run save {path}: cannot remove it ({failure}); "
                   + ("it is marked ended, and will not be resumed" if marked
                      else "nor mark it ended: delete it, its run has ended"))

    def write_replays(self, game: Game, held: list[str] | tuple[str, ...] = ()) -> None:
        self.replay_pending = False
        targets = [files.data_dir() / replay.LAST, *([self.record] if self.record else [])]
        # a prompt still open (a menu, a cursor) changed nothing, so the save leaves its keys out;
        # the replay keeps them, to end as the session did, with the prompt open
        keys = [*self.keys, *held][: limits.MAX_KEYS]
        for target in targets:
            try:
                replay.write(target, self.header, keys, game)
            except (OSError, ValueError) as e:
                if target not in self.unwritten:  # not again at every level's save point
                    files.warn(f"replay {target}: cannot write it ({getattr(e, 'strerror', None) or e})")
                self.unwritten.add(target)
            else:
                self.unwritten.discard(target)

    def close(self, game: Game, *, failed: bool = False) -> None:
        """The session ends: a save point (or, for a run that is not saved, its quit) and the
        replays, with the keys of a prompt still open (``game.session``'s held keys)."""
        self._write_profile()  # the run's start is counted however the session ends
        if not failed:
            if game.playing and not game.quit_requested and saves(game):
                self.save(game)  # the session ends and the run goes on: a save point
            elif game.playing and not game.quit_requested:
                self.end_run(game, quit=True)  # a run that is not saved ends with its session: a quit
            self.write_replays(game, game.session.held_keys if game.session is not None else ())
        self.slot.release()
