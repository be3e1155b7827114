"""Replays: a run's seed, preset, size, plugin choices and versions, and every key, as a JSON file.

A game is a pure function of its seed, preset, plugins and keys (:mod:`engine.core.model.rng`), so a
replay needs nothing else. Recording is done by :mod:`engine.persist.keeper`, which hears every key
the Game handles; the last run is always kept as ``last-run.replay.json`` in the user data folder,
and ``--record FILE`` writes one more copy. A run played from a ``--map`` file keeps that first
level (terrain and placements) in the replay, since the file may be gone when it is played.

Integrity: a replay records the digest of the state it ended in (``end``) and of its source level
(``source``). Playing it back compares: a replay that does not reproduce its recorded end (an edited
key, seed or choice, an edited source level, other content) is said in one line, and still played
(:func:`verdict`). A replay recorded by another engine version or with other content says so too.
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
from engine.persist import files, leveldata
from engine.persist.runspec import Keys, W

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry
    from engine.core.turn.game import Game

KIND = "replay"
SCHEMA = 2  # 1: without size and digests
MIGRATIONS: dict[int, Any] = {1: lambda d: {**d, "size": None, "end": None, "source": None}}
LAST = "last-run.replay.json"

SPEC = Obj({
    "engine": Str(100), "content": Str(100), "game": Str(100, 1),
    "seed": Int(0, limits.MAX_SEED, W),
    "size": Optional(Obj({"width": Int(1, limits.MAX_MAP_SIDE, W), "height": Int(1, limits.MAX_MAP_SIDE, W)})),
    "choices": Map(Str(100, 1), key=Str(20, 1), most=10, expected="{kind: name} plugin choices"),
    "source_level": Optional(leveldata.LEVEL),
    "source": Optional(Str(64)), "end": Optional(Str(64)),
    "keys": Keys(),
}, defaults={"size": True, "source_level": True, "source": True, "end": True})


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
    }


def write(path: Path, head: dict[str, Any], keys: list[str], game: Game) -> None:
    files.write_json(path, KIND, SCHEMA, {**head, "keys": list(keys), "end": digest(dumps(game))})


def read(path: Path) -> dict[str, Any]:
    """A replay; a bad one raises UsageError with one line. The file is the player's own: it is
    never moved or renamed."""
    try:
        data = files.read_json(path, KIND, SCHEMA, MIGRATIONS)
        return SPEC.check(files.payload(data), "")
    except (files.BadFile, ValueError) as e:
        raise UsageError(f"replay {path}: {str(e).splitlines()[0][:200]}") from None
    except OSError as e:
        raise UsageError(f"replay {path}: cannot read it ({e.strerror or e})") from None


def build(data: dict[str, Any], registry: Registry) -> Game:
    """The game at the start of the replay, started: same preset, size, seed, plugins, first level."""
    size = (data["size"]["width"], data["size"]["height"]) if data.get("size") else None
    plugins = [f"{k}={v}" for k, v in sorted(data["choices"].items())]
    game = prepare(Setup(game=data["game"], seed=data["seed"], plugins=plugins, size=size), registry)
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
    mine = {"engine": __version__, "content": content_version(registry, data["game"])}
    diff = [f"{k} {data[k]} (this is {mine[k]})" for k in ("engine", "content") if data[k] != mine[k]]
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
    """Whether a played replay ended where it was recorded to (true when it recorded no end)."""
    return data.get("end") is None or data["end"] == digest(dumps(game))


def source_edited(data: dict[str, Any]) -> bool:
    """Whether the replay's source level is not the one it recorded (its digest differs)."""
    source = data.get("source_level")
    return source is not None and data.get("source") is not None and \
        digest(json.dumps(source, sort_keys=True)) != data["source"]


def verdict(name: str, data: dict[str, Any], game: Game | None) -> str | None:
    """The one line to say about a replay's integrity, or None: ``game`` is the replay played to
    its end (None: not judged, as in a window closed early, where only an edited source is said)."""
    edited = " (its source level was edited after it was recorded)" if source_edited(data) else ""
    if game is not None and not reproduced(data, game):
        return f"replay {name} does not reproduce its recorded end{edited or ' (edited, or other content)'}; " \
               "played as it is"
    if edited:
        return f"replay {name}: its source level was edited after it was recorded; it may play differently"
    return None
