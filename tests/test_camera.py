"""The camera (plain arithmetic) and the window around it: edges and corners, resize, zoom, the
mouse mapping, and what the window remembers."""

from __future__ import annotations

import pytest

from engine import testing
from engine.frontend.camera import Camera
from engine.frontend.settings import DEFAULTS, Settings


def camera(map_size=(100, 60), area=(0, 0, 320, 160), cell=(16, 16), zoom=1) -> Camera:
    return Camera(map_size, area, cell, zoom)  # 20 x 10 cells shown


def test_a_map_that_fits_is_centred_and_never_moves():
    cam = camera(map_size=(10, 5))
    assert cam.shape == (10, 5)
    assert cam.rect == (80, 40, 160, 80)
    for x, y in [(0, 0), (9, 4), (5, 2)]:
        assert cam.follow(x, y) is False and cam.origin == (0, 0)


@pytest.mark.parametrize(("at", "origin"), [
    ((0, 0), (0, 0)),  # top-left corner
    ((99, 0), (80, 0)),  # top-right
    ((0, 59), (0, 50)),  # bottom-left
    ((99, 59), (80, 50)),  # bottom-right
    ((50, 0), (40, 0)),  # top edge, middle
    ((0, 30), (0, 25)),  # left edge, middle
])
def test_the_view_is_clamped_at_the_edges_and_corners(at, origin):
    cam = camera()
    cam.centre_on(*at)
    assert cam.origin == origin
    cols, rows = cam.shape
    ys, xs = cam.window()
    assert (xs.stop - xs.start, ys.stop - ys.start) == (cols, rows)
    assert 0 <= xs.start and xs.stop <= 100 and 0 <= ys.start and ys.stop <= 60
    assert cam.cell_rect(*at) is not None  # the player is always on screen


def test_the_view_follows_with_a_dead_zone():
    cam = camera()
    cam.centre_on(50, 30)
    assert cam.origin == (40, 25)
    assert cam.follow(52, 31) is False  # inside the middle half: no scroll
    assert cam.follow(55, 30) is True  # within a quarter of the right edge: recentre
    assert cam.origin == (45, 25)
    # walking to the corner: the view stops at the map's edge
    for x in range(55, 100):
        cam.follow(x, 59)
        assert cam.cell_rect(x, 59) is not None
    assert cam.origin == (80, 50)


def test_cell_at_maps_pixels_to_cells_and_back():
    cam = Camera((100, 60), (10, 20, 330, 170), (16, 16), 2)  # 10 x 5 cells of 32 px, margins 5
    cam.centre_on(50, 30)
    left, bottom, width, height = cam.rect
    assert (left, bottom, width, height) == (15, 25, 320, 160)
    x0, y0 = cam.origin
    assert cam.cell_at(left, bottom + height - 1) == (x0, y0)  # the top-left pixel
    assert cam.cell_at(left + width - 1, bottom) == (x0 + 9, y0 + 4)  # the bottom-right one
    assert cam.cell_at(left - 1, bottom) is None and cam.cell_at(left, bottom + height) is None
    for x, y in [(x0, y0), (x0 + 3, y0 + 2), (x0 + 9, y0 + 4)]:
        cl, cb, cw, ch = cam.cell_rect(x, y)
        assert (cw, ch) == (32, 32)
        assert cam.cell_at(cl + cw / 2, cb + ch / 2) == (x, y)
        assert cam.cell_at(cl, cb) == (x, y) and cam.cell_at(cl + cw - 1, cb + ch - 1) == (x, y)


def test_non_square_cells_and_a_window_smaller_than_a_cell():
    cam = Camera((40, 40), (0, 0, 100, 100), (8, 12), 1)
    assert cam.shape == (12, 8) and cam.cell_px == (8, 12)
    tiny = Camera((40, 40), (0, 0, 3, 3), (16, 16), 1)
    assert tiny.shape == (1, 1)  # still shows one cell


# -- the window ----------------------------------------------------------------------------
arcade = pytest.importorskip("arcade")

from engine.frontend.launch import open_window  # noqa: E402

BIG = "\n".join(["#" * 120] + ["#" + "." * 118 + "#" for _ in range(68)] + ["#" * 120])


@pytest.fixture
def big_window(registry):
    rows = BIG.splitlines()
    rows[35] = rows[35][:60] + "@" + rows[35][61:]
    window = open_window(testing.game_from_map(registry, "\n".join(rows)), headless=True)
    window.frames.draw()
    yield window
    if not window.closed:
        window.close()


def test_only_the_viewport_is_sprites_and_the_pool_is_reused(big_window):
    window = big_window
    cols, rows = window.map_view.shape
    assert (cols, rows) == window.grid.shape
    assert len(window.grid.pool) == cols * rows < 120 * 70
    assert 0 < len(window.grid.sprites) <= cols * rows  # a cell's sprite is made when it first shows
    sprites = list(window.grid.sprites)
    for _ in range(30):
        window.press("l")
        window.frames.flush()
    assert window.map_view.origin[0] > 0  # the view scrolled right
    # the same sprites, re-pointed (and those of cells seen since, made as they showed)
    assert list(window.grid.sprites)[:len(sprites)] == sprites
    assert len(window.grid.sprites) <= cols * rows
    x, y = window.game.position(window.game.player)
    assert window.grid.shown(x, y)[0] == "@"


def resize(window, monkeypatch, size, ratio=1):
    """A headless (EGL pbuffer) window cannot change size: make it say it did, as pyglet would."""
    monkeypatch.setattr(window, "get_size", lambda: size)
    monkeypatch.setattr(window, "get_framebuffer_size", lambda: (size[0] * ratio, size[1] * ratio))
    window.on_resize(*size)


def test_resize_keeps_the_player_in_view_and_the_pool_fits(big_window, monkeypatch):
    window = big_window
    for size in [(400, 300), (1000, 700), (220, 180)]:
        resize(window, monkeypatch, size)
        window.frames.draw()
        cols, rows = window.map_view.shape
        left, bottom, width, height = window.map_view.rect
        map_left, map_bottom, map_width, map_height = window.map_rect
        assert map_left <= left and left + width <= map_left + map_width
        assert map_bottom <= bottom and bottom + height <= map_bottom + map_height
        assert len(window.grid.pool) == cols * rows and len(window.grid.sprites) <= cols * rows
        assert window.map_view.cell_rect(*window.game.position(window.game.player)) is not None
        fw, fh = size
        side = window.sidebar.rect
        assert side[0] + side[2] == fw and map_left + map_width <= side[0]  # the sidebar at the right
        assert map_bottom == window.log.height and map_bottom + map_height == fh  # the log below the map


def test_hidpi_draws_cells_at_twice_the_pixels(big_window, monkeypatch):
    window = big_window
    resize(window, monkeypatch, (800, 600), ratio=2)
    window.frames.draw()
    assert window.ratio == 2 and window.pixel_zoom == 2 * window.zoom
    assert window.map_view.cell_px == (32, 32)
    x, y = window.game.position(window.game.player)
    left, bottom, width, height = window.map_view.cell_rect(x, y)
    # the mouse speaks window units: half the framebuffer's pixels
    assert window.cell_at((left + width / 2) / 2, (bottom + height / 2) / 2) == (x, y)


def test_zoom_scales_cells_and_text_together_and_is_remembered(big_window):
    window = big_window
    cols, _ = window.map_view.shape
    row = window.sidebar.row_px
    window.set_zoom(2)
    window.frames.draw()
    assert window.map_view.cell_px == (32, 32)
    assert window.sidebar.row_px == 2 * row and window.log.row_px == 2 * row
    assert window.map_view.shape[0] <= cols // 2 + 1
    assert window.settings["zoom"] == 2
    window.set_zoom(99)
    assert window.zoom == 8


def test_cell_at_on_the_window_matches_where_cells_are_drawn(big_window):
    window = big_window
    x, y = window.game.position(window.game.player)
    left, bottom, width, height = window.map_view.cell_rect(x, y)
    ratio = window.ratio
    assert window.cell_at((left + width / 2) / ratio, (bottom + height / 2) / ratio) == (x, y)
    assert window.cell_at((left + width + 1) / ratio, (bottom + 1) / ratio) == (x + 1, y)
    assert window.cell_at(window.width - 2, window.height / 2) is None  # over the sidebar


def test_settings_are_loaded_validated_and_saved_through_what_was_injected():
    saved = []
    stored = {"zoom": 3, "muted": "yes", "window_size": [900, 700], "nonsense": 1}
    settings = Settings(load=lambda: stored, save=lambda **values: saved.append(values))
    assert settings["zoom"] == 3 and settings["window_size"] == [900, 700]
    assert settings["muted"] is DEFAULTS["muted"]  # a bad saved value: the default
    settings["muted"] = True
    settings.update(zoom=3, tileset="kenney")  # zoom unchanged: only the tileset is saved
    assert saved == [{"muted": True}, {"tileset": "kenney"}]
    with pytest.raises(ValueError):
        settings["zoom"] = 0
    broken = Settings(load=lambda: 1 / 0, save=lambda **v: 1 / 0)
    broken["zoom"] = 2  # a failing save: the value holds, no error
    assert broken["zoom"] == 2


def test_the_window_opens_at_its_remembered_size_and_zoom(registry):
    settings = Settings({"window_size": [700, 500], "zoom": 2})
    window = open_window(testing.game_from_map(registry, "#####\n#@..#\n#####"), headless=True, settings=settings)
    try:
        assert window.get_size() == (700, 500) and window.zoom == 2
        window.get_size = lambda: (640, 480)  # as if the player had dragged its corner
        window.close()
        assert settings["window_size"] == [640, 480]
    finally:
        if not window.closed:
            window.close()


def test_f11_toggles_fullscreen_or_stays_windowed_without_error(big_window):
    from engine.frontend.input import WindowKey

    window = big_window
    before = window.fullscreen
    window.controls.handle(WindowKey("fullscreen"))  # headless: the system may refuse; never an error
    assert window.settings["fullscreen"] == window.fullscreen
    if window.fullscreen != before:
        window.controls.handle(WindowKey("fullscreen"))
        assert window.fullscreen == before
    window.frames.draw()
