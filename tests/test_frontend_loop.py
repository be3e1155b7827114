"""The on-demand loop, keys from pyglet events, and the window's bad inputs through the CLI."""

from __future__ import annotations

import json

import pytest

from engine import testing
from engine.cli.main import main

pyglet = pytest.importorskip("pyglet")
arcade = pytest.importorskip("arcade")

from pyglet.window import key  # noqa: E402

from engine.frontend import loop  # noqa: E402
from engine.frontend.input import KeyReader, Token, WindowKey, Zoom  # noqa: E402
from engine.frontend.launch import open_window  # noqa: E402

ROOM = """
    ##########
    #@.......#
    #........#
    ##########
"""


@pytest.fixture
def window(registry):
    w = open_window(testing.game_from_map(registry, ROOM), headless=True)
    yield w
    if not w.closed:
        w.close()


def test_a_key_draws_one_frame_and_idle_draws_none(window):
    clock = pyglet.clock.get_default()
    loop.run(0.3)  # let whatever the window queued at creation (expose, resize) draw its frame
    start = window.frames.frames
    loop.run(3.0)
    assert window.frames.frames == start, "idle seconds drew frames"
    # Nothing is scheduled while idle: not Arcade's frame dispatch, not pyglet's redraw.
    scheduled = [item.func for item in getattr(clock, "_schedule_interval_items", [])]
    assert window._dispatch_frame not in scheduled
    assert pyglet.app.event_loop._redraw_windows not in scheduled
    # A synthetic key press inside the real loop: exactly one frame follows.
    pyglet.clock.schedule_once(lambda dt: window.dispatch_event("on_key_press", key.L, 0), 0.1)
    pyglet.clock.schedule_once(lambda dt: window.dispatch_event("on_text", "l"), 0.1)
    loop.run(0.6)
    assert window.game.turn == 1
    assert window.frames.frames == start + 1


def test_escape_quits_the_loop(window):
    pyglet.clock.schedule_once(lambda dt: window.dispatch_event("on_key_press", key.ESCAPE, 0), 0.05)
    loop.run(5.0)
    assert window.closed and window.game.quit_requested


def test_held_key_stops_when_a_monster_comes_into_view(registry):
    # the rat is 8 cells off (seen, not noticing: its sight is 6); two steps and it wakes
    w = open_window(testing.game_from_map(registry, "#############\n#@.......r..#\n#############"), headless=True)
    try:
        w.on_key_press(key.L, 0)
        w.on_text("l")  # the press
        for _ in range(5):
            w.on_text("l")  # OS auto-repeat: text without a key press
        assert w.game.turn == 2 and w.controls.repeat_blocked
        w.on_key_release(key.L, 0)
        w.on_key_press(key.L, 0)
        w.on_text("l")  # a new press walks again
        assert w.game.turn == 3
    finally:
        w.close()


def test_key_reader_translates_pyglet_events_to_tokens():
    r = KeyReader()
    assert r.key_press(key.R, key.MOD_SHIFT) is None and r.text("R") == Token("R")
    assert r.text("R") == Token("R", repeat=True)
    assert r.key_press(key.LEFT, 0) is None and r.text_motion(key.MOTION_LEFT) == Token("left")
    assert r.text_motion(key.MOTION_LEFT) == Token("left", repeat=True)
    assert r.key_press(key.NUM_5, 0) == Token("kp5") and r.text("5") is None  # numpad text swallowed
    assert r.text("5") == Token("kp5", repeat=True)  # held numpad key repeats as itself
    r.key_release(key.NUM_5, 0)
    assert r.key_press(key.NUM_LEFT, 0) == Token("kp4")  # Num Lock off
    assert r.key_press(key.ESCAPE, 0) == Token("esc")
    assert r.key_press(key.PERIOD, key.MOD_SHIFT) is None and r.text(">") == Token(">")
    assert r.key_press(key.EQUAL, key.MOD_CTRL) == Zoom(+1)
    assert r.key_press(key.MINUS, key.MOD_CTRL) == Zoom(-1)
    assert r.key_press(key.F2, 0) == WindowKey("tileset") and r.key_press(key.F11, 0) == WindowKey("fullscreen")


def test_headless_shot_writes_a_png_and_dumps(tmp_path, capsys):
    shot = tmp_path / "look.png"
    assert main(["--headless", "--seed", "3", "--keys", "l l", "--shot", str(shot), "--dump", "json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["turn"] >= 1
    from PIL import Image

    from engine.core.play.setup import Setup, new_game
    from engine.frontend.layout import natural_size

    rules = new_game(Setup(seed=3)).rules
    with Image.open(shot) as image:
        assert image.format == "PNG" and image.size == natural_size(rules, (16, 16), 1)
        assert image.getbbox() is not None  # something was drawn


@pytest.mark.parametrize("keys", ["esc", "l l esc"])
def test_a_shot_after_keys_that_quit_is_of_the_frame_the_window_closed_on(keys, tmp_path, home, capsys):
    """Escape saves and quits, closing the window: the shot is still written, of the last frame."""
    shot = tmp_path / "look.png"
    assert main(["--headless", "--seed", "3", "--keys", keys, "--shot", str(shot), "--dump", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["turn"] == keys.count("l")
    from PIL import Image

    with Image.open(shot) as image:
        assert image.format == "PNG" and image.getbbox() is not None
    assert (home / "run.json").exists()  # the quit saved, as without --shot


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_no_display_without_headless_is_one_line(monkeypatch, capsys):
    for name in ("ARCADE_HEADLESS", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["--seed", "1"]) == 2
    err = _one_line_error(capsys)
    assert "no display" in err and "--headless" in err


@pytest.mark.parametrize("where", ["/nonexistent/folder/look.png", "{tmp}"])
def test_unwritable_shot_is_one_line(where, tmp_path, capsys):
    assert main(["--headless", "--seed", "1", "--shot", where.format(tmp=tmp_path)]) == 2
    err = _one_line_error(capsys)
    assert "--shot" in err


def test_window_creation_failure_is_one_line(monkeypatch, capsys):
    import engine.frontend.window as window_module

    def refuse(*args, **kwargs):
        raise RuntimeError("EGL: no device\nsecond line")

    monkeypatch.setattr(window_module, "GameWindow", refuse)
    assert main(["--headless", "--seed", "1", "--shot", "/tmp/undercroft-never.png"]) == 2
    err = _one_line_error(capsys)
    assert "cannot open a window" in err and "EGL: no device second line" in err


def test_collecting_an_old_window_leaves_the_new_one_active(registry):
    import gc

    old = open_window(testing.game_from_map(registry, ROOM), headless=True)
    old.close()
    new = open_window(testing.game_from_map(registry, ROOM), headless=True)
    try:
        del old
        gc.collect()  # pyglet's __del__ closes the old window again
        assert arcade.get_window() is new
        new.frames.draw()
    finally:
        new.close()
