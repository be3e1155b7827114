"""Loading plugins into a registry: built-ins, entry points, ``--plugins-dir``.

Loading order: the built-in plugins (the modules :data:`DEFAULT_PLUGINS` names, imported by
name and registered exactly like any other plugin), then the ``undercroft`` entry-point group,
then each ``--plugins-dir`` (every ``*.py`` there is a plugin, loaded by path). Each plugin
registers into an intake of its own (:mod:`engine.core.loading.intake`), and the unit of failure is the
registration: a refused ``register(...)`` skips that one thing, a register hook that raises loses
what that hook registered, and the rest is merged; each skipped thing is one line in
``PluginInfo.skipped`` (the plugin is "partly broken"). A third-party plugin that fails to import,
or is left with nothing registered, is recorded in ``Registry.broken`` and skipped; any failure of
a built-in is fatal (:class:`PluginError`), because the game cannot be trusted without it. A key a
previous plugin API had is read with one deprecation line (:mod:`engine.core.kinds.deprecations`).

What is registered is checked as it is registered (a kind or preset from Python is held to the
same checks as one read from TOML), and once everything is loaded, the references between
plugins are: a monster naming a behaviour, or an item an effect or a verb (its ``use``), that no
plugin registers is skipped, in one line naming both; then the rows plugins add to presets' loot
tables join them (:mod:`engine.core.loading.lootrows`).

More checks, each one line naming the plugin (:mod:`engine.core.plugin.checks`): a hook no hookspec
declares (a misspelling such as ``register_monster``) breaks the plugin, and so does
``engine.hears`` or ``engine.player_only`` on a hook other than ``on_action`` and ``after_action`` (or
``steps`` on ``after_action``); a name already registered
is skipped in the plugin that comes later, so a built-in always keeps its names (built-ins load
first) and, among third-party plugins, the first loaded keeps it; FOV and generator functions are wrapped
so that a result of the wrong shape, dtype or tile codes raises ``BadResult`` naming the plugin.
Warnings (kinds sharing a glyph, a verb's or command's key taken, ``UNDERCROFT_LOAD_PLUGINS`` names no
entry point has) go to ``Registry.warnings``; :func:`announce` says them, the broken plugins and each
skipped thing once, one line each.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

import pluggy

import engine.hookspecs as hookspecs
from engine.core.errors import valid_names
from engine.core.kinds import deprecations
from engine.core.kinds.content import ContentError
from engine.core.kinds.specs import json_kind, same_kind, shown
from engine.core.kinds.verbs import NOT_VERBS
from engine.core.loading import entrypoints, lootrows
from engine.core.loading.intake import Intake, reason
from engine.core.loading.legacy import legacy_ruleset
from engine.core.loading.registrars import REGISTER_HOOKS, LoadProblem
from engine.core.plugin import checks as pluginchecks
from engine.core.plugin.isolation import watch_interrupts
from engine.core.plugin.registry import PROJECT, SINGULAR, PluginError, PluginInfo, Registry, Skipped
from engine.core.turn import verbkeys
from engine.core.version import VERSION
from engine.kit.textfile import check_regular

# The built-in plugins, imported by module name as pytest, datasette and llm do. ``engine/plugins``
# is a link to the checkout's ``plugins/``, so the name holds in a checkout and once installed alike.
DEFAULT_PLUGINS = {  # plugin name: module (grouped by kind under plugins/; the names are the plugins' own)
    "content": "engine.plugins.rules.content",
    "behaviours": "engine.plugins.rules.behaviours",
    "bot_delver": "engine.plugins.bots.delver",
    "bot_random": "engine.plugins.bots.random",
    "effects": "engine.plugins.rules.effects",
    "verbs": "engine.plugins.rules.verbs",
    "conditions": "engine.plugins.rules.conditions",
    "growth": "engine.plugins.rules.growth",
    "loot": "engine.plugins.rules.loot",
    "terrain": "engine.plugins.rules.terrain",
    "depths_identify": "engine.plugins.depths.identify",
    "fov_diamond": "engine.plugins.fov.diamond",
    "fov_everything": "engine.plugins.fov.everything",
    "fov_permissive": "engine.plugins.fov.permissive",
    "fov_raycast": "engine.plugins.fov.raycast",
    "fov_shadowcast": "engine.plugins.fov.shadowcast",
    "fov_symmetric": "engine.plugins.fov.symmetric",
    "gen_ascii": "engine.plugins.generators.ascii",
    "gen_bsp": "engine.plugins.generators.bsp",
    "gen_caves": "engine.plugins.generators.caves",
    "gen_drunkard": "engine.plugins.generators.drunkard",
    "gen_rooms": "engine.plugins.generators.rooms",
    "gen_rooms_and_mazes": "engine.plugins.generators.rooms_and_mazes",
    "gen_scatter": "engine.plugins.generators.scatter",
    "monster_ai": "engine.plugins.rules.monster_ai",
    "depths_ranged": "engine.plugins.depths.ranged",
    "path_heap": "engine.plugins.paths.heap",
    "tiles_cp437": "engine.plugins.tilesets.cp437",
    "tiles_glyphs": "engine.plugins.tilesets.glyphs",
    "tiles_kenney": "engine.plugins.tilesets.kenney",
    "tiles_squares": "engine.plugins.tilesets.squares",
    "preset_bunyip": "engine.plugins.presets.bunyip",
    "preset_lesson28": "engine.plugins.presets.lesson28",
    "preset_rogue_sdl": "engine.plugins.presets.rogue_sdl",
    "preset_undercroft": "engine.plugins.presets.undercroft",
    "depths_terrain": "engine.plugins.depths.terrain",
    "depths_monsters": "engine.plugins.depths.monsters",
    "depths_vaults": "engine.plugins.depths.vaults",
    "depths_allies": "engine.plugins.depths.allies",
    "depths_search": "engine.plugins.depths.search",
    "depths_doors": "engine.plugins.depths.doors",
    "depths_traps": "engine.plugins.depths.traps",
}

# A plugin that ends the process while loading (``raise SystemExit``, or a KeyboardInterrupt of its
# own: the player's Ctrl-C passes through, see _reason) is as broken as one that raises.
FAILURES = (Exception, SystemExit, KeyboardInterrupt)


def _register_plugin(pm: pluggy.PluginManager, registry: Registry, plugin: object, info: PluginInfo,
                     strict: bool) -> None:
    """Run one plugin's registration hooks into its intake, then merge what was kept (see
    :mod:`engine.core.loading.intake`: a refused registration skips that thing, a hook that raises loses
    what it registered); raise when nothing is left of it (a strict intake raises at the first
    refusal)."""
    unknown = pluginchecks.unknown_hooks(pm, plugin) or pluginchecks.misplaced_hearing(pm, plugin)
    if unknown:
        raise LoadProblem(unknown)
    intake = Intake(info.name, strict)
    for impl_hook in pm.get_hookcallers(plugin) or []:
        info.hooks.append(impl_hook.name)
        kind = REGISTER_HOOKS.get(impl_hook.name)
        if kind is None:  # not a register_* hook
            continue
        for impl in impl_hook.get_hookimpls():
            if impl.plugin is plugin:
                before = intake.snapshot()
                try:
                    with deprecations.registering(intake.notes, intake.unread):
                        impl.function(register=intake.registrar(kind))
                except FAILURES as e:
                    if strict:
                        raise
                    intake.said_unread(kind)
                    intake.skipped.append(Skipped("", impl_hook.name, reason(e), intake.drop_since(before)))
                intake.said_unread(kind)
    registry.warnings.extend(f"plugin {info.name!r}: {note}" for note in intake.notes)
    info.offered = {kind: sorted(buffer) for kind, buffer in intake.buffers.items() if buffer}
    for item in intake.skipped:
        for kind, name in ((item.kind, item.name), *item.lost) if item.kind else item.lost:
            info.offered.setdefault(kind, []).append(name)
    for kind, buffer in intake.buffers.items():
        for name in list(buffer):
            owner = registry.plugin(registry.owners.get((kind, name), ""))
            if owner is None:
                continue
            del buffer[name]
            if kind == "rulesets" and legacy_ruleset(name) is not None:
                continue  # the same flags, the same legacy ruleset: the one registered serves both
            first = f"the built-in plugin {owner.name!r}" if owner.builtin else f"plugin {owner.name!r}"
            intake.refuse(kind, name, LoadProblem(f"{SINGULAR[kind]} {name!r} is already registered by {first}, "
                                                  f"which keeps the name (it loaded first): rename yours"))
    if intake.skipped and not any(intake.buffers.values()):
        raise LoadProblem(intake.skipped[0].reason)  # nothing of it is left: broken as a whole
    info.skipped = intake.skipped
    for kind, buffer in intake.buffers.items():
        getattr(registry, kind).update(buffer)
        for name in buffer:
            registry.owners[(kind, name)] = info.name
            if name in intake.declared.get(kind, {}):
                registry.declared.setdefault(kind, {})[name] = intake.declared[kind][name]
        if buffer:
            info.registered[kind] = sorted(buffer)


def _add(pm: pluggy.PluginManager, registry: Registry, plugin: object, info: PluginInfo, fatal: bool) -> None:
    registry.plugins.append(info)
    try:
        pm.register(plugin, name=info.name)
        _register_plugin(pm, registry, plugin, info, strict=fatal)
    except FAILURES as e:  # a plugin's bug is reported by name, never a traceback
        info.error = reason(e)
        if pm.is_registered(plugin):
            pm.unregister(plugin)
        if fatal:
            raise PluginError(info.error if isinstance(e, ContentError) else f"plugin {info.name}: {info.error}") from e


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


def _version(module: object, default: str = "") -> str:
    return str(getattr(module, "__version__", default))


def _engine_version() -> str:
    return VERSION


def _entry_points() -> list[Any]:
    """The installed entry points of the :data:`PROJECT` group: read from the distributions' folders
    (:mod:`engine.core.loading.entrypoints`), or by importlib.metadata where they are not plain."""
    found: list[Any] | None = entrypoints.find(PROJECT)  # ours, or importlib.metadata's below: alike to the caller
    if found is None:
        import importlib.metadata

        found = list(importlib.metadata.entry_points(group=PROJECT))
    return found


def _allowed_entry_points() -> set[str] | None:
    raw = os.environ.get("UNDERCROFT_LOAD_PLUGINS")
    if raw is None:
        return None
    return {n.strip() for n in raw.split(",") if n.strip()}


def load_registry(plugins_dirs: Iterable[str | os.PathLike[str]] = (), entry_points: bool = True,
                  builtins: Iterable[str] | None = None, plugins: Iterable[object] = ()) -> Registry:
    """Load every plugin and return the registry.

    ``UNDERCROFT_LOAD_PLUGINS`` (a comma list; empty means none) limits which entry points load.
    ``plugins`` are plugin objects (modules, usually) registered last, as third-party plugins: how
    tests and ``engine.testing`` load a plugin that is not installed. ``builtins`` names the built-in
    plugins to load (keys of :data:`DEFAULT_PLUGINS`; default: all).
    """
    watch_interrupts()  # a plugin's own KeyboardInterrupt is told from the player's Ctrl-C
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    registry = Registry(manager=pm)
    for name in DEFAULT_PLUGINS if builtins is None else builtins:
        info = PluginInfo(name, _engine_version(), "builtin")
        try:
            module = importlib.import_module(DEFAULT_PLUGINS[name])
        except Exception as e:
            raise PluginError(f"built-in plugin {name}: cannot import it ({reason(e)})") from e
        _add(pm, registry, module, info, fatal=True)
    if entry_points:
        allowed = _allowed_entry_points()
        found = sorted(_entry_points(), key=lambda e: e.name)
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
                info.error = reason(e)
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
                info.error = reason(e)
                registry.plugins.append(info)
                continue
            info.version = _version(module)
            _add(pm, registry, module, info, fatal=False)
    for plugin in plugins:
        name = str(getattr(plugin, "__name__", type(plugin).__name__)).rsplit(".", 1)[-1]
        _add(pm, registry, plugin, PluginInfo(name, _version(plugin), "given"), fatal=False)
    _check_references(registry)
    lootrows.join(registry)
    registry.warnings.extend(pluginchecks.glyph_collisions(registry))
    registry.warnings.extend(verbkeys.collisions(registry))
    return registry


def announcement(registry: Registry) -> list[str]:
    """One line per broken plugin and per warning, as :func:`announce` says them (the window shows
    the same lines)."""
    lines = [f"plugin {info.name!r} ({info.source}) is broken and was skipped: {info.error}"
             for info in registry.plugins if info.error]
    lines += [f"plugin {info.name!r} ({info.source}) is partly broken: {item.line}"
              for info in registry.plugins if not info.error for item in info.skipped]
    return lines + [f"warning: {warning}" for warning in registry.warnings]


def announce(registry: Registry, file: IO[str] | None = None) -> None:
    """Say each broken plugin and each warning once, one line each (on stderr by default); a
    registry already announced says nothing."""
    if registry.announced:
        return
    registry.announced = True
    for line in announcement(registry):
        print(f"undercroft: {line}", file=file if file is not None else sys.stderr)


def _dangling(registry: Registry) -> tuple[tuple[str, str], str] | None:
    """The first registration naming a behaviour or effect no plugin registers, a kind whose params
    are not of the JSON kind its behaviour or effect declared (it would fail in play, in the other
    plugin's hands), or a monster kind whose ``params.drops`` names a loot table no game has (its
    death would drop nothing, unsaid): its (table, name) and why."""
    behaviours, effects = registry.behaviours, registry.effects
    # every monster kind, the registry's and each preset's own, with where it is and how it is named
    own = [(("monsters", k.name), f"monster {k.name!r}", k) for k in registry.monsters.values()]
    presets = [(("games", g.name), f"game {g.name!r}: monster {k.name!r}", k)
               for g in registry.games.values() for k in g.monster_kinds.values()]
    refs = [(key, what, "behaviour", k.behaviour, behaviours) for key, what, k in own]
    refs += [(("items", k.name), f"item {k.name!r}", "effect", k.effect, effects) for k in registry.items.values()]
    refs += [(("items", k.name), f"item {k.name!r}", "verb", k.use, registry.verbs) for k in registry.items.values()
             if k.use not in NOT_VERBS]
    refs += [(key, what, "behaviour", k.behaviour, behaviours) for key, what, k in presets]
    for key, what, label, name, table in refs:
        if name not in table:
            return key, f"{what} names {label} {name!r}, which no plugin registers {valid_names(name, table)}"
    kinds: list[tuple[tuple[str, str], str, str, dict[str, Any], str]] = [
        (key, what, "behaviours", k.params, k.behaviour) for key, what, k in [*own, *presets]]
    kinds += [(("items", k.name), f"item {k.name!r}", "effects", k.params, k.effect) for k in registry.items.values()]
    for key, what, reader, params, by in kinds:
        if (why := _undeclared(registry, reader, by, params)) is not None:
            return key, f"{what}: {why}"
    tables = {table for game in registry.games.values() for table in game.loot}
    for key, what, kind in [*own, *presets]:
        drops = kind.params.get("drops")
        if drops is not None and drops not in tables:
            return key, (f"{what}: params.drops names loot table {drops!r}, which no game has "
                         f"{valid_names(drops, tables)}")
    return None


def _undeclared(registry: Registry, table: str, by: str, params: dict[str, Any]) -> str | None:
    """Why ``params`` (a kind's) hold a param that ``by`` (of ``table``: a behaviour or an effect)
    declared with a value of another JSON kind than its default, or None."""
    for name, default in registry.declared.get(table, {}).get(by, {}).items():
        if name in params and not same_kind(params[name], default):
            owner, label = registry.owner(table, by), SINGULAR[table]
            whose = f" (plugin {owner.name!r})" if owner is not None else ""
            return (f"params.{name}: expected {json_kind(default)} (like {shown(default)}), as {label} {by!r}"
                    f"{whose} declares it, got {shown(params[name])}")
    return None


def _check_references(registry: Registry) -> None:
    """Skip each registration that names what nobody registered (its plugin keeps the rest; one
    left with nothing is broken); a built-in's is fatal. Dropping a monster, an item or a game
    leaves no other reference dangling, so one pass over the registrations does."""
    while (found := _dangling(registry)) is not None:
        (kind, name), why = found
        info = registry.owner(kind, name)
        assert info is not None  # every registration has its owner
        if info.builtin:
            raise PluginError(f"plugin {info.name}: {why}")
        registry.drop(kind, name)
        info.skipped.append(Skipped(kind, name, why))
        if not info.registered:
            info.error = why
            registry.forget(info.name)
