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
MAX_FILE_BYTES = 16 * 1024 * 1024  # a save, profile or replay; bigger than any honest one
MAX_NESTING = 64  # levels of JSON nesting; our files use fewer than 6

# -- maps and runs ----------------------------------------------------------------------------------
MAX_MAP_SIDE = 1000  # cells: terrain, FOV and memory arrays grow with the square of this
# a --map file: MAX_MAP_SIDE rows of MAX_MAP_SIDE characters plus CR LF, each up to 4 bytes of UTF-8
MAX_MAP_BYTES = 4 * (MAX_MAP_SIDE + 2) * MAX_MAP_SIDE
MAX_SEED = 2**63 - 1  # seeds are 0..MAX_SEED (engine.core.rng)
MAX_STAT = 10**9  # HP, attack, turns, gold carried, amounts: no honest run comes near
MAX_DEPTH = 100_000  # dungeon levels
MAX_ENTITIES = 100_000
MAX_MESSAGES = 10_000  # messages kept in a run (its log)
MAX_MESSAGE_CHARS = 2_000  # characters in one message
MAX_KEYS = 2_000_000  # keys in a run save or a replay
MAX_KEY_CHARS = 10  # characters in one key token
MAX_SPEED = 10_000  # energy gained per tick (100 is normal)
MAX_SPAWNS = 10_000  # monsters, or items of one kind, a preset may ask for on one level

# -- the profile ------------------------------------------------------------------------------------
MAX_COUNT = 10**15  # a profile counter (runs, deaths, escapes, deepest, gold): it saturates here
MAX_TOP = 10  # best runs kept, overall and per preset
MAX_PRESETS = 100  # presets with their own table; runs of more are counted in the totals only
MAX_PROFILE_TEXT = 200  # characters of a preset name, a cause of death or a date in the profile
MAX_SETTINGS = 64  # entries in the profile's settings table
MAX_SETTING_NAME = 40  # characters in a setting's name
MAX_SETTING_TEXT = 200  # characters in a setting's text value

# -- play -------------------------------------------------------------------------------------------
MAX_ALTERNATES = 8  # a bump becomes an attack becomes ...: a longer chain of actions is a plugin's bug
MAX_ZOOM = 8  # the window's integer zoom (remembered in the profile's settings)
MAX_SIM_RUNS = 10_000_000  # runs in one ``sim``: each run's result (about 200 bytes) is kept for the table
MAX_SHEET_SIDE = 4096  # px: a tilesheet of 16x16 glyphs of 256 px; a larger one is refused before it is decoded
