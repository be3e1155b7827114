"""Setting up a game from a player's choices: registry, preset, plugins, seed, size, map.

Shared by headless play, the window, replays and tools, so every path builds a game the same way.
Every mistake of the player's raises :class:`UsageError` with one line to show. The engine names no
built-in plugin here: the preset played by default is the one registered with ``default = true``,
and ``--map`` is read by the generator registered with ``reads_maps=True``.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import UsageError
from engine.core.kinds.content import ContentError
from engine.core.kinds.rules import GameRules
from engine.core.kinds.rulespecs import DEFAULT_TILES
from engine.core.loading import loader
from engine.core.loading.loader import load_registry
from engine.core.model import rng as rngmod
from engine.core.plugin.checks import map_kinds, map_legend, map_tiles
from engine.core.plugin.registry import CHOICE_KINDS, PluginError, Registry
from engine.core.turn.game import Game
from engine.core.turn.generate import check, run_generator
from engine.core.turn.keys import validate_keymap
from engine.core.turn.run import Choices
from engine.kit import limits
from engine.kit.fov import ReachError, reach_error
from engine.kit.mapgen import GenerationError, Level


@dataclass
class Setup:
    """What a run is asked to be: the preset, seed, plugin choices ("KIND=NAME"), extra plugin
    folders, a first level read from a map file, and a map size instead of the preset's."""

    game: str | None = None
    seed: int | None = None
    plugins: list[str] = field(default_factory=list)
    plugins_dirs: Sequence[str] = ()
    map_file: str | None = None
    size: tuple[int, int] | None = None


def parse_choice(spec: str) -> tuple[str, str]:
    kind, sep, name = spec.partition("=")
    if not sep or not kind or not name:
        raise UsageError(f"--plugin {spec!r}: expected KIND=NAME (kinds: {', '.join(CHOICE_KINDS)})")
    return kind, name


def load(plugins_dirs: Sequence[str] = (), announce: bool = True) -> Registry:
    """The registry a player's command plays with; its broken plugins and warnings are said on
    stderr, one line each (``announce``)."""
    try:
        registry = load_registry(plugins_dirs=plugins_dirs)
    except (PluginError, ContentError) as e:
        raise UsageError(str(e)) from None
    if announce:
        loader.announce(registry)
    return registry


def parse_size(text: str) -> tuple[int, int]:
    """``--size WxH``; UsageError (one line) unless both sides are whole numbers in 1..MAX_SIDE
    (ASCII digits: ``²`` passes ``str.isdigit`` but is no size)."""
    match = re.fullmatch(r"([0-9]+)[xX]([0-9]+)", text.strip())
    if match is None:
        raise UsageError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 80x43")
    size = int(match.group(1)), int(match.group(2))
    if not all(1 <= side <= limits.MAX_MAP_SIDE for side in size):
        raise UsageError(f"--size {text}: each side must be 1..{limits.MAX_MAP_SIDE}")
    return size


def default_game(registry: Registry) -> GameRules:
    """The preset to play when none is chosen: the one marked ``default``, or the only one."""
    marked = [rules for rules in registry.games.values() if rules.default]
    if marked:
        return marked[0]
    if len(registry.games) == 1:
        return next(iter(registry.games.values()))
    raise UsageError(f"no default game: choose one with --game (valid: {', '.join(sorted(registry.games))})")


def check_rules(registry: Registry, rules: GameRules, choices: Choices) -> None:
    """Check a preset against the registry before play, so a bad name, param or size is one line
    now rather than a surprise at depth 5: every generator it uses (with its params, at its
    size), its FOV, ruleset and tileset, and the monsters and items it names."""
    names = [choices.generator] if choices.generator else [name for _, name in rules.generators]
    for name in names:
        via = None if choices.generator else f"game {rules.name}: generators"
        check(registry.choose("generator", name, via), rules.width, rules.height, rules.generator_params.get(name, {}))
    fov = registry.choose("fov", choices.fov or rules.fov, None if choices.fov else f"game {rules.name}: fov")
    problem = reach_error(fov.name, fov.max_reach, (rules.height, rules.width), fov.radius_for(rules.fov_radius))
    if problem:
        raise ValueError(f"game {rules.name}: {problem}: choose another fov (--plugin fov=NAME), a smaller "
                         f"--size, or a preset whose fov_radius is at most {fov.max_reach}")
    if rules.pathfinder is not None and rules.pathfinder not in registry.pathfinders:
        raise ValueError(f"game {rules.name}: pathfinder: no pathfinder named {rules.pathfinder!r} "
                         f"(valid: {', '.join(sorted(registry.pathfinders)) or 'none registered'})")
    if rules.ruleset is not None and rules.ruleset not in registry.rulesets:
        raise ValueError(f"game {rules.name}: ruleset: no ruleset named {rules.ruleset!r} "
                         f"(valid: {', '.join(sorted(registry.rulesets)) or 'none registered'})")
    drawn: dict[str, str] = {}  # each terrain its own glyph: a --map drawn as the window draws it reads back
    for terrain in DEFAULT_TILES:
        glyph = rules.tile(terrain)["glyph"]
        if glyph in drawn:
            raise ValueError(f"game {rules.name}: tiles.{terrain}.glyph: {glyph!r} is tiles.{drawn[glyph]}.glyph "
                             "too (expected a glyph of its own: a map drawn with it would read back wrong)")
        drawn[glyph] = terrain
    tileset = rules.look.get("tileset")
    if tileset is not None and tileset not in registry.tilesets:
        raise ValueError(f"game {rules.name}: look.tileset: no tileset named {tileset!r} "
                         f"(valid: {', '.join(sorted(registry.tilesets)) or 'none registered'})")
    monsters = {*registry.monsters, *rules.monster_kinds}
    for where, name in [*(("monsters", n) for n in rules.monsters), *(("monster_table", k) for _, _, k in
                                                                       rules.monster_table)]:
        if name not in monsters:
            raise ValueError(f"game {rules.name}: {where}: no monster named {name!r} "
                             f"(valid: {', '.join(sorted(monsters))})")
    for where, name in [*(("item_counts", n) for n in rules.item_counts),
                        *((f"loot.{t}", row.item) for t, table in rules.loot.items() for row in table.items)]:
        if name not in registry.items:
            raise ValueError(f"game {rules.name}: {where}: no item named {name!r} "
                             f"(valid: {', '.join(sorted(registry.items))})")


def map_reader(registry: Registry) -> str:
    """The generator that reads ``--map`` files."""
    readers = sorted(name for name, info in registry.generators.items() if info.reads_maps)
    if not readers:
        raise UsageError("--map: no generator that reads map files is registered")
    return readers[0]


def prepare(setup: Setup, registry: Registry | None = None) -> Game:
    """Build the game a set-up asks for, not started (attach listeners, then ``start()``); raise
    UsageError for any bad choice."""
    registry = registry or load(setup.plugins_dirs)
    choices = Choices()
    game_name = setup.game
    if game_name is not None and not game_name.strip():
        raise UsageError("--game: expected a preset's name (python -m engine plugins lists them)")
    try:
        for spec in setup.plugins:
            kind, name = parse_choice(spec)
            registry.choose(kind, name)
            chosen_before = game_name if kind == "game" else choices.get(kind)
            if chosen_before is not None and chosen_before != name:  # the last would win, unsaid
                given = f"--game {chosen_before}" if kind == "game" and setup.game else \
                    f"--plugin {kind}={chosen_before}"
                raise UsageError(f"--plugin {spec}: {given} chose another {kind} already: choose one")
            if kind == "game":
                game_name = name
            else:
                choices[kind] = name
        if not registry.games:
            raise UsageError("no game presets are registered: nothing to play (are the built-in plugins missing?)")
        rules = registry.choose("game", game_name) if game_name else default_game(registry)
    except PluginError as e:
        raise UsageError(str(e).replace("--plugin game=", "--game ", 1) if setup.game else str(e)) from None
    chosen = registry.generators.get(choices.get("generator") or "")
    if chosen is not None and chosen.reads_maps and setup.map_file is None:  # before the run, not at its first level
        raise UsageError(f"--plugin generator={chosen.name}: it builds levels from a map: give one with --map FILE")
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
            name = map_reader(registry)
            params = {**rules.generator_params.get(name, {}), "path": setup.map_file,
                      "legend": map_legend(registry, rules)}
            if "tiles" in registry.generators[name].params:  # a reader that reads the preset's glyphs
                params["tiles"] = map_tiles(rules, registry)
            if "kinds" in registry.generators[name].params:  # a reader of legend lines that name kinds
                params["kinds"] = map_kinds(registry, rules)
            try:
                level = run_generator(registry.generators[name], 0, 0, 1, rngmod.stream(seed, "level:1"), params,
                                      terrain=registry.terrain)
            except GenerationError as e:  # what the level made of the file lacks: said of the file, in its words
                said = str(e).replace(f"generator {name!r}", "the map", 1)
                raise UsageError(said if setup.map_file in said else f"--map {setup.map_file}: {said}") from None
        return Game(registry, rules, seed, choices, level_source=level)
    except (GenerationError, PluginError, ReachError) as e:  # ReachError: a --map too big for the fov
        raise UsageError(str(e)) from None


def new_game(setup: Setup, registry: Registry | None = None) -> Game:
    """``prepare`` and start: a game with no listeners, for tools and tests."""
    return prepare(setup, registry).start()


@functools.lru_cache(maxsize=1)
def _default_registry() -> Registry:
    return load_registry(entry_points=False)


def generate_level(name: str, width: int, height: int, *, depth: int = 1, seed: int = 0, **params: Any) -> Level:
    """Generate one level with the built-in generator ``name``, seeded like a run's level ``depth``
    (for plugin authors and tools: no game is built)."""
    registry = _default_registry()
    if name not in registry.generators:
        raise GenerationError(f"no generator named {name!r} (valid: {', '.join(sorted(registry.generators))})")
    stream = rngmod.stream(seed, f"level:{depth}")
    return run_generator(registry.generators[name], width, height, depth, stream, params, terrain=registry.terrain)
