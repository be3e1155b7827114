"""The plugin manager: built-ins, entry points, ``--plugins-dir``, and the registry they fill.

Loading order: the built-in plugins (the modules named in :data:`DEFAULT_PLUGINS`, imported by
name and registered exactly like any other plugin), then the ``undercroft`` entry-point group,
then each ``--plugins-dir`` (every ``*.py`` there is a plugin, loaded by path). Each plugin
registers into a buffer of its own; only when all its registration hooks succeed is the buffer
merged, so a broken plugin leaves nothing behind. A third-party plugin that fails to import or
register is recorded in ``Registry.broken`` and skipped; a broken built-in is fatal
(:class:`PluginError`), because the game cannot be trusted without it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pluggy

from engine import hookspecs
from engine.core.content import ContentError, ItemKind, MonsterKind
from engine.core.rules import GameRules
from engine.kit.fov import FovAlgorithm
from engine.kit.mapgen import GeneratorInfo

PROJECT = "undercroft"
# The built-in plugins, imported by module name as pytest, datasette and llm do. In a checkout
# ``plugins/`` is mapped onto ``engine.plugins`` by the install (pyproject's package-dir).
DEFAULT_PLUGINS = (
    "engine.plugins.content",
    "engine.plugins.behaviours",
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
)
hookimpl = pluggy.HookimplMarker(PROJECT)

KINDS = ("fov", "generators", "monsters", "items", "effects", "behaviours", "games")
REGISTER_HOOKS = {
    "register_fov_algorithms": "fov",
    "register_generators": "generators",
    "register_monsters": "monsters",
    "register_items": "items",
    "register_effects": "effects",
    "register_behaviours": "behaviours",
    "register_games": "games",
}
# --plugin KIND=NAME: the kinds a player chooses, and the registry table each picks from.
CHOICE_KINDS = {"fov": "fov", "generator": "generators", "game": "games"}


class PluginError(Exception):
    """A plugin problem the player must hear about: one line, exit status 2."""


@dataclass
class PluginInfo:
    name: str
    version: str
    source: str  # "builtin", "entry point <dist>", or the file path
    hooks: list[str] = field(default_factory=list)
    registered: dict[str, list[str]] = field(default_factory=dict)
    error: str | None = None


@dataclass
class Registry:
    """Everything the plugins registered, each kind a mapping from name to what was registered."""

    fov: dict[str, FovAlgorithm] = field(default_factory=dict)
    generators: dict[str, GeneratorInfo] = field(default_factory=dict)
    monsters: dict[str, MonsterKind] = field(default_factory=dict)
    items: dict[str, ItemKind] = field(default_factory=dict)
    effects: dict[str, Any] = field(default_factory=dict)
    behaviours: dict[str, Any] = field(default_factory=dict)
    games: dict[str, GameRules] = field(default_factory=dict)
    plugins: list[PluginInfo] = field(default_factory=list)
    owners: dict[tuple[str, str], str] = field(default_factory=dict)
    manager: pluggy.PluginManager | None = None

    @property
    def broken(self) -> dict[str, str]:
        return {p.name: p.error for p in self.plugins if p.error}

    def choose(self, kind: str, name: str) -> Any:
        """Look up ``--plugin kind=name``; an unknown kind or name raises a one-line PluginError."""
        if kind not in CHOICE_KINDS:
            raise PluginError(f"--plugin: unknown kind {kind!r} (valid kinds: {', '.join(CHOICE_KINDS)})")
        table = getattr(self, CHOICE_KINDS[kind])
        if name not in table:
            hint = ""
            for p in self.plugins:
                if p.error and name in p.name:
                    hint = f"; plugin {p.name!r} that may provide it is broken: {p.error}"
            valid = ", ".join(sorted(table)) or "none registered"
            raise PluginError(f"--plugin {kind}={name}: no {kind} named {name!r} (valid: {valid}){hint}")
        return table[name]

    def call(self, hook: str, **kwargs: Any) -> None:
        """Call an event hook (``on_level_generated``, ``on_turn_end``, ``on_death``)."""
        if self.manager is not None:
            getattr(self.manager.hook, hook)(**kwargs)


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
        def register(name, fn, *, summary="", params=None, min_size=(3, 3), natural_size=None):
            put(name, GeneratorInfo(name, fn, summary, dict(params or {}), tuple(min_size),
                                    tuple(natural_size) if natural_size is not None else None))
    elif kind in ("monsters", "items", "games"):
        cls = {"monsters": MonsterKind, "items": ItemKind, "games": GameRules}[kind]

        def register(obj):
            if not isinstance(obj, cls):
                raise TypeError(f"register_{kind}: expected {cls.__name__}, got {type(obj).__name__}")
            put(obj.name, obj)
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
    except Exception as e:  # a plugin's bug is reported by name, never a traceback
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
    from engine import __version__

    return __version__


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
            except Exception as e:
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
            except Exception as e:
                info.error = _reason(e)
                registry.plugins.append(info)
                continue
            info.version = _version(module)
            _add(pm, registry, module, info, fatal=False)
    return registry
