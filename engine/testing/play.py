"""The contracts of what acts in play: behaviours, effects and presets, checked in real games.

A behaviour or an effect is called with what the engine gives plugins in play (:func:`receives`),
on an arena: a small room with a few pillars, the player and some monsters, in a game of the
registry's default preset (or the one given).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

from engine.core.kinds.content import ItemKind, MonsterKind
from engine.core.kinds.rules import GameRules
from engine.core.model.components import Fighter, Monster, Position
from engine.core.play.session import Session
from engine.core.play.setup import check_rules, default_game
from engine.core.play.snapshot import snapshot
from engine.core.plugin.isolation import described
from engine.core.plugin.registry import PluginError, Registry
from engine.core.turn.actions import Action
from engine.core.turn.game import Choices, Game
from engine.core.turn.invariants import check as check_state
from engine.core.turn.keys import DEFAULT_KEYS, validate_keymap
from engine.kit.mapgen import FLOOR, STAIRS, WALL, Level
from engine.kit.regions import largest_region
from engine.testing.errors import fail, plugin_failures
from engine.testing.generators import level_problems


def receives(game: Game) -> Any:
    """What a behaviour, an effect or an event hook receives from the engine in play for ``game``:
    the game's API for plugins (``game.api``) where the engine has one, else the game itself.
    Every check here calls plugins with it, so they are judged with what they get in play."""
    return getattr(game, "api", None) or game


def arena(registry: Registry, *, seed: int = 0, monsters: tuple[str, ...] = (), items: tuple[str, ...] = (),
          rules: GameRules | None = None, size: tuple[int, int] = (11, 9)) -> Game:
    """A started game on a walled room of ``size`` with a few random pillars, the player and the
    stairs at random floor cells, and one monster of each kind in ``monsters`` and one item of each
    kind in ``items`` at random floor cells (kinds the registry or the preset knows). The preset
    is ``rules`` (default: the registry's default game) with its spawn tables switched off."""
    rng = random.Random(f"arena {seed}")
    w, h = size
    terrain = np.full((h, w), WALL, dtype=np.uint8)
    terrain[1:-1, 1:-1] = FLOOR
    floors = [(x, y) for y in range(1, h - 1) for x in range(1, w - 1)]
    for x, y in rng.sample(floors, len(floors) // 10):
        terrain[y, x] = WALL
    open_cells = largest_region(terrain != WALL)  # pillars may wall a pocket off: fill it in
    terrain[(terrain != WALL) & ~open_cells] = WALL
    cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(open_cells), strict=True)]
    needed = 2 + len(monsters) + len(items)
    if len(cells) < needed:
        raise ValueError(f"arena: {w}x{h} has room for {len(cells)} things, {needed} asked for")
    start, stairs, *spots = rng.sample(cells, needed)
    terrain[stairs[1], stairs[0]] = STAIRS
    spawns = [(kind, x, y) for kind, (x, y) in zip((*monsters, *items), spots, strict=True)]
    level = Level(terrain, start, stairs, spawns=spawns, populate=False)
    base = rules or default_game(registry)
    rules = dataclasses.replace(base, width=w, height=h, monster_count=(0, 0, 0, 0), item_counts={})
    return Game(registry, rules, seed, Choices(), level_source=level).start()


def check_invariants(game: Game) -> None:
    """What holds between any two turns: every fighter's HP in 0..max; one blocker a cell, each
    on a walkable cell, the spatial index in step with the positions; and (while the player
    lives) the invariants every loaded save is held to (``engine.core.turn.invariants``)."""
    cells: dict[tuple[int, int], int] = {}
    state = game.state
    if state is None:
        raise fail("the game", "has started (Game(...).start()) before its invariants are checked")
    blockers = state.spatial.blockers()
    for entity, (pos, fighter) in game.world.query(Position, Fighter):
        cell = (pos.x, pos.y)
        if not 0 <= fighter.hp <= fighter.max_hp:
            raise fail(f"entity {entity}", f"0 <= hp <= max_hp, got {fighter.hp}/{fighter.max_hp}")
        if cell in cells:
            raise fail(f"entity {entity}", f"one blocker a cell: {cells[cell]} stands on {cell} too")
        cells[cell] = entity
        if blockers.get(cell) != entity:
            raise fail(f"entity {entity}", f"the spatial index knows it at {cell}")
        if not game.level.walkable[pos.y, pos.x]:
            raise fail(f"entity {entity}", f"stands on a walkable cell, not {cell}")
    if len(blockers) != len(cells):
        raise fail("the spatial index", "holds exactly the fighters")
    if game.alive:
        try:
            check_state(state, game.registry, game.rules)
        except ValueError as e:
            raise fail("the run", f"keeps the engine's invariants: {e}") from None


def _kind_for(registry: Registry, table: str, name: str, make: Any) -> tuple[Any, GameRules | None]:
    """A registered kind that uses behaviour/effect ``name``, else a plain one made for the check."""
    field = "behaviour" if table == "monsters" else "effect"
    used = sorted((k for k in getattr(registry, table).values() if getattr(k, field) == name), key=lambda k: k.name)
    if used:
        return used[0], None
    kind = make()
    if table == "monsters":
        return kind, dataclasses.replace(default_game(registry), monster_kinds={kind.name: kind})
    return kind, None


def declared_values(default: Any) -> list[Any]:
    """The values a check gives a param declared with ``default`` (``register(..., params=...)``):
    edge values of the default's JSON kind, which loading lets through to the behaviour or the
    effect (a whole number for a whole default; a default of None declares nothing to try)."""
    if default is None:
        return []
    if isinstance(default, bool):
        return [True, False]
    if isinstance(default, int):
        return [0, 1, -1, default, default * 3 + 1]
    if isinstance(default, float):
        return [0.0, 0.5, -1.0, default, default * 3 + 1]
    if isinstance(default, str):
        return ["", "x", default]
    if isinstance(default, list | tuple):
        return [[], list(default)]
    if isinstance(default, dict):
        return [{}, dict(default)]
    return []


def _declared_variant(registry: Registry, table: str, name: str, kind: Any, case: int) -> tuple[Any, str]:
    """The kind for case ``case`` of a check of behaviour or effect ``name`` (of ``table``): the
    kind itself on even cases; on odd ones, when ``name`` declared params, the kind with each of
    them set to one of :func:`declared_values` in turn (so a few cases try each value), and the
    words that name them in a failure. A kind's content file may hold any of these: a behaviour
    that fails on one fails here rather than in play, where it would be switched off."""
    declared = registry.declared.get(table, {}).get(name, {})
    if case % 2 == 0 or not declared:
        return kind, ""
    params = dict(kind.params)
    for param, default in sorted(declared.items()):
        if values := declared_values(default):
            params[param] = values[case // 2 % len(values)]
    said = ", ".join(f"{param}={params[param]!r}" for param in sorted(declared) if param in params)
    return dataclasses.replace(kind, params=params), f", params {said}" if said else ""


def check_behaviour(registry: Registry, name: str, *, situations: int = 60, seed: int = 0,
                    kind: MonsterKind | None = None, allow_plugin_errors: bool = False) -> None:
    """A behaviour, on ``situations`` random arenas, each with three monsters using it (of the
    first registered kind that names it, or of ``kind``): called for each monster, it returns an
    ``engine.Action`` or None and never raises; the action it returns can be performed and leaves
    the game's invariants whole; and the same situation gives the same actions (randomness from
    ``game.rng(...)``, never the global ``random``). When the behaviour declared params, every
    other situation gives its kind edge values of their kinds (:func:`declared_values`), as a
    content file may. Another plugin that raises meanwhile (its ``on_action`` hook, say) fails the
    check too, unless ``allow_plugin_errors`` (see :func:`press`)."""
    if name not in registry.behaviours:
        raise fail(f"behaviour {name!r}", "is registered", f"registered: {', '.join(sorted(registry.behaviours))}")
    if kind is None:
        kind, rules = _kind_for(registry, "monsters", name, lambda: MonsterKind(
            name="testing-dummy", glyph="\u00a4", color=(200, 200, 200), hp=5, attack=1, behaviour=name))
    else:
        rules = dataclasses.replace(default_game(registry), monster_kinds={kind.name: kind})
    subject = f"behaviour {name!r}"
    for situation in range(situations):
        runs = []
        variant, said = _declared_variant(registry, "behaviours", name, kind, situation)
        played = rules
        if variant is not kind:
            base = rules or default_game(registry)
            played = dataclasses.replace(base, monster_kinds={**base.monster_kinds, kind.name: variant})
        for _ in range(2):
            game = arena(registry, seed=seed * 100_003 + situation, monsters=(kind.name,) * 3, rules=played)
            plugin_failures(game, f"situation {situation}{said}, the arena", allow=allow_plugin_errors)
            actions = []
            for entity in sorted(e for e, m in game.world.query(Monster) if m.kind == kind.name):
                where = f"situation {situation}{said}, monster {entity} at {game.position(entity)}"
                try:
                    action = registry.behaviours[name](receives(game), entity)
                except Exception as e:
                    raise fail(subject, f"never raises: {described(e)}", where) from None
                if action is not None and not isinstance(action, Action):
                    raise fail(subject, f"returns an engine.Action or None, got {action!r}", where)
                if action is not None and game.alive:
                    try:
                        game.perform(entity, action)
                    except Exception as e:
                        raise fail(subject, f"returns an action that can be performed: {action!r} raised "
                                   f"{described(e)}", where) from None
                    plugin_failures(game, f"{where}, performing {action!r}", allow=allow_plugin_errors)
                    check_invariants(game)
                actions.append(action)
            runs.append(actions)
            game.close()
        if runs[0] != runs[1]:
            raise fail(subject, "the same situation gives the same actions (use game.rng(...), never the global "
                       "random)", f"situation {situation}: {runs[0]} then {runs[1]}")


def check_effect(registry: Registry, name: str, *, cases: int = 40, seed: int = 0,
                 kind: ItemKind | None = None, allow_plugin_errors: bool = False) -> None:
    """An effect, applied to the player of ``cases`` random arenas (HP anywhere from 1 to full,
    amounts 1 to 3), with the first registered item kind that names it (or ``kind``): it returns
    the message to log (a string) or None and never raises; the game's invariants stay whole; and
    the same case gives the same message and the same game. When the effect declared params,
    every other case gives its kind edge values of their kinds (:func:`declared_values`), as a
    content file may. Another plugin that raises meanwhile fails the check too, unless
    ``allow_plugin_errors`` (see :func:`press`)."""
    if name not in registry.effects:
        raise fail(f"effect {name!r}", "is registered", f"registered: {', '.join(sorted(registry.effects))}")
    if kind is None:
        kind, _ = _kind_for(registry, "items", name, lambda: ItemKind(
            name="testing-item", glyph="\u00a4", color=(200, 200, 200), effect=name))
    subject = f"effect {name!r}"
    for case in range(cases):
        results = []
        variant, said = _declared_variant(registry, "effects", name, kind, case)
        for _ in range(2):
            game = arena(registry, seed=seed * 100_003 + case)
            plugin_failures(game, f"case {case}, the arena", allow=allow_plugin_errors)
            rng = random.Random(f"effect {case}")
            fighter = game.world.get(game.player, Fighter)
            fighter.hp = rng.randint(1, fighter.max_hp)
            amount = rng.randint(1, 3)
            where = f"case {case}: hp {fighter.hp}/{fighter.max_hp}, amount {amount}{said}"
            try:
                message = registry.effects[name](receives(game), game.player, variant, amount)
            except Exception as e:
                raise fail(subject, f"never raises: {described(e)}", where) from None
            if message is not None and not isinstance(message, str):
                raise fail(subject, f"returns a message (a str) or None, got {message!r}", where)
            plugin_failures(game, where, allow=allow_plugin_errors)
            check_invariants(game)
            results.append((message, snapshot(game)))
            game.close()
        if results[0] != results[1]:
            raise fail(subject, "the same case gives the same message and game (use game.rng(...))", f"case {case}")


def _play(registry: Registry, rules: GameRules, seed: int, keys: int, allow: bool) -> dict[str, Any]:
    game = Game(registry, rules, seed, Choices()).start()
    session = Session(game)
    plugin_failures(game, f"seed {seed}, the start", allow=allow)
    check_invariants(game)
    tokens = sorted(t for t in {*DEFAULT_KEYS, *rules.keys} if t != "esc")
    rng = random.Random(f"preset keys {seed}")
    for number in range(1, keys + 1):
        token = rng.choice(tokens)
        session.press(token)
        plugin_failures(game, f"seed {seed}, key {number} of {keys}, {token!r}", allow=allow)
        check_invariants(game)
    state = snapshot(game)
    game.close()
    return state


def check_preset(rules: GameRules, registry: Registry, *, seeds: int = 2, keys: int = 200, depths: int = 3,
                 allow_plugin_errors: bool = False) -> None:
    """A preset plays: everything it names is registered and fits (its generators with their params
    at its size, its FOV and how far it lights, its ruleset, monsters and items, its keys); for
    seeds 1..``seeds``, a game starts, ``keys`` random keys of its keymap keep the invariants
    (:func:`check_invariants`), and the same seed and keys give the same game; and its levels of
    depths 1..``depths`` keep the generator contract (``level_problems``; its params may leave the
    stairs out). Any plugin that raises meanwhile (one nobody chose, which in play is switched off
    with one stderr line) fails the check, unless ``allow_plugin_errors`` (see :func:`press`)."""
    subject = f"game {rules.name!r}"
    try:
        validate_keymap(rules.keys, subject)
        check_rules(registry, rules, Choices())
    except (ValueError, PluginError) as e:
        raise fail(subject, f"names what is registered, and it fits: {e}") from None
    for seed in range(1, seeds + 1):
        first = _play(registry, rules, seed, keys, allow_plugin_errors)
        if _play(registry, rules, seed, keys, allow_plugin_errors) != first:
            raise fail(subject, "the same seed and keys give the same game", f"seed {seed}, {keys} keys")
        game = Game(registry, rules, seed, Choices()).start()
        for depth in range(1, depths + 1):
            if depth > 1:
                game.enter_level(depth)
                plugin_failures(game, f"seed {seed}, depth {depth}", allow=allow_plugin_errors)
            info = registry.generators[rules.generator_for(depth)]
            found = level_problems(game.level, (rules.width, rules.height), outer_wall=info.outer_wall,
                                   needs_goal=False)
            if found:
                raise fail(subject, f"its levels keep the generator contract: {'; '.join(found)}",
                           f"seed {seed}, depth {depth}, generator {info.name!r}")
            check_invariants(game)
        game.close()
