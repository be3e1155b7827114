"""Registration hooks for what a game is made of: its kinds, what they do, its presets and rules.

Monster and item kinds (rows of data, checked as content files are), the effects items name and
the behaviours monsters name, game presets (``GameRules``) and the rulesets they name, and the
per-turn systems and saved components that plugins add to the ECS world.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pluggy

# The types the hooks pass, for type checkers only: engine's public names are made of the core, which
# loads these hooks (the import contracts let this package name them for typing alone: pyproject.toml).
if TYPE_CHECKING:
    from engine import (
        Action,
        GameAPI,
        GameRules,
        ItemKind,
        KeyCommand,
        LootRow,
        MonsterKind,
        Ruleset,
        StatusKind,
        System,
        TerrainKind,
        Verb,
    )

# pluggy's marker for the "undercroft" project's hooks: every module of engine.hookspecs marks its
# hooks with one of the same name (a marker holds nothing but the name).
hookspec = pluggy.HookspecMarker("undercroft")


@hookspec
def register_monsters(register: Callable[[MonsterKind], None]) -> None:
    """Register monster kinds: call ``register(MonsterKind(...))`` once per kind.

    Called once per plugin when the registry loads. A kind is one row of data, checked as a
    content file's row is (``engine.MonsterKind``: ``name, glyph, color, hp, attack, defense,
    sight, speed`` (100 normal, 200 acts twice a turn), ``behaviour`` (a registered name),
    ``min_depth, weight`` (the spawn table), ``params``). ``params=`` is a dict of JSON values
    (numbers, strings, booleans, lists, dicts) that the kind's behaviour reads with
    ``game.kind_of(entity).params``; in a content file, ``params = { attack = "none" }``.

    A registered kind joins the spawn table of every preset that does not list its ``monsters``:
    the default game lists none, so a plugin's monsters appear in it, on purpose (installing a
    plugin adds to the game). A preset keeps to its own kinds by listing them
    (``monsters=("ice-bat", "ice-wraith")``, or ``monster_table``); the presets modelled on other games
    do. Items are placed only where a preset names them in ``item_counts``.

    Example::

        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="ice-bat", glyph="B", color=(150, 200, 250), hp=3, attack=1, speed=200,
                                 behaviour="skitter", params={"erratic": 0.5}))
    """


@hookspec
def register_items(register: Callable[[ItemKind], None]) -> None:
    """Register item kinds: call ``register(ItemKind(...))`` once per kind.

    Called once per plugin when the registry loads. An ``engine.ItemKind`` has ``name``,
    ``glyph``, ``color``, ``effect`` (a registered name), ``params`` (a dict of JSON values the
    effect reads as ``kind.params``), ``amount`` (the (min, max) rolled when placed), ``use``,
    ``target`` and ``radius`` (how it aims), ``slot``, ``attack`` and ``defense`` (equipment),
    ``description`` and the spawn table (``min_depth``, ``weight``). ``use`` says what it is for:
    ``"pickup"``, its effect applies when it is picked up (gold; the default game picks gold up as
    the player walks over it, other items wait for ``g``); ``"quaff"`` and ``"read"``, it goes into
    the pack and ``q`` (drink) or ``r`` (read) uses one: at once when the pack holds one such stack,
    else from a menu of them by pack letter; ``"wear"``, equipment worn with ``w`` in ``slot``;
    ``"carry"``, only carried; or another registered verb (``register_verbs``: the built-in
    ``"wield"``, ``"zap"``, ``"eat"``, ``"apply"`` and ``"throw"``, whose thrown item hits for its
    ``attack``). ``target`` ``"nearest"`` aims at the nearest visible monster,
    ``"monster"`` or ``"cell"`` opens a targeting cursor (not for an item the player knows by
    another name, an unknown scroll: it goes off at once at the nearest visible monster, else on
    the player's cell). A kind is placed only by a preset that
    names it in ``item_counts`` (or a loot table's row: ``register_loot``). ``effect`` must be
    registered: ``"mend"`` below is the one :func:`register_effects`' example registers; the
    built-in ones include ``"heal"`` (``params.amount``) and ``"inert"`` (nothing: an item whose
    verb's ``act`` does the work); an unregistered one skips the kind, in one line naming them.

    Example::

        @hookimpl
        def register_items(register):
            register(ItemKind(name="mending-draught", glyph="~", color=(120, 200, 255), effect="mend",
                              params={"amount": 5}, use="quaff", min_depth=2))
    """


@hookspec
def register_effects(register: Callable[[str, Callable[..., str | None]], None]) -> None:
    """Register item effects: call ``register(name, fn, *, params=None)``.

    Called once per plugin when the registry loads. ``fn(game, entity, kind, amount)`` is called
    when ``entity`` (the player, who picked up, drank or read the item) uses ``amount`` items of
    ``kind`` (its ``ItemKind``, with ``params``); a kind that aims (its ``target``) also passes
    ``target=(x, y)``, the cell aimed at, so such an effect takes ``target=None``. It applies the
    effect and returns the message to log, or None. ``game`` is the game API
    (``engine.GameAPI``). The test kit's ``check_effect`` calls it on random situations.

    ``params=`` declares the kind params ``fn`` reads, each with its default (a JSON value): an
    item kind of this effect whose params hold one with a value of another JSON kind (``amount =
    "lots"`` where the default is 5; an int passes for a number, a default of None takes any) is
    skipped as it loads, in one line naming the param, instead of failing in ``fn`` in play. Other
    params are the kind's own business.

    Example::

        def mend(game, entity, kind, amount):
            game.heal(entity, kind.params.get("amount", 5) * amount)
            return "You feel mended."

        @hookimpl
        def register_effects(register):
            register("mend", mend, params={"amount": 5})
    """


@hookspec
def register_behaviours(register: Callable[[str, Callable[[GameAPI, int], Action | None]], None]) -> None:
    """Register monster behaviours: call ``register(name, fn, *, params=None)``.

    Called once per plugin when the registry loads. ``fn(game, entity)`` is called on the
    monster's turn (awake monsters only: a monster wakes when it notices the player) and returns
    the ``engine.Action`` it takes (``Move(dx, dy)``, ``Attack(target)``, ``Wait()``), or None to
    wait; the engine performs it and charges the energy. ``game`` is the game API
    (``engine.GameAPI``). Use ``game.rng("ai")`` for any randomness. A behaviour says what the
    monster is doing, for the sidebar's row, with ``game.declare(entity, "fleeing")`` (until the
    monster's next turn). The test kit's ``check_behaviour`` calls it on many random situations.
    ``params=`` declares the kind params ``fn`` reads, each with its default (a JSON value): a monster
    kind of this behaviour whose params hold one of another JSON kind (``leap = "far"`` where the
    default is 2) is skipped as it loads, in one line naming the param (as for ``register_effects``).

    Example::

        from engine import Move, hookimpl

        def skitter(game, entity):
            if not game.notices(entity):
                return None
            x, y = game.position(entity)
            steps = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if game.passable(x + dx, y + dy)]
            return Move(*game.rng("ai").choice(steps)) if steps else None

        @hookimpl
        def register_behaviours(register):
            register("skitter", skitter)
    """


@hookspec
def register_games(register: Callable[[GameRules], None]) -> None:
    """Register game presets: call ``register(GameRules(...))``; ``--game NAME`` plays one.

    Called once per plugin when the registry loads. An ``engine.GameRules`` holds a game's sizes,
    generators per depth and their params, FOV and light radius, player, monsters and items and
    how many of each, keys, messages and colours; ``default=True`` makes it the game played when
    none is chosen. It is checked as a TOML preset is (``engine.load_rules`` reads one), and
    before play against the registry. The test kit's ``check_preset`` plays it. A preset that fails
    its checks is skipped alone, in one line; ``register(load_rules(path))`` skips a bad file alone
    too, and reads a key a previous plugin API had with one line naming what replaces it.

    Example::

        @hookimpl
        def register_games(register):
            register(GameRules(name="frost", generators=((1, "bsp"), (3, "caves")), fov="symmetric",
                               fov_radius=6, monsters=("ice-bat",), item_counts={"mending-draught": (1, 2)}))
    """


@hookspec
def register_rulesets(register: Callable[[Ruleset], None]) -> None:
    """Register rulesets: call ``register(MyRuleset())`` with an instance of a subclass of
    ``engine.Ruleset``, whose ``name`` a preset names in its ``ruleset`` key.

    Called once per plugin when the registry loads. A ruleset says what differs between presets
    in how a turn goes: what a wall bump costs, what happens when the player and a monster meet,
    what the player's death, the restart key, the exit and the quit key do, when the view is
    recomputed, and whether the run is saved (``saves = False``: a preset without saves, whose run
    ends with its session). Override only what differs. Each method is given the game API as
    ``game``, as every plugin callable is.

    Example::

        from engine import ActionResult, Ruleset

        class Hardy(Ruleset):
            name = "hardy"

            def bump_wall(self, game, player):
                return ActionResult.success()  # a bump costs the turn

        @hookimpl
        def register_rulesets(register):
            register(Hardy())
    """


@hookspec
def register_systems(register: Callable[[System], None]) -> None:
    """Register per-turn systems: call ``register(MySystem())`` with an instance of a subclass of
    ``engine.System`` (an esper processor) with a unique ``name``.

    Called once per plugin when the registry loads. The turn loop runs every system in the phases
    it names (``engine.Phase.AFTER_PLAYER``: the player has acted, the monsters have not;
    ``engine.Phase.END_OF_TURN``: the monsters have acted), highest ``priority`` first; the
    engine's own systems run before the default priority 0: reap (100), view (50), terrain (45),
    statuses (40) and watch (30: a monster that came into view is news). A system is
    stateless: what it changes lives in components. ``run(game)`` is given the game API, as every
    plugin callable is: it reads the world with ``game.query(*types)``.

    Example::

        from engine import Fighter, Phase, System

        class Regenerate(System):
            name = "regenerate"
            phases = (Phase.END_OF_TURN,)

            def run(self, game):
                for entity, (regen, fighter) in game.query(Regen, Fighter):
                    fighter.hp = min(fighter.max_hp, fighter.hp + regen.per_turn)

        @hookimpl
        def register_systems(register):
            register(Regenerate())
    """


@hookspec
def register_components(register: Callable[[type[Any]], None]) -> None:
    """Register component types a plugin adds to entities: call ``register(MyComponent)`` with a
    dataclass whose fields are JSON values (numbers, strings, booleans, lists, dicts).

    Called once per plugin when the registry loads. Registered components are saved with the run
    and restored on load, by class name; an unregistered component is not saved.

    Example::

        import dataclasses

        @dataclasses.dataclass
        class Regen:
            per_turn: int = 1

        @hookimpl
        def register_components(register):
            register(Regen)
    """


@hookspec
def register_statuses(register: Callable[[StatusKind], None]) -> None:
    """Register status kinds: call ``register(StatusKind(...))`` for each status a plugin puts on
    creatures with ``game.add_status``.

    Called once per plugin when the registry loads. An ``engine.StatusKind`` has a ``name`` (what
    ``add_status`` names; an unregistered name is an error naming the registered ones), a ``label``
    and ``color`` for the sidebar, ``stacking`` (a second dose: ``"max"`` keeps the longer duration,
    ``"refresh"`` the new one, ``"add"`` adds them) and optional hooks ``on_start``, ``on_tick`` and
    ``on_end``, each ``fn(game, entity, status)`` with the game API and the ``engine.Status``; and
    ``friendly`` (default False): a creature with the status is on the player's side (an ally),
    what aims at "the nearest monster" passes it by, and the window draws it on a green ground.
    ``on_tick`` runs at the end of every turn the status lasts (after the monsters, before the
    plugins' end-of-turn systems and ``on_turn_end``), so a status of N turns ticks exactly N times.

    Example::

        from engine import StatusKind, hookimpl

        def bite(game, entity, status):
            game.damage(entity, status.params.get("damage", 1), by="poison")

        @hookimpl
        def register_statuses(register):
            register(StatusKind(name="blighted", label="Blighted", color=(120, 220, 60), stacking="add",
                                on_tick=bite))
    """


@hookspec
def register_verbs(register: Callable[[Verb], None]) -> None:
    """Register item verbs: call ``register(Verb(...))`` for each verb an item kind's ``use`` names.

    Called once per plugin when the registry loads. An ``engine.Verb`` has a ``name`` (what an
    ``ItemKind``'s ``use`` names: an item naming a verb no plugin registers is skipped, in one line),
    its ``key`` (the key token that opens its pack menu), the menu's ``title`` ("Zap what?"), the
    log's ``word`` for it ("You have nothing to zap."), ``aims`` (it takes a target even when the
    kind names none: a cell within sight), ``stacks`` (items of it share a pack letter), and
    optional ``act`` and ``offer``. ``act(game, entity, item, target)`` does it through the game API
    and returns False (nothing done, no time passes), an ``engine.Action`` to perform instead, or
    None (done); without it, one charge is spent (an item with ``charges``) or one of the stack used
    up, and the kind's ``effect`` applies at ``target``. ``offer(game, item)`` says whether its menu
    offers a carried item. The built-in verbs ``quaff`` (q), ``read`` (r), ``wear`` (w), ``wield``
    (W), ``zap`` (z), ``eat`` (e), ``apply`` (a) and ``throw`` (t) are registered this way
    (``plugins/rules/verbs.py``). A verb's key means it only in a preset whose items use the verb
    and which plays with the default keys, where they leave that key free (a preset's own ``keys``
    table is every key it has); the help lists it there.

    Example::

        from engine import Verb, hookimpl

        def rub(game, entity, item, target):
            game.heal(entity, game.kind_of(item).params.get("warmth", 2))
            game.log("The lamp glows warm in your hands.")

        @hookimpl
        def register_verbs(register):
            register(Verb(name="rub", key="U", title="Rub what?", act=rub))
    """


@hookspec
def register_commands(register: Callable[[KeyCommand], None]) -> None:
    """Register key commands: call ``register(KeyCommand(...))`` for each key the player presses
    that is neither a move nor an item's verb (search, close a door, list what is known).

    Called once per plugin when the registry loads. An ``engine.KeyCommand`` has a ``name`` (a
    word the help shows), its ``key`` (a key token), ``act`` and optional ``directions``, ``ask``,
    ``params`` and ``summary``. ``directions(game, player)`` lists the steps ``(dx, dy)`` the command
    could take: with several the player is asked which (``ask`` is the question; a move key answers,
    Escape cancels), with one it is taken at once, with none ``act`` gets None.
    ``act(game, player, step)`` returns an ``engine.Action`` (the player's turn), an ``engine.Page``
    to show (``Page(title, lines)``; no time passes) or None (nothing done; say why with
    ``game.log``). With ``params`` set, the key means the command only in presets whose TOML has a
    ``[params.NAME]`` table of that name; a preset with its own ``keys`` table, or whose keymap binds
    the key already, keeps its meaning. A key the default keys or an earlier verb or command have
    already is warned when the plugin loads (the first keeps it), with free keys named. A failing
    ``act`` switches its plugin off, as any hook.

    Example::

        from engine import KeyCommand, Page, hookimpl

        def count(game, player, step):
            return Page("Monsters in view", [game.name_of(m) for m in game.visible_monsters()])

        @hookimpl
        def register_commands(register):
            register(KeyCommand(name="count", key="C", act=count, summary="list the monsters in view"))
    """


@hookspec
def register_loot(register: Callable[[str, str, LootRow], None]) -> None:
    """Add rows to presets' loot tables: call ``register(game, table, LootRow(...))``.

    Called once per plugin when the registry loads. ``game`` names a registered preset and
    ``table`` one of its loot tables (``floor``, rolled on every new level; ``drop``, when a
    monster dies; or one a monster kind's ``params.drops`` names, such as the default game's
    ``rich``); an ``engine.LootRow`` is ``item`` (a registered item kind), ``weight`` at
    ``min_depth``, ``per_depth`` added for each level deeper, and ``max_depth``: the same rules as
    the preset's own rows. The rows join the table once every plugin has loaded, in load order;
    a row naming a preset, a table or an item that is not registered is skipped, in one line
    naming the valid ones. ``undercroft catalog`` lists the rows added, with their plugins.

    Example::

        from engine import LootRow, hookimpl

        @hookimpl
        def register_loot(register):
            register("undercroft", "floor", LootRow(item="mending-draught", weight=4, min_depth=2))
    """


@hookspec
def register_terrain(register: Callable[[TerrainKind], None]) -> None:
    """Register terrain kinds: call ``register(TerrainKind(...))`` for each kind of cell a
    generator or ``game.set_terrain`` may name.

    Called once per plugin when the registry loads. An ``engine.TerrainKind`` has a ``name``, a
    ``glyph``, ``color`` and ``remembered_color``, ``walkable``, ``transparent``, ``cost`` (what a
    step onto it costs a path: 1 for floor, more to go around it; ``math.inf``: no path enters it,
    neither a monster's nor the player's explore and travel, though a creature may step there
    itself: a known trap, a door that will not open), ``remembered`` (whether the
    player's memory keeps it), ``flags`` (words a generator or rule asks about) and optional hooks
    ``on_enter``, ``on_stand`` and ``on_leave``, each ``fn(game, entity, x, y)`` with the game API.
    Wall, floor, stairs and stairs up are the built-in plugin ``terrain``'s kinds, registered the
    same way. A level stores its terrain by kind name, so a save that holds a plugin's terrain is
    kept aside, in one line, while that plugin is missing.

    A gate, as Brogue's doors: walkable, closed it blocks sight, walking into it opens it, and it
    closes behind the last creature to leave it (``on_leave`` runs once the creature has left the cell).

    Example::

        from engine import TerrainKind, hookimpl

        def open_gate(game, entity, x, y):
            game.set_terrain(x, y, "open-gate")

        def close_gate(game, entity, x, y):
            if not game.entities_at(x, y):
                game.set_terrain(x, y, "gate")

        @hookimpl
        def register_terrain(register):
            register(TerrainKind(name="gate", glyph="+", color=(180, 120, 60), transparent=False,
                                 on_enter=open_gate))
            register(TerrainKind(name="open-gate", glyph="'", color=(180, 120, 60), on_leave=close_gate))
    """
