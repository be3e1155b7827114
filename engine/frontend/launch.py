"""``python -m engine`` with a window (or ``--headless --shot``): build the game, open the window,
play ``--keys``, write ``--shot``, run the on-demand loop, ``--dump`` the end state.

Every check that can fail on the player's input runs before anything is drawn, and fails as a
:class:`UsageError` (one line, exit status 2): no display, a screenshot path that can't be written,
a window the system refuses to create.
"""

from __future__ import annotations

import dataclasses
import io
import os
import sys
from pathlib import Path

from engine.core import gchold
from engine.core.errors import UsageError
from engine.core.play.setup import Setup, load, prepare
from engine.persist import disk, files, keeper

HEADLESS_HINT = "use --headless (with --shot FILE.png to render a frame offscreen)"


def check_display(headless: bool) -> None:
    """On X11/Wayland systems a window needs DISPLAY or WAYLAND_DISPLAY: say so before trying."""
    if headless or os.environ.get("ARCADE_HEADLESS") or sys.platform in ("win32", "cygwin", "darwin"):
        return
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise UsageError(f"no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set): {HEADLESS_HINT}")


def check_shot(shot: str) -> Path:
    """The screenshot must be writable where asked, before a frame is rendered for it."""
    path = Path(shot)
    folder = path.parent  # "." for a bare name: a parent is never empty
    if path.is_dir():
        raise UsageError(f"--shot {shot}: is a folder, not a file")
    if not folder.is_dir():
        raise UsageError(f"--shot {shot}: no such folder {str(folder)!r}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"--shot {shot}: cannot write there (permission denied)")
    special = files.not_a_file(path)  # the shot replaces a file: never a FIFO, nor a device
    if special:
        raise UsageError(f"--shot {shot}: {special} (expected a PNG file to write)")
    return path


def window_settings():  # -> Settings
    """What the window remembers (size, zoom, fullscreen, mute, tileset), kept in the profile's
    settings. The profile holds scalars only: the window's size is kept as width and height."""
    from engine.frontend.settings import Settings
    from engine.persist import profile

    def load() -> dict:
        values = profile.settings()
        width, height = values.pop("window_width", None), values.pop("window_height", None)
        if width is not None and height is not None:
            values["window_size"] = [width, height]
        return values

    def save(**values) -> None:
        if "window_size" in values:
            size = values.pop("window_size")
            values["window_width"], values["window_height"] = size if size is not None else (None, None)
        profile.update_settings(**values)

    return Settings(load=load, save=save)


def check_tileset(registry, spec: str | None):
    """``--tileset NAME`` or ``--tileset FILE.png`` as (name, file), checked before any window
    opens: a bad name or file is one line (UsageError)."""
    from engine.kit.tiles import TilesetError

    try:
        from engine.frontend.tiles import resolve

        return resolve(registry.tilesets, spec)
    except TilesetError as e:
        raise UsageError(str(e)) from None


def open_window(game, *, headless: bool, **options):  # -> GameWindow; imported late: it imports arcade
    if headless:
        # must precede the first import of arcade/pyglet: it selects pyglet's EGL headless window
        os.environ["ARCADE_HEADLESS"] = "1"
    try:
        import pyglet

        from engine.frontend.window import GameWindow

        # pyglet.app.run() switches Window events to immediate dispatch for good; a window made
        # after a loop has run (tests, tools) would then get its first resize before its GL state
        # exists. Queue them during creation, as pyglet does before any loop runs.
        queued = pyglet.window.Window._enable_event_queue
        pyglet.window.Window._enable_event_queue = True
        try:
            return GameWindow(game, visible=not headless, **options)
        finally:
            pyglet.window.Window._enable_event_queue = queued
    except Exception as e:  # pyglet/EGL/X raise many types; every one means "no window here"
        reason = " ".join(str(e).split()) or type(e).__name__
        raise UsageError(f"cannot open a window ({reason[:160]}): {HEADLESS_HINT}") from None


SHOT_BAND = 64  # rows read from the frame at a time


def save_shot(window, path: Path) -> None:
    """Read the frame just drawn (before the flip, so it is the back buffer we drew) to a PNG. Read
    in bands of rows, each flipped into place: GL's rows run bottom-up, and reading the whole frame
    at once holds it three times (GL's buffer, its bytes, the image): 15 MB at 1728x972, not 5."""
    from PIL import Image, ImageOps

    width, height = window.get_framebuffer_size()
    image = Image.new("RGB", (width, height))
    for y in range(0, height, SHOT_BAND):
        rows = min(SHOT_BAND, height - y)
        band = Image.frombytes("RGB", (width, rows), window.ctx.screen.read(viewport=(0, y, width, rows)))
        image.paste(ImageOps.flip(band), (0, height - y - rows))
    out = io.BytesIO()
    image.save(out, format="PNG")
    disk.write_atomic(path, out.getvalue())  # a full disk leaves the old file, not half a PNG


def shoot(window, path: Path, failed: list[str]) -> None:
    """:func:`save_shot`; a shot that cannot be written (a full disk) is kept in ``failed``, to be
    said once the session has ended with its save, not as a traceback that loses the run."""
    try:
        save_shot(window, path)
    except OSError as e:
        failed.append(e.strerror or str(e))


def run_window(
    setup: Setup,
    keys: list[str],
    *,
    headless: bool,
    shot: str | None,
    seconds: float | None,
    dump: str | None,
    resume: bool,
    record: str | None = None,
    tileset: str | None = None,
) -> int:
    """Play in a window (``headless``: offscreen, for ``--shot``). ``resume``: the command line asks
    for nothing new, so a saved run may be resumed (a real window opens on the title screen, which
    offers it, a new run and the presets)."""
    check_display(headless)
    shot_path = check_shot(shot) if shot else None
    if seconds is not None and not seconds >= 0:  # nan too: no time is ever past it
        raise UsageError(f"--seconds {seconds}: expected a number of seconds >= 0")
    registry = load(setup.plugins_dirs)
    if headless:  # must precede the first import of arcade (tileset checks import it)
        os.environ["ARCADE_HEADLESS"] = "1"
    from engine.frontend import loop  # imports pyglet: after ARCADE_HEADLESS is decided

    if not headless:  # before the slot is claimed: from then on a stop signal ends the session with a save
        loop.stop_on_signals()
    tileset_name, tileset_file = check_tileset(registry, tileset)
    window_options = {"settings": window_settings(), "tilesets": registry.tilesets,
                      "tileset": tileset_name if tileset else None, "tileset_file": tileset_file}
    # the save slot is claimed before the save is read, and held while the title screen shows it
    slot = keeper.claim()
    if not resume or headless:
        # headless (--shot) follows the headless rule: resume unless the command line says new
        # a new run's first writes (its first save point, the profile's count) wait for its first
        # frame: until a key is played there is nothing a kill could lose (the slot is claimed now)
        game = keeper.open_game(setup, registry, choice="continue" if resume else "new", record=record, slot=slot,
                                settle_later=True)
        window = open_window(game, headless=headless, **window_options)
    else:
        # nothing asked on the command line: the title screen offers the saved run (only new runs
        # when another window plays it, or the folder cannot be written), a new run and the
        # presets. Behind it the window holds an inert game: it sizes the window, and is never
        # started (it writes nothing)
        from engine.frontend.title import Title, new_run_preset  # imports arcade: after ARCADE_HEADLESS

        inert = prepare(setup, registry)
        saved = keeper.saved_run(slot, registry)
        default = new_run_preset(saved, list(registry.games), inert.rules.name)  # a bunyip save: bunyip

        def choose(choice: str):
            if choice == "new" and default != inert.rules.name:
                choice = f"game:{default}"
            if choice.startswith("game:"):
                chosen = dataclasses.replace(setup, game=choice.removeprefix("game:"))
                return keeper.open_game(chosen, registry, choice="new", record=record, slot=slot)
            return keeper.open_game(setup, registry, choice=choice, record=record, slot=slot)

        title = Title(saved=saved, presets=presets(registry), default=default)
        window = open_window(inert, headless=headless, title_screen=title, choose=choose, **window_options)
    failed = False
    shot_failed: list[str] = []
    def last_frame() -> None:
        window.frames.cancel()  # the keys' frames fold into one frame, drawn now
        if shot_path is not None:
            window.frames.after_draw.append(lambda: shoot(window, shot_path, shot_failed))
        window.frames.draw()

    # a key that quits closes the window: the shot is of the frame it closes on
    window.last_frame = last_frame if shot_path is not None else None
    try:
        for token in keys:
            window.press(token)
            if window.closed or window.failure is not None or loop.stop_requested():
                break
        if not window.closed:
            window.last_frame = None
            last_frame()
        gchold.release()  # the first frame is drawn: the collector on again (engine.core.gchold)
        if window.failure is None:  # a plugin that failed mid-key: the last save point stands
            keeper.settle(window.game)  # the first frame is drawn: what open_game put off is written
        if not headless and not window.closed:
            loop.run(seconds)
    except BaseException:
        failed = True  # perhaps mid-turn: the last save point stands
        raise
    finally:
        if not window.closed:
            window.close()
        game = window.game
        # a failed game (a chosen plugin's failure) ended mid-turn perhaps: the last save point stands
        keeper.close(game, failed=failed or window.failure is not None)
    if window.failure is not None:
        raise window.failure
    if shot_failed:  # said after the session ended as it should, its save written
        raise UsageError(f"--shot {shot}: cannot write it ({shot_failed[0]})")
    if dump == "json" and game.state is not None:  # quit on the title screen: no run to dump
        from engine.core.play.snapshot import dumps

        print(dumps(game))
    return 130 if loop.interrupted() else 0  # Ctrl-C: saved, and said as an interruption (128 + SIGINT)


def presets(registry) -> list[tuple[str, str]]:
    """The registered presets as (name, summary), the default one first, then by name."""
    games = registry.games
    return sorted(((name, rules.summary) for name, rules in games.items()),
                  key=lambda pair: (not games[pair[0]].default, pair[0]))
