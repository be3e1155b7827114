"""Solid panels: menus, a question, the history, help and the end screens hide the map under them,
and on a small board they sit beside it rather than over it."""

from __future__ import annotations

import numpy as np
import pytest

from engine import testing
from engine.core.model.components import Fighter
from engine.core.play.session import Session
from engine.frontend.aside import overlap, place

arcade = pytest.importorskip("arcade")

from test_frontend import screenshot, window_for  # noqa: E402, F401

# A hall of pillars: bright glyphs under wherever a panel goes.
HALL = """
    ########################################
    #@.....................................#
    ##.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#
    #......................................#
    ##.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#
    #......................................#
    ##.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#
    #......................................#
    ##.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#
    #......................................#
    ##.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#
    #......................................#
    ########################################
"""


def _inventory(game, window):
    game.give("potion", 2)
    game.give("dagger")
    window.press("i")


def _question(game, window):
    game.api.ask("test.grow", "Level 2: what grows?", ["Health +6", "Attack +1", "Defense +1"])
    Session.of(game).ask_next()


def _history(game, window):
    for i in range(12):
        game.log(f"Message number {i}: something happened here.")
    window.press("v")


def _help(game, window):
    window.press("?")


def _death(game, window):
    game.world.get(game.player, Fighter).hp = 0
    game.state.alive = False
    game.log(game.rules.message("die"))


def _victory(game, window):
    game.give("Amulet of the Undercroft")
    game.move_entity(game.player, *game.level.upstairs)
    window.press("<")


def _panel(window):
    """The rectangle (left, bottom, width, height) of whatever panel is open."""
    if window.controls.help_open:
        return window.help_screen.box.rect
    if window.session.prompt is not None:
        return window.prompt_view.box.rect
    return window.end_screen.box.rect


@pytest.mark.parametrize("open_panel", [_inventory, _question, _history, _help, _death, _victory])
def test_no_map_glyph_shows_inside_a_panel(registry, window_for, open_panel):  # noqa: F811
    game = testing.game_from_map(registry, HALL)
    game.state.view.seen[:] = True  # the whole hall remembered: glyphs everywhere under the panel
    window = window_for(game)
    open_panel(game, window)
    with_map = np.asarray(screenshot(window)).astype(int)
    left, bottom, width, height = _panel(window)
    assert width > 0 and height > 0
    window.grid.draw = lambda: None  # the same frame with no map under the panel
    without_map = np.asarray(screenshot(window)).astype(int)
    top = with_map.shape[0] - (bottom + height)
    inside = (slice(top, top + height), slice(left, left + width))
    assert (with_map[inside] == without_map[inside]).all(), "the map shows through the panel"
    outside = with_map.copy()
    outside[inside] = without_map[inside]
    assert (outside != without_map).any(), "the map is drawn around the panel"


def test_a_panel_moves_beside_a_small_board_and_stays_over_a_large_map():
    screen, area = (0, 0, 1000, 600), (0, 100, 700, 500)
    board = (250, 250, 200, 200)  # a small board in the middle of the map area
    panel = (300, 150)
    wanted = (200, 275, 300, 150)  # centred: it would hide most of the board
    spot = place(panel, wanted, area, board, screen)
    assert overlap(spot, board) == 0 and spot[1] + spot[3] <= board[1]  # whole, below the board
    assert spot[1] >= area[1]  # in the map area, not over the log
    # no room around the board in the map area: next to it in the window, hiding little of it
    full = (0, 100, 700, 500)
    spot = place((500, 300), (100, 200, 500, 300), full, full, screen)
    assert overlap(spot, full) <= 0.5 * 500 * 300 and spot[0] + spot[2] <= 1000
    # a large map: a menu over a part of it stays where it asked to be
    assert place((300, 150), (200, 275, 300, 150), full, full, screen) == (200, 275, 300, 150)


def test_a_panel_taller_than_the_map_area_is_never_cut_to_fit_beside_the_board():
    """A board one row high in a map area shorter than the help: the box keeps its own size (it was
    cut to the area's height beside the board, and its lines spilt out below its frame)."""
    screen, area = (0, 0, 1600, 870), (0, 60, 1280, 400)
    board = (560, 240, 140, 40)
    panel = (400, 800)
    spot = place(panel, (440, 60, 400, 400), area, board, screen)
    assert spot[2:] == panel and overlap(spot, board) == 0 and spot[1] >= 0 and spot[1] + spot[3] <= 870


SMALL = """
    ########
    #@..r..#
    #......#
    #..$...#
    ########
"""


def test_a_question_on_a_small_map_leaves_the_board_in_view(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, SMALL)
    window = window_for(game)
    _question(game, window)
    screenshot(window)
    board = window.map_view.rect
    assert window.prompt_view.strings()[0] == "Level 2: what grows?"
    assert overlap(window.prompt_view.box.rect, board) <= 0.5 * board[2] * board[3]


def test_help_on_lesson28s_board_sits_beside_it(tmp_path, window_for):  # noqa: F811
    from engine.core.play.setup import Setup, new_game

    game = new_game(Setup(game="lesson28", seed=2))
    window = window_for(game)
    window.press("?")
    screenshot(window)
    board = window.map_view.rect
    assert overlap(window.help_screen.box.rect, board) <= 0.1 * board[2] * board[3]


def test_a_small_size_opens_a_window_with_room_for_the_question_beside_the_board(window_for):  # noqa: F811
    from engine.core.play.setup import Setup, new_game
    from engine.frontend.layout import SMALLEST_NATURAL
    from engine.frontend.settings import Settings

    game = new_game(Setup(seed=1, size=(12, 8)))
    window = window_for(game, settings=Settings())  # nothing remembered: the natural size
    assert all(have >= least for have, least in zip(window.get_size(), SMALLEST_NATURAL, strict=True))
    _question(game, window)
    screenshot(window)
    assert overlap(window.prompt_view.box.rect, window.map_view.rect) == 0


def test_a_box_shorter_than_its_lines_says_how_many_it_does_not_show(registry, window_for):  # noqa: F811
    """A full pack in a short window drew its last rows below the box, over the log: the box shows
    the lines that fit, a count of the others, and its last line (the hint); every row drawn is
    inside it, and no hidden row answers the mouse."""
    from engine.frontend.panel import TextBox

    window_for(testing.game_from_map(registry, SMALL))  # a GL context for the text
    box = TextBox(20, 12)
    box.show([("Inventory", (255, 255, 0))] + [(f"{chr(97 + i)}  item {i}", (200, 200, 200)) for i in range(26)]
             + [("Esc: close", (150, 150, 150))])
    box.place(0, 0, 400, 300)
    shown = [t.text for t in box.texts if t.text]
    assert shown[0] == "Inventory" and shown[-1] == "Esc: close" and shown[-2].startswith("... ")
    hidden = int(shown[-2].split()[1])
    assert hidden == 28 - len(shown) + 1 and hidden > 0  # every line either shown or counted
    drawn = [row for row in box.rows if row[3] > 0]
    assert all(0 <= bottom and bottom + height <= 300 for _, bottom, _, height in drawn)
    box.place(0, 0, 400, 2000)  # room for all: nothing counted
    assert [t.text for t in box.texts if t.text][-2] == "z  item 25"


def test_a_menu_longer_than_the_map_scrolls_with_up_and_down(registry, window_for):  # noqa: F811
    """A full pack in a short window: the options that fit, counts of the others above and below,
    and up/down (the window's, not the game's: nothing is recorded) move through them; in a menu
    that fits, up and down are the game's as before."""
    from engine.frontend.settings import Settings

    game = testing.game_from_map(registry, HALL)
    for kind in ("dagger", "long sword", "war axe", "leather armour", "chain mail", "plate armour") * 4:
        game.give(kind)
    window = window_for(game, settings=Settings({"window_size": [900, 420]}))
    window.press("i")
    window.frames.draw()
    view = window.prompt_view
    lines = view.strings()
    assert view.scrolled.top_most > 0 and view.scrolled.top == 0 and any(line.startswith("a  ") for line in lines)
    hidden = int(next(line for line in lines if line.endswith(" more")).split()[1])
    assert hidden == view.scrolled.top_most and lines[-1].startswith("Up/down: more")
    window.controls.press("down")
    window.controls.press("down")
    window.frames.draw()
    lines = view.strings()
    assert view.scrolled.top == 2 and "... 2 above" in lines and not any(line.startswith("a  ") for line in lines)
    assert any(line.startswith("c  ") for line in lines) and Session.of(game).prompt is not None
    for _ in range(40):
        window.controls.press("down")
    window.frames.draw()
    lines = view.strings()
    assert view.scrolled.top == view.scrolled.top_most and not any(line.endswith(" more") for line in lines)
    assert any(line.startswith("x  ") for line in lines)  # the last of 24
    drawn = [row for row in view.box.rows if row[3] > 0]
    box_bottom = view.box.rect[1]
    assert all(bottom >= box_bottom for _, bottom, _, _ in drawn)  # every row inside the box
    window.press("esc")
    window.press("\\")  # what is known: a page that fits, which any key closes
    window.frames.draw()
    assert view.scrolled.top_most == 0 and Session.of(game).prompt.kind == "page"
    window.controls.press("up")  # a menu that fits: the key is the game's, as before
    assert Session.of(game).prompt is None


def test_a_help_longer_than_the_window_scrolls_with_up_and_down(registry, window_for):  # noqa: F811
    """At 900x420 the help's two columns did not fit: its last rows (rest, pick up, the window's
    keys) were a count, with no way to read them. Up and down scroll it, keys played before a
    frame is drawn too (``--keys``), nothing reaches the game, and it opens again at its top."""
    from engine.frontend.helpscreen import help_lines
    from engine.frontend.settings import Settings

    game = testing.game_from_map(registry, HALL)
    window = window_for(game, settings=Settings({"window_size": [900, 420]}))
    turn = game.turn
    help_screen = window.help_screen
    scroll = help_screen.scrolled
    window.press("?")
    window.press("down")  # before the help was ever drawn (as --keys plays): it scrolls all the same
    window.frames.draw()
    assert scroll.top == 1
    window.press("up")
    window.frames.draw()
    lines = help_screen.strings()
    assert scroll.top_most > 0 and scroll.top == 0 and lines[-1].startswith("Up/down: more")
    hidden = int(next(line for line in lines if line.startswith("... ") and line.endswith(" more")).split()[1])
    assert hidden == scroll.top_most and not any("rest until healed" in line for line in lines)
    width = help_screen.box.rect[2]
    for _ in range(40):
        window.press("down")
    window.frames.draw()
    lines = help_screen.strings()
    assert scroll.top == scroll.top_most and f"... {scroll.top_most} above" in lines
    assert any("rest until healed" in line for line in lines) and any("close help" in line for line in lines)
    assert help_screen.box.rect[2] == width  # the panel keeps its width as it scrolls
    window.press("up")
    window.frames.draw()
    assert scroll.top == scroll.top_most - 1 and game.turn == turn and window.controls.help_open
    window.press("esc")
    window.press("?")
    window.frames.draw()
    assert scroll.top == 0  # opened again at its top
    assert len(help_lines(game)) > len(help_lines(game, 16))  # two columns, each row two commands


def test_a_sidebar_too_short_for_its_rows_counts_the_others(registry, window_for):  # noqa: F811
    """A pack of 24 in a 420-px window: the sidebar's last row says how many rows it cannot show,
    where they were dropped unsaid."""
    from engine.frontend.settings import Settings

    game = testing.game_from_map(registry, HALL)
    for kind in ("dagger", "long sword", "war axe", "leather armour", "chain mail", "plate armour") * 4:
        game.give(kind)
    window = window_for(game, settings=Settings({"window_size": [900, 420]}))
    window.frames.draw()
    lines = window.sidebar.lines()
    shown = sum(1 for line in lines if line[:2] in {f"{chr(97 + i)} " for i in range(24)})
    assert lines[-1] == f"+{24 - shown} more" and 0 < shown < 24
    assert len(lines) == len(window.sidebar.texts)  # no row past the sidebar's foot
