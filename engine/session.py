"""Setting up a game from command-line choices: registry, preset, plugins, seed, map.

Shared by headless play, the window, replays and tools, so every path builds a game the same way.
Every mistake of the player's raises :class:`UsageError` with one line to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from . import rng as rngmod
from .content import ContentError
from .game import Choices, Game
from .generate import run_generator
from .keys import validate_keymap
from .mapgen import GenerationError
from .plugins import PluginError, Registry, load_registry

DEFAULT_GAME = "undercroft"


class UsageError(Exception):
    """A mistake in what the player asked for: shown as one line, exit status 2."""


@dataclass
class Setup:
    game: str | None = None
    seed: int | None = None
    plugins: list[str] = field(default_factory=list)  # "KIND=NAME"
    plugins_dirs: Sequence[str] = ()
    map_file: str | None = None
    new_run: bool = False  # --new: never resume the saved run (engine.keeper.open_game)
    record: str | None = None  # --record FILE: also write the run's replay there


def parse_choice(spec: str) -> tuple[str, str]:
    kind, sep, name = spec.partition("=")
    if not sep or not kind or not name:
        raise UsageError(f"--plugin {spec!r}: expected KIND=NAME (kinds: fov, generator, game)")
    return kind, name


def load(plugins_dirs: Sequence[str] = ()) -> Registry:
    try:
        return load_registry(plugins_dirs=plugins_dirs)
    except (PluginError, ContentError) as e:
        raise UsageError(str(e)) from None


def new_game(setup: Setup, registry: Registry | None = None) -> Game:
    """Build the game a command line asks for; raise UsageError for any bad choice."""
    registry = registry or load(setup.plugins_dirs)
    choices = Choices()
    game_name = setup.game
    try:
        for spec in setup.plugins:
            kind, name = parse_choice(spec)
            registry.choose(kind, name)
            if kind == "game":
                game_name = name
            else:
                setattr(choices, kind, name)
        if not registry.games:
            raise UsageError("no game presets are registered: nothing to play (are the built-in plugins missing?)")
        rules = registry.choose("game", game_name or DEFAULT_GAME)
    except PluginError as e:
        raise UsageError(str(e).replace("--plugin game=", "--game ", 1) if setup.game else str(e)) from None
    try:
        validate_keymap(rules.keys, f"game {rules.name}")
    except ValueError as e:
        raise UsageError(str(e)) from None
    seed = setup.seed if setup.seed is not None else (rules.seed if rules.seed is not None else rngmod.fresh_seed())
    level = None
    try:
        if setup.map_file is not None:
            kinds = [*registry.items.values(), *registry.monsters.values(), *rules.monster_kinds.values()]
            legend = {k.glyph: k.name for k in kinds}
            info = registry.choose("generator", "ascii")
            level = run_generator(info, 0, 0, 1, rngmod.stream(seed, "level:1"),
                                  {**rules.generator_params.get("ascii", {}), "path": setup.map_file,
                                   "legend": legend})
        return Game(registry, rules, seed, choices, level_source=level)
    except (GenerationError, PluginError) as e:
        raise UsageError(str(e)) from None
