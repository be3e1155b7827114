"""Replays: a run's seed, preset, plugin choices and versions, and every key, as a JSON file.

A game is a pure function of its seed, preset, plugins and keys (:mod:`engine.core.rng`), so a replay
needs nothing else. Recording is done by :mod:`engine.persist.keeper`, which hears every key the Game
handles; the last run is always kept as ``last-run.replay.json`` in the user data folder, and
``--record FILE`` writes one more copy. A run played from a ``--map`` file keeps that first level
(terrain and placements) in the replay, since the file may be gone when the replay is played.

``python -m engine replay FILE`` plays one back: headless with ``--dump json`` it prints exactly
what the original run's ``--dump json`` printed; with ``--shot`` it renders the last frame; in a
window it presses ``--speed`` keys per second. A replay recorded by another engine version or with
other content says so (one line on stderr) before it plays: it may not play the same.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.keys import KeyError_, check_token
from engine.core.rng import MAX_SEED
from engine.core.setup import Setup, UsageError, load, new_game
from engine.persist import files as savefile
from engine.persist.runcheck import check_level, is_int, need, need_list, need_str
from engine.persist.runsave import _level, _unlevel

if TYPE_CHECKING:
    from engine.core.game import Game
    from engine.core.registry import Registry

KIND = "replay"
SCHEMA = 1
MIGRATIONS: dict[int, Any] = {}
LAST = "last-run.replay.json"
MAX_KEYS = 2_000_000


def engine_version() -> str:
    from engine import __version__

    return __version__


def content_version(registry: Registry, game_name: str) -> str:
    """A fingerprint of what makes a game play: the preset's rules, every kind, the plugins' versions."""
    rules = registry.games.get(game_name)
    parts = [repr(rules), *(repr(k) for _, k in sorted(registry.monsters.items())),
             *(repr(k) for _, k in sorted(registry.items.items())),
             *sorted(f"{p.name}={p.version}" for p in registry.plugins if not p.error)]
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=8).hexdigest()


def header(game: Game) -> dict[str, Any]:
    """Everything but the keys: what to build before the first key is pressed."""
    return {
        "engine": engine_version(),
        "content": content_version(game.registry, game.rules.name),
        "game": game.rules.name,
        "seed": game.first_seed,
        "choices": game.choices.as_dict(),
        "source_level": _level(game.level_source) if game.level_source is not None else None,
    }


def write(path: Path, head: dict[str, Any], keys: list[str]) -> None:
    savefile.write_json(path, KIND, SCHEMA, {**head, "keys": list(keys)})


def check(data: dict[str, Any]) -> dict[str, Any]:
    """A replay's fields, validated: ValueError names the first bad one."""
    for key in ("engine", "content", "game"):
        need_str(data.get(key), key)
    need(is_int(data.get("seed"), 0, MAX_SEED), "seed", data.get("seed"), f"a whole number in 0..{MAX_SEED}")
    choices = data.get("choices")
    need(isinstance(choices, dict) and set(choices) <= {"fov", "generator"}
         and all(isinstance(v, str) and len(v) <= 100 for v in choices.values()), "choices", choices,
         "{fov, generator} names")
    if data.get("source_level") is not None:
        check_level(data["source_level"], "source_level")
    keys = need_list(data.get("keys"), "keys", most=MAX_KEYS)
    for i, token in enumerate(keys):
        try:
            check_token(token if isinstance(token, str) else "not a token")
        except KeyError_:
            need(False, f"keys[{i}]", token, "a key token")
    return data


def read(path: Path) -> dict[str, Any] | None:
    """A replay, or None when it is bad (one line on stderr; the file is moved aside)."""
    return savefile.load(path, KIND, SCHEMA, what="replay", then="nothing to play", migrations=MIGRATIONS,
                         check=check)


def build(data: dict[str, Any], registry: Registry | None = None) -> Game:
    """The game at the start of the replay: same preset, seed, plugins and first level."""
    plugins = [f"{k}={v}" for k, v in sorted(data["choices"].items())]
    setup = Setup(game=data["game"], seed=data["seed"], plugins=plugins)
    registry = registry or load()
    game = new_game(setup, registry)
    if data.get("source_level") is not None:
        from engine.core.game import Game

        kinds = {*registry.monsters, *game.rules.monster_kinds, *registry.items}
        try:
            check_level(data["source_level"], "source_level", kinds)
        except ValueError as e:
            raise UsageError(f"replay: {e}") from None
        game.close()
        level = _unlevel(data["source_level"])
        game = Game(game.registry, game.rules, data["seed"], game.choices, level_source=level)
    return game


def differences(data: dict[str, Any], registry: Registry) -> str:
    mine = {"engine": engine_version(), "content": content_version(registry, data["game"])}
    diff = [f"{k} {data[k]} (this is {mine[k]})" for k in ("engine", "content") if data[k] != mine[k]]
    return ", ".join(diff)


def play(data: dict[str, Any], registry: Registry) -> Game:
    """Press every key of the replay, stopping at the quit key as the original run did."""
    game = build(data, registry)
    for token in data["keys"]:
        game.press(token)
        if game.quit_requested:
            break
    return game


def replay_main(argv: list[str]) -> int:
    from engine.cli.main import Parser

    p = Parser(prog="undercroft replay", description="Play back a replay file (--record FILE, or "
               "last-run.replay.json in the user data folder).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--dump", choices=["json"], help="print the final state as one JSON object")
    p.add_argument("--shot", metavar="FILE.png", help="write a screenshot of the last frame")
    p.add_argument("--speed", type=float, default=10.0, help="keys per second in the window (default 10)")
    p.add_argument("--headless", action="store_true",
                   help="no window: play at once (implied by --dump, unless --seconds asks for the window)")
    p.add_argument("--seconds", type=float, help="close the window after N seconds (then --dump, if asked)")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR")
    args = p.parse_args(argv)
    if args.speed <= 0:
        raise UsageError(f"--speed {args.speed}: expected keys per second > 0")
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"replay {args.file}: no such file")
    data = read(path)
    if data is None:
        return 2
    registry = load(args.plugins_dir)
    if data["game"] not in registry.games:
        raise UsageError(f"replay {args.file}: preset {data['game']!r} is not installed")
    diff = differences(data, registry)
    if diff:
        savefile.warn(f"replay {args.file} was recorded with other versions: {diff}; it may play differently")
    if args.shot:
        return _in_window(data, registry, shot=args.shot, dump=args.dump, speed=None)
    if args.headless or (args.dump and args.seconds is None):
        game = play(data, registry)
        if args.dump == "json":
            from engine.core.snapshot import dumps

            print(dumps(game))
        return 0
    return _in_window(data, registry, shot=None, dump=args.dump, speed=args.speed, seconds=args.seconds)


def _in_window(data: dict[str, Any], registry: Registry, *, shot: str | None, dump: str | None,
               speed: float | None, seconds: float | None = None) -> int:
    """--shot: every key at once, then one frame offscreen. Otherwise a window pressing ``speed``
    keys per second, then left open for the player to look at."""
    from engine.frontend import loop
    from engine.frontend.launch import check_display, check_shot, open_window, save_shot

    check_display(headless=shot is not None)
    shot_path = check_shot(shot) if shot else None
    game = build(data, registry)
    window = open_window(game, headless=shot is not None)
    keys = iter(data["keys"])
    try:
        if speed is None:
            for token in keys:
                window.press(token)
                if game.quit_requested:
                    break
            window.frames.cancel()
            if shot_path is not None:
                window.frames.after_draw.append(lambda: save_shot(window, shot_path))
            window.frames.draw()
        else:
            import pyglet

            def step(_dt: float) -> None:
                token = next(keys, None)
                if token is None or window.closed or game.quit_requested:
                    pyglet.clock.unschedule(step)
                    return
                window.press(token)

            pyglet.clock.schedule_interval(step, 1.0 / speed)
            window.frames.draw()
            loop.run(seconds)
    finally:
        if not window.closed:
            window.close()
    if dump == "json":
        from engine.core.snapshot import dumps

        print(dumps(game))
    return 0
