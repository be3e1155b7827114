"""Registration hooks for the algorithms a preset or the command line picks by name.

Each registers a function (or a class) under a name, with a one-line ``summary`` that
``python -m engine plugins`` lists: field-of-view algorithms (a preset's ``fov``,
``--plugin fov=NAME``), pathfinders (``--plugin path=NAME``), dungeon generators (a preset's
``generators``, ``--plugin generator=NAME``), tilesets (``--tileset NAME``, F2 in the window) and
bots (``sim --bot NAME``). The test kit (``engine.testing``) holds each to its contract.
"""

from __future__ import annotations

from collections.abc import Callable

import pluggy

# pluggy's marker for the "undercroft" project's hooks: every module of engine.hookspecs marks its
# hooks with one of the same name (a marker holds nothing but the name).
hookspec = pluggy.HookspecMarker("undercroft")


@hookspec
def register_fov_algorithms(register: Callable[..., None]) -> None:
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
    game whose light would reach farther is refused before play. ``reach`` is a cap the game
    honours instead: the algorithm is called with ``reach`` for a larger radius or None, so sight
    never goes farther (a fog, a short-sighted light), and the kit holds it to that. ``tcod`` names
    libtcod's counterpart, a ``tcod.constants`` name such as ``"FOV_SHADOW"``, which ``bench`` times
    beside it.

    Example::

        from engine import hookimpl, radius_mask

        def xray(transparent, origin, radius):
            return radius_mask(transparent.shape, origin, radius)

        @hookimpl
        def register_fov_algorithms(register):
            register("xray", xray, symmetric=True, through_walls=True, summary="sees everything in range")
    """


@hookspec
def register_pathfinders(register: Callable[..., None]) -> None:
    """Register pathfinders (Dijkstra maps and A* on the grid); ``--plugin path=NAME`` picks one.

    Called once per plugin when the registry loads. The game reaches a pathfinder as
    ``registry.pathfinders[name]``, an ``engine.Pathfinder`` whose methods (``dijkstra``,
    ``astar``, ``safety``) check and normalise the arguments before calling these functions:

    - ``dijkstra(cost, seeds, moves, limit) -> dist``: ``cost`` a C-contiguous float64 array of
      shape (height, width) indexed ``[y, x]`` (``<= 0``: cannot be entered; ``> 0``: the cost of
      entering the cell), ``seeds`` a new float64 array of the same shape holding each goal's
      starting value and ``inf`` elsewhere (the function may write into it and return it),
      ``moves`` an ``engine.Moves`` (``movement``: 4 or 8; ``steps``: the ``(dx, dy)`` it may take;
      ``diagonal_cost``: a diagonal step costs this (at least 1) times the cost of the cell it
      enters; ``cut_corners``: whether a diagonal may pass a wall's corner),
      ``limit`` a float (``inf`` for none). Returns the float64 distance map: each cell's least
      cost from a goal, ``inf`` where unreachable or beyond ``limit``.
    - ``astar(cost, start, goal, moves) -> path``: ``cost`` and ``moves`` as above (``cost`` is
      good for the call only: converted from a bool or int map, it is a work array the next call
      reuses), ``start != goal`` are ``(x, y)`` cells on the map and the goal can be entered.
      Returns the cells after ``start`` up to and including ``goal`` (a list of ``(x, y)``) along
      a cheapest path, or None when there is none.

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
def register_generators(register: Callable[..., None]) -> None:
    """Register dungeon generators; a preset's ``generators`` list or ``--plugin generator=NAME``
    picks one per depth.

    Called once per plugin when the registry loads. ``fn(ctx)`` returns an ``engine.Level``:
    ``terrain`` a (height, width) uint8 array of ``engine.WALL`` (0), ``FLOOR`` (1) and
    ``STAIRS`` (2), or of a plugin's kinds of terrain too (``register_terrain``): each code is an
    index into the level's ``kinds``, its table of kind names, which ``level.paint(x, y, "water")``
    extends, or ``terrain`` is an array of kind names (``numpy.full((h, w), "floor")``) that the
    engine turns into codes and table; a kind no plugin registers is refused; ``start``;
    ``stairs`` (on ``STAIRS`` terrain) or ``exit``; ``rooms`` (a list of ``engine.Rect(x, y, w,
    h)``, each the floor of one room: its top-left floor cell and size);
    ``spawns`` (``(kind name, x, y)`` placed as drawn).

    What ``rooms`` mean when the preset places monsters and items: no monster goes in the room
    that holds the start (the preset's ``monster_free_start_room``, on by default); a preset with
    ``place_in_rooms`` places things in rooms only; on a level with no rooms, monsters instead keep
    ``start_clearance`` king-moves from the start. So a cave or an open map returns ``rooms=[]``:
    one ``Rect`` covering the whole map holds the start, and no monster would be placed
    (``engine.testing.check_generator_rooms`` refuses such a level). Every walkable cell
    must be reachable from the start by 4-way steps (up, down, left, right; diagonals do not count,
    whatever the preset's movement): the level is then connected for every mover (walkable is
    what the kinds say: a closed door is, a chasm is not). ``ctx`` has
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
    ``legend`` params). ``natural_walls=True`` says its walls are rock faces (caves, a drunkard's
    walk): the window draws each as its glyph; the walls of rooms, corridors and mazes (the
    default) are joined into lines when the tileset joins walls (``engine.frontend.walls``).

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
def register_tilesets(register: Callable[..., None]) -> None:
    """Register tilesets: how the window draws a map cell.

    Called once per plugin when the registry loads; ``fn(ctx)`` is called when the window starts
    with the set or the player switches to it (F2). ``ctx`` is an
    ``engine.kit.tiles.TileContext`` (``cell``: the preset's cell size in px; ``file``: the
    ``--tileset FILE`` path when ``needs_file``; ``glyph(ch)``: the glyph atlas's picture of a
    character; ``resource(name)``: a file shipped with the window library). ``fn`` returns an
    ``engine.kit.tiles.Tileset``: ``size`` (cell width, height in px) and ``tile(name, glyph)``,
    which returns an ``engine.kit.tiles.Tile`` (an RGBA image of that size, and whether the cell's
    colour tints it) or None to draw the glyph. ``name`` is ``"wall"``, ``"wall:deep"`` (a wall
    deep in rock), ``"floor"``, ``"stairs"``, ``"upstairs"``, ``"exit"``, ``"player"``,
    ``"monster:KIND"`` or ``"item:KIND"``; for None the window asks again with the name's parent
    (``"monster"``, ``"wall"``), so a set maps families and new kinds fall back to them
    (``engine.kit.tiles.pick`` also tries the glyph: ``"!"`` potions). The set may say
    ``sprites = True`` (its pictures are art: things are drawn over the terrain's picture, and what
    it lacks as its glyph in a magenta frame; ``engine.testing.check_tileset`` then reports what it
    lacks) and ``walls`` (how walls are drawn: ``"lines"``, ``"double"``, ``"facing"``,
    ``"plain"``; see ``engine.frontend.walls``). A set made from a file raises
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
def register_bots(register: Callable[..., None]) -> None:
    """Register bots: players that ``python -m engine sim --bot NAME`` plays whole runs with.

    Called once per plugin when the registry loads. Call
    ``register(name, fn, *, summary="", per_run=False)``. ``fn(game)`` is asked for the
    player's next key before every key of a run: ``game`` is the game API (``engine.GameAPI``),
    and ``fn`` returns a key token as ``--keys`` takes it (``"h"``, ``"left"``, ``">"``: the
    preset's own keys and the commands they give are ``game.keys()``: the default game's
    ``"downstairs"``, ``"quaff"``, ``"pickup"``..., the classic presets' ``"descend"`` and
    ``"drink"``), or None when it has nothing left
    to do (the run ends, reported as "stopped"). A run also ends "stalled" after 1,000 keys in a
    row that pass no turn (a bot stuck on keys that do nothing: a wall bumped, an explore refused,
    a menu opened and closed), and at ``sim --max-turns`` ("turn limit"). With ``per_run=True``, ``fn()`` is called with
    no argument at the start of every run and returns that run's function: a bot that remembers
    things between keys keeps them there, never in module globals (a process plays many runs)
    and never in the game.

    A bot plays fair: it looks only at what the player could know. That is what the player has
    seen (``game.seen()``; ``game.walls() & game.seen()``; ``game.stairs()``, ``game.upstairs()``
    and ``game.exit()`` once their cell is seen; the items lying on seen cells) and sees now
    (``game.visible()``, ``game.visible_monsters()``, their ``position``, ``hp``, ``kind_of``,
    ``notices`` and whether they are awake: ``game.component(m, engine.Monster).awake``, as look
    mode says), the player's own state (``game.hp(game.player)``,
    ``game.attack_defense(game.player)``, ``game.pack()`` (a list of the carried items, in letter
    order) and each carried item's ``kind_of``,
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
    go on. A bot may hand its keys to another registered one: ``game.bot("delver")`` gives that
    bot's player for a run (ask once per run and keep it).

    Example::

        @hookimpl
        def register_bots(register):
            def waiter(game):
                if game.prompt() is not None:
                    return "esc"  # close whatever is open
                return "."  # wait, forever: the sim's turn limit ends the run

            register("waiter", waiter, summary="waits")
    """
