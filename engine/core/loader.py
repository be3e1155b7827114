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

More checks, each one line naming the plugin (:mod:`engine.core.pluginchecks`): a hook no hookspec
declares (a misspelling such as ``register_monster``) breaks the plugin; a name already registered
breaks the plugin that comes later, so a built-in always keeps its names (built-ins load first)
and, among third-party plugins, the first loaded keeps it; FOV and generator functions are wrapped
so that a result of the wrong shape, dtype or tile codes raises ``BadResult`` naming the plugin.
Warnings (kinds sharing a glyph, ``UNDERCROFT_LOAD_PLUGINS`` names no entry point has) go to
``Registry.warnings``; :func:`announce` says them and the broken plugins once, one line each.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import sys
import traceback
import types
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

import pluggy

import engine.hookspecs as hookspecs
from engine.core import pluginchecks
from engine.core.content import ContentError
from engine.core.errors import show_traceback, valid_names
from engine.core.isolation import one_line, players, watch_interrupts
from engine.core.registrars import REGISTER_HOOKS, LoadProblem, make_registrar
from engine.core.registry import KINDS, PROJECT, SINGULAR, PluginError, PluginInfo, Registry
from engine.core.version import VERSION
from engine.kit.textfile import check_regular

# The built-in plugins, imported by module name as pytest, datasette and llm do. ``engine/plugins``
# is a link to the checkout's ``plugins/``, so the name holds in a checkout and once installed alike.
DEFAULT_PLUGINS = (
    "engine.plugins.content",
    "engine.plugins.behaviours",
    "engine.plugins.bot_delver",
    "engine.plugins.bot_random",
    "engine.plugins.effects",
    "engine.plugins.conditions",
    "engine.plugins.growth",
    "engine.plugins.loot",
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
    "engine.plugins.preset_undercroft",
)

# A plugin that ends the process while loading (``raise SystemExit``, or a KeyboardInterrupt of its
# own: the player's Ctrl-C passes through, see _reason) is as broken as one that raises.
FAILURES = (Exception, SystemExit, KeyboardInterrupt)


def _register_plugin(pm: pluggy.PluginManager, registry: Registry, plugin: object, info: PluginInfo) -> None:
    """Run one plugin's registration hooks into a buffer, then merge it (or raise, merging nothing)."""
    unknown = pluginchecks.unknown_hooks(pm, plugin)
    if unknown:
        raise LoadProblem(unknown)
    buffers: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
    try:
        for impl_hook in pm.get_hookcallers(plugin) or []:
            info.hooks.append(impl_hook.name)
            kind = REGISTER_HOOKS.get(impl_hook.name)
            if kind is None:
                continue
            for impl in impl_hook.get_hookimpls():
                if impl.plugin is plugin:
                    impl.function(register=make_registrar(kind, buffers[kind], info.name))
    finally:
        info.offered = {kind: sorted(buffer) for kind, buffer in buffers.items() if buffer}
    for kind, buffer in buffers.items():
        for name in buffer:
            owner = registry.plugin(registry.owners.get((kind, name), ""))
            if owner is not None:
                first = f"the built-in plugin {owner.name!r}" if owner.builtin else f"plugin {owner.name!r}"
                raise LoadProblem(f"{SINGULAR[kind]} {name!r} is already registered by {first}, which keeps the "
                                  f"name (it loaded first): rename yours")
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
    except FAILURES as e:  # a plugin's bug is reported by name, never a traceback
        info.error = _reason(e)
        if pm.is_registered(plugin):
            pm.unregister(plugin)
        if fatal:
            raise PluginError(info.error if isinstance(e, ContentError) else f"plugin {info.name}: {info.error}") from e


def _reason(e: BaseException) -> str:
    """The one line saying why a plugin is broken (with ``UNDERCROFT_DEBUG=1``, the traceback is
    printed first)."""
    if players(e):  # a real Ctrl-C while loading: it stops the start, as it always did
        raise e
    if not isinstance(e, LoadProblem):  # a problem we found has no traceback worth showing
        show_traceback(e)
    if isinstance(e, ContentError | LoadProblem):
        return str(e)
    if isinstance(e, pluggy.PluginValidationError):
        return pluginchecks.validation_reason(e)
    if isinstance(e, SystemExit):  # no message of its own: where it was raised is what helps
        return f"raised SystemExit({e.code!r}) while loading" + _at(e)
    if isinstance(e, KeyboardInterrupt):  # its own, not a Ctrl-C (see above)
        return "raised KeyboardInterrupt while loading" + _at(e)
    return f"{type(e).__name__}: {one_line(e, 10_000)}"  # one line, whatever the message (a __str__ that raises too)


# Frames that are the loading machinery, never the plugin's line: importlib's, pluggy's, ours.
_MACHINERY = tuple(os.path.join(os.path.dirname(path), "") for path in
                   (importlib.__file__, pluggy.__file__, os.path.dirname(os.path.abspath(__file__))))


def _at(e: BaseException) -> str:
    """``" at FILE:LINE"``: the innermost frame of ``e``'s traceback outside the loading machinery
    (the plugin's own line), or "" when there is none."""
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if not f.filename.startswith("<frozen") and not f.filename.startswith(_MACHINERY)]
    return f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""


def _load_file(path: Path, module_name: str) -> types.ModuleType:
    check_regular(path)  # a FIFO named x.py would block the import: TextFileError, one line
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


def load_registry(plugins_dirs=(), entry_points: bool = True, builtins: tuple[str, ...] | None = None,
                  plugins: Iterable[object] = ()) -> Registry:
    """Load every plugin and return the registry.

    ``UNDERCROFT_LOAD_PLUGINS`` (a comma list; empty means none) limits which entry points load.
    ``plugins`` are plugin objects (modules, usually) registered last, as third-party plugins: how
    tests and ``engine.testing`` load a plugin that is not installed.
    """
    watch_interrupts()  # a plugin's own KeyboardInterrupt is told from the player's Ctrl-C
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
        found = sorted(importlib.metadata.entry_points(group=PROJECT), key=lambda e: e.name)
        for name in sorted((allowed or set()) - {ep.name for ep in found}):
            installed = ", ".join(sorted({ep.name for ep in found})) or "none"
            registry.warnings.append(f"UNDERCROFT_LOAD_PLUGINS names {name!r}, which no installed entry point of "
                                     f"the {PROJECT!r} group is called (installed: {installed})")
        for ep in found:
            if allowed is not None and ep.name not in allowed:
                continue
            dist = ep.dist.name if ep.dist else "?"
            version = ep.dist.version if ep.dist else ""
            info = PluginInfo(ep.name, version, f"entry point {dist}")
            try:
                plugin = ep.load()
            except FAILURES as e:
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
            except FAILURES as e:
                info.error = _reason(e)
                registry.plugins.append(info)
                continue
            info.version = _version(module)
            _add(pm, registry, module, info, fatal=False)
    for plugin in plugins:
        name = str(getattr(plugin, "__name__", type(plugin).__name__)).rsplit(".", 1)[-1]
        _add(pm, registry, plugin, PluginInfo(name, _version(plugin), "given"), fatal=False)
    _check_references(registry)
    registry.warnings.extend(pluginchecks.glyph_collisions(registry))
    return registry


def announcement(registry: Registry) -> list[str]:
    """One line per broken plugin and per warning, as :func:`announce` says them (the window shows
    the same lines)."""
    lines = [f"plugin {info.name!r} ({info.source}) is broken and was skipped: {info.error}"
             for info in registry.plugins if info.error]
    return lines + [f"warning: {warning}" for warning in registry.warnings]


def announce(registry: Registry, file: IO[str] | None = None) -> None:
    """Say each broken plugin and each warning once, one line each (on stderr by default); a
    registry already announced says nothing."""
    if registry.announced:
        return
    registry.announced = True
    for line in announcement(registry):
        print(f"undercroft: {line}", file=file if file is not None else sys.stderr)


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
            return registry.owners[key], (f"{what} names {label} {name!r}, which no plugin registers "
                                          f"{valid_names(name, table)}")
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
