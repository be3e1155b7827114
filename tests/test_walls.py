"""Walls that read at a glance: joined by their neighbours (engine.kit.walls), deep rock drawn dark,
the rule chosen by the preset's look, the level's generator or the tileset (engine.frontend.walls)."""

from __future__ import annotations

import numpy as np
import pytest

from engine import testing
from engine.kit.walls import SOUTH, WEST, facing, glyphs, joins


def parse(picture: str) -> tuple[np.ndarray, np.ndarray]:
    rows = [r for r in picture.strip("\n").split("\n")]
    width = max(len(r) for r in rows)
    cells = np.array([list(r.ljust(width)) for r in rows])
    return cells == "#", cells == "."


def drawn(picture: str, style: str = "lines") -> list[str]:
    wall, open_ = parse(picture)
    codes = glyphs(joins(wall, open_), style)
    face = facing(wall, open_)
    return ["".join(chr(codes[y, x]) if face[y, x] else (" " if wall[y, x] else ".") for x in range(wall.shape[1]))
            for y in range(wall.shape[0])]


def test_a_room_is_outlined_and_a_wall_between_corridors_runs_along_them():
    assert drawn("""
#########
#.......#
#.#####.#
#.......#
#########
""") == ["┌───────┐",
         "│.......│",
         "│.─────.│",
         "│.......│",
         "└───────┘"]


def test_two_walls_back_to_back_do_not_join_across_the_rock_and_rock_is_deep():
    # two rooms with three rows of rock between them: the middle row faces nothing
    assert drawn("""
#####
#...#
#####
#####
#####
#...#
#####
""") == ["┌───┐",
         "│...│",
         "└───┘",
         "     ",
         "┌───┐",
         "│...│",
         "└───┘"]


def test_double_lines_and_a_pillar():
    assert drawn("""
#####
#...#
#.#.#
#...#
#####
""", "double") == ["╔═══╗",
                   "║...║",
                   "║.■.║",
                   "║...║",
                   "╚═══╝"]


def test_only_known_cells_are_read():
    """A corridor the player has not seen leaves no joint in the wall that hides it."""
    wall, open_ = parse("""
#######
#.....#
###.###
  #.#
""")
    assert joins(wall, open_)[2, 2] == WEST | SOUTH  # the wall beside the corridor's mouth runs down it
    unseen = open_.copy()
    unseen[2:, 3] = False  # the corridor unknown
    assert joins(wall, unseen)[2, 2] == WEST  # nothing tells of it


# -- in the window ---------------------------------------------------------------------------
arcade = pytest.importorskip("arcade")

from test_frontend import cell_pixels, screenshot, window_for  # noqa: E402, F401

# a room and a corridor cut in a block of rock: (1, 6) is rock with no open cell beside it
ROCK = """
    ###########
    #.........#
    #.@.......#
    #.........#
    #####.#####
    #####.#####
    #####.#####
    ###########
"""


def every_cell_seen(game) -> None:
    game.floor.seen[:] = True  # as a map would show it: rock included


def test_a_wall_deep_in_rock_is_drawn_apart_from_a_wall_beside_the_floor(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, ROCK)
    every_cell_seen(game)
    window = window_for(game)
    image = screenshot(window)
    deep, beside = cell_pixels(window, image, 1, 6), cell_pixels(window, image, 4, 5)
    assert window.grid.shown(1, 6)[0] == " " and window.grid.shown(4, 5)[0] == "│"
    assert len(set(deep)) == 1  # one flat dark block: no glyph on it
    assert max(map(sum, deep)) < 90 < max(map(sum, beside))  # the facing wall's line is bright
    assert set(deep).isdisjoint(beside)  # and not its background either


def test_the_classic_look_keeps_every_wall_its_glyph(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, ROCK, game="rogue-sdl")
    every_cell_seen(game)
    window = window_for(game)
    window.frames.draw()
    assert window.look.walls == "plain"
    assert window.grid.shown(1, 6)[0] == "#" and window.grid.shown(4, 5)[0] == "#"


@pytest.mark.parametrize(("generator", "built"), [("rooms_and_mazes", True), ("bsp", True), ("rooms", True),
                                                  ("caves", False), ("drunkard", False)])
def test_built_walls_are_joined_and_cave_walls_stay_rough(generator, built, window_for):  # noqa: F811
    from engine.core.play.setup import Setup, new_game
    from engine.kit.mapgen import WALL

    game = new_game(Setup(seed=3, plugins=[f"generator={generator}"]))
    window = window_for(game)
    window.frames.draw()
    ys, xs = window.map_view.window()
    shown = {window.grid.shown(x, y)[0] for y in range(ys.start, ys.stop) for x in range(xs.start, xs.stop)
             if game.level.terrain[y, x] == WALL and game.floor.seen[y, x]}
    assert shown, "no wall in view"
    assert (shown <= set("■│─└┌├┘┴┐┤┬┼")) == built
    assert ("#" in shown) != built


def test_a_preset_may_choose_its_wall_rule_and_a_bad_one_is_one_line():
    from engine.core.kinds.content import ContentError
    from engine.core.kinds.rules import GameRules, validate
    from engine.frontend.compose import look_for

    def preset(walls: str) -> GameRules:
        return GameRules(name="walled", generators=[[1, "bsp"]], fov="symmetric", look={"walls": walls})

    validate(preset("double"))
    assert look_for(preset("double")).walls == "double"
    with pytest.raises(ContentError, match=r"look\.walls.*plain.*facing.*lines.*double") as caught:
        validate(preset("wavy"))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("keys", ["", "l l l l l l"])  # in the light, then remembered out of it
def test_a_secret_door_is_drawn_exactly_as_the_wall_it_stands_in(registry, window_for, keys):  # noqa: F811
    """No outline gives a secret door away: in the light or remembered, beside the floor or known
    only as the wall bounding a floor seen, it is the wall's very pixels (a kind flagged
    ``solid`` is part of the wall: joined, known and dark deep in rock as the wall is)."""
    assert "secret-door" in registry.terrain
    shots = []
    for secret in (False, True):
        game = testing.game_from_map(registry, """
            ####################
            #@.................#
            #..................#
            ######.#############
            ######.#############
            ####################
        """)
        if secret:
            for x, y in ((3, 3), (8, 3), (3, 5)):  # beside the floor, the corridor's side, deep in rock
                game.api.set_terrain(x, y, "secret-door")
        testing.press(game, keys)
        game.floor.seen[5, 3] = True  # the one deep in rock seen, as a map would show it
        shots.append(np.asarray(screenshot(window_for(game))))
    assert shots[0].shape == shots[1].shape and (shots[0] == shots[1]).all()


def test_a_sprite_set_tints_the_ground_under_an_ally_as_the_glyphs_ground_is(registry, window_for):  # noqa: F811
    """In a sprite set the terrain's picture covers the ground's colour: under a creature on the
    player's side (a captive here) the picture is tinted the friend's green; under the same kind
    hostile, it is not."""
    from engine.frontend import palette

    game = testing.game_from_map(registry, """
        ##########
        #@.......#
        #..g..g..#
        ##########
    """)
    captive, foe = sorted(game.api.monsters())
    game.api.add_status(captive, "captive", None)
    window = window_for(game, tileset="kenney")
    image = screenshot(window)

    def corner(cell):  # the cell's top-left pixel: the ground, which the goblin's picture leaves bare
        return cell_pixels(window, image, *cell)[0]

    friend, hostile = game.api.position(captive), game.api.position(foe)
    r, g, b = corner(friend)
    assert g > max(r, b) + 15  # green
    assert palette.delta_e(corner(friend), palette.FRIEND_BG) + 10 < palette.delta_e(corner(hostile), palette.FRIEND_BG)
    assert corner(hostile) == corner((friend[0] + 1, friend[1]))  # the floor beside, as it is
    assert window.grid.cells.friend[friend[1] - window.grid.origin[1], friend[0] - window.grid.origin[0]]
    assert palette.FRIEND_BG[1] > palette.FRIEND_BG[0]
