"""The Godot lesson 28 preset, rule for rule."""

import pytest
from test_frontend import screenshot, window_for  # noqa: F401

from engine import testing
from engine.core.play import status as hud
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.persist import keeper, profile


def lesson(picture, registry):
    return testing.game_from_map(registry, picture, game="lesson28")


def test_board_start_exit_walls_and_enemies():
    for seed in range(1, 60):
        g = new_game(Setup(game="lesson28", seed=seed))
        level = g.level
        assert level.terrain.shape == (8, 8)
        assert level.start == (0, 7) and level.exit == (7, 0) and level.stairs is None
        rows = level.rows()
        assert all(c == "." for c in rows[7])  # the path walks x first along the bottom row...
        assert all(row[7] in ".>" for row in rows)  # ...then y up the right column
        # 12 walls are scattered; a floor cell they wall into a pocket (unreachable, so it plays
        # the same) is filled too, since every level in the engine is connected
        walls = sum(row.count("#") for row in rows)
        assert 1 <= walls <= 64 - 15
        s = testing.press(g, "")
        assert len(s["monsters"]) == 3
        for m in s["monsters"]:
            assert (m["x"], m["y"]) != (7, 0)
            assert max(abs(m["x"] - 0), abs(m["y"] - 7)) >= 3
            assert rows[m["y"]][m["x"]] == "."
        assert s["visible"] == 64  # no darkness
        g.close()


def test_walls_and_the_edge_do_nothing_at_all(registry):
    g = lesson("""
        ...>
        e...
        #...
        @...
    """, registry)
    before = testing.press(g, "")
    after = testing.press(g, "up left down")
    assert after == before  # not a turn: the enemy did not move either


def test_enemies_step_along_the_farther_axis_x_on_a_tie(registry):
    g = lesson("""
        ......>
        .......
        ....e..
        .......
        @......
    """, registry)
    s = testing.press(g, "right")  # player (1, 4); enemy (4, 2): dx=-3, dy=2 -> x
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 2)
    s = testing.press(g, "right")  # player (2, 4); enemy (3, 2): dx=-1, dy=2 -> y
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 3)


def test_a_tie_steps_along_x(registry):
    g = lesson("""
        ......>
        .......
        .....e.
        .......
        .@.....
    """, registry)
    s = testing.press(g, "right")  # player (2, 4); enemy (5, 2): dx=-3, dy=2 -> x to (4, 2)
    s = testing.press(g, "up")  # player (2, 3); enemy (4, 2): dx=-2, dy=1 -> x to (3, 2)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 2)
    s = testing.press(g, "left")  # player (1, 3); enemy (3, 2): dx=-2, dy=1 -> x to (2, 2)
    s = testing.press(g, "down")  # player (1, 4); enemy (2, 2): dx=-1, dy=2 -> y to (2, 3)
    s = testing.press(g, "right")  # player (2, 4); enemy (2, 3): dx=0, dy=1 -> onto the player
    assert s["run"] == 2 and s["messages"][-1] == "Caught! Nothing survives. New dungeon."


def test_enemies_do_not_stack_or_walk_through_walls(registry):
    g = lesson("""
        ......>
        .......
        ..#e...
        ...e...
        @......
    """, registry)
    s = testing.press(g, "right")  # (3, 2): dx=-2, dy=2 -> x: wall, stays; (3, 3): dx=-2, dy=1 -> x to (2, 3)
    cells = sorted((m["x"], m["y"]) for m in s["monsters"])
    assert cells == [(2, 3), (3, 2)]


def test_walking_into_an_enemy_ends_the_run(registry):
    g = lesson("""
        ...>
        ....
        ....
        @e..
    """, registry)
    s = testing.press(g, "right")
    assert s["run"] == 2 and s["alive"]
    assert s["messages"] == ["Caught! Nothing survives. New dungeon."]
    assert s["map"] != ["...>", "....", "....", "...."] and len(s["map"]) == 8  # a new 8x8 dungeon
    assert hud.line(g, "status") == "Run 2"


def test_reaching_the_exit_builds_a_new_dungeon(registry):
    g = lesson("""
        ..@>
        ....
        ....
        e...
    """, registry)
    s = testing.press(g, "right")
    assert s["run"] == 2 and s["messages"] == ["Escaped! A new dungeon is built."]
    assert (s["player"]["x"], s["player"]["y"]) == (0, 7)  # the start of the new board


@pytest.mark.parametrize("key", ["h", "kp4", "y", ".", "R", ">", "q"])
def test_only_arrows_move(key, registry):
    g = lesson("""
        ...>
        ....
        ....
        .@..
    """, registry)
    s = testing.press(g, key)
    assert (s["player"]["x"], s["turn"]) == (1, 0)


def test_held_keys_do_not_repeat(registry):
    assert registry.games["lesson28"].key_repeat is False


def play_until_a_new_board(game):
    for token in "left up right down".split() * 25:
        Session.of(game).press(token)
        if game.run_number > 2:
            return
    raise AssertionError("never caught nor escaped")


def test_escape_quits_without_keeping_the_board(home):
    game = keeper.open_game(Setup(game="lesson28", seed=5))
    play_until_a_new_board(game)
    board = testing.press(game, "")["map"]
    Session.of(game).press("esc")
    assert game.quit_requested and keeper.saved_run() is None
    again = keeper.open_game(Setup(game="lesson28", seed=5), choice="continue")
    assert again.run_number == 1 and testing.press(again, "")["map"] != board  # a new dungeon, run counter and all
    Session.of(again).press("esc")


def test_a_run_is_counted_in_its_own_table_and_scores_shows_the_run_counter(home, capsys):
    from engine.cli.main import main

    game = keeper.open_game(Setup(game="lesson28", seed=5))
    play_until_a_new_board(game)
    Session.of(game).press("esc")
    p = profile.load()
    assert set(p["presets"]) == {"lesson28"} and p["presets"]["lesson28"]["runs"] == game.run_number == p["runs"]
    assert main(["scores", "--game", "lesson28"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(f"Runs {game.run_number}   ")


BOARD = """
    .......>
    ........
    ..#.....
    ........
    ....e...
    ........
    ........
    @.......
"""
LIGHT, DARK = (41, 41, 51), (31, 31, 41)  # Color(0.16, 0.16, 0.2) and (0.12, 0.12, 0.16)


def test_the_lessons_look_squares_on_a_checkerboard_in_its_window(registry, window_for):  # noqa: F811
    window = window_for(lesson(BOARD, registry))
    image = screenshot(window)
    assert image.size == (1152, 648)  # the Godot project's window
    left, bottom, width, height = window.map_view.rect
    assert (left, image.height - bottom - height, width, height) == (320, 68, 512, 512)  # BOARD_ORIGIN

    def px(x, y, dx, dy):  # pixel (dx, dy) of board cell (x, y), from its top-left corner
        return image.getpixel((320 + 64 * x + dx, 68 + 64 * y + dy))

    assert [px(x, 0, 30, 30) for x in range(4)] == [LIGHT, DARK, LIGHT, DARK]  # the floor: no glyph
    assert px(1, 1, 0, 0) == px(1, 1, 63, 63) == LIGHT
    for (x, y), inset, colour in (((2, 2), 2, (102, 102, 102)), ((7, 0), 8, (77, 191, 89)),
                                  ((4, 4), 10, (217, 64, 64)), ((0, 7), 10, (235, 235, 255))):
        floor = LIGHT if (x + y) % 2 == 0 else DARK
        assert px(x, y, inset - 1, inset - 1) == floor and px(x, y, 64 - inset, 64 - inset) == floor
        assert px(x, y, inset, inset) == colour and px(x, y, 63 - inset, 63 - inset) == colour
    assert window.tileset == "squares" and window.hud.lines()["status"] == "Run 1"


def test_the_squares_tileset(registry):
    from engine.frontend.tiles import make

    squares = make(registry.tilesets["squares"], cell=64, file=None)
    assert squares.size == (64, 64) and squares.tile("floor", " ") is None  # the floor is the board's

    def inset(name):
        tile = squares.tile(name, "?")
        assert tile.tinted  # white: the cell's colour tints it
        return tile.image.getbbox()[0]

    assert [inset(n) for n in ("wall", "exit", "monster:enemy", "player", "item:gold")] == [2, 8, 10, 10, 16]


def test_a_window_that_turns_to_lesson28_takes_its_look(registry, window_for):  # noqa: F811
    """The title screen may resume a lesson28 run in a window opened for another preset."""
    window = window_for(new_game(Setup(seed=1)))
    assert window.tileset == "glyphs" and window.textures.size == (16, 16)
    window.set_game(lesson(BOARD, registry))
    screenshot(window)  # (a headless window cannot be resized: the new size is asked for, not checked)
    assert window.tileset == "squares" and window.textures.size == (64, 64) and window.map_view.cell == (64, 64)
    assert window.grid.textures is window.textures


@pytest.mark.parametrize(("old", "new", "reason"), [
    ('tileset = "squares"', 'tileset = "marble"', "game lesson28: look.tileset: no tileset named 'marble' (valid: "),
    ("window = [1152, 648]", "window = [10, 10]", "look.window: expected [width, height] in pixels, each 64..16384"),
    ("window = [1152, 648]", 'death = "fade"', "look.death: expected one of 'band', 'dim', got 'fade'"),
    ("window = [1152, 648]", "windows = [1152, 648]", "look.windows: unknown key (valid: checker, death, "),
    ("checker = [[41, 41, 51], [31, 31, 41]]", "checker = [[41, 41, 51]]", "look.checker: expected [[r, g, b], "),
])
def test_a_bad_look_is_one_line_before_play(tmp_path, monkeypatch, capsys, old, new, reason):
    import shutil

    from engine.cli.main import main
    from engine.plugins.rules.content import content_dir

    content = tmp_path / "content"
    shutil.copytree(content_dir(), content)
    path = content / "games" / "lesson28.toml"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    monkeypatch.setenv("UNDERCROFT_CONTENT", str(content))
    assert main(["--headless", "--new", "--game", "lesson28"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err, err
