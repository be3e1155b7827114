"""The ``register`` callbacks the loader passes to each register hook: what each kind of plugin
registration takes, checked as it is registered (a kind or a preset from Python is held to the
checks a TOML row gets; FOV and generator functions are wrapped so their results are checked).
Everything a plugin registers goes into ``buffer``; a check that fails raises, and the plugin's
intake (:mod:`engine.core.loading.intake`) records that one registration as skipped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from engine.core.kinds import commands, content, rules, statuskinds, terrainkinds, verbs
from engine.core.kinds.commands import KeyCommand
from engine.core.kinds.content import ItemKind, MonsterKind
from engine.core.kinds.rules import GameRules
from engine.core.kinds.schema import Check, Json, Map, SchemaError, Str, of
from engine.core.kinds.statuskinds import StatusKind
from engine.core.kinds.tables import LootRow
from engine.core.kinds.terrainkinds import TerrainKind
from engine.core.kinds.verbs import Verb
from engine.core.model.components import SAVED
from engine.core.plugin import checks as pluginchecks
from engine.core.plugin.registry import AddedRow, BotInfo
from engine.core.turn.keys import COMMANDS, BadKey, check_token
from engine.core.turn.ruleset import Ruleset
from engine.core.turn.systems import System
from engine.kit import limits
from engine.kit.fov import LIGHT_SHAPES, FovAlgorithm, FovFn, capped
from engine.kit.mapgen import Generator, GeneratorInfo
from engine.kit.path import AStarFn, DijkstraFn, Pathfinder
from engine.kit.tiles import TileContext, Tileset, TilesetInfo

REGISTER_HOOKS = {
    "register_fov_algorithms": "fov",
    "register_generators": "generators",
    "register_pathfinders": "pathfinders",
    "register_monsters": "monsters",
    "register_items": "items",
    "register_effects": "effects",
    "register_behaviours": "behaviours",
    "register_games": "games",
    "register_rulesets": "rulesets",
    "register_systems": "systems",
    "register_components": "components",
    "register_tilesets": "tilesets",
    "register_bots": "bots",
    "register_statuses": "statuses",
    "register_verbs": "verbs",
    "register_loot": "loot_rows",
    "register_terrain": "terrain",
    "register_commands": "commands",
}


# The hooks whose ``register(obj)`` takes an instance of a class (components take a dataclass).
REGISTER_TYPES: dict[str, type] = {"monsters": MonsterKind, "items": ItemKind, "games": GameRules,
                                   "rulesets": Ruleset, "systems": System, "statuses": StatusKind,
                                   "verbs": Verb, "terrain": TerrainKind, "commands": KeyCommand}
ROW = of(LootRow)
# ``register(name, fn, params={...})`` of a behaviour or an effect: the params its kinds may set, each
# with its default (a JSON value; a kind's value must be of its JSON kind, None takes any)
PARAM_NAME = Check(Str(limits.MAX_LABEL_CHARS, 1), str.isprintable,
                   f"a param name of 1..{limits.MAX_LABEL_CHARS} printable characters")  # said in one line
DECLARED = Map(Json(), key=PARAM_NAME, most=100,
               expected="a table of param names to their defaults (JSON values), at most 100")
DECLARING = ("behaviours", "effects")


class LoadProblem(Exception):
    """A plugin's mistake found while loading it, already worded as the one line to show."""


def key_problems(name: str, key: Any) -> list[str]:
    """Whether a verb's or a key command's ``name`` is free (not a keymap's command) and its ``key``
    is a key token a keymap may hold (not a travel token)."""
    found = []
    if name in COMMANDS and name not in ("quaff", "read", "wear"):  # those three name a verb and a command
        found.append(f"name {name!r} is a command's (a keymap's {name!r} means that command): choose another")
    if isinstance(key, str) and key:
        try:
            check_token(key)
            if key.startswith("travel:") or ":" in key[1:]:
                raise BadKey(key)
        except BadKey:
            found.append(f"key must be a key token (a printable character or a named key such as 'tab'), "
                         f"got {key!r}")
    return found


def verb_problems(verb: Verb) -> list[str]:
    """A verb's problems (:func:`engine.core.kinds.verbs.problems`) and its name's and key's."""
    return verbs.problems(verb) + key_problems(verb.name, verb.key)


def make_registrar(kind: str, buffer: dict[str, Any], plugin: str = "?",
                   declared: dict[str, dict[str, Any]] | None = None) -> Callable[..., None]:
    """The ``register`` callback of the register hook of ``kind`` (a registry table's name) for
    ``plugin``, filling ``buffer`` (and, for a behaviour or an effect, ``declared`` with the params
    it declares, by name)."""
    def put(name: str, value: Any) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError(f"register: name must be a non-empty string, got {name!r}")
        if len(name) > limits.MAX_LABEL_CHARS:  # a save names the kinds, behaviours and choices it uses
            raise ValueError(f"register: name {name[:40]!r}... has {len(name)} characters; at most "
                             f"{limits.MAX_LABEL_CHARS} (what a run save holds)")
        if name in buffer:
            raise ValueError(f"registers {kind} {name!r} twice")
        buffer[name] = value

    def function(name: str, what: str, fn: Any) -> None:
        if not callable(fn):
            raise LoadProblem(f"register_{kind}: {name!r}: {what} is not callable, got {fn!r}")

    if kind == "fov":
        def register(name: str, fn: FovFn, *, symmetric: bool = False, summary: str = "", python: FovFn | None = None,
                     max_reach: int | None = None, tcod: str | None = None, through_walls: bool = False,
                     shape: str = "round", reach: int | None = None) -> None:
            function(name, "fn", fn)
            if shape not in LIGHT_SHAPES:
                raise LoadProblem(f"register_fov_algorithms: {name!r}: shape {shape!r}: expected one of "
                                  f"{', '.join(LIGHT_SHAPES)}")
            if reach is not None and (not isinstance(reach, int) or isinstance(reach, bool)
                                      or not 1 <= reach <= limits.MAX_MAP_SIDE):
                raise LoadProblem(f"register_fov_algorithms: {name!r}: reach {reach!r}: expected a whole number "
                                  f"1..{limits.MAX_MAP_SIDE}, or None for no cap")
            fn = pluginchecks.guard_fov(fn, name, plugin)
            if python is not None:
                function(name, "python", python)
                python = pluginchecks.guard_fov(python, name, plugin)
            if reach is not None:  # the cap lives in the function itself: every caller honours it
                fn, python = capped(fn, reach), capped(python, reach) if python is not None else None
            put(name, FovAlgorithm(name, fn, bool(symmetric), summary, python, max_reach, tcod, bool(through_walls),
                                   shape, reach))
    elif kind == "generators":
        def register(name: str, fn: Generator, *, summary: str = "", params: dict[str, Any] | None = None,
                     min_size: tuple[int, int] = (3, 3), reads_maps: bool = False,
                     natural_size: tuple[int, int] | None = None, outer_wall: bool = True,
                     natural_walls: bool = False) -> None:
            function(name, "fn", fn)
            checked = pluginchecks.guard_generator(fn, name, plugin, bool(reads_maps))
            put(name, GeneratorInfo(name, checked, summary, dict(params or {}), tuple(min_size), bool(reads_maps),
                                    tuple(natural_size) if natural_size is not None else None, bool(outer_wall),
                                    bool(natural_walls)))
    elif kind == "pathfinders":
        def register(name: str, *, dijkstra: DijkstraFn, astar: AStarFn, summary: str = "",
                     python_dijkstra: DijkstraFn | None = None, python_astar: AStarFn | None = None) -> None:
            for what, fn in (("dijkstra", dijkstra), ("astar", astar), ("python_dijkstra", python_dijkstra),
                             ("python_astar", python_astar)):
                if fn is not None and not callable(fn):
                    raise TypeError(f"register_pathfinders: {name!r}: {what} is not callable")
            put(name, Pathfinder(name, dijkstra, astar, summary, python_dijkstra, python_astar))
    elif kind == "tilesets":
        def register(name: str, fn: Callable[[TileContext], Tileset], *, summary: str = "",
                     needs_file: bool = False) -> None:
            if not callable(fn):
                raise TypeError(f"register_tilesets: {name!r} is not callable")
            put(name, TilesetInfo(name, fn, summary, bool(needs_file)))
    elif kind == "bots":
        def register(name: str, fn: Callable[..., Any], *, summary: str = "", per_run: bool = False) -> None:
            function(name, "fn", fn)
            put(name, BotInfo(name, fn, str(summary), bool(per_run)))
    elif kind in REGISTER_TYPES:
        cls = REGISTER_TYPES[kind]

        def register(obj: Any) -> None:
            if not isinstance(obj, cls):
                raise TypeError(f"register_{kind}: expected {cls.__name__}, got {type(obj).__name__}")
            if cls in (MonsterKind, ItemKind):
                content.validate(obj)
            elif cls is GameRules:
                rules.validate(obj)
            elif cls is StatusKind and (problems := statuskinds.problems(obj)):
                raise LoadProblem(f"register_statuses: {obj.name!r}: {'; '.join(problems)}")
            elif cls is Verb and (problems := verb_problems(obj)):
                raise LoadProblem(f"register_verbs: {obj.name!r}: {'; '.join(problems)}")
            elif cls is TerrainKind and (problems := terrainkinds.problems(obj)):
                raise LoadProblem(f"register_terrain: {obj.name!r}: {'; '.join(problems)}")
            elif cls is KeyCommand and (problems := commands.problems(obj) + key_problems(obj.name, obj.key)):
                raise LoadProblem(f"register_commands: {obj.name!r}: {'; '.join(problems)}")
            put(obj.name, obj)
    elif kind == "loot_rows":
        def register(game: str, table: str, row: LootRow) -> None:
            for what, value in (("game", game), ("table", table)):
                if not isinstance(value, str) or not value:
                    raise LoadProblem(f"register_loot: {what} must be a preset's {what} name, got {value!r}")
            if not isinstance(row, LootRow):
                raise TypeError(f"register_loot: {game}/{table}: expected LootRow, got {type(row).__name__}")
            try:
                ROW.check({f: getattr(row, f) for f in row.__dataclass_fields__}, f"register_loot: {game}/{table}: ")
            except SchemaError as e:
                raise LoadProblem(str(e)) from None
            added = AddedRow(game, table, row)
            put(added.name, added)
    elif kind == "components":
        def register(cls: type[Any]) -> None:
            if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
                raise TypeError(f"register_components: expected a dataclass, got {cls!r}")
            if cls.__name__ in SAVED:
                raise ValueError(f"register_components: {cls.__name__!r} is the engine's own component's name")
            put(cls.__name__, cls)
    elif kind in DECLARING:
        def register(name: str, fn: Callable[..., Any], *, params: dict[str, Any] | None = None) -> None:
            if not callable(fn):
                raise TypeError(f"register_{kind}: {name!r} is not callable")
            try:
                checked = DECLARED.check({} if params is None else params, f"register_{kind}: {name!r}: params")
            except SchemaError as e:
                raise LoadProblem(str(e)) from None
            put(name, fn)
            if checked and declared is not None:
                declared[name] = checked
    else:
        def register(name: str, fn: Callable[..., Any]) -> None:
            if not callable(fn):
                raise TypeError(f"register_{kind}: {name!r} is not callable")
            put(name, fn)
    return register
