"""Terrain kinds as plugins: the built-in four registered as any plugin's kinds are, and a package
outside the engine (tests/fixtures/marsh, written from docs/reference.md alone) adding marsh water
and doors, played, saved, compared and drawn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import Actor, testing
from engine.kit.mapgen import BUILTIN_KINDS, Level

ROOT = Path(__file__).resolve().parent.parent
MARSH = Path(__file__).resolve().parent / "fixtures" / "marsh"
sys.path.insert(0, str(MARSH))
import undercroft_marsh  # noqa: E402  - the fixture package, not installed

WATER = undercroft_marsh.WATER


@pytest.fixture(scope="module")
def registry():
    return testing.load_plugin(undercroft_marsh)


def engine(*args: str, home: Path, plugins: str = "marsh") -> subprocess.CompletedProcess:
    """``python -m engine ARGS`` with the marsh installed (its entry point), or not (``plugins=""``)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(MARSH)]), "UNDERCROFT_LOAD_PLUGINS": plugins,
           "UNDERCROFT_HOME": str(home), "ARCADE_HEADLESS": "1"}
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, env=env,
                          timeout=300, cwd=home)


def test_the_built_in_terrain_is_a_plugin_s_registration(registry):
    assert [registry.owners[("terrain", name)] for name in BUILTIN_KINDS] == ["terrain"] * 4
    wall, floor = registry.terrain["wall"], registry.terrain["floor"]
    assert (wall.walkable, wall.transparent, floor.walkable, floor.transparent, floor.cost) == (False, False, True,
                                                                                                 True, 1)


def test_the_marsh_loads_whole_and_its_generator_keeps_the_contract(registry):
    testing.check_plugin(registry, "undercroft_marsh")
    testing.check_generator(registry.generators["marsh"], seeds=8, terrain_kinds=registry.terrain)
    level = testing.make_level(registry.generators["marsh"], 30, 12, seed=3, terrain_kinds=registry.terrain)
    assert level.kinds[:4] == list(BUILTIN_KINDS) and {"marsh-door", "marsh-water"} <= set(level.kinds)


def test_check_generator_names_a_kind_no_plugin_registers(registry):
    def lava(ctx):
        t = np.full((ctx.height, ctx.width), "wall", dtype="<U8")
        t[1:-1, 1:-1] = "floor"
        t[1, 2] = "lava"
        t[ctx.height - 2, ctx.width - 2] = "stairs"
        return Level(t, start=(1, 1), stairs=(ctx.width - 2, ctx.height - 2), rooms=[])

    class Lava:
        from engine import hookimpl

        @staticmethod
        @hookimpl
        def register_generators(register):
            register("lava", lava, min_size=(5, 5))

    lava_registry = testing.load_plugin(Lava)
    with pytest.raises(testing.ContractError, match="'lava', which no plugin registers"):
        testing.check_generator(lava_registry.generators["lava"], seeds=2, terrain_kinds=lava_registry.terrain)


HALL = """
    #########
    #@.#....#
    #..|..>.#
    #..#....#
    #########
"""


def test_walking_into_a_closed_door_opens_it_and_it_closes_behind_the_last_to_leave(registry):
    game = testing.game_from_map(registry, HALL)
    api = game.api
    assert api.terrain(3, 2).name == "marsh-door" and not api.sees(5, 2)  # a closed door blocks sight
    testing.press(game, "j l")
    assert api.position(api.player) == (2, 2)
    state = testing.press(game, "l")  # into the door: it opens, and the hall beyond is in view
    assert api.position(api.player) == (3, 2) and api.terrain(3, 2).name == "marsh-open-door"
    assert api.sees(5, 2) and state["map"][2] == "#../..>.#"
    testing.press(game, "l")
    assert api.terrain(3, 2).name == "marsh-door" and not api.sees(1, 1)  # closed behind: the west half out of view


POOL = """
    #######
    #@;;;>#
    #.....#
    #######
"""


def test_shallow_water_slows_the_wader_and_paths_go_around_it(registry):
    game = testing.game_from_map(registry, POOL)
    api = game.api
    assert api.walk_cost()[1, 2] == 2 and api.walk_cost()[2, 2] == 1
    assert not any(api.terrain(*cell).name == "marsh-water" for cell in api.path((1, 1), (5, 1)))
    speed = api.component(api.player, Actor).speed
    testing.press(game, "l")
    assert api.has_status(api.player, "wading")
    assert api.component(api.player, Actor).speed == speed // 2
    testing.press(game, "b")  # out, to the south-west
    assert not api.has_status(api.player, "wading")
    assert api.component(api.player, Actor).speed == speed


def test_travel_to_the_stairs_walks_around_the_water(registry):
    game = testing.game_from_map(registry, POOL)
    api = game.api
    testing.press(game, ">")  # travel to the known stairs (the default game's key)
    assert api.position(api.player) == (5, 1)
    assert not api.has_status(api.player, "wading") and game.turn == 4


def test_set_terrain_refuses_an_unknown_kind_and_a_cell_off_the_map_in_one_line(registry):
    game = testing.game_from_map(registry, HALL)
    with pytest.raises(ValueError, match=r"no terrain kind named 'lava' is registered \(valid: .*\)"):
        game.api.set_terrain(2, 2, "lava")
    with pytest.raises(ValueError, match=r"\(40, 2\) is not on the 9x5 map"):
        game.api.set_terrain(40, 2, "floor")


def test_a_wall_dug_in_play_lets_walkers_and_light_through(registry):
    game = testing.game_from_map(registry, """
        ########
        #@#....#
        #.####.#
        #......#
        ########
    """)
    api = game.api
    assert not api.passable(2, 1) and not api.sees(4, 1) and len(api.path((1, 1), (4, 1))) > 3
    api.set_terrain(2, 1, "floor")
    assert api.passable(2, 1) and api.sees(4, 1) and api.path((1, 1), (4, 1)) == [(2, 1), (3, 1), (4, 1)]


def test_a_run_on_a_plugin_s_terrain_saves_resumes_and_is_kept_aside_without_the_plugin(tmp_path):
    pool = tmp_path / "pool.txt"
    pool.write_text(POOL.replace("\n    ", "\n").strip() + "\n")
    r = engine("--headless", "--new", "--seed", "1", "--map", str(pool), "--keys", "l", home=tmp_path)
    assert r.returncode == 0, r.stderr
    r = engine("--headless", "--keys", "l", "--dump", "json", home=tmp_path)
    assert r.returncode == 0, r.stderr
    state = json.loads(r.stdout)
    assert state["map"][1] == "#<;;;>#" and (state["player"]["x"], state["player"]["y"]) == (3, 1)
    assert state["player"]["statuses"] == {"wading": None}
    r = engine("--headless", "--keys", "l", home=tmp_path, plugins="")
    assert "this run needs plugin 'marsh'" in r.stdout + r.stderr


def _has(picture: np.ndarray, rgb: tuple[int, int, int], tolerance: int = 8) -> bool:
    return bool((np.abs(picture[..., :3].astype(int) - np.array(rgb)).max(axis=-1) <= tolerance).any())


def test_compare_generators_and_the_window_s_shot_show_the_water(tmp_path):
    from PIL import Image

    r = engine("compare", "generators", "--plugin", "generator=marsh", "--seeds", "1", "--shot", str(tmp_path),
               home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert _has(np.asarray(Image.open(tmp_path / "gen_marsh.png")), WATER, 0)
    shot = tmp_path / "play.png"
    r = engine("--headless", "--new", "--seed", "1", "--plugin", "generator=marsh", "--shot", str(shot), home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert _has(np.asarray(Image.open(shot).convert("RGB")), WATER)


class Mist:
    """A throwaway plugin: mist the player's memory does not keep, and brambles that scratch whoever
    stands in them at the end of every turn."""

    from engine import TerrainKind, hookimpl

    @staticmethod
    def scratch(game, entity, x, y):
        game.damage(entity, 1, by="brambles")

    @staticmethod
    @hookimpl
    def register_terrain(register):
        from engine import TerrainKind

        register(TerrainKind(name="mist", glyph="%", color=(200, 200, 220), remembered=False))
        register(TerrainKind(name="brambles", glyph="&", color=(90, 160, 60), on_stand=Mist.scratch))


@pytest.fixture(scope="module")
def misty():
    return testing.load_plugin(undercroft_marsh, Mist)


def _cells(game):
    from engine.frontend.compose import LIT, Names, Tables, compose

    names = Names()
    tables = Tables(game.rules, LIT, names)
    h, w = game.level.terrain.shape
    return compose(game, slice(0, h), slice(0, w), tables, LIT, names), names


def test_the_window_draws_a_plugin_s_kinds_and_remembers_only_what_memory_keeps(misty):
    from engine.frontend.compose import REMEMBERED, SEEN, UNKNOWN

    game = testing.game_from_map(misty, """
        ##########
        #@;%.....#
        ########.#
               #.#
               #>#
               ###
    """)
    cells, names = _cells(game)
    assert cells.state[1, 2] == SEEN and chr(cells.code[1, 2]) == ";" and names.names[cells.name[1, 2]] == \
        "marsh-water" and tuple(cells.fg[1, 2]) == WATER
    api = game.api
    api.set_terrain(2, 1, "marsh-water")  # nothing changes: the same kind
    testing.press(game, "l l l l l l l j j j")
    assert api.position(api.player) == (8, 4) and not api.sees(2, 1)
    cells, _ = _cells(game)
    assert cells.state[1, 2] == REMEMBERED and tuple(cells.fg[1, 2]) == (30, 50, 90)  # its own remembered colour
    assert cells.state[1, 3] == UNKNOWN  # mist is not remembered


def test_a_kind_s_on_stand_runs_at_the_end_of_every_turn_for_who_stands_there(misty):
    from engine.frontend import sidebar

    game = testing.game_from_map(misty, "######\n#@&.>#\n######\n")
    api = game.api
    testing.press(game, "l")
    assert api.hp(api.player)[0] == api.hp(api.player)[1] - 1
    testing.press(game, ".")
    assert api.hp(api.player)[0] == api.hp(api.player)[1] - 2
    assert any(row.text == "Here: brambles" for row in sidebar.underfoot(game))
    testing.press(game, "l")
    assert api.hp(api.player)[0] == api.hp(api.player)[1] - 2  # out of them: no more scratches


def test_a_tileset_is_asked_for_a_plugin_s_kind_by_its_name(registry):
    gaps = testing.tileset_gaps(registry.tilesets["kenney"], registry=registry)
    assert "door '+'" not in gaps  # the kenney set has a door
    assert "marsh-water ';'" in gaps  # and no water: drawn as its glyph, framed
