"""Every numeric limit of what the engine writes and reads back, in one place.

A limit here bounds two sides at once: the writer never writes past it (it saturates, truncates or
refuses before play) and the loader refuses a file past it. Keeping both sides on one number is what
makes "the game writes a save it then refuses to load" impossible; change a limit here, never a copy.

Everything that writes or reads a file imports its limits from here: the file layer, the run save,
replays, the profile, the morgue, presets, content and tilesheets. It sits in the lowest layer
(``engine.kit``) so that every layer, and every plugin, can read the same number.
"""

from __future__ import annotations

# -- files ------------------------------------------------------------------------------------------
# a save, profile or replay. The largest legal run save (every limit below at its maximum at once:
# a MAX_MAP_SIDE² map, MAX_ENTITIES entities, MAX_KEYS keys, MAX_MESSAGES messages of the most
# escaped characters, MAX_KEPT_LEVELS kept levels of MAX_KEPT_CELLS cells, MAX_PLUGIN_DATA_BYTES of
# plugins' data) is about 29 MB, and tests/test_save_limits.py writes and reads it back (and
# tests/test_save_reach.py the largest run play makes, through the game API: about 14 MB); an
# honest save is 16 kB to 3 MB. Reading a hostile file this big costs a few hundred MB at most.
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_NESTING = 64  # levels of JSON nesting; our files use fewer than 6

# -- maps and runs ----------------------------------------------------------------------------------
MAX_MAP_SIDE = 1000  # cells: terrain, FOV and memory arrays grow with the square of this
# a --map file: MAX_MAP_SIDE rows of MAX_MAP_SIDE characters plus CR LF, each up to 4 bytes of UTF-8
MAX_MAP_BYTES = 4 * (MAX_MAP_SIDE + 2) * MAX_MAP_SIDE
MAX_SEED = 2**63 - 1  # seeds are 0..MAX_SEED (engine.core.model.rng)
MAX_STAT = 10**9  # HP, attack, a status's turns, gold carried, amounts: no honest run comes near
MAX_DEPTH = 100_000  # dungeon levels
MAX_ENTITIES = 10_000  # in a run at once (the level's things, the pack, the player, kept levels' things)
MAX_KEPT_LEVELS = 100  # levels a run keeps to return to (a game whose ruleset keeps them)
# cells of all kept levels together: a few hundred levels of 80x43, or two of 1000x1000. Past
# it, the kept level farthest from the player's depth is forgotten (made anew on return)
MAX_KEPT_CELLS = 2_000_000
# item cells a run remembers (where the player last saw an item), its kept levels' included: past
# it, the kept level farthest from the player's depth forgets first, its oldest memories first
MAX_REMEMBERED = 10_000
MAX_ROOMS = 10_000  # rooms a level lists
MAX_STREAMS = 100  # random streams a run keeps (a handful each for the engine and its plugins)
MAX_LABEL_CHARS = 100  # characters of a name a save keys by: a random stream's label, a status's, a kind's
MAX_STATUSES = 100  # statuses on one creature at once
# bytes of JSON the plugins' own data (GameAPI.data) takes in a save, all plugins together: a
# plugin's data past what is left is left out of the save (one line), and the run is saved
MAX_PLUGIN_DATA_BYTES = 4 * 1024 * 1024
MAX_MESSAGES = 1_000  # messages kept in a run (its log)
MAX_MESSAGE_CHARS = 200  # characters in one message (up to 12 bytes each in a save: \ud83d\ude00)
MAX_KEYS = 500_000  # keys in a run save or a replay (up to 23 bytes each); a longer run's replay stops here
MAX_DECLARED_CHARS = 30  # a monster's declared state ("fleeing": GameAPI.declare), the sidebar's word
MAX_KEY_CHARS = 20  # characters in one key token (the longest: travel:999,999:10000)
MAX_TRAVEL = 10_000  # turns one travel key may play before it stops by itself
MAX_REST_UNHEALED = 200  # turns a rest (Z) waits without the player's HP rising before it gives up
MAX_SPEED = 10_000  # energy gained per tick (100 is normal)
MAX_ENERGY_DEBT = 10_000  # energy an actor may owe (100 turns of 100): spending saturates here
MAX_SPAWNS = 10_000  # monsters, or items of one kind, a preset may ask for on one level

# -- the profile ------------------------------------------------------------------------------------
# a counter: a profile's (runs, deaths, escapes, deepest, gold: it saturates here) and a run's that
# only grow (turns, runs, entity ids: a million a second would take thirty years to reach it)
MAX_COUNT = 10**15
MAX_TOP = 10  # best runs kept, overall and per preset
MAX_PRESETS = 100  # presets with their own table; runs of more are counted in the totals only
MAX_PROFILE_TEXT = 200  # characters of a preset name, a cause of death or a date in the profile
MAX_SETTINGS = 64  # entries in the profile's settings table
MAX_SETTING_NAME = 40  # characters in a setting's name
MAX_SETTING_TEXT = 200  # characters in a setting's text value

# -- play -------------------------------------------------------------------------------------------
MAX_PACK = 26  # items in the player's pack: one per letter a..z; and options in a plugin's question
MAX_QUESTIONS = 100  # questions plugins may have asked the player and not had answered
MAX_ALTERNATES = 8  # a bump becomes an attack becomes ...: a longer chain of actions is a plugin's bug
# cells of the one-goal distance maps the game API remembers for the level (8 bytes a cell: 32 MB):
# 64 maps of 80x43, or 4 of 1000x1000, where 64 would hold 512 MB
MAX_PATH_CACHE_CELLS = 4_000_000
# cells of the work arrays one pool of pathfinding scratch keeps between calls (engine.kit.caches.Spares):
# two 1000x1000 maps' worth. The cost arrays A* converts to float64 (engine.kit.path: 8 bytes a cell,
# 16 MB at most) and the compiled A*'s own (plugins/paths/heap.py: 40 bytes a cell, 80 MB at most,
# of which only the pages of cells that searches reached are ever resident)
MAX_PATH_SCRATCH_CELLS = 2_000_000
# the compiled Dijkstra's queues (plugins/paths/_path_jit.py): one per distinct step cost, at most
# this many (a level's floor, doors, water...; more: the heap), and at most this many entries in all
# (the map's cells times its step costs, 12 bytes each, made for the call: 48 MB; the heap's 24 a cell)
MAX_PATH_QUEUE_COSTS = 8
MAX_PATH_QUEUE_ENTRIES = 4_000_000
# queries a world keeps in entity order between calls (engine.core.model.world.World.ordered): the
# distinct sets of component types asked, a few dozen in the built-in game; each holds two lists of
# its entities
MAX_ORDERED_QUERIES = 64
# cells whose ways down one distance map read for steps keeps (engine.kit.slope.Slope: those asked
# from twice, a crowd's queue or a mob around a player who stands; at most a quarter of its cells:
# 1.6 MB, counted in the path cache's MAX_PATH_CACHE_CELLS)
MAX_SLOPE_WAYS = 1024
# Tables FOV algorithms keep between calls, per (window reach, radius): window discs (one byte a
# cell; at most MAX_FOV_CACHE_ENTRIES of them and MAX_FOV_CACHE_CELLS cells together: four reaches
# of 999, or thousands of a game's lights) and each algorithm's per-reach tables (entries only:
# MAX_FOV_CACHE_ENTRIES). A light with no radius on a 1000x1000 map has a new reach at almost
# every step of a walk: kept whole, 500 steps held a gigabyte.
MAX_FOV_CACHE_ENTRIES = 16
MAX_FOV_LINE_TABLES = 4  # raycast's and diamond's per-reach line tables (up to 32 and 40 MB each)
MAX_FOV_CACHE_CELLS = 16_000_000
# values of one lazily built per-slope table (engine.kit.fov.LazyRows: a tuple of a slope's rows,
# 8 bytes a value and up to 28 more for a number past 256): about 100 MB at most
MAX_FOV_ROW_CELLS = 2_000_000
MAX_ZOOM = 8  # the window's integer zoom (remembered in the profile's settings)
MAX_SIM_RUNS = 10_000_000  # runs in one ``sim``: each run's result (about 200 bytes) is kept for the table
# ``compare fov --maps``: maps of each of its five kinds, all kept (4 kB each) and each lit by every
# algorithm from many origins; ``compare generators --seeds``: levels per generator, about a
# millisecond each at 80x50 (a run of the most takes minutes per generator, not days)
MAX_COMPARE_MAPS = 1000
MAX_COMPARE_SEEDS = 100_000
# bytes of a ``sim --json`` report that ``sim --from-json`` reads back: MAX_SIM_RUNS runs of their
# usual 200 bytes is 2 GB (a crashed run also carries its replay's keys: a report of many such runs
# can be more, and is refused in one line)
MAX_SIM_REPORT_BYTES = 4 * 1024**3
MAX_CLUSTER_WAIT = 7 * 24 * 3600  # seconds ``sim --cluster-timeout`` may wait for a worker: a week
MAX_PLUGIN_NAME = 30  # characters in a new-plugin name: every name the package registers starts with it
MAX_SHEET_SIDE = 4096  # px: a tilesheet of 16x16 glyphs of 256 px; a larger one is refused before it is decoded
# px: a side of a tileset's cell, and of a tile's image (a sheet's largest cell). A window's
# textures and glyph atlas grow with its square: 4096-px cells took 24 GB
MAX_TILE_SIDE = MAX_SHEET_SIDE // 16
# pictures a sprite tileset's window keeps of a thing over the terrain under it (a creature on a
# floor, a glyph it has no picture for, coloured): one per (thing, terrain, colour) seen, oldest
# dropped first; a game has a few dozen kinds, so this bounds only a plugin that recolours freely
MAX_LAYERED_TILES = 2048
