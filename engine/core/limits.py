"""Every limit the engine enforces, in one place: what the game writes, its readers accept.

A writer checks against the same number its reader does, so the game never writes a file it then
refuses (a map side, a seed, a message count, a file size).
"""

MAX_SIDE = 1000  # cells per side of a map: terrain, FOV and memory arrays grow with its square
MAX_SEED = 2**63 - 1
MAX_MESSAGES = 10_000  # messages a run keeps (older ones are dropped as new ones come)
MAX_TEXT = 2_000  # characters in one message
MAX_ENTITIES = 100_000
MAX_KEYS = 2_000_000  # keys in a replay or a run save
MAX_DEPTH = 100_000  # dungeon depth
BIG = 10**9  # no honest stat, turn, amount or energy comes near this
MAX_SPEED = 10_000  # energy per tick (100 is normal)
MAX_SPAWNS = 10_000  # monsters or items a preset may ask for on one level
