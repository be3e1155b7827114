"""Every hook an Undercroft plugin can implement.

Registration hooks are called once per plugin when the registry is loaded, each with a
``register`` callback; what a plugin registers is kept only if all its registration hooks succeed.
Event hooks are called during play, for every plugin, in registration order.
The README's "Writing a plugin" section lists each of these with its exact signature; a test keeps
the two in step.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("undercroft")


@hookspec
def register_fov_algorithms(register):
    """Register field-of-view algorithms.

    Call ``register(name, fn, *, symmetric=False, summary="", python=None, max_reach=None,
    tcod=None)``. ``fn(transparent, origin, radius)`` takes a (height, width) bool array, an
    ``(x, y)`` origin and an int radius or None, and returns a bool array of the cells it sees.
    ``symmetric=True`` claims that between floor cells, A sees B exactly when B sees A; the test
    suite holds the algorithm to that claim. ``python`` is the pure-Python reference of an ``fn``
    that runs a compiled kernel (tested to agree, timed beside it). ``max_reach`` is the farthest
    it can light (None: any). ``tcod`` names libtcod's counterpart, a ``tcod.constants`` name such
    as ``"FOV_SHADOW"``, which ``bench`` times beside it (None: no counterpart).
    """


@hookspec
def register_pathfinders(register):
    """Register pathfinders (Dijkstra maps and A* on the grid); ``--plugin path=NAME`` picks one.

    Called once per plugin when the registry loads. Call
    ``register(name, *, dijkstra, astar, summary="", python_dijkstra=None, python_astar=None)``;
    the game reaches it as ``registry.pathfinders[name]``, an ``engine.kit.path.Pathfinder`` whose
    methods check and normalise the arguments before calling these functions:

    - ``dijkstra(cost, seeds, moves, limit) -> dist``: ``cost`` a C-contiguous float64 array of
      shape (height, width) indexed ``[y, x]`` (``<= 0``: cannot be entered; ``> 0``: the cost of
      entering the cell), ``seeds`` a new float64 array of the same shape holding each goal's
      starting value and ``inf`` elsewhere (the function may write into it and return it),
      ``moves`` an ``engine.kit.path.Moves`` (4 or 8 ways, ``diagonal_cost``, ``cut_corners``),
      ``limit`` a float (``inf`` for none). Returns the float64 distance map: each cell's least
      cost from a goal, ``inf`` where unreachable or beyond ``limit``.
    - ``astar(cost, start, goal, moves) -> path``: ``start != goal`` are ``(x, y)`` cells on the
      map and the goal can be entered. Returns the cells after ``start`` up to and including
      ``goal`` (a list of ``(x, y)``) along a cheapest path, or None when there is none.

    ``python_dijkstra`` and ``python_astar`` are for functions that run a compiled kernel when
    they can (see ``engine.kit.jit``): the pure-Python references they must agree with exactly,
    which the tests compare them to and the bench times beside them.
    """


@hookspec
def register_generators(register):
    """Register dungeon generators.

    Call ``register(name, fn, *, summary="", params=None, min_size=(3, 3), natural_size=None)``.
    ``fn(ctx)`` returns an ``engine.Level``; ``ctx`` has ``width``, ``height``, ``depth``, ``rng``
    and ``params`` (the preset's settings merged over the ``params`` defaults given here; any other
    key is rejected before ``fn`` is called). ``natural_size=(w, h)`` is for a generator meant for
    one size that is not a dungeon's (a small board): ``compare generators`` compares it there.
    """


@hookspec
def register_monsters(register):
    """Register monster kinds: call ``register(MonsterKind(...))`` once per kind."""


@hookspec
def register_items(register):
    """Register item kinds: call ``register(ItemKind(...))`` once per kind."""


@hookspec
def register_effects(register):
    """Register item effects: call ``register(name, fn)``.

    ``fn(game, entity, kind, amount)`` applies the item to ``entity`` (the one who picked it up
    or used it) and returns the message to log, or None. ``game`` is the game API
    (``engine.GameAPI``).
    """


@hookspec
def register_behaviours(register):
    """Register monster behaviours: call ``register(name, fn)``.

    ``fn(game, entity)`` is called on the monster's turn and returns the ``engine.Action`` it
    takes (or None to wait). ``game`` is the game API (``engine.GameAPI``). Use ``game.rng(label)``
    for any randomness.
    """


@hookspec
def register_games(register):
    """Register game presets: call ``register(GameRules(...))``."""


@hookspec
def register_rulesets(register):
    """Register rulesets: call ``register(MyRuleset())`` with an instance of a subclass of
    ``engine.Ruleset``, whose ``name`` a preset names in its ``ruleset`` key.

    A ruleset says what differs between presets in how a turn goes: what a wall bump costs, what
    happens when the player and a monster meet, what the player's death, the restart key, the exit
    and the quit key do, and when the view is recomputed. Override only what differs.
    """


@hookspec
def register_systems(register):
    """Register per-turn systems: call ``register(MySystem())`` with an instance of a subclass of
    ``engine.System`` (an esper processor) with a unique ``name``.

    The turn loop runs every system in the phases it names (``engine.Phase.AFTER_PLAYER``: the
    player has acted, the monsters have not; ``engine.Phase.END_OF_TURN``: the monsters have acted),
    highest ``priority`` first; the engine's own reap (100) and view (50) systems run before the
    default priority 0. A system is stateless: what it changes lives in components.
    """


@hookspec
def register_components(register):
    """Register component types a plugin adds to entities: call ``register(MyComponent)`` with a
    dataclass whose fields are JSON values (numbers, strings, booleans, lists, dicts).

    Registered components are saved with the run and restored on load, by class name; an
    unregistered component is not saved.
    """


@hookspec
def register_tilesets(register):
    """Register tilesets: how the window draws a map cell.

    Call ``register(name, fn, *, summary="", needs_file=False)``. ``fn(ctx)`` is called when the
    window starts with the set or the player switches to it (F2); ``ctx`` is an
    ``engine.kit.tiles.TileContext`` (``cell``: the preset's cell size in px; ``file``: the
    ``--tileset FILE`` path when ``needs_file``; ``glyph(ch)``: the glyph atlas's picture of a
    character; ``resource(name)``: a file shipped with the window library). ``fn`` returns an
    ``engine.kit.tiles.Tileset``: ``size`` (cell width, height in px) and ``tile(name, glyph)``,
    which returns an ``engine.kit.tiles.Tile`` (an RGBA image of that size, and whether the cell's
    colour tints it) or None to draw the glyph. ``name`` is ``"wall"``, ``"floor"``, ``"stairs"``,
    ``"player"``, ``"monster:KIND"`` or ``"item:KIND"``. A set made from a file raises
    ``engine.kit.tiles.TilesetError`` with one line when the file cannot be used. ``fn`` returns
    Pillow images and never touches the window library: the window makes the textures.
    """


@hookspec
def register_bots(register):
    """Register bots: players that ``python -m engine sim --bot NAME`` plays whole runs with.

    Called once per plugin when the registry loads. Call ``register(name, fn, *, summary="",
    per_run=False)``. ``fn(game)`` is asked for the player's next key before every key of a run:
    ``game`` is the game API (``engine.GameAPI``), and ``fn`` returns a key token as ``--keys``
    takes it (``"h"``, ``"left"``, ``">"``: the preset's own keys and what they mean are
    ``game.keys()``), or None when it has nothing left to do (the run ends, reported as
    "stopped"). With ``per_run=True``, ``fn()`` is called with no argument at the start of every
    run and returns that run's function: a bot that remembers things between keys keeps them
    there, never in module globals (a process plays many runs) and never in the game.

    A bot plays fair: it looks only at what the player could know. That is what the player has
    seen (``game.seen()``; ``game.walls() & game.seen()``; ``game.stairs()`` and ``game.exit()``
    once their cell is seen; the items lying on seen cells) and sees now (``game.visible()``,
    ``game.visible_monsters()``, their ``position``, ``hp``, ``kind_of`` and ``notices``), the
    player's own state (``game.hp(game.player)``, ``game.attack_defense(game.player)``,
    ``game.pack()``, ``game.statuses(game.player)``, ``game.depth``, ``game.turn``), the message
    log (``game.messages()``), the rules (``game.rules``, ``game.keys()``, ``game.moves``), and
    pathfinding over what it knows (``game.distance_map(goals, cost=known)``, then
    ``engine.downhill``). It changes nothing (no ``damage``, ``move``, ``spawn``, ``add_status``,
    ``data``, ``log``): the key it returns is its only way to act, so the run's keys replay it
    exactly. Its randomness comes from ``game.rng("bot:NAME")``. An exception it raises, or an
    answer that is not a key token, is reported by ``sim`` with the run's seed, and the other
    runs go on.
    """


@hookspec
def on_level_generated(game, level):
    """Called after a level is generated and populated, before the player's first turn on it
    (never when a saved run is loaded). ``game`` is the game API (``engine.GameAPI``)."""


@hookspec(firstresult=True)
def on_action(game, entity, action):
    """Called before an entity's action is performed (the player's and every monster's, and each
    alternate: a bump, then the attack it becomes). Return None to let it be, another
    ``engine.Action`` to perform instead, or ``engine.VETO`` to stop it: it does not happen, and
    the turn is spent all the same (a frozen monster loses its turn). The first plugin to answer
    decides. ``game`` is the game API (``engine.GameAPI``).
    """


@hookspec
def on_turn_end(game):
    """Called after every monster has acted and the turn's systems have run, when the player is
    alive and about to act again. ``game`` is the game API (``engine.GameAPI``)."""


@hookspec
def on_death(game, entity):
    """Called when an entity dies (the player included), before it is removed. ``game`` is the
    game API (``engine.GameAPI``)."""
