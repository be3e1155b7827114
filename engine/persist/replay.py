"""Replays: a run's seed, preset, size, plugin choices and versions, and every key, as a JSON file.

A game is a pure function of its seed, preset, plugins and keys (:mod:`engine.core.model.rng`), so a
replay needs nothing else. Recording is done by :mod:`engine.persist.keeper`, which hears every key
the Game handles; the last run is always kept as ``last-run.replay.json`` in the user data folder,
and ``--record FILE`` writes one more copy. A run played from a ``--map`` file keeps that first
level (terrain and placements) in the replay, since the file may be gone when it is played. The
third-party plugins it was played with are named in it (:mod:`engine.persist.needs`), so a replay
played without one says which, and how to bring it back.

Integrity: a replay records its ``end``, a digest of every field that shapes play (:data:`SEALED`:
the engine and content versions it was recorded with, the preset, seed, size, plugin choices, source
level and keys) and of the state it ended in, and the digest of its source level (``source``).
Playing it back compares (:func:`verdict`): a replay that does not reproduce its recorded end (any
of those fields edited, or other content that plays differently) is said in one line, and still
played; so is one that records no end (cut short, or its end removed), which cannot be checked. A
replay recorded by another engine version or with other content says so too. The digest is a
check against edits and damage, not a signature: whoever edits a replay and plays it back can
record a new end, and then the replay is true to what it plays.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.errors import UsageError
from engine.core.kinds.schema import Int, Map, Obj, Optional, Str
from engine.core.play.session import Session
from engine.core.play.setup import Setup, prepare
from engine.core.play.snapshot import dumps
from engine.core.version import VERSION as __version__
from engine.kit import limits
from engine.kit.fov import reach_error
from engine.persist import files, leveldata, needs
from engine.persist.runspec import Keys, W

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry
    from engine.core.turn.game import Game

KIND = "replay"
SCHEMA = 4  # 1: without size and digests; 2: its end a digest of the state alone (kept as end_state); 3: a
# source level of the built-in terrain only (one without ``kinds`` is that still: engine.persist.leveldata)
MIGRATIONS: dict[int, Any] = {1: lambda d: {**d, "size": None, "end": None, "source": None},
                              2: lambda d: {**d, "end": None, "end_state": d.get("end")},
                              3: lambda d: d}
# the fields that shape play, all in the digest of its end (with the keys and the final state)
SEALED = ("engine", "content", "game", "seed", "size", "choices", "source_level", "keys")
LAST = "last-run.replay.json"

SPEC = Obj({
    "engine": Str(100), "content": Str(100), "game": Str(100, 1),
    "seed": Int(0, limits.MAX_SEED, W),
    "size": Optional(Obj({"width": Int(1, limits.MAX_MAP_SIDE, W), "height": Int(1, limits.MAX_MAP_SIDE, W)})),
    "choices": Map(Str(100, 1), key=Str(20, 1), most=10, expected="{kind: name} plugin choices"),
    "source_level": Optional(leveldata.LEVEL),
    "source": Optional(Str(64)), "end": Optional(Str(64)),
    "keys": Keys(),
    "plugins": needs.PLUGINS,  # the third-party plugins it was played with (none recorded before: absent)
}, defaults={"size": True, "source_level": True, "source": True, "end": True, "plugins": True})
# a replay upgraded from schema 2 keeps the end it recorded, of the state alone (a file of schema 3
# has no such field: its end is all or nothing)
UPGRADED_SPEC = Obj({**SPEC.fields, "end_state": Optional(Str(64))}, defaults={**SPEC.defaults, "end_state": True})


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def content_version(registry: Registry, game_name: str) -> str:
    """A fingerprint of what makes a game play: the preset's rules, every kind, the plugins' versions."""
    rules = registry.games.get(game_name)
    parts = [repr(rules), *(repr(k) for _, k in sorted(registry.monsters.items())),
             *(repr(k) for _, k in sorted(registry.items.items())),
             *sorted(f"{p.name}={p.version}" for p in registry.plugins if not p.error)]
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=8).hexdigest()


def header(game: Game) -> dict[str, Any]:
    """Everything but the keys and the end: what to build before the first key is pressed."""
    source = leveldata.dump(game.level_source) if game.level_source is not None else None
    return {
        "engine": __version__,
        "content": content_version(game.registry, game.rules.name),
        "game": game.rules.name,
        "seed": game.first_seed,
        "size": {"width": game.rules.width, "height": game.rules.height},
        "choices": game.choices.as_dict(),
        "source_level": source,
        "source": digest(json.dumps(source, sort_keys=True)) if source is not None else None,
        "plugins": needs.described(game.registry, (p.name for p in game.registry.plugins if not p.error)),
    }


def end_of(data: dict[str, Any], game: Game) -> str:
    """The end a replay records: the digest of its :data:`SEALED` fields and of ``game``, the state
    its keys ended in."""
    fields = json.dumps({k: data.get(k) for k in SEALED}, sort_keys=True, separators=(",", ":"))
    return digest(f"{fields}\n{dumps(game)}")


def write(path: Path, head: dict[str, Any], keys: list[str], game: Game) -> None:
    data = {**head, "keys": list(keys)}
    files.write_json(path, KIND, SCHEMA, {**data, "end": end_of(data, game)})


def read(path: Path) -> dict[str, Any]:
    """A replay; a bad one raises UsageError with one line. The file is the player's own: it is
    never moved or renamed."""
    try:
        older: list[int] = []
        data = files.read_json(path, KIND, SCHEMA, MIGRATIONS, upgraded=lambda version, raw: older.append(version))
        return (UPGRADED_SPEC if older else SPEC).check(files.payload(data), "")
    except (files.BadFile, ValueError) as e:
        raise UsageError(f"replay {path}: {str(e).splitlines()[0][:200]}") from None
    except OSError as e:
        raise UsageError(f"replay {path}: cannot read it ({e.strerror or e})") from None


def build(data: dict[str, Any], registry: Registry) -> Game:
    """The game at the start of the replay, started: same preset, size, seed, plugins, first level."""
    size = (data["size"]["width"], data["size"]["height"]) if data.get("size") else None
    plugins = [f"{k}={v}" for k, v in sorted(data["choices"].items())]
    try:
        game = prepare(Setup(game=data["game"], seed=data["seed"], plugins=plugins, size=size), registry)
    except UsageError as e:  # the recorded set-up, not the player's options: said of the replay
        said = str(e)
        if said.startswith("--plugin "):  # a plugin choice it was played with, and the plugin is not here
            said = (f"it was played with {said.removeprefix('--plugin ')}; load the plugin it was played with "
                    "(--plugins-dir DIR, or install it)")
        raise UsageError(f"replay: {said}") from None
    if data.get("source_level") is not None:
        source = data["source_level"]
        try:
            level = leveldata.load(source, "source_level")
        except ValueError as e:
            raise UsageError(f"replay: {e}") from None
        problem = reach_error(game.fov.name, game.fov.max_reach, level.terrain.shape,
                              game.fov.radius_for(game.rules.fov_radius))
        if problem:
            raise UsageError(f"replay: {problem}")
        game.level_source = level
    try:
        return game.start()
    except ValueError as e:  # a source level the preset cannot populate, or whose cells are walls
        raise UsageError(f"replay: {str(e).splitlines()[0][:200]}") from None


def differences(data: dict[str, Any], registry: Registry) -> str:
    """How what the replay was recorded with differs from what is here, in words (empty: nothing):
    the engine's version, the content's, and the plugins it was played with that are not here."""
    mine = {"engine": __version__, "content": content_version(registry, data["game"])}
    diff = [f"{k} {data[k]} (this is {mine[k]})" for k in ("engine", "content") if data[k] != mine[k]]
    lacking = needs.missing(data.get("plugins"), registry)
    if lacking:  # what makes the content differ, named, and how to bring it back
        diff.append(f"{needs.named(lacking)}, not here ({needs.remedy(lacking)} to play it as it was)")
    elif data["content"] != mine["content"]:  # the kinds and presets registered: by the plugins and content files
        diff[-1] += ": a plugin or a content file it was played with is missing, added or changed here"
    return ", ".join(diff)


def play(data: dict[str, Any], registry: Registry) -> Game:
    """Press every key of the replay, stopping at the quit key as the original run did."""
    game = build(data, registry)
    session = Session(game)
    for token in data["keys"]:
        if session.press(token).quit:
            break
    return game


def reproduced(data: dict[str, Any], game: Game) -> bool:
    """Whether a played replay ended where it was recorded to, every field as recorded (one
    upgraded from schema 2 by its state alone, as it recorded no more); False when it records no end."""
    if data.get("end") is not None:
        return data["end"] == end_of(data, game)
    return data.get("end_state") is not None and data["end_state"] == digest(dumps(game))


def unchecked(data: dict[str, Any]) -> bool:
    """Whether the replay records no end to check it by (cut short, or its end removed)."""
    return data.get("end") is None and data.get("end_state") is None


def source_edited(data: dict[str, Any]) -> bool:
    """Whether the replay's source level is not the one it recorded (its digest differs)."""
    source = data.get("source_level")
    return source is not None and data.get("source") is not None and \
        digest(json.dumps(source, sort_keys=True)) != data["source"]


def verdict(name: str, data: dict[str, Any], game: Game | None) -> str | None:
    """The one line to say about a replay's integrity, or None: ``game`` is the replay played to
    its end (None: not judged, as in a window closed early, where only an edited source is said)."""
    edited = " (its source level was edited after it was recorded)" if source_edited(data) else ""
    if unchecked(data):  # said before a window opens too: it needs no game
        return f"replay {name} records no end (cut short, or its end removed): it cannot be checked{edited}; " \
               "played as it is"
    if game is not None and not reproduced(data, game):
        return f"replay {name} does not reproduce its recorded end{edited or ' (edited, or other content)'}; " \
               "played as it is"
    if edited:
        return f"replay {name}: its source level was edited after it was recorded; it may play differently"
    return None
