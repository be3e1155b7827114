"""Checks on plugins as they load, and on what their functions return in play.

Each problem is one line naming the plugin:

- :func:`unknown_hooks`: a hook implementation no hookspec declares (``register_monster``,
  ``on_turn_ended``): pluggy's ``check_pending`` finds it; we say which hook was probably meant.
- :func:`misplaced_hearing`: ``engine.hears`` or ``engine.player_only`` on a hook other than
  ``on_action`` and ``after_action`` (no other hook hears whose action it is), or ``steps`` on
  ``after_action``.
- :func:`guard_fov` and :func:`guard_generator` wrap a registered function so that a result of the
  wrong type, shape, dtype or tile codes raises :class:`~engine.core.plugin.registry.BadResult` naming the
  plugin, instead of a numpy traceback far from it. The checks are a few attribute reads per call
  (a ``max`` over the terrain for a level): ``python -m engine bench`` times the wrapped functions.
- :func:`glyph_collisions`: two kinds drawn with one glyph (or with a map tile's), and what
  ``--map`` will read the glyph as.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import re
from typing import TYPE_CHECKING, Any

import numpy as np
import pluggy

import engine.hookspecs as hookspecs
from engine.core.kinds.content import ItemKind
from engine.core.plugin.registry import ACTION_HOOKS, HEARS, BadLevel, BadResult
from engine.kit.mapgen import (
    BUILTIN_KINDS,
    MAX_LEVEL_KINDS,
    STAIRS,
    TILE_CHARS,
    UPSTAIRS,
    Level,
    builtin_first,
    by_names,
)

if TYPE_CHECKING:
    from engine.core.kinds.rules import GameRules
    from engine.core.plugin.registry import Registry
    from engine.kit.fov import FovFn
    from engine.kit.mapgen import Generator

PLAYER_GLYPH = "@"  # the start cell in a --map file, whatever glyph a preset draws the player with
_BOOL = np.dtype(bool)
_UINT8 = np.dtype(np.uint8)


def unknown_hooks(pm: pluggy.PluginManager, plugin: object) -> str | None:
    """Why ``plugin`` (just registered with ``pm``) implements a hook no hookspec declares, or None.

    Hookimpls marked ``optionalhook=True`` are allowed, as pluggy allows them."""
    try:
        pm.check_pending()
    except pluggy.PluginValidationError:
        pass
    else:
        return None
    known = sorted(name for name in dir(pm.hook) if not name.startswith("_")
                   and getattr(pm.hook, name).spec is not None)
    problems = []
    for caller in pm.get_hookcallers(plugin) or []:
        if caller.spec is None and any(i.plugin is plugin and not i.optionalhook for i in caller.get_hookimpls()):
            near = difflib.get_close_matches(caller.name, known, n=1)
            problems.append(f"{caller.name!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
    if not problems:
        return None  # another plugin's: never reached, since each plugin is checked as it registers
    said = f"hook {problems[0]} is not an Undercroft hook" if len(problems) == 1 else \
        f"hooks {', '.join(problems)} are not Undercroft hooks"
    if not any("did you mean" in p for p in problems):
        said += f" (hooks: {', '.join(known)})"
    return said


def misplaced_hearing(pm: pluggy.PluginManager, plugin: object) -> str | None:
    """Why ``plugin`` (just registered with ``pm``) marks a hook other than an action's with
    :func:`engine.hears` or :func:`engine.player_only` (only an ``on_action`` or ``after_action``
    hears whose action it is), or an ``after_action`` with ``steps`` (the cells of a step are
    judged before it), or None."""
    marks = [(caller.name, getattr(impl.function, HEARS)) for caller in pm.get_hookcallers(plugin) or []
             for impl in caller.get_hookimpls() if impl.plugin is plugin and hasattr(impl.function, HEARS)]
    misplaced = sorted({name for name, _ in marks if name not in ACTION_HOOKS})
    if misplaced:
        return (f"hook {misplaced[0]!r} is marked engine.hears (or engine.player_only), which only "
                f"{' and '.join(ACTION_HOOKS)} may be (the hooks that hear whose action it is)")
    if any(name == "after_action" and hearing.steps for name, hearing in marks):
        return ("hook 'after_action' is marked engine.hears(steps=...), which only on_action may be "
                "(a step's cells are judged before it is taken)")
    return None


def validation_reason(e: pluggy.PluginValidationError) -> str:
    """pluggy's several-line message about a hookimpl's arguments, as one line that shows the
    hook's own signature beside the plugin's."""
    text = str(e)
    match = re.search(r"for hook '(\w+)'.*?hookimpl definition: (.*?)\n(Argument\(s\) (\{.*?\}))", text, re.S)
    if match and hasattr(hookspecs, match.group(1)):
        hook = match.group(1)
        spec = f"{hook}({', '.join(inspect.signature(getattr(hookspecs, hook)).parameters)})"  # names: not types
        return (f"hook {hook!r}: {match.group(2).strip()} takes argument(s) {match.group(4)} that the hook does not "
                f"pass: the hook is {spec}")
    return "; ".join(line.strip() for line in text.splitlines() if line.strip())


# --- results checked at the boundary ---------------------------------------------------------------


def _what(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"a {value.dtype} array of shape {value.shape}"
    return "None" if value is None else f"a {type(value).__name__}"


def guard_fov(fn: FovFn, name: str, plugin: str) -> FovFn:
    """``fn`` with its result checked: a bool numpy array of the map's shape."""

    def checked(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
        visible = fn(transparent, origin, radius)
        # (dtype by equality: an array a numba kernel made has a bool dtype that is not numpy's singleton)
        if not isinstance(visible, np.ndarray) or visible.dtype != _BOOL or visible.shape != transparent.shape:
            raise BadResult(f"fov {name!r} (plugin {plugin}) returned {_what(visible)} for a map of shape "
                            f"{transparent.shape}: expected a bool array of that shape, indexed [y, x]")
        return visible

    # the plugin's own name, module and doc (tools read a function's module: its caches, its limits)
    return functools.update_wrapper(checked, fn)


def _cell(value: Any) -> bool:
    return (isinstance(value, tuple | list) and len(value) == 2
            and all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in value))


def level_problem(level: Any, width: int | None, height: int | None) -> str | None:
    """What makes ``level`` unusable as a level (its type, terrain, tile codes, cells), or None.
    ``width`` and ``height`` are the size asked for (None: any size, as for a map read from a file)."""
    if not isinstance(level, Level):
        return f"returned {_what(level)}, expected an engine.Level"
    kinds = level.kinds
    if not (isinstance(kinds, list | tuple) and all(isinstance(k, str) and k for k in kinds)
            and len(kinds) <= MAX_LEVEL_KINDS):
        return (f"returned a level whose kinds are {_what(kinds)}: expected a list of at most {MAX_LEVEL_KINDS} "
                "terrain kind names")
    t = level.terrain
    if isinstance(t, np.ndarray) and t.ndim == 2 and t.dtype.kind in "UO":  # kind names: made into the table
        if t.dtype.kind == "O" and not all(isinstance(v, str) for v in t.flat):
            return "returned terrain of names holding something else than a string: expected kind names"
        try:
            level.terrain, level.kinds = by_names(t, list(kinds))
        except ValueError as e:
            return f"returned terrain of too many kinds: {e}"
        t, kinds = level.terrain, level.kinds
    if not isinstance(t, np.ndarray) or t.ndim != 2 or t.dtype != _UINT8:
        return (f"returned terrain that is {_what(t)}: expected a 2-D uint8 array indexed [y, x] (or an array of "
                "terrain kind names)")
    if width is not None and t.shape != (height, width):
        return f"returned terrain of shape {t.shape} for a {width}x{height} level: expected ({height}, {width})"
    if t.size and int(t.max()) >= len(kinds):
        y, x = (int(v) for v in np.argwhere(t >= len(kinds))[0])
        codes = ", ".join(f"{c} {n}" for c, n in enumerate(kinds) if c != UPSTAIRS or kinds[c] != "upstairs")
        return f"returned tile code {int(t[y, x])} at ({x}, {y}): valid codes are {codes}"
    builtin_first(level)
    t = level.terrain
    if t.size and int(t.max()) >= UPSTAIRS and (t == UPSTAIRS).any():
        y, x = (int(v) for v in np.argwhere(t == UPSTAIRS)[0])
        return (f"returned {BUILTIN_KINDS[UPSTAIRS]!r} at ({x}, {y}): stairs up are the engine's to put "
                f"(a generator makes {', '.join(BUILTIN_KINDS[:STAIRS + 1])} and plugins' kinds)")
    for label in ("start", "stairs", "exit"):
        cell = getattr(level, label)
        if (cell is not None or label == "start") and not _cell(cell):
            return f"returned a level whose {label} is {cell!r}: expected an (x, y) pair of ints"
    return None


def guard_generator(fn: Generator, name: str, plugin: str, reads_maps: bool) -> Generator:
    """``fn`` with its level checked (see :func:`level_problem`); a generator that reads map files
    makes a level of the file's size, not the one asked for."""

    def checked(ctx: Any) -> Level:
        level = fn(ctx)
        problem = level_problem(level, None if reads_maps else ctx.width, None if reads_maps else ctx.height)
        if problem:
            raise BadLevel(f"generator {name!r} (plugin {plugin}) {problem}")
        return level

    return functools.update_wrapper(checked, fn)


# --- glyphs ----------------------------------------------------------------------------------------


def map_legend(registry: Registry, rules: GameRules | None = None) -> dict[str, str]:
    """What ``--map`` reads each kind's glyph as (glyph -> kind name): items, then monsters, then
    the preset's own monster kinds, a monster winning a glyph over an item and a later monster
    over an earlier one. Items of one class share its glyph (``!`` potions): the glyph reads as
    the class's first item registered; a map names the others in its legend lines (see
    ``map_kinds``)."""
    legend: dict[str, str] = {}
    for k in registry.items.values():
        legend.setdefault(k.glyph, k.name)
    return {**legend, **{k.glyph: k.name for k in _kinds(registry, rules) if not isinstance(k, ItemKind)}}


def map_kinds(registry: Registry, rules: GameRules | None = None) -> list[str]:
    """Every kind a ``--map`` file's legend lines may name ("1: potion of haste"): the items, the
    monsters and the preset's own monster kinds, by name."""
    return sorted({k.name for k in _kinds(registry, rules)})


def map_tiles(rules: GameRules, registry: Registry | None = None) -> dict[str, str]:
    """What ``--map`` reads the preset's own terrain glyphs as (glyph -> ``wall``, ``floor``,
    ``stairs`` or ``upstairs``), so a map drawn as the window draws the preset reads back, and
    (with ``registry``) each plugin's kind of terrain by its glyph (``~`` -> ``water``; the first
    registered keeps a glyph two kinds share). The map reader keeps its fixed characters
    (``# . > < @``, and a space: outside the level) and the kinds' glyphs (:func:`map_legend`)
    before these; the preset's glyphs come before the plugins' kinds."""
    own = {rules.tile(name)["glyph"]: name for name in BUILTIN_KINDS}
    plugins: dict[str, str] = {}
    for kind in (registry.terrain.values() if registry is not None else ()):
        if kind.name not in BUILTIN_KINDS:
            plugins.setdefault(kind.glyph, kind.name)
    return {**plugins, **own}


def _kinds(registry: Registry, rules: GameRules | None) -> list[Any]:
    return [*registry.items.values(), *registry.monsters.values(), *(rules.monster_kinds.values() if rules else ())]


def _users(registry: Registry, rules: GameRules | None) -> list[tuple[str, Any, str]]:
    """(what, kind, plugin) in :func:`map_legend`'s order."""
    out = [(f"item {k.name!r}", k, registry.owners.get(("items", k.name), "?")) for k in registry.items.values()]
    out += [(f"monster {k.name!r}", k, registry.owners.get(("monsters", k.name), "?"))
            for k in registry.monsters.values()]
    if rules is not None:
        owner = registry.owners.get(("games", rules.name), "?")
        out += [(f"monster {k.name!r} of game {rules.name!r}", k, owner) for k in rules.monster_kinds.values()]
    return out


def glyph_collisions(registry: Registry) -> list[str]:
    """One warning per glyph that kinds of different names share, or that a kind shares with a
    map tile: which kinds, which plugins, and what ``--map`` reads the glyph as. A preset's own
    kinds are looked at with that preset (they are in its ``--map`` legend only). Items sharing a
    glyph are a class (``!`` potions, ``?`` scrolls), not a mistake: they are warned only when a
    monster or a map tile has the glyph too."""
    reserved = {**{ch: f"the {n}" for ch, n in zip(TILE_CHARS.values(), ("wall", "floor", "stairs", "stairs up"),
                                                    strict=True)},
                PLAYER_GLYPH: "the player's start"}
    warnings: list[str] = []
    said: set[str] = set()
    for rules in [None, *sorted((g for g in registry.games.values() if g.monster_kinds), key=lambda g: g.name)]:
        groups: dict[str, list[tuple[str, Any, str]]] = {}
        for user in _users(registry, rules):
            group = groups.setdefault(user[1].glyph, [])
            group[:] = [u for u in group if u[1].name != user[1].name]  # the same name: the later kind is read
            group.append(user)
        legend = map_legend(registry, rules)
        scope = f" in game {rules.name!r}" if rules is not None else ""
        for glyph, group in groups.items():
            if glyph in said or (rules is not None and not any(k in rules.monster_kinds.values() for _, k, _ in group)):
                continue  # said once, for the registry as a whole
            users = " and ".join(f"{what} (plugin {plugin})" for what, _, plugin in group)
            if glyph in reserved:
                warnings.append(f"glyph {glyph!r} of {users} is {reserved[glyph]} in a --map file: --map{scope} "
                                f"reads {glyph!r} as {reserved[glyph]}")
            elif len(group) > 1 and not all(isinstance(k, ItemKind) for _, k, _ in group):
                read = next(what for what, k, _ in group if k.name == legend[glyph])
                warnings.append(f"glyph {glyph!r} is shared by {users}: --map{scope} reads {glyph!r} as {read}")
            else:
                continue
            said.add(glyph)
    return warnings
