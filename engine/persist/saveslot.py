"""The run save's slot: this process's claim on ``run.json`` (:func:`claim`), what a title screen
offers to continue (:func:`saved_run`), and a save whose run ended but could not be removed then.

The rules they keep (one player per save, no resuming while the folder cannot be written, a dead
run's save never resumed) are permadeath's, told in :mod:`engine.persist.keeper`. A save that could
not be removed at its run's end carries its own end (an ended mark written over it in place:
:func:`~engine.persist.runspec.ended_mark`), and is marked ended in the profile by its bytes
(:func:`digest`): either is enough, so a death stays final when the disk fails twice. The next
start removes such a save instead of resuming it (:func:`drop_if_ended`, :func:`drop_ended`), and
the title screen does not offer it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.kit import limits
from engine.kit.textfile import TextFileError, read_bytes
from engine.persist import files, lock, profile, runspec

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry

SAVE_NAME = "run.json"


def save_path() -> Path:
    """Where the run save is (in the data folder)."""
    return files.data_dir() / SAVE_NAME


@dataclass
class Slot:
    """This process's claim on the run save: ``hold`` (the run lock) when it may resume and write
    it; else ``blocked`` is the one line that says why not (another player, an unwritable folder)."""

    path: Path
    hold: lock.RunLock | None = None
    blocked: str | None = None
    busy: bool = False  # blocked by another player (not by the folder)

    @property
    def mine(self) -> bool:
        """Whether this process may write and remove the save now."""
        return self.hold is not None and self.hold.held and files.saving_enabled()

    def release(self) -> None:
        if self.hold is not None:
            self.hold.release()


_slot: Slot | None = None  # the slot this process claimed last


def claim() -> Slot:
    """Claim the save slot for this process, before the save is read (a claim made earlier in this
    process is released first: one game per process keeps the save). Never raises."""
    global _slot
    if _slot is not None:
        _slot.release()
    path = files.data_dir(say=False) / SAVE_NAME
    slot = _slot = Slot(path)
    reason = files.unusable_reason()
    if reason is None:
        try:
            slot.hold = lock.acquire_run(path)
        except lock.RunBusy as e:
            slot.blocked, slot.busy = str(e), True
            return slot
        except OSError as e:
            files.unwritable(e, path.parent)  # the folder turned unwritable: saving goes off (said later)
            reason = e.strerror or str(e)
    if reason is not None:
        slot.blocked = (f"cannot resume the run saved in {path} while {path.parent} cannot be written ({reason}): "
                        "permadeath could not remove it at a death")
    return slot


def release_claim() -> None:
    """Let the slot claimed last go (a title screen's claim, never played)."""
    if _slot is not None:
        _slot.release()


def saved_run(slot: Slot | None = None, registry: Registry | None = None) -> dict[str, Any] | None:
    """What a title screen shows for Continue (preset, seed, depth, turn, run; ``blocked``: the line
    that says it cannot be resumed), or None when there is no saved run to offer. Looking changes
    nothing; a bad save is moved aside (one line), unless another process holds it. With the
    ``registry``, a save of a preset without saves (an older Undercroft wrote them) is not offered:
    resuming removes it (:func:`engine.persist.keeper.open_game`)."""
    path = slot.path if slot is not None else save_path()
    try:
        info = files.load(path, runspec.KIND, runspec.SCHEMA, what="run save", then="starting a new run",
                          migrations=runspec.MIGRATIONS, check=runspec.summary,
                          aside=slot is None or slot.hold is not None)
    except runspec.RunEnded:  # its run is over: nothing to continue (the next start removes it)
        info = None
    if info is not None and ended_in_profile(path):
        info = None
    if info is not None and registry is not None and not preset_saves(registry, info["game"]):
        info = None
    if slot is not None and slot.blocked and (info is not None or slot.busy or exists(path)):
        return {**(info or {}), "blocked": slot.blocked}
    return info


def preset_saves(registry: Registry, name: str) -> bool:
    """Whether the preset ``name`` saves its runs (its ruleset's ``saves``; an unknown one does)."""
    rules = registry.games.get(name)
    ruleset = registry.rulesets.get(rules.ruleset) if rules is not None and rules.ruleset else None
    return bool(getattr(ruleset, "saves", True))


def exists(path: Path) -> bool:
    """Whether ``path`` exists (False when it cannot even be looked at)."""
    try:
        return path.exists()
    except OSError:
        return False


def digest(path: Path) -> str | None:
    """The save's bytes as a digest (what the profile keeps of a save that could not be removed)."""
    try:
        return hashlib.blake2b(read_bytes(path, limits.MAX_FILE_BYTES), digest_size=16).hexdigest()
    except (OSError, TextFileError):
        return None


def ended_in_profile(path: Path) -> bool:
    """Whether the profile marks the save at ``path`` ended (by its bytes)."""
    ended = profile.load().get("ended_save")
    return bool(ended) and digest(path) == ended


def drop_ended(slot: Slot, cause: str) -> None:
    """The save carries its own end (RunEnded): it is removed now (one line), and not resumed
    whether or not it can be."""
    try:
        if not (slot.mine and files.remove(slot.path)):
            raise OSError("the folder cannot be written now")
        files.warn(f"run save {slot.path}: its run had ended ({cause[:100]}; the save could not be removed then); "
                   "removed it now; starting a new run")
    except OSError as e:
        files.warn(f"run save {slot.path}: its run has ended ({cause[:100]}), but it cannot be removed "
                   f"({e.strerror or e}); starting a new run")


def drop_if_ended(slot: Slot) -> bool:
    """Whether the save is one whose run ended but that could not be removed then, as the profile
    marks it: if so it is removed now (one line), and True. Only then is the save read twice."""
    if not slot.mine or not ended_in_profile(slot.path):
        return False
    try:
        files.remove(slot.path)
        profile.update(lambda p: p.__setitem__("ended_save", None))
        files.warn(f"run save {slot.path}: its run had ended (the save could not be removed then); "
                   "removed it now; starting a new run")
    except OSError as e:
        files.warn(f"run save {slot.path}: its run has ended, but it cannot be removed ({e.strerror or e}); "
                   "starting a new run")
    return True
