"""The registry: everything the plugins registered, by kind and name, and how a player's choice
(``--plugin KIND=NAME``) is looked up in it. Filling it is :mod:`engine.core.loading.loader`'s job."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pluggy

from engine.core.errors import valid_names
from engine.core.kinds.commands import KeyCommand
from engine.core.kinds.content import ItemKind, MonsterKind
from engine.core.kinds.rules import GameRules
from engine.core.kinds.statuskinds import StatusKind
from engine.core.kinds.tables import LootRow
from engine.core.kinds.terrainkinds import TerrainKind
from engine.core.kinds.verbs import Verb
from engine.kit.fov import FovAlgorithm
from engine.kit.mapgen import GenerationError, GeneratorInfo
from engine.kit.path import Pathfinder
from engine.kit.tiles import TilesetInfo

PROJECT = "undercroft"
hookimpl = pluggy.HookimplMarker(PROJECT)
# the attribute engine.hears (and engine.player_only) sets on a hook implementation (the hook caller reads it)
HEARS = f"{PROJECT}_hears"
# the hooks whose ``entity`` is the one acting: the only ones engine.hears may mark
ACTION_HOOKS = ("on_action", "after_action")


@dataclass(frozen=True)
class Hearing:
    """Whose actions an ``on_action`` or ``after_action`` implementation hears (:func:`hears`): it
    is called for an action when one of these holds, and passed by otherwise.

    - ``player``: the player's actions;
    - ``having``: those of an entity with a component of one of these types;
    - ``statuses``: those of an entity with one of these statuses;
    - ``present``: anyone's, while some entity of the level has a component of one of these types;
    - ``steps``: a step (an ``engine.Move``, or a plugin's kind of it) from or onto a cell of one of
      these kinds of terrain (by name); ``on_action`` only: after a step the cells are no longer
      where they were."""

    player: bool = False
    having: tuple[type, ...] = ()
    statuses: frozenset[str] = frozenset()
    present: tuple[type, ...] = ()
    steps: frozenset[str] = frozenset()


def _types(value: Any, field_: str) -> tuple[type, ...]:
    types = (value,) if isinstance(value, type) else tuple(value)
    if not all(isinstance(t, type) for t in types):
        raise TypeError(f"engine.hears: {field_} takes component types (classes), got {value!r}")
    return types


def _names(value: Any, field_: str) -> frozenset[str]:
    names = (value,) if isinstance(value, str) else tuple(value)
    if not all(isinstance(n, str) and n for n in names):
        raise TypeError(f"engine.hears: {field_} takes names (strings), got {value!r}")
    return frozenset(names)


def hears(*, player: bool = False, having: Any = (), statuses: Any = (), present: Any = (),
          steps: Any = ()) -> Callable[[Any], Any]:
    """Mark an ``on_action`` or ``after_action`` implementation with whose actions it hears: the
    game calls it for an action only when one of the named conditions holds (see :class:`Hearing`:
    ``player``, ``having``, ``statuses``, ``present``, ``steps``), and passes it by, without a
    call, for every other. An unmarked implementation hears every action. Mark only one that does
    nothing, and returns None, for every action the mark leaves out: a crowd of monsters stepping
    across plain floor then calls no hook at all. Each condition is judged when the
    implementation's turn comes (after the ones called before it). Above or below ``@hookimpl``;
    on another hook (or ``steps`` on ``after_action``) it breaks the plugin at load.

    Example::

        from engine import hookimpl, hears, VETO

        @hookimpl
        @hears(statuses=["frozen"])  # the frozen's actions only: nobody else's calls it
        def on_action(game, entity, action):
            return VETO if game.has_status(entity, "frozen") else None
    """
    if not isinstance(player, bool):
        raise TypeError(f"engine.hears: player is True or False, got {player!r}")
    hearing = Hearing(player, _types(having, "having"), _names(statuses, "statuses"),
                      _types(present, "present"), _names(steps, "steps"))
    if hearing == Hearing():
        raise TypeError("engine.hears: name whose actions it hears (player, having, statuses, present or steps)")

    def mark(function: Any) -> Any:
        setattr(function, HEARS, hearing)
        return function

    return mark


def player_only(function: Any) -> Any:
    """Mark an ``on_action`` or ``after_action`` implementation as one that only cares about the
    player's actions: the game calls it for the player's actions, never for a monster's (a crowd's
    every step skips it). ``@hears(player=True)`` (see :func:`hears`). Use it on an implementation
    that does nothing, and returns None, whenever ``entity`` is not the player; one that also acts
    for monsters stays unmarked, or says for which with :func:`hears`. Above or below
    ``@hookimpl``; on another hook it breaks the plugin at load.

    Example::

        from engine import hookimpl, player_only

        @hookimpl
        @player_only
        def after_action(game, entity, action, result):
            game.log("You feel watched.")  # never heard for a monster's action
    """
    return hears(player=True)(function)

KINDS = ("fov", "generators", "pathfinders", "monsters", "items", "effects", "behaviours", "games", "rulesets",
         "systems", "components", "tilesets", "bots", "statuses", "verbs", "loot_rows", "terrain", "commands")
# --plugin KIND=NAME: the kinds a player chooses, and the registry table each picks from.
CHOICE_KINDS = {"fov": "fov", "generator": "generators", "game": "games", "path": "pathfinders"}
# One registered thing of each table, as messages name it.
SINGULAR = {"fov": "fov", "generators": "generator", "pathfinders": "pathfinder", "monsters": "monster",
            "items": "item", "effects": "effect", "behaviours": "behaviour", "games": "game", "rulesets": "ruleset",
            "systems": "system", "components": "component", "tilesets": "tileset", "bots": "bot",
            "statuses": "status", "verbs": "verb", "loot_rows": "loot row", "terrain": "terrain",
            "commands": "command"}


class PluginError(Exception):
    """A plugin problem the player must hear about: one line, exit status 2."""


@dataclass(frozen=True)
class BotInfo:
    """A registered bot (``register_bots``): ``fn(api) -> token | None``, or with ``per_run`` a
    function of no arguments called once per run that returns such a function."""

    name: str
    fn: Any
    summary: str = ""
    per_run: bool = False

    def start(self) -> Any:
        """The function that plays one run: ``fn`` itself, or a fresh one from ``fn()``."""
        return self.fn() if self.per_run else self.fn


class BadResult(PluginError):
    """A plugin's function returned what its contract rules out (an FOV's array of the wrong shape
    or dtype, a generator's level with unknown tile codes): one line naming the plugin."""


class BadLevel(BadResult, GenerationError):
    """A generator's result that is no level (also a GenerationError, so whatever reports a
    generator's failure reports this one the same way)."""


@dataclass(frozen=True)
class Skipped:
    """One thing a plugin offered that was not kept (see :mod:`engine.core.loading.intake`): its table
    (``"games"``; ``""`` for a whole register hook), its name (or the hook's), the one-line reason,
    and for a hook, what it had registered before it failed (dropped with it)."""

    kind: str
    name: str
    reason: str
    lost: tuple[tuple[str, str], ...] = ()  # (table, name) pairs

    def names(self, kind: str, name: str) -> bool:
        """Whether this is what became of ``name`` of table ``kind``."""
        return (self.kind, self.name) == (kind, name) or (kind, name) in self.lost

    @property
    def line(self) -> str:
        what = f"{SINGULAR[self.kind]} {self.name!r}" if self.kind else f"hook {self.name}"
        lost = ", ".join(f"{SINGULAR[kind]} {name!r}" for kind, name in self.lost)
        lost = f" (dropping what it registered: {lost})" if lost else ""
        # a reason that begins by naming the same thing ("monster 'newt': params...") says it once
        reason = self.reason if lost else self.reason.removeprefix(f"{what}: ")
        return f"skipped {what}{lost}: {reason}"


@dataclass(frozen=True)
class AddedRow:
    """A row a plugin adds to a preset's loot table (``register_loot``): the preset's ``game`` name,
    its ``table`` and the ``row``. Named ``game/table/item`` in the registry."""

    game: str
    table: str
    row: LootRow

    @property
    def name(self) -> str:
        return f"{self.game}/{self.table}/{self.row.item}"


@dataclass
class PluginInfo:
    name: str
    version: str
    source: str  # "builtin", "entry point <dist>", or the file path
    hooks: list[str] = field(default_factory=list)
    registered: dict[str, list[str]] = field(default_factory=dict)
    error: str | None = None
    # what it offered, by table, whether or not it was kept: a broken plugin's names, for choose()
    offered: dict[str, list[str]] = field(default_factory=dict)
    # what it offered that was refused or lost, one line each: a plugin with some is partly broken
    skipped: list[Skipped] = field(default_factory=list)

    @property
    def builtin(self) -> bool:
        return self.source == "builtin"


@dataclass
class Registry:
    """Everything the plugins registered, each kind a mapping from name to what was registered."""

    fov: dict[str, FovAlgorithm] = field(default_factory=dict)
    generators: dict[str, GeneratorInfo] = field(default_factory=dict)
    pathfinders: dict[str, Pathfinder] = field(default_factory=dict)
    monsters: dict[str, MonsterKind] = field(default_factory=dict)
    items: dict[str, ItemKind] = field(default_factory=dict)
    effects: dict[str, Any] = field(default_factory=dict)
    behaviours: dict[str, Any] = field(default_factory=dict)
    games: dict[str, GameRules] = field(default_factory=dict)
    rulesets: dict[str, Any] = field(default_factory=dict)  # engine.core.turn.ruleset.Ruleset, by name
    systems: dict[str, Any] = field(default_factory=dict)  # engine.core.turn.systems.System, by name
    components: dict[str, type] = field(default_factory=dict)
    tilesets: dict[str, TilesetInfo] = field(default_factory=dict)
    bots: dict[str, BotInfo] = field(default_factory=dict)  # played by ``sim --bot NAME``
    statuses: dict[str, StatusKind] = field(default_factory=dict)  # what GameAPI.add_status may name
    verbs: dict[str, Verb] = field(default_factory=dict)  # what an item kind's ``use`` may name
    # rows plugins add to presets' loot tables, by ``game/table/item``: merged into ``games`` once all load
    loot_rows: dict[str, AddedRow] = field(default_factory=dict)
    terrain: dict[str, TerrainKind] = field(default_factory=dict)  # what a level's cells and set_terrain name
    commands: dict[str, KeyCommand] = field(default_factory=dict)  # keys plugins give a meaning (search, close)
    # the params a behaviour or an effect declared with its registration, by table and name: a kind
    # acting by it (applying it) is held to their JSON kinds as it loads
    declared: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    plugins: list[PluginInfo] = field(default_factory=list)
    owners: dict[tuple[str, str], str] = field(default_factory=dict)
    manager: pluggy.PluginManager | None = None
    # one line each, said once at start with the broken plugins (engine.core.loading.loader.announce)
    warnings: list[str] = field(default_factory=list)
    announced: bool = False

    @property
    def broken(self) -> dict[str, str]:
        return {p.name: p.error for p in self.plugins if p.error}

    def plugin(self, name: str) -> PluginInfo | None:
        """The plugin called ``name`` (its entry point's, module's or file's name), or None."""
        return next((p for p in self.plugins if p.name == name), None)

    def owner(self, table: str, name: str) -> PluginInfo | None:
        """The plugin that registered ``name`` in ``table`` ("fov", "generators", ...), or None."""
        owner = self.owners.get((table, name))
        return self.plugin(owner) if owner is not None else None

    def choose(self, kind: str, name: str, via: str | None = None) -> Any:
        """Look up ``--plugin kind=name``; an unknown kind or name raises a one-line PluginError.
        ``via`` says where the name came from when not from ``--plugin`` (``"game 'frost': generator"``).
        When a broken plugin offered the name, the line says which plugin and why it is broken."""
        if kind not in CHOICE_KINDS:
            raise PluginError(f"--plugin: unknown kind {kind!r} (valid kinds: {', '.join(CHOICE_KINDS)})")
        table = getattr(self, CHOICE_KINDS[kind])
        if name not in table:
            broken = [p for p in self.plugins if p.error]
            offered = [p for p in self.plugins if name in p.offered.get(CHOICE_KINDS[kind], ())
                       and (p.error or p.skipped)]
            hint = ""
            if offered and offered[0].error:
                hint = f"; plugin {offered[0].name!r} registers it but is broken: {offered[0].error}"
            elif offered:
                why = next((s for s in offered[0].skipped if s.names(CHOICE_KINDS[kind], name)),
                           offered[0].skipped[0])
                hint = f"; plugin {offered[0].name!r} registers it but it was {why.line}"
            else:  # one that failed before offering anything may be why: the one whose name says so first
                silent = [p for p in broken if not p.offered]
                suspects = [p for p in silent if name in p.name or p.name in name] or silent
                if suspects:
                    hint = f"; plugin {suspects[0].name!r} that may provide it is broken: {suspects[0].error}"
            where = via or f"--plugin {kind}={name}"
            raise PluginError(f"{where}: no {kind} named {name!r} {valid_names(name, table)}{hint}")
        return table[name]

    def drop(self, kind: str, name: str) -> None:
        """Drop one registration (it turned out to be unusable); its plugin keeps the rest."""
        plugin = self.owners.pop((kind, name))
        del getattr(self, kind)[name]
        self.declared.get(kind, {}).pop(name, None)
        info = self.plugin(plugin)
        if info is not None and name in info.registered.get(kind, ()):
            info.registered[kind] = [n for n in info.registered[kind] if n != name]
            if not info.registered[kind]:
                del info.registered[kind]

    def forget(self, plugin: str) -> None:
        """Drop everything ``plugin`` registered (it turned out to be broken) and its hooks."""
        for (kind, name), owner in list(self.owners.items()):
            if owner == plugin:
                del getattr(self, kind)[name]
                del self.owners[(kind, name)]
                self.declared.get(kind, {}).pop(name, None)
        for info in self.plugins:
            if info.name == plugin:
                info.registered = {}
        if self.manager is not None and self.manager.get_plugin(plugin) is not None:
            self.manager.unregister(name=plugin)

