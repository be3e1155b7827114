"""Window figures for ``python -m engine bench``: idle cost of the on-demand loop, and key-to-frame.

- idle: CPU seconds and frames over 5 s of the real pyglet event loop with the window open and
  no input, beside Arcade's default loop (``_dispatch_frame`` at 60 Hz) drawing the same map.
- key-to-frame: ms from a key press to the finished frame (``ctx.finish()``) on maps of 80x43,
  250x250 and 1000x1000 cells in the same 1280x800 window, interleaved in one run, so the ratio
  1000x1000 / 80x43 says whether a frame's cost depends on the map's size (it should not: only the
  viewport is drawn). Beside them the floor: the viewport's number of sprites drawn bare, and a
  frame in which the camera recentres (every sprite re-pointed; rare, with the dead zone).

The measurements run in a child process with ``ARCADE_HEADLESS=1`` (EGL): the window library is
chosen when pyglet is first imported, and the caller may already have imported it differently.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

IDLE_SECONDS = 5.0
WINDOW = [1280, 800]  # window units: the same window for every map size
MAPS = ((80, 43), (250, 250), (1000, 1000))  # cells
PRESSES = 40  # key presses per map per repeat of key-to-frame, in blocks of BLOCK
BLOCK = 8  # presses on one map before the next map's turn: small blocks, so drift hits all alike
RECENTRED = 4  # frames per map per repeat in which the view moves by half its width


def bench_figures(repeats: int = 7) -> list[dict]:
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "engine.frontend.bench", str(repeats)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    if proc.returncode != 0:
        reason = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return [{"name": "window (could not run)", "value": float("nan"), "unit": "", "target": reason}]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def undying_game(size: tuple[int, int]):
    """The default game (seed 11) on a ``size`` map, its player unkillable: the benches time
    drawing and choosing steps, not dying."""
    import dataclasses

    from engine.core.model.components import Fighter
    from engine.core.play.setup import default_game, load
    from engine.core.turn.game import Game

    registry = load()
    rules = dataclasses.replace(default_game(registry), width=size[0], height=size[1])
    game = Game(registry, rules, seed=11).start()
    fighter = game.world.get(game.player, Fighter)
    fighter.max_hp = fighter.hp = 10**9
    return game


def _window(game):
    from engine.frontend.launch import open_window
    from engine.frontend.settings import Settings

    settings = Settings({"window_size": WINDOW, "muted": True})
    return open_window(game, headless=True, settings=settings)


def _idle(window) -> tuple[float, int, float, int]:
    """(on-demand CPU s, frames), then (Arcade default loop CPU s, frames), each over IDLE_SECONDS."""
    import pyglet

    from engine.frontend import loop

    window.frames.draw()
    frames0, cpu0 = window.frames.frames, _cpu()
    loop.run(IDLE_SECONDS)
    on_demand = (_cpu() - cpu0, window.frames.frames - frames0)

    # Arcade's default: _dispatch_frame at the update rate, drawing the same map each time.
    drawn = [0]

    def on_draw() -> bool:
        window.clear()
        window.grid.draw()
        drawn[0] += 1
        return True  # handled: the window's own on_draw does not run after it

    window.push_handlers(on_draw=on_draw)  # shadows the window's own on_draw for this phase
    pyglet.clock.schedule_interval(window._dispatch_frame, 1 / 60)
    cpu0 = _cpu()
    loop.run(IDLE_SECONDS)
    default = (_cpu() - cpu0, drawn[0])
    pyglet.clock.unschedule(window._dispatch_frame)
    window.pop_handlers()
    return (*on_demand, *default)


def _press_to_frame(window, keys: random.Random, moves: list[str]) -> tuple[float, bool, int] | None:
    """One key press to a finished frame: (ms, whether the camera recentred, sprites touched)."""
    for _attempt in range(20):  # a press that changes nothing (a wall bump) draws no frame: retry
        origin = window.map_view.origin
        start = time.perf_counter()
        if window.press(keys.choice(moves)) and window.frames.flush():
            window.ctx.finish()
            return (time.perf_counter() - start) * 1000, window.map_view.origin != origin, window.grid.updated
    return None


def _floor(window, bare) -> float:
    start = time.perf_counter()
    window.switch_to()
    window.clear()
    with window.grid.camera.activate():
        bare.draw(pixelated=True)
    window.flip()
    window.ctx.finish()
    return (time.perf_counter() - start) * 1000


def _bare_sprites(window):
    import arcade

    bare = arcade.SpriteList(use_spatial_hash=False)
    glyphs = [window.textures.atlas.texture(chr(c)) for c in range(0x21, 0x7F)]
    for i, sprite in enumerate(window.grid.sprites):
        copy = arcade.Sprite(glyphs[i % len(glyphs)], scale=sprite.scale_x)
        copy.position = sprite.position
        bare.append(copy)
    return bare


def _key_to_frame(window, games: list, repeats: int) -> tuple[list, list]:
    """Samples per map size, interleaved: one window (Arcade draws in one), playing each map's game
    in turn. Returns [(still frames ms, recentring frames ms, floor ms, cells)] and the view shapes."""
    from engine.core.turn.keys import DEFAULT_KEYS

    moves = [t for t, c in DEFAULT_KEYS.items() if c.startswith("move")]
    keys = random.Random(5)
    samples: list[tuple[list, list, list, list]] = [([], [], [], []) for _ in games]
    shapes = []
    blocks = PRESSES // BLOCK
    for r in range(repeats * blocks):
        for i, game in enumerate(games):
            window.set_game(game)
            window.frames.draw()  # the switch's own frame (every sprite re-pointed) is not a key's
            bare = _bare_sprites(window)
            if r == 0:
                shapes.append(window.map_view.shape)
            still, moved, floor, cells = samples[i]
            for _ in range(BLOCK):
                got = _press_to_frame(window, keys, moves)
                if got is not None:
                    (moved if got[1] else still).append(got[0])
                    cells.append(got[2])
                floor.append(_floor(window, bare))
            if r % blocks == 0:
                moved.extend(_recentred(window, RECENTRED))
    return samples, shapes


def _recentred(window, count: int) -> list[float]:
    """Frames in which the view recentres (every sprite re-pointed), as when the player walks into
    the view's outer quarter: the view is moved by half its width, as the dead zone would."""
    out = []
    cols, rows = window.map_view.shape
    width, height = window.map_view.map_size
    if width <= cols and height <= rows:
        return out  # the whole map fits: the view never moves
    for k in range(count):
        x0, y0 = window.map_view.origin
        step = cols // 2 if k % 2 == 0 else -(cols // 2)
        start = time.perf_counter()
        window.map_view.origin = window.map_view._clamp(x0 + step, y0)
        window.grid.place(window.map_view)
        ys, xs = window.map_view.window()
        window.switch_to()
        window.clear()
        from engine.frontend.compose import compose

        window.grid.update(compose(window.game, ys, xs, window.tables, window.look, window.names,
                                   window.wall_view()))
        window.grid.draw()
        window.flip()
        window.ctx.finish()
        out.append((time.perf_counter() - start) * 1000)
    window.map_view.centre_on(*window.game.position(window.game.player))
    return out


def measure(repeats: int) -> list[dict]:
    games = [undying_game(size) for size in MAPS]
    window = _window(games[0])
    try:
        idle_cpu, idle_frames, default_cpu, default_frames = _idle(window)
        samples, shapes = _key_to_frame(window, games, repeats)
    finally:
        window.close()
    rows = [
        {"name": f"window idle CPU, {IDLE_SECONDS:.0f} s on demand ({idle_frames} frames)", "value": idle_cpu,
         "unit": "s", "target": "< 0.05 s, 0 frames", "frames": idle_frames,
         "arcade_default_cpu": default_cpu, "arcade_default_frames": default_frames},
        {"name": f"  Arcade default loop, same {MAPS[0][0]}x{MAPS[0][1]} map", "value": default_cpu, "unit": "s",
         "target": f"comparison ({default_frames} frames)", "frames": default_frames},
    ]
    base = None
    for (width, height), window_samples, (cols, rows_) in zip(MAPS, samples, shapes, strict=True):
        still, moved, floor, cells = window_samples
        every = still
        t = statistics.median(every)
        base = base or t
        ratio = t / base
        target = "comparison" if (width, height) == MAPS[0] else f"< 1.3x the {MAPS[0][0]}x{MAPS[0][1]} figure"
        rows.append({"name": f"key to frame {width}x{height} map ({cols}x{rows_} cells shown)", "value": t,
                     "unit": "ms", "target": target, "ratio_to_smallest": ratio,
                     "floor": statistics.median(floor), "cells_changed": statistics.median(cells),
                     "samples": len(every)})
        if moved:
            rows.append({"name": f"  a frame that recentres the view (all {cols * rows_} cells re-pointed)",
                         "value": statistics.median(moved), "unit": "ms", "target": "comparison",
                         "samples": len(moved)})
        rows.append({"name": f"  floor: all {cols * rows_} view sprites drawn bare", "value": statistics.median(floor),
                     "unit": "ms", "target": "comparison"})
    return rows


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 7)))
