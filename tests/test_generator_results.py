"""A chosen generator's level is checked whole before anything is placed from it: unknown spawn
kinds, a spawn on the start or on another spawn, off the map or in a wall, rooms that are not
``Rect``s on the map. Each is one line naming the generator and
exit status 2, never a traceback from the placement that trusted it."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cli.main import main
from engine.core.turn.generate import check_level
from engine.kit.mapgen import FLOOR, WALL, GenerationError, Level, Rect

PLUGIN = '''
import numpy as np
from engine import hookimpl, Level
from engine.kit.mapgen import FLOOR, WALL, Rect


@hookimpl
def register_generators(register):
    def gen(ctx):
        terrain = np.full((ctx.height, ctx.width), WALL, dtype=np.uint8)
        terrain[1:-1, 1:-1] = FLOOR
        return Level(**{{"terrain": terrain, "start": (1, 1), "stairs": (5, 5), **dict({extra})}})
    register("hostile", gen)
'''

CASES = {
    "an unknown spawn kind": ("spawns=[('dragon', 3, 3)]", "spawns 'dragon', which is no monster or item kind"),
    "a spawn on the start": ("spawns=[('rat', 1, 1)]", "at (1, 1), which is the start"),
    "two spawns on one cell": ("spawns=[('rat', 3, 3), ('gold', 3, 3)]", "at (3, 3), which is taken"),
    "a spawn in a wall": ("spawns=[('rat', 0, 0)]", "at (0, 0), which is not floor"),
    "a spawn off the map": ("spawns=[('rat', 500, 500)]", "at (500, 500), which is not floor"),
    "a spawn that is no triple": ("spawns=[None]", "made a spawn None: expected (kind name, x, y)"),
    "rooms of garbage": ("rooms=['x', 5]", "made a room 'x': expected an engine.kit.mapgen.Rect"),
    "a room off the map": ("rooms=[Rect(-5, -5, 99999, 99999)]", "inside the 80x43 map"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_chosen_generators_bad_level_is_one_line(home, tmp_path, capsys, case):
    extra, words = CASES[case]
    source = PLUGIN.format(extra=extra)
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "hostile.py").write_text(source)
    status = main(["--headless", "--new", "--seed", "1", "--plugins-dir", str(tmp_path / "plugins"),
                   "--plugin", "generator=hostile", "--keys", "l l"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert "generator 'hostile'" in err and words in err, err


def floor_level(**extra) -> Level:
    terrain = np.full((10, 12), WALL, dtype=np.uint8)
    terrain[1:-1, 1:-1] = FLOOR
    return Level(terrain=terrain, start=(1, 1), **extra)


def test_a_sound_level_passes_with_its_spawns_and_rooms():
    check_level(floor_level(rooms=[Rect(1, 1, 10, 8)], spawns=[("rat", 3, 3), ("gold", 4, 3)]), "g",
                kinds={"rat", "gold"})
    check_level(floor_level(spawns=[("anything", 3, 3)]), "g")  # without kinds: a plugin's own test


def test_not_a_level_at_all():
    from engine.core.turn.generate import run_generator
    from engine.kit.mapgen import GeneratorInfo

    with pytest.raises(GenerationError, match="returned None, not an engine.Level"):
        run_generator(GeneratorInfo("nothing", lambda ctx: None), 20, 20, 1, None)
