"""The rules of the ``rogue-sdl`` preset ("Rogue SDL" part 3, a C++/SDL3 course chapter) where they
differ from the default game's: monsters and treasure go in a random room first, then a random cell
of it (the course's ``takeFreeSpot``), so a small room gets as many as a big one; and Escape quits
without keeping the run (the course has no saves)."""

from engine import Ruleset, hookimpl
from engine.kit.mapgen import FLOOR


class RogueSdl(Ruleset):
    name = "rogue-sdl"
    saves = False  # Escape ends the program; the next start is a new game

    def spawn_cell(self, game, level, rng, cells):
        """``takeFreeSpot``: a room picked uniformly (``SDL_rand(roomCount)``), then a cell of its
        rectangle (``randomBetween`` on each axis). The caller skips the start room for monsters
        and taken cells, and tries again, as the course's loop does. A level without rooms (another
        generator chosen with ``--plugin``) falls back to the default rule."""
        if not level.rooms:
            return super().spawn_cell(game, level, rng, cells)
        room = level.rooms[rng.randrange(len(level.rooms))]
        x, y = rng.randint(room.x, room.x2), rng.randint(room.y, room.y2)
        return (x, y) if level.terrain[y, x] == FLOOR else None


@hookimpl
def register_rulesets(register):
    register(RogueSdl())
