"""The window, rendered headless (EGL): what the player sees, pixel by pixel and line by line."""

from __future__ import annotations

import pytest

from engine import testing
from engine.core.model.components import Fighter, Inventory, Monster
from engine.core.play.status import line

arcade = pytest.importorskip("arcade")

from engine.frontend.launch import open_window  # noqa: E402

PLAYER = (255, 255, 255)
RAT = (200, 145, 90)  # content/monsters.toml

# A corridor: the rat sits 8 cells from the player, inside the light (radius 8) but beyond its own
# sight (6), so it sleeps. Three steps east put it out of view, on a remembered cell.
# The room below the wall, through a far door, is never seen.
CORRIDOR = """
    ##############################
    #r.......@...................#
    ###########################.##
    #............................#
    ##############################
"""


@pytest.fixture
def window_for():
    windows = []

    def make(game, **options):
        window = open_window(game, headless=True, **options)
        windows.append(window)
        return window

    yield make
    for window in windows:
        if not window.closed:
            window.close()


def screenshot(window):
    images = []
    window.frames.after_draw.append(lambda: images.append(arcade.get_image()))
    window.frames.draw()
    return images[0].convert("RGB")


def cell_pixels(window, image, x: int, y: int) -> list[tuple[int, int, int]]:
    """The pixels of map cell (x, y) in a screenshot (framebuffer pixels, top row first)."""
    left, bottom, width, height = window.map_view.cell_rect(x, y)
    top = image.height - (bottom + height)
    return [image.getpixel((left + i, top + j)) for j in range(height) for i in range(width)]


def brightest(pixels) -> tuple[int, int, int]:
    return max(pixels, key=sum)


def close_to(a, b, tolerance: int = 3) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))


def test_player_and_wall_cells_carry_their_colours(registry, window_for):
    game = testing.game_from_map(registry, CORRIDOR)
    window = window_for(game)
    image = screenshot(window)
    assert window.grid.shown(9, 1) == ("@", PLAYER)
    assert close_to(brightest(cell_pixels(window, image, 9, 1)), PLAYER)
    glyph, wall = window.grid.shown(9, 0)
    assert glyph == "─"  # the corridor's wall, joined to its neighbours (engine.frontend.walls)
    assert close_to(brightest(cell_pixels(window, image, 9, 0)), wall)
    # a sleeping rat in view is drawn in its colour
    assert close_to(brightest(cell_pixels(window, image, 1, 1)), RAT)


def test_unseen_is_black_memory_is_dim_and_unseen_monsters_are_not_drawn(registry, window_for):
    game = testing.game_from_map(registry, CORRIDOR)
    window = window_for(game)
    for _ in range(3):
        window.press("l")
    image = screenshot(window)
    assert not game.floor.visible[1, 1] and game.floor.seen[1, 1]
    # the room below was never seen: black
    assert set(cell_pixels(window, image, 5, 3)) == {(0, 0, 0)}
    # a remembered wall is dimmer than a visible one
    remembered = sum(brightest(cell_pixels(window, image, 2, 0)))
    visible = sum(brightest(cell_pixels(window, image, 12, 0)))
    assert 0 < remembered < visible * 0.6
    # the rat is still there, but out of sight: its cell shows the remembered floor
    assert [m.kind for _, m in game.world.query(Monster)] == ["rat"]
    glyph, _ = window.grid.shown(1, 1)
    assert glyph == "."
    assert not any(close_to(p, RAT, 12) for p in cell_pixels(window, image, 1, 1))


def test_a_turn_updates_only_the_cells_that_changed(registry, window_for):
    game = testing.game_from_map(registry, CORRIDOR)
    window = window_for(game)
    window.frames.draw()
    window.press("l")
    window.frames.flush()
    total = len(window.grid.pool)  # the viewport's cells
    assert 0 < window.grid.updated < total // 10
    # the cell left behind is the way up (the default game keeps levels: stairs up where you start)
    assert window.grid.shown(10, 1)[0] == "@" and window.grid.shown(9, 1)[0] == "<"


def test_sidebar_shows_hp_gold_potions_depth_and_the_log(registry, window_for):
    game = testing.game_from_map(registry, """
        #######
        #@$!..#
        #######
    """)
    window = window_for(game)
    window.press("l")
    window.press("l")
    window.press("g")
    window.frames.flush()
    rows = window.sidebar.lines()
    inv = game.world.get(game.player, Inventory)
    assert inv.gold > 0
    assert rows[0] == "Depth 1   Turn 3"
    assert rows[1] == "Health 20/20 [20/20]"
    assert rows[2] == "Level 1   XP 0/10 [0/10]"  # the default game's growth
    assert rows[3] == "Attack 4   Defense 0"  # the fighter's, plus what is worn (nothing)
    assert rows[4] == f"Gold {inv.gold}"
    assert "a potion" in rows  # the pack, under its letter
    assert window.log.keys.text == line(game, "keys")
    assert window.log.lines()[-1] == game.messages[-1]
    assert window.sidebar.rows[1].color != (235, 60, 50)
    game.world.get(game.player, Fighter).hp = 2
    window.frames.draw()
    assert window.sidebar.rows[1].color == (235, 60, 50)  # low health: the bar turns bright red


def test_classic_presets_keep_their_status_line(registry, window_for):
    game = testing.game_from_map(registry, """
        #######
        #@....#
        #######
    """, game="rogue-sdl")
    window = window_for(game)
    window.press("d")
    window.frames.flush()
    assert window.sidebar is None and window.log is None
    assert window.hud.lines()["status"] == line(game, "status")
    assert window.hud.lines()["keys"] == line(game, "keys")


def test_death_overlay_and_new_run(registry, window_for):
    game = testing.game_from_map(registry, """
        ######
        #@o..#
        ######
    """)
    window = window_for(game)
    for _ in range(10):
        window.press(".")
    assert not game.alive
    image = screenshot(window)
    said = window.end_screen.strings()
    assert said[0] == line(game, "death_title") and said[-1] == line(game, "death_hint")
    assert "Killed by an orc on depth 1" in said  # what killed the player, and where
    assert any(s.startswith(f"after {game.turn} turns, with 0 gold") for s in said)
    box = window.end_screen.box
    assert min(height for _, _, _, height in box.rows) >= box.row_px * 1.5  # room between the lines
    assert window.sidebar.lines()[1].startswith("Health 0/")
    # the overlay shades the map: the dead player's cell is dimmer than white
    assert sum(brightest(cell_pixels(window, image, 1, 1))) < sum(PLAYER) * 0.7
    window.press("R")
    assert game.alive and game.run_number == 2


def test_help_opens_on_question_mark_and_escape_closes_it(registry, window_for):
    game = testing.game_from_map(registry, "#####\n#@..#\n#####")
    window = window_for(game)
    window.press("?")
    assert window.controls.help_open
    screenshot(window)
    text = "\n".join(window.help_screen.strings())
    for token in ("h", "keypad 5", ">", "q", "R", "Esc", "?", "Ctrl +", "Ctrl-P"):
        assert token in text
    # a player's words, not the keymap's command names
    for words in ("take off", "pick up", "move up-left", "message history"):
        assert words in text
    for name in ("takeoff", "pickup", "upleft", "kp5", "ctrlp"):
        assert name not in text
    window.press("l")  # keys do nothing while help is open
    assert game.turn == 0
    window.press("esc")
    assert not window.controls.help_open and not window.closed and not game.quit_requested
    window.press("esc")
    assert window.closed and game.quit_requested


def test_zoom_is_integer_and_the_view_follows_the_player(registry, window_for):
    row = "#" * 80
    game = testing.game_from_map(registry, "\n".join([row, "#@" + "." * 77 + "#", row]))
    window = window_for(game)
    window.set_zoom(4)
    assert window.zoom == 4
    left, _, vw, _ = window.map_rect
    # the map (80 cells x 64 px) is wider than the window: the view starts at the map's left edge
    assert window.map_view.origin[0] == 0
    for _ in range(40):
        window.press("l")
        window.frames.flush()
    px, _ = window.player_screen()
    assert abs(px - (left + vw / 2)) <= vw / 4 + 64  # the player is kept out of the outer quarters
    assert all(isinstance(v, int) for v in window.map_view.rect)  # cell edges on whole pixels
    window.set_zoom(1)
    assert window.zoom == 1
