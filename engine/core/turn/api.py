"""The game API: what a plugin's behaviour, effect, bot or event hook is given instead of the game.

A :class:`GameAPI` reads the run (the player, monsters and items, what stands where, what the
player sees) and changes it through the game's own operations (damage and heal, spawn, move and
teleport, statuses, the log), so a plugin never reaches into the engine's internals and the
engine's invariants (one creature per cell, the scheduler, the spatial index) always hold.

Entities are plain ints. Cells are ``(x, y)``. Every list comes in entity order, so what a plugin
does with it is deterministic; randomness comes from :meth:`rng` (the run's own streams), never
from the global ``random``.

Statuses are named conditions on any entity with a duration in turns (``None``: until removed)
and parameters: ``api.add_status(rat, "frozen", 3)``. They are saved with the run, tick down at the
end of every turn (after the monsters have acted, before ``on_turn_end``: see :meth:`GameAPI.add_status`),
and are shown in the window. What a status *does* is a plugin's to say: a
``on_action`` hook that vetoes the actions of the frozen, a system that hurts the poisoned.

A plugin's own state goes in :meth:`data`: a dict of JSON values saved with the run.

Every plugin callable gets this one face: a behaviour, an effect, an action's ``perform``, a
system's ``run``, every ``Ruleset`` method, a status kind's hooks, an event or action hook and a bot.
What the run holds beyond it (the ECS world, the scheduler, the spatial index) is the engine's.

A ``GameAPI`` owns three parts, objects of one idea each beside this module, and gives their
members as its own, under the same names (:data:`PARTS`): ``api_reading`` (the map and what is on
it), ``api_changing`` (hurting, healing, spawning, moving, removing, statuses) and ``api_paths``
(distance maps, walks, steps); this module holds the run itself. The parts never import this module.
"""

from __future__ import annotations

import functools
import operator
import random
import types
from typing import TYPE_CHECKING, Any, cast

from engine.core.kinds import deprecations
from engine.core.kinds.saying import check_kind
from engine.core.model import bounds
from engine.core.model.events import Event
from engine.core.turn import verbkeys
from engine.core.turn.api_changing import Changing
from engine.core.turn.api_paths import Pathfinding
from engine.core.turn.api_reading import Reading
from engine.core.turn.keys import DEFAULT_KEYS, command_for
from engine.kit import limits

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    import numpy as np

    from engine.core.kinds.content import ItemKind, MonsterKind
    from engine.core.kinds.rules import GameRules
    from engine.core.kinds.terrainkinds import TerrainKind
    from engine.core.model.components import Status
    from engine.core.turn.actions import Action
    from engine.core.turn.api_reading import T
    from engine.core.turn.playing import Playing
    from engine.core.turn.run import Run
    from engine.kit.path import Goals, Moves


# The parts a GameAPI owns, in the reference's order: (the attribute that holds it, its class).
PARTS: tuple[tuple[str, type], ...] = (("_reading", Reading), ("_changing", Changing), ("_paths", Pathfinding))


class GameAPI:
    """The game, as plugins see it. Made by the engine; a plugin never builds one.

    Its members: the run itself (the player, the preset, the turn, random streams, the message
    log, prompts and questions, the keys, a plugin's saved data), then reading the map and what is
    on it, changing the run, and pathfinding."""

    def __init__(self, run: Run) -> None:
        self._run = cast("Playing", run)  # read only while the run plays
        self._reading = reading = Reading(run)
        self._changing = Changing(run, reading)
        self._paths = Pathfinding(run, reading)
        # the parts' methods, bound here: a call costs what a method of this class would (the
        # class's forwarders, made below, are for reading and the reference)
        for attr, part in PARTS:
            for name in _METHODS[part]:
                self.__dict__[name] = getattr(getattr(self, attr), name)

    # -- the run and the player's screen -----------------------------------------------------
    @property
    def player(self) -> int:
        """The player's entity (an int). It stays the same for a whole run; a new run (after a death
        in a preset that goes straight on) has a new one, so read it each time rather than keep it."""
        return self._run.state.player

    @property
    def rules(self) -> GameRules:
        """The preset being played (its ``params``, ``messages``, sizes...)."""
        return self._run.rules

    @property
    def depth(self) -> int:
        """The depth of the level being played: 1 for the first, one more for each stairs down."""
        return self._run.state.depth

    @property
    def turn(self) -> int:
        """Turns the player has spent in this run: one more for each action that took time (a key
        that did nothing, a menu, a look around, adds none). What statuses count down in."""
        return self._run.state.turn

    @property
    def alive(self) -> bool:
        """Whether the player is alive."""
        return self._run.state.alive

    def rng(self, label: str) -> random.Random:
        """The run's random stream for ``label`` (use your plugin's name in it: ``"frost:ai"``). A
        run keeps at most ``MAX_STREAMS`` streams, each saved with it, labelled by at most
        ``MAX_LABEL_CHARS`` characters: a new label past that is a ValueError (reuse a few labels)."""
        return self._run.rng(bounds.stream_label(self._run.state, label))

    def log(self, message: str, kind: str = "") -> None:
        """Tell the player (the message log; the window shows the newest). ``kind`` is the kind
        of event it says, which the window colours: ``"hurt"`` (damage the player takes),
        ``"hit"`` (damage dealt), ``"kill"``, ``"level"`` (a level-up: said once the player's
        action is over, after its kills), ``"item"``, ``"warn"``, or ``""`` (anything else). A
        preset's template (``game.rules.message(key)``) carries its key's kind when ``kind`` is
        not given. Another kind is a ValueError naming the valid ones."""
        self._run.log(message, check_kind(kind) if kind else None)

    def messages(self, count: int | None = None) -> list[str]:
        """The message log, oldest first (a copy); the newest ``count`` when given."""
        log = list(self._run.state.log)
        if count is None:
            return log
        return log[-count:] if count > 0 else []

    def prompt(self) -> dict[str, Any] | None:
        """The prompt open now, as plain data (the same as ``--dump json``'s ``prompt``: ``kind``
        "menu", "target", "look", "history", "question", "direction" (a key command asking which
        way) or "page" (a key command's page), its ``title``, a menu's or question's
        ``options`` with their ``letter`` and ``label`` (a menu's also ``note``, what a thing to
        wear adds against what is worn, and ``about``, what the item is), a cursor's ``cursor``
        cell...), or None.
        While one is open, keys answer it (a letter, a cursor move, Enter, Escape)."""
        session = self._run.session
        prompt = session.prompt if session is not None else None
        return prompt.describe(self._run) if prompt is not None else None

    def announce(self, event: Event) -> None:
        """Tell the game's listeners that something happened which a frame cannot show (the
        window's sounds and animations hear it; nothing in the run changes): an instance of
        ``engine.Event`` or a subclass of your own, e.g. ``engine.LevelledUp(entity, level)``. The
        window animates ``engine.Shot(start, end)`` (a missile's flight), ``engine.Bolt(start, end)``
        (a bolt's line lit) and ``engine.Blast(cells)`` (an area lit): announce one before the harm
        it does, and the hits flash after it."""
        if not isinstance(event, Event):
            raise TypeError(f"announce: expected an engine.Event, not {type(event).__name__}")
        self._run.emit(event)

    def ask(self, question: str, title: str, options: list[str]) -> None:
        """Ask the player to choose one of ``options`` (at most 26), as a menu that cannot be put
        off. The answer comes to every plugin's ``on_answer(game, question, choice)`` hook with the
        option's index: name the question after your plugin (``"growth.level"``) to know it. It
        is part of the run: saved, and asked again on resume until answered."""
        options = [str(o)[:100] for o in options][: limits.MAX_PACK]
        if not options:
            raise ValueError("ask: expected at least one option")
        if len(self._run.state.questions) >= limits.MAX_QUESTIONS:
            return
        self._run.state.questions.append({"name": str(question)[:100], "title": str(title)[:200],
                                          "options": options})

    def keys(self) -> dict[str, str]:
        """The preset's keys: each key token and the command it gives, only those that do something in
        this preset (no diagonal moves where it moves 4 ways): the default game's ``"move left"``,
        ``"wait"``, ``"downstairs"``, ``"upstairs"``, ``"pickup"``, ``"quaff"``, ``"read"``, ``"wear"``,
        ``"inventory"``, ``"quit"``..., the classic presets' ``"descend"`` and ``"drink"``; then the
        keys of the item verbs the preset's items use where its keymap leaves them free
        (``"z": "zap"``). The window, ``--keys`` and replays read the same map."""
        rules = self._run.rules
        return {**{token: spec for token, spec in (rules.keys or DEFAULT_KEYS).items()
                   if command_for(rules, token) is not None}, **verbkeys.keys(self._run.registry, rules)}

    def data(self, plugin: str) -> dict[str, Any]:
        """Your plugin's own saved state for this run: a dict it keeps in the run's save.

        ``plugin`` is the key it is kept under: use your plugin's name (``game.data("frost")``), the
        same in every call. The first call of a run gives an empty dict; change it in place, and what
        it holds is saved with the run and given back, equal, after a load (a resumed run, a replay).
        Values must be JSON values (numbers, strings, booleans, None, lists and dicts with string
        keys): with a value a save cannot hold, the run is not saved (said in one line) and would
        resume from its last save point.
        A new run (after a death in a preset that goes straight on) starts with empty data. State
        that belongs to one entity is better in a registered component (``register_components``),
        which goes when the entity goes.

        Example::

            def on_death(game, entity):
                kills = game.data("frost")
                kills["count"] = kills.get("count", 0) + 1"""
        data: dict[str, dict[str, Any]] = self._run.state.plugin_data
        return data.setdefault(plugin, {})

    @property
    def names_version(self) -> int:
        """A number that changes whenever what the player calls an item (:meth:`item_name`,
        :meth:`item_description`) may have changed: a plugin said so (:meth:`names_changed`), or
        a new run began. While it stays the same, the names read earlier hold (the pack, counted
        and named, need not be named again at every key: the ``delver`` bot keeps it so); a value
        is never given twice in a process. What is carried, and how many, is not counted here."""
        return self._run.names_version

    def names_changed(self) -> None:
        """Say that your plugin's ``item_name`` or ``item_description`` answers have changed (an
        item kind identified, a curse learned): :attr:`names_version` changes. A plugin whose
        answers change without this leaves whatever keeps names (a bot) with the old ones."""
        self._run.names_changed()

    def behaviour(self, name: str) -> Callable[[GameAPI, int], Action | None]:
        """A registered behaviour by name, to call from your own: ``api.behaviour("chase")(api, me)``."""
        behaviours: dict[str, Callable[[GameAPI, int], Action | None]] = self._run.registry.behaviours
        return behaviours[name]

    @property
    def registry(self) -> Any:
        """Deprecated: plugin API 1's ``game.registry.behaviours[name]`` (refused from API 3; said
        once, in one line). A read-only view of the registered behaviours, effects, monsters and
        items; write :meth:`behaviour` instead."""
        deprecations.say_once("game.registry is plugin API 1's (refused from API 3): write game.behaviour(name) "
                              "instead of game.registry.behaviours[name]")
        registry = self._run.registry
        return types.SimpleNamespace(**{table: types.MappingProxyType(getattr(registry, table))
                                        for table in ("behaviours", "effects", "monsters", "items")})

    def bot(self, name: str) -> Callable[[GameAPI], str | None]:
        """A registered bot by name (``register_bots``), to play from your own: the function that
        plays one run, ``fn(api) -> key token | None``. A bot registered with ``per_run=True`` gives
        a fresh player at each call, with its own memory: ask once per run and keep it::

            def start():  # register("careful", start, per_run=True)
                delver = None

                def play(game):
                    nonlocal delver
                    delver = delver or game.bot("delver")
                    return "." if game.hp(game.player)[0] < 3 else delver(game)

                return play

        An unknown name is a ValueError naming the registered bots."""
        bots = self._run.registry.bots
        if name not in bots:
            raise ValueError(f"bot: no bot named {name!r} (registered: {', '.join(sorted(bots)) or 'none'})")
        play: Callable[[GameAPI], str | None] = bots[name].start()
        return play

    def __getattr__(self, name: str) -> Any:
        """Plugin API 1's rulesets and systems were given the run itself: what they read of it that the
        game API does not have (``game.world``, ``game.state``, ``game.api``...) is still given, said
        once in one line per name (refused from API 3)."""
        run = self.__dict__.get("_run")
        if name.startswith("_") or run is None or not hasattr(run, name):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        deprecations.say_once(f"game.{name}: the engine's run is no longer given to a ruleset, a system or an "
                              f"action (refused from API 3): {_INSTEAD.get(name, _INSTEAD_ANY)}")
        return getattr(run, name)

    if TYPE_CHECKING:
        # The parts' members, as a GameAPI gives them: bound to each instance in __init__ and forwarded by
        # the class (both made at run time, below, where a type checker cannot see them), so declared here
        # for type checkers alone, at no cost to a call.
        # -- the parts' members (tests/test_types.py holds them to the parts' own)
        # Reading (engine.core.turn.api_reading)
        @property
        def size(self) -> tuple[int, int]: ...
        def is_wall(self, x: int, y: int) -> bool: ...
        def passable(self, x: int, y: int) -> bool: ...
        def sees(self, x: int, y: int) -> bool: ...
        def stairs(self) -> tuple[int, int] | None: ...
        def upstairs(self) -> tuple[int, int] | None: ...
        def exit(self) -> tuple[int, int] | None: ...
        def seen(self) -> np.ndarray: ...
        def visible(self) -> np.ndarray: ...
        def remembered(self) -> dict[tuple[int, int], str]: ...
        def walls(self) -> np.ndarray: ...
        def features(self) -> list[str]: ...
        def terrain(self, x: int, y: int) -> TerrainKind | None: ...
        def area(self, center: tuple[int, int], radius: int) -> list[tuple[int, int]]: ...
        def monsters(self) -> list[int]: ...
        def items(self) -> list[int]: ...
        def visible_monsters(self) -> list[int]: ...
        def creature_at(self, x: int, y: int) -> int | None: ...
        def entities_at(self, x: int, y: int) -> list[int]: ...
        def position(self, entity: int) -> tuple[int, int] | None: ...
        def is_player(self, entity: int) -> bool: ...
        def name_of(self, entity: int) -> str: ...
        def item_name(self, item: int | None, kind: ItemKind | str | None = None) -> str: ...
        def item_description(self, item: int | None, kind: ItemKind | str | None = None) -> str: ...
        def kind_of(self, entity: int) -> MonsterKind | ItemKind | None: ...
        def item_kind(self, name: str) -> ItemKind | None: ...
        def terrain_kind(self, name: str) -> TerrainKind | None: ...
        def item_kinds(self) -> list[ItemKind]: ...
        def monster_kinds(self, depth: int | None = None) -> list[MonsterKind]: ...
        def hp(self, entity: int) -> tuple[int, int]: ...
        def attack_defense(self, entity: int) -> tuple[int, int]: ...
        def notices(self, monster: int) -> bool: ...
        def distance(self, a: int, b: int) -> int: ...
        def component(self, entity: int, cls: type[T]) -> T | None: ...
        def query(self, *types: type) -> list[tuple[int, Any]]: ...
        def pack(self) -> list[int]: ...
        # Changing (engine.core.turn.api_changing)
        def damage(self, entity: int, amount: int, by: int | str | None = None) -> int: ...
        def heal(self, entity: int, amount: int) -> int: ...
        def kill(self, entity: int, by: int | str | None = None) -> None: ...
        def spawn(self, kind: str, x: int, y: int, amount: int = 1) -> int | None: ...
        def loot(self, table: str, depth: int | None = None, label: str = 'loot') -> list[tuple[str, int]]: ...
        def breaks(self, kind: ItemKind) -> bool: ...
        def give(self, kind: str, amount: int = 1) -> int | None: ...
        def remove(self, entity: int) -> None: ...
        def move(self, entity: int, x: int, y: int) -> bool: ...
        def teleport(self, entity: int, label: str = 'teleport') -> tuple[int, int] | None: ...
        def set_terrain(self, x: int, y: int, name: str) -> None: ...
        def set_speed(self, entity: int, speed: int) -> None: ...
        def swap(self, a: int, b: int) -> bool: ...
        def note_feature(self, feature: str) -> None: ...
        def sleep(self, monster: int) -> None: ...
        def wake(self, monster: int) -> None: ...
        def reveal(self, cells: np.ndarray) -> None: ...
        def fall(self) -> bool: ...
        def add_component(self, entity: int, component: Any) -> None: ...
        def declare(self, monster: int, state: str | None) -> None: ...
        def declared(self, monster: int) -> str | None: ...
        def remove_component(self, entity: int, cls: type) -> None: ...
        def add_status(self, entity: int, name: str, turns: int | None, **params: Any) -> None: ...
        def statuses(self, entity: int) -> dict[str, Status]: ...
        def has_status(self, entity: int, name: str) -> bool: ...
        def is_friendly(self, entity: int) -> bool: ...
        def remove_status(self, entity: int, name: str) -> None: ...
        # Pathfinding (engine.core.turn.api_paths)
        @property
        def moves(self) -> Moves: ...
        def walk_cost(self) -> np.ndarray: ...
        def distance_map(
            self, goals: Goals, limit: float | None = None, cost: np.ndarray | None = None
        ) -> np.ndarray: ...
        def path(self, start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]] | None: ...
        def step_toward(self, entity: int, goal: tuple[int, int]) -> tuple[int, int] | None: ...
        def step_away(self, entity: int, threats: Collection[tuple[int, int]]) -> tuple[int, int] | None: ...
        def adjacent(self, a: int, b: int) -> bool: ...
        # -- end of the parts' members


# What to write instead of an old plugin's read of the run (GameAPI.__getattr__).
_INSTEAD_ANY = "use the game API's members (docs/reference.md, The game API)"
_INSTEAD = {
    "api": "the game API is game itself: write game.NAME instead of game.api.NAME",
    "world": "write game.query(*types), game.component(entity, cls), game.add_component and game.remove_component",
    "state": "write the game API's members (game.turn, game.depth, game.creature_at(x, y), game.messages())",
}


def _forwarder(attr: str, name: str, member: Any) -> Any:
    """GameAPI's member ``name``: the part in ``attr``'s, with its docstring and signature."""
    if isinstance(member, property):
        return property(operator.attrgetter(f"{attr}.{name}"), doc=member.__doc__)

    @functools.wraps(member)
    def forward(self: GameAPI, *args: Any, **kwargs: Any) -> Any:
        return getattr(getattr(self, attr), name)(*args, **kwargs)

    return forward


_METHODS: dict[type, list[str]] = {}  # each part's public methods (not its properties), bound by GameAPI
for _attr, _part in PARTS:
    _METHODS[_part] = []
    for _name, _member in vars(_part).items():
        if _name.startswith("_"):
            continue
        if hasattr(GameAPI, _name):
            raise TypeError(f"GameAPI: {_part.__name__}.{_name} would hide GameAPI.{_name}")
        setattr(GameAPI, _name, _forwarder(_attr, _name, _member))
        if not isinstance(_member, property):
            _METHODS[_part].append(_name)
