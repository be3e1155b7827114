"""Every hook an Undercroft plugin can implement.

A plugin is a module (or any object) with functions marked ``@engine.hookimpl`` and named after
these hooks, with the hook's arguments (or fewer). The game finds it in three ways, in this order:
the built-in plugins (``engine/plugins``, registered exactly like the others), the ``undercroft``
entry-point group of installed packages (``[project.entry-points.undercroft]`` in a pyproject,
``NAME = "my_module"``; ``UNDERCROFT_LOAD_PLUGINS=a,b`` limits which load, empty loads none), and
every ``*.py`` of each ``--plugins-dir DIR``. ``python -m engine new-plugin NAME`` writes a package
with one example of each register hook and its tests; ``python -m engine plugins`` lists what loaded.

Registration hooks are called once per plugin when the registry is loaded, each with a
``register`` callback; what a plugin registers is kept only if all its registration hooks succeed.
Event hooks are called during play, for every plugin, in registration order. Rules at load, each
said in one line naming the plugin (``python -m engine plugins`` shows it; play says it on stderr
once at start, and goes on without that plugin unless it was asked for with ``--plugin``):

- a function named like no hook (``register_monster``, ``on_turn_ended``) breaks the plugin,
  and so does a hook function taking an argument the hook does not pass;
- a name already registered stays with the plugin that registered it first: the built-ins load
  first, so a built-in always keeps its names (the newcomer is broken, asked to rename);
- a monster naming a behaviour, or an item an effect, that no plugin registers breaks the plugin;
- kinds sharing a glyph are warned (``--map`` reads the glyph as the kind registered last);
- an FOV or a generator whose result has the wrong type, shape, dtype or tile codes is refused
  when it returns, in one line naming the plugin (``engine.core.registry.BadResult``).

Randomness: use the streams the game gives (``game.rng("ai")``, ``ctx.rng``), never the global
``random``: the same seed and keys must give the same game. Logging: ``game.log(text)`` writes to
the player's message log (shown in the window, saved with the run, in ``--dump json``). The engine
configures no Python logging: a plugin's ``logging.getLogger(__name__).warning(...)`` reaches
stderr through logging's last-resort handler, and INFO and DEBUG are dropped unless the plugin or
the player configures logging. Never ``print``: stdout carries ``--dump json``.

Errors: a plugin's mistake is said in one line naming the plugin (at load, in play, at the command
line). To see the full traceback behind such a line, set ``UNDERCROFT_DEBUG=1``
(``UNDERCROFT_DEBUG=1 python -m engine --game mine``): the traceback is printed on stderr above
the line.

The reference (``docs/reference.md``) is generated from these docstrings and the test kit's
(``python docs/make_reference.py``); a test fails when the two disagree.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("undercroft")


@hookspec
def register_fov_algorithms(register):
    """Register field-of-view algorithms; ``--plugin fov=NAME`` or a preset's ``fov`` picks one.

    Called once per plugin when the registry loads. ``fn(transparent, origin, radius)`` takes a
    (height, width) bool array indexed ``[y, x]`` (True where light passes), an ``(x, y)`` origin on
    the map and an int radius or None (unlimited), and returns a new bool array of the same shape:
    the cells it sees. ``shape`` declares the shape of the light, and the test kit holds it to
    it: ``"round"`` (the default: a cell is in range when ``dx*dx + dy*dy <= radius*radius``),
    ``"diamond"`` (``|dx| + |dy| <= radius``) or ``"square"`` (``max(|dx|, |dy|) <= radius``);
    ``engine.radius_mask(shape, origin, radius, light)`` is that mask. The origin and its
    neighbours are visible; walls are lit.
    ``symmetric=True`` claims that between floor cells A sees B exactly when B sees A;
    ``through_walls=True`` that opaque cells hide nothing (a map reveal). The test kit holds the
    algorithm to what it claims (``check_fov``). ``python`` is the pure-Python reference of an ``fn``
    that runs a compiled kernel (``engine.kit.jit``): the kit checks the two agree and ``bench``
    times both. ``max_reach`` is the farthest an algorithm whose tables grow fast can light: a
    game whose light would reach farther is refused before play. ``tcod`` names libtcod's
    counterpart, a ``tcod.constants`` name such as ``"FOV_SHADOW"``, which ``bench`` times beside it.

    Example::

        from engine import hookimpl, radius_mask

        def xray(transparent, origin, radius):
            return radius_mask(transparent.shape, origin, radius)

        @hookimpl
        def register_fov_algorithms(register):
            register("xray", xray, symmetric=True, through_walls=True, summary="sees everything in range")
    """


@hookspec
def register_pathfinders(register):
    """Register pathfinders (Dijkstra maps and A* on the grid); ``--plugin path=NAME`` picks one.

    Called once per plugin when the registry loads. The game reaches a pathfinder as
    ``registry.pathfinders[name]``, an ``engine.Pathfinder`` whose methods (``dijkstra``,
    ``astar``, ``safety``) check and normalise the arguments before calling these functions:

    - ``dijkstra(cost, seeds, moves, limit) -> dist``: ``cost`` a C-contiguous float64 array of
      shape (height, width) indexed ``[y, x]`` (``<= 0``: cannot be entered; ``> 0``: the cost of
      entering the cell), ``seeds`` a new float64 array of the same shape holding each goal's
      starting value and ``inf`` elsewhere (the function may write into it and return it),
      ``moves`` an ``engine.Moves`` (4 or 8 ways, ``diagonal_cost``, ``cut_corners``),
      ``limit`` a float (``inf`` for none). Returns the float64 distance map: each cell's least
      cost from a goal, ``inf`` where unreachable or beyond ``limit``.
    - ``astar(cost, start, goal, moves) -> path``: ``start != goal`` are ``(x, y)`` cells on the
      map and the goal can be entered. Returns the cells after ``start`` up to and including
      ``goal`` (a list of ``(x, y)``) along a cheapest path, or None when there is none.

    ``python_dijkstra`` and ``python_astar`` are for functions that run a compiled kernel when
    they can (see ``engine.kit.jit``): the pure-Python references they must agree with exactly,
    which the test kit compares them to (``check_pathfinder``) and the bench times beside them.

    Example::

        @hookimpl
        def register_pathfinders(register):
            # my_dijkstra and my_astar: two functions that keep the contract above
            register("plain", dijkstra=my_dijkstra, astar=my_astar, summary="a binary heap, in Python")
    """


@hookspec
def register_generators(register):
    """Register dungeon generators; a preset's ``generators`` list or ``--plugin generator=NAME``
    picks one per depth.

    Called once per plugin when the registry loads. ``fn(ctx)`` returns an ``engine.Level``:
    ``terrain`` a (height, width) uint8 array of ``engine.WALL`` (0), ``FLOOR`` (1) and
    ``STAIRS`` (2); ``start``; ``stairs`` (on ``STAIRS`` terrain) or ``exit``; ``rooms`` (a list
    of ``engine.Rect(x, y, w, h)``, each the floor of one room: its top-left floor cell and size);
    ``spawns`` (``(kind name, x, y)`` placed as drawn).

    What ``rooms`` mean when the preset places monsters and items: no monster goes in the room
    that holds the start (the preset's ``monster_free_start_room``, on by default); a preset with
    ``place_in_rooms`` places things in rooms only; on a level with no rooms, monsters instead keep
    ``start_clearance`` king-moves from the start. So a cave or an open map returns ``rooms=[]``:
    one ``Rect`` covering the whole map holds the start, and no monster would be placed
    (``engine.testing.check_generator_rooms`` refuses such a level). Every walkable cell
    must be reachable from the start by 4-way steps (up, down, left, right; diagonals do not count,
    whatever the preset's movement): the level is then connected for every mover. ``ctx`` has
    ``width``, ``height``, ``depth``, ``rng`` (a ``random.Random`` for this level only: the only
    randomness to use) and ``params``.
    ``params=`` is a dict of the params ``fn`` takes with their defaults, JSON values; a preset
    sets them in a table ``[generator_params.NAME]`` of its TOML (or in Python,
    ``generator_params={"NAME": {...}}``), each of the same JSON kind as its default; another key is refused
    in one line before ``fn`` is called. ``min_size`` is the smallest (width, height) it builds:
    a smaller size is refused in one line, and the test kit builds levels at exactly that size.
    ``outer_wall=False`` says its levels are open to the map's edge (a board); by default the
    kit holds them to an all-wall outer ring. ``natural_size=(w, h)`` is for a generator meant for
    one size that is not a dungeon's (a small board): ``compare generators`` compares it there.
    ``reads_maps=True`` is for a generator that reads ``--map`` files (it takes ``path`` and
    ``legend`` params).

    Example::

        from engine import FLOOR, STAIRS, WALL, Level, hookimpl
        import numpy as np

        def hall(ctx):
            t = np.full((ctx.height, ctx.width), WALL, dtype=np.uint8)
            t[1:-1, 1:-1] = FLOOR
            stairs = (ctx.rng.randrange(2, ctx.width - 1), ctx.height - 2)
            t[stairs[1], stairs[0]] = STAIRS
            return Level(t, start=(1, 1), stairs=stairs, rooms=[])  # open ground: no rooms

        @hookimpl
        def register_generators(register):
            register("hall", hall, params={}, min_size=(4, 4), summary="one big room")
    """


@hookspec
def register_monsters(register):
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
def register_items(register):
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
    ``"carry"``, only carried. ``target`` ``"nearest"`` aims at the nearest visible monster,
    ``"monster"`` or ``"cell"`` opens a targeting cursor. A kind is placed only by a preset that
    names it in ``item_counts``.

    Example::

        @hookimpl
        def register_items(register):
            register(ItemKind(name="mending-draught", glyph="~", color=(120, 200, 255), effect="mend",
                              params={"amount": 5}, use="quaff", min_depth=2))
    """


@hookspec
def register_effects(register):
    """Register item effects: call ``register(name, fn)``.

    Called once per plugin when the registry loads. ``fn(game, entity, kind, amount)`` is called
    when ``entity`` (the player, who picked up, drank or read the item) uses ``amount`` items of
    ``kind`` (its ``ItemKind``, with ``params``); a kind that aims (its ``target``) also passes
    ``target=(x, y)``, the cell aimed at, so such an effect takes ``target=None``. It applies the
    effect and returns the message to log, or None. ``game`` is the game API
    (``engine.GameAPI``). The test kit's ``check_effect`` calls it on random situations.

    Example::

        def mend(game, entity, kind, amount):
            game.heal(entity, kind.params.get("amount", 5) * amount)
            return "You feel mended."

        @hookimpl
        def register_effects(register):
            register("mend", mend)
    """


@hookspec
def register_behaviours(register):
    """Register monster behaviours: call ``register(name, fn)``.

    Called once per plugin when the registry loads. ``fn(game, entity)`` is called on the
    monster's turn (awake monsters only: a monster wakes when it notices the player) and returns
    the ``engine.Action`` it takes (``Move(dx, dy)``, ``Attack(target)``, ``Wait()``), or None to
    wait; the engine performs it and charges the energy. ``game`` is the game API
    (``engine.GameAPI``). Use ``game.rng("ai")`` for any randomness. The test kit's
    ``check_behaviour`` calls it on many random situations.

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
def register_games(register):
    """Register game presets: call ``register(GameRules(...))``; ``--game NAME`` plays one.

    Called once per plugin when the registry loads. An ``engine.GameRules`` holds a game's sizes,
    generators per depth and their params, FOV and light radius, player, monsters and items and
    how many of each, keys, messages and colours; ``default=True`` makes it the game played when
    none is chosen. It is checked as a TOML preset is (``engine.load_rules`` reads one), and
    before play against the registry. The test kit's ``check_preset`` plays it.

    Example::

        @hookimpl
        def register_games(register):
            register(GameRules(name="frost", generators=((1, "bsp"), (3, "caves")), fov="symmetric",
                               fov_radius=6, monsters=("ice-bat",), item_counts={"mending-draught": (1, 2)}))
    """


@hookspec
def register_rulesets(register):
    """Register rulesets: call ``register(MyRuleset())`` with an instance of a subclass of
    ``engine.Ruleset``, whose ``name`` a preset names in its ``ruleset`` key.

    Called once per plugin when the registry loads. A ruleset says what differs between presets
    in how a turn goes: what a wall bump costs, what happens when the player and a monster meet,
    what the player's death, the restart key, the exit and the quit key do, and when the view is
    recomputed. Override only what differs.

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
def register_systems(register):
    """Register per-turn systems: call ``register(MySystem())`` with an instance of a subclass of
    ``engine.System`` (an esper processor) with a unique ``name``.

    Called once per plugin when the registry loads. The turn loop runs every system in the phases
    it names (``engine.Phase.AFTER_PLAYER``: the player has acted, the monsters have not;
    ``engine.Phase.END_OF_TURN``: the monsters have acted), highest ``priority`` first; the
    engine's own reap (100) and view (50) systems run before the default priority 0. A system is
    stateless: what it changes lives in components.

    Example::

        from engine import Fighter, Phase, System

        class Regenerate(System):
            name = "regenerate"
            phases = (Phase.END_OF_TURN,)

            def run(self, game):
                for entity, (regen, fighter) in game.world.query(Regen, Fighter):
                    fighter.hp = min(fighter.max_hp, fighter.hp + regen.per_turn)

        @hookimpl
        def register_systems(register):
            register(Regenerate())
    """


@hookspec
def register_components(register):
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
def register_tilesets(register):
    """Register tilesets: how the window draws a map cell.

    Called once per plugin when the registry loads; ``fn(ctx)`` is called when the window starts
    with the set or the player switches to it (F2). ``ctx`` is an
    ``engine.kit.tiles.TileContext`` (``cell``: the preset's cell size in px; ``file``: the
    ``--tileset FILE`` path when ``needs_file``; ``glyph(ch)``: the glyph atlas's picture of a
    character; ``resource(name)``: a file shipped with the window library). ``fn`` returns an
    ``engine.kit.tiles.Tileset``: ``size`` (cell width, height in px) and ``tile(name, glyph)``,
    which returns an ``engine.kit.tiles.Tile`` (an RGBA image of that size, and whether the cell's
    colour tints it) or None to draw the glyph. ``name`` is ``"wall"``, ``"floor"``, ``"stairs"``,
    ``"exit"``, ``"player"``, ``"monster:KIND"`` or ``"item:KIND"``. A set made from a file raises
    ``engine.kit.tiles.TilesetError`` with one line when the file cannot be used. ``fn`` returns
    Pillow images and never touches the window library: the window makes the textures.

    Example::

        from engine.kit.tiles import Tile

        class RedWalls:
            def __init__(self, ctx):
                from PIL import Image

                self.size = (ctx.cell, ctx.cell)
                self.wall = Tile(Image.new("RGBA", self.size, (200, 0, 0, 255)))

            def tile(self, name, glyph):
                return self.wall if name == "wall" else None

        @hookimpl
        def register_tilesets(register):
            register("redwalls", RedWalls, summary="walls in red")
    """


@hookspec
def register_bots(register):
    """Register bots: players that ``python -m engine sim --bot NAME`` plays whole runs with.

    Called once per plugin when the registry loads. Call
    ``register(name, fn, *, summary="", per_run=False)``. ``fn(game)`` is asked for the
    player's next key before every key of a run: ``game`` is the game API (``engine.GameAPI``),
    and ``fn`` returns a key token as ``--keys`` takes it (``"h"``, ``"left"``, ``">"``: the
    preset's own keys and what they mean are ``game.keys()``), or None when it has nothing left
    to do (the run ends, reported as "stopped"). With ``per_run=True``, ``fn()`` is called with
    no argument at the start of every run and returns that run's function: a bot that remembers
    things between keys keeps them there, never in module globals (a process plays many runs)
    and never in the game.

    A bot plays fair: it looks only at what the player could know. That is what the player has
    seen (``game.seen()``; ``game.walls() & game.seen()``; ``game.stairs()``, ``game.upstairs()``
    and ``game.exit()`` once their cell is seen; the items lying on seen cells) and sees now
    (``game.visible()``, ``game.visible_monsters()``, their ``position``, ``hp``, ``kind_of``,
    ``notices`` and whether they are awake: ``game.component(m, engine.Monster).awake``, as look
    mode says), the player's own state (``game.hp(game.player)``,
    ``game.attack_defense(game.player)``, ``game.pack()`` and each carried item's ``kind_of``,
    ``engine.Item`` (its count), ``engine.Carried`` (its letter) and ``engine.Equipped``,
    ``game.statuses(game.player)``, ``game.depth``, ``game.turn``), the prompt the game shows
    (``game.prompt()``: a menu's letters, a cursor's cell, a plugin's question; while one is open
    the next key answers it), the message log (``game.messages()``), the rules (``game.rules``,
    ``game.keys()``, ``game.moves``), and pathfinding over what it knows
    (``game.distance_map(goals, cost=known)``, then ``engine.downhill``). It changes nothing (no
    ``damage``, ``move``, ``spawn``, ``add_status``, ``data``, ``log``): the key it returns is its
    only way to act, so the run's keys replay it exactly. Its randomness comes from
    ``game.rng("bot:NAME")``. An exception it raises, or an answer that is not a key token, is
    reported by ``sim`` with the run's seed and the command that replays it, and the other runs
    go on.

    Example::

        @hookimpl
        def register_bots(register):
            def waiter(game):
                if game.prompt() is not None:
                    return "esc"  # close whatever is open
                return "."  # wait, forever: the sim's turn limit ends the run

            register("waiter", waiter, summary="waits")
    """


@hookspec
def on_level_generated(game, level):
    """Called after a level is generated and populated, before the player's first turn on it
    (not when a saved run is loaded: loading fires no hook). ``game`` is the game API
    (``engine.GameAPI``); ``level`` the new ``engine.Level``.

    Example::

        @hookimpl
        def on_level_generated(game, level):
            game.log(f"A chill rises from depth {game.depth}.")
    """


@hookspec(firstresult=True)
def on_action(game, entity, action):
    """Called before an entity's action is performed (the player's and every monster's, and each
    alternate: a bump, then the attack it becomes). Return None to let it be, another
    ``engine.Action`` to perform instead, or ``engine.VETO`` to stop it: it does not happen, and
    the turn is spent all the same (a frozen monster loses its turn). The first plugin to answer
    decides. ``game`` is the game API (``engine.GameAPI``).

    Example::

        from engine import VETO

        @hookimpl
        def on_action(game, entity, action):
            return VETO if game.has_status(entity, "frozen") else None
    """


@hookspec
def after_action(game, entity, action, result):
    """Called after an entity's action has been performed (the player's and every monster's), as
    soon as it resolves: its effects are done (a blow has hurt, a step has moved) and, for a
    monster, before the next monster acts; for the player, before the monsters act. ``action`` is
    the action performed (for a bump that became an attack, the attack; after an ``on_action``
    hook replaced it, the replacement); ``result`` its ``engine.ActionResult`` (``result.done``:
    whether it happened; a wall bump is not done). Not called for an action an ``on_action`` hook
    vetoed. The return value is ignored. ``game`` is the game API (``engine.GameAPI``).

    Example::

        from engine import Attack

        @hookimpl
        def after_action(game, entity, action, result):
            if isinstance(action, Attack) and result.done and action.target == game.player:
                game.add_status(game.player, "chilled", 2)
    """


@hookspec
def on_turn_end(game):
    """Called after every monster has acted and the turn's systems have run, when the player is
    alive and about to act again (not after a key that took no time). ``game`` is the game API
    (``engine.GameAPI``).

    Example::

        @hookimpl
        def on_turn_end(game):
            if game.turn % 100 == 0:
                game.log("Time passes.")
    """


@hookspec
def on_death(game, entity, killer):
    """Called when an entity dies (the player included), before it is removed. ``killer`` is the
    entity whose blow or spell killed it, or None (a trap, a status). ``game`` is the game API
    (``engine.GameAPI``). A hook may take only the arguments it needs.

    Example::

        @hookimpl
        def on_death(game, entity):
            if entity != game.player:
                game.log(f"The {game.name_of(entity)} crumbles to frost.")
    """


@hookspec
def on_answer(game, question, choice):
    """Called when the player answers a question a plugin asked with ``game.ask(question, title,
    options)``: ``choice`` is the index of the option chosen. Every plugin hears every answer;
    check ``question``, the name you asked it under. ``game`` is the game API (``engine.GameAPI``).

    Example::

        @hookimpl
        def on_turn_end(game):
            if game.turn == 10:
                game.ask("myplugin.gift", "A gift: which?", ["a sword", "a shield"])

        @hookimpl
        def on_answer(game, question, choice):
            if question == "myplugin.gift":
                game.log(["You take the sword.", "You take the shield."][choice])
    """
