"""Setting up a game from command-line choices: registry, preset, plugins, seed, map.

Shared by headless play, the window, replays and tools, so every path builds a game the same way.
Every mistake of the player's raises :class:`UsageError` with one line to show.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core import rng as rngmod
from engine.core.content import ContentError
from engine.core.game import Choices, Game
from engine.core.generate import check, run_generator
from engine.core.keys import validate_keymap
from engine.core.registry import PluginError, Registry, load_registry
from engine.core.rules import GameRules
from engine.kit.fov import ReachError, reach_error
from engine.kit.mapgen import GenerationError

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
    size: tuple[int, int] | None = None  # --size WxH: the map size, instead of the preset's
    new_run: bool = False  # --new: never resume the saved run (engine.persist.keeper.open_game)
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


MAX_SIDE = 1000  # cells: a level's terrain, FOV and memory arrays grow with the square of this


def parse_size(text: str) -> tuple[int, int]:
    """``--size WxH``; UsageError (one line) unless both sides are whole numbers in 1..MAX_SIDE."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise UsageError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 80x43")
    size = int(w), int(h)
    if not all(1 <= side <= MAX_SIDE for side in size):
        raise UsageError(f"--size {text}: each side must be 1..{MAX_SIDE}")
    return size


def check_rules(registry: Registry, rules: GameRules, choices: Choices) -> None:
    """Check a preset against the registry before play, so a bad name, param or size is one line
    now rather than a surprise at depth 5: every generator it uses (with its params, at its
    size), its FOV, and the monsters and items it names."""
    names = [choices.generator] if choices.generator else [name for _, name in rules.generators]
    for name in names:
        check(registry.choose("generator", name), rules.width, rules.height, rules.generator_params.get(name, {}))
    fov = registry.choose("fov", choices.fov or rules.fov)
    problem = reach_error(fov.name, fov.max_reach, (rules.height, rules.width), rules.fov_radius)
    if problem:
        raise ValueError(f"game {rules.name}: {problem}: choose another fov (--plugin fov=NAME), a smaller "
                         f"--size, or a preset whose fov_radius is at most {fov.max_reach}")
    for name in rules.monsters:
        if name not in registry.monsters and name not in rules.monster_kinds:
            raise ValueError(f"game {rules.name}: monsters: no monster named {name!r} "
                             f"(valid: {', '.join(sorted({*registry.monsters, *rules.monster_kinds}))})")
    for name in rules.item_counts:
        if name not in registry.items:
            raise ValueError(f"game {rules.name}: item_counts: no item named {name!r} "
                             f"(valid: {', '.join(sorted(registry.items))})")


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
    if setup.size is not None:
        rules = dataclasses.replace(rules, width=setup.size[0], height=setup.size[1])
    try:
        validate_keymap(rules.keys, f"game {rules.name}")
        check_rules(registry, rules, choices)
    except (ValueError, PluginError) as e:
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
    except (GenerationError, PluginError, ReachError) as e:  # ReachError: a --map too big for the fov
        raise UsageError(str(e)) from None
