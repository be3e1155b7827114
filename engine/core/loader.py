"""Loading plugins into a registry: built-ins, entry points, ``--plugins-dir``.

Loading order: the built-in plugins (the modules named in :data:`DEFAULT_PLUGINS`, imported by
name and registered exactly like any other plugin), then the ``undercroft`` entry-point group,
then each ``--plugins-dir`` (every ``*.py`` there is a plugin, loaded by path). Each plugin
registers into a buffer of its own; only when all its registration hooks succeed is the buffer
merged, so a broken plugin leaves nothing behind. A third-party plugin that fails to import or
register is recorded in ``Registry.broken`` and skipped; a broken built-in is fatal
(:class:`PluginError`), because the game cannot be trusted without it.

What is registered is checked as it is registered (a kind or preset from Python is held to the
same checks as one read from TOML), and once everything is loaded, the references between
plugins are: a monster naming a behaviour, or an item an effect, that no plugin registers breaks
the plugin that registered it (and everything it registered goes), in one line naming both.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import importlib.util
import os
import sys
import types
from pathlib import Path
from typing import Any

import pluggy

import engine.hookspecs as hookspecs
from engine.core import content, rules
from engine.core.components import SAVED
from engine.core.content import ContentError, ItemKind, MonsterKind
from engine.core.registry import KINDS, PROJECT, BotInfo, PluginError, PluginInfo, Registry
from engine.core.rules import GameRules
from engine.core.ruleset import Ruleset
from engine.core.systems import System
from engine.core.version import VERSION
from engine.kit.fov import FovAlgorithm
from engine.kit.mapgen import GeneratorInfo
from engine.kit.path import Pathfinder
from engine.kit.tiles import TilesetInfo

# The built-in plugins, imported by module name as pytest, datasette and llm do. In a checkout
# ``plugins/`` is mapped onto ``engine.plugins`` by the install (pyproject's package-dir).
DEFAULT_PLUGINS = (
    "engine.plugins.content",
    "engine.plugins.behaviours",
    "engine.plugins.bot_delver",
    "engine.plugins.bot_random",
    "engine.plugins.effects",
    "engine.plugins.fov_diamond",
    "engine.plugins.fov_everything",
    "engine.plugins.fov_permissive",
    "engine.plugins.fov_raycast",
    "engine.plugins.fov_shadowcast",
    "engine.plugins.fov_symmetric",
    "engine.plugins.gen_ascii",
    "engine.plugins.gen_bsp",
    "engine.plugins.gen_caves",
    "engine.plugins.gen_drunkard",
    "engine.plugins.gen_rooms",
    "engine.plugins.gen_rooms_and_mazes",
    "engine.plugins.gen_scatter",
    "engine.plugins.monster_ai",
    "engine.plugins.path_heap",
    "engine.plugins.tiles_cp437",
    "engine.plugins.tiles_glyphs",
    "engine.plugins.tiles_kenney",
    "engine.plugins.tiles_squares",
    "engine.plugins.preset_bunyip",
    "engine.plugins.preset_lesson28",
    "engine.plugins.preset_rogue_sdl",
)

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
}


def _make_registrar(kind: str, buffer: dict[str, Any]):
    def put(name: str, value: Any) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError(f"register: name must be a non-empty string, got {name!r}")
        if name in buffer:
            raise ValueError(f"registers {kind} {name!r} twice")
        buffer[name] = value

    if kind == "fov":
        def register(name, fn, *, symmetric=False, summary="", python=None, max_reach=None, tcod=None):
            put(name, FovAlgorithm(name, fn, bool(symmetric), summary, python, max_reach, tcod))
    elif kind == "generators":
        def register(name, fn, *, summary="", params=None, min_size=(3, 3), reads_maps=False, natural_size=None):
            put(name, GeneratorInfo(name, fn, summary, dict(params or {}), tuple(min_size), bool(reads_maps),
                                    tuple(natural_size) if natural_size is not None else None))
    elif kind == "pathfinders":
        def register(name, *, dijkstra, astar, summary="", python_dijkstra=None, python_astar=None):
            for what, fn in (("dijkstra", dijkstra), ("astar", astar), ("python_dijkstra", python_dijkstra),
                             ("python_astar", python_astar)):
                if fn is not None and not callable(fn):
                    raise TypeError(f"register_pathfinders: {name!r}: {what} is not callable")
            put(name, Pathfinder(name, dijkstra, astar, summary, python_dijkstra, python_astar))
    elif kind == "tilesets":
        def register(name, fn, *, summary="", needs_file=False):
            if not callable(fn):
                raise TypeError(f"register_tilesets: {name!r} is not callable")
            put(name, TilesetInfo(name, fn, summary, bool(needs_file)))
    elif kind == "bots":
        def register(name, fn, *, summary="", per_run=False):
            if not callable(fn):
                raise TypeError(f"register_bots: {name!r} is not callable")
            put(name, BotInfo(name, fn, str(summary), bool(per_run)))
    elif kind in ("monsters", "items", "games", "rulesets", "systems"):
        cls = {"monsters": MonsterKind, "items": ItemKind, "games": GameRules, "rulesets": Ruleset,
               "systems": System}[kind]

        def register(obj):
            if not isinstance(obj, cls):
                raise TypeError(f"register_{kind}: expected {cls.__name__}, got {type(obj).__name__}")
            if cls in (MonsterKind, ItemKind):
                content.validate(obj)
            elif cls is GameRules:
                rules.validate(obj)
            put(obj.name, obj)
    elif kind == "components":
        def register(cls):
            if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
                raise TypeError(f"register_components: expected a dataclass, got {cls!r}")
            if cls.__name__ in SAVED:
                raise ValueError(f"register_components: {cls.__name__!r} is the engine's own component's name")
            put(cls.__name__, cls)
    else:
        def register(name, fn):
            if not callable(fn):
                raise TypeError(f"register_{kind}: {name!r} is not callable")
            put(name, fn)
    return register


def _register_plugin(pm: pluggy.PluginManager, registry: Registry, plugin: object, info: PluginInfo) -> None:
    """Run one plugin's registration hooks into a buffer, then merge it (or raise, merging nothing)."""
    buffers: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
    for impl_hook in pm.get_hookcallers(plugin) or []:
        info.hooks.append(impl_hook.name)
        kind = REGISTER_HOOKS.get(impl_hook.name)
        if kind is None:
            continue
        for impl in impl_hook.get_hookimpls():
            if impl.plugin is plugin:
                impl.function(register=_make_registrar(kind, buffers[kind]))
    for kind, buffer in buffers.items():
        for name in buffer:
            owner = registry.owners.get((kind, name))
            if owner is not None:
                raise ValueError(f"{kind} {name!r} is registered by both {owner!r} and {info.name!r}")
    for kind, buffer in buffers.items():
        getattr(registry, kind).update(buffer)
        for name in buffer:
            registry.owners[(kind, name)] = info.name
        if buffer:
            info.registered[kind] = sorted(buffer)


def _add(pm, registry, plugin, info, fatal: bool) -> None:
    registry.plugins.append(info)
    try:
        pm.register(plugin, name=info.name)
        _register_plugin(pm, registry, plugin, info)
    except (Exception, SystemExit) as e:  # a plugin's bug is reported by name, never a traceback
        info.error = _reason(e)
        if pm.is_registered(plugin):
            pm.unregister(plugin)
        if fatal:
            raise PluginError(info.error if isinstance(e, ContentError) else f"plugin {info.name}: {info.error}") from e


def _reason(e: BaseException) -> str:
    if isinstance(e, ContentError):
        return str(e)
    return f"{type(e).__name__}: {e}"


def _load_file(path: Path, module_name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _version(module: types.ModuleType, default: str = "") -> str:
    return str(getattr(module, "__version__", default))


def _engine_version() -> str:
    return VERSION


def _allowed_entry_points() -> set[str] | None:
    raw = os.environ.get("UNDERCROFT_LOAD_PLUGINS")
    if raw is None:
        return None
    return {n.strip() for n in raw.split(",") if n.strip()}


def load_registry(plugins_dirs=(), entry_points: bool = True, builtins: tuple[str, ...] | None = None) -> Registry:
    """Load every plugin and return the registry.

    ``UNDERCROFT_LOAD_PLUGINS`` (a comma list; empty means none) limits which entry points load.
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    registry = Registry(manager=pm)
    for name in DEFAULT_PLUGINS if builtins is None else builtins:
        info = PluginInfo(name.rsplit(".", 1)[-1], _engine_version(), "builtin")
        try:
            module = importlib.import_module(name)
        except Exception as e:
            raise PluginError(f"built-in plugin {name}: cannot import it ({_reason(e)})") from e
        _add(pm, registry, module, info, fatal=True)
    if entry_points:
        allowed = _allowed_entry_points()
        for ep in sorted(importlib.metadata.entry_points(group=PROJECT), key=lambda e: e.name):
            if allowed is not None and ep.name not in allowed:
                continue
            dist = ep.dist.name if ep.dist else "?"
            version = ep.dist.version if ep.dist else ""
            info = PluginInfo(ep.name, version, f"entry point {dist}")
            try:
                plugin = ep.load()
            except (Exception, SystemExit) as e:  # a plugin that exits at import is broken, not the game
                info.error = _reason(e)
                registry.plugins.append(info)
                continue
            _add(pm, registry, plugin, info, fatal=False)
    for d in plugins_dirs:
        folder = Path(d)
        if not folder.is_dir():
            raise PluginError(f"--plugins-dir: {folder} is not a folder")
        for path in sorted(folder.glob("*.py")):
            info = PluginInfo(path.stem, "", str(path))
            try:
                module = _load_file(path, f"undercroft_dir.{path.stem}")
            except (Exception, SystemExit) as e:  # a plugin that exits at import is broken, not the game
                info.error = _reason(e)
                registry.plugins.append(info)
                continue
            info.version = _version(module)
            _add(pm, registry, module, info, fatal=False)
    _check_references(registry)
    return registry


def _dangling(registry: Registry) -> tuple[str, str] | None:
    """The first registration naming a behaviour or effect no plugin registers: (its plugin, why)."""
    behaviours, effects = registry.behaviours, registry.effects
    refs = [(("monsters", k.name), f"monster {k.name!r}", "behaviour", k.behaviour, behaviours)
            for k in registry.monsters.values()]
    refs += [(("items", k.name), f"item {k.name!r}", "effect", k.effect, effects) for k in registry.items.values()]
    refs += [(("games", g.name), f"game {g.name!r}: monster {k.name!r}", "behaviour", k.behaviour, behaviours)
             for g in registry.games.values() for k in g.monster_kinds.values()]
    for key, what, label, name, table in refs:
        if name not in table:
            valid = ", ".join(sorted(table)) or "none registered"
            return registry.owners[key], f"{what} names {label} {name!r}, which no plugin registers (valid: {valid})"
    return None


def _check_references(registry: Registry) -> None:
    """Break each plugin whose registrations name what nobody registered, until none does (one
    plugin's going may leave another's references dangling)."""
    while (found := _dangling(registry)) is not None:
        owner, reason = found
        info = next(p for p in registry.plugins if p.name == owner)
        if info.source == "builtin":
            raise PluginError(f"plugin {owner}: {reason}")
        info.error = reason
        registry.forget(owner)
