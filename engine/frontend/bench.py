"""Window figures for ``python -m engine bench``: idle cost of the on-demand loop, and turn-to-frame.

- idle: CPU seconds and frames over 5 s of the real pyglet event loop with the window open and
  no input, beside Arcade's default loop (``_dispatch_frame`` at 60 Hz) drawing the same grid.
- turn-to-frame: ms from a key press to the finished frame (``ctx.finish()``), beside the floor:
  the same number of sprites drawn bare (clear, draw, flip, finish), interleaved in one run.

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
GRID = (80, 50)  # cells: the size of the default window, map and HUD together
PRESSES = 40  # key presses per repeat of turn-to-frame


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


def _game():
    import dataclasses

    from engine.core.components import Fighter
    from engine.core.game import Game
    from engine.core.setup import default_game, load

    registry = load()
    rules = dataclasses.replace(default_game(registry), width=GRID[0], height=GRID[1])
    game = Game(registry, rules, seed=11).start()
    fighter = game.world.get(game.player, Fighter)
    fighter.max_hp = fighter.hp = 10**9  # the bench is about drawing, not about dying
    return game


def _idle(window) -> tuple[float, int, float, int]:
    """(on-demand CPU s, frames), then (Arcade default loop CPU s, frames), each over IDLE_SECONDS."""
    import pyglet

    from engine.frontend import loop

    window.frames.draw()
    frames0, cpu0 = window.frames.frames, _cpu()
    loop.run(IDLE_SECONDS)
    on_demand = (_cpu() - cpu0, window.frames.frames - frames0)

    # Arcade's default: _dispatch_frame at the update rate, drawing the same grid each time.
    drawn = [0]

    def on_draw() -> bool:
        window.clear()
        with window.camera.activate():
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


def _turn_to_frame(window, repeats: int) -> tuple[list[float], list[float], list[int]]:
    """Interleaved samples (ms): a key press to a finished frame, and the bare-sprites floor."""
    import arcade

    from engine.core.keys import DEFAULT_KEYS

    moves = [t for t, c in DEFAULT_KEYS.items() if c.startswith("move")]
    keys = random.Random(5)
    bare = arcade.SpriteList(use_spatial_hash=False)
    glyphs = [window.atlas.texture(chr(c)) for c in range(0x21, 0x7F)]
    for i in range(len(window.grid.sprites)):
        sprite = arcade.Sprite(glyphs[i % len(glyphs)])
        sprite.position = window.grid.sprites[i].position
        bare.append(sprite)
    turn, floor, cells = [], [], []
    for _ in range(repeats * PRESSES):
        # a press that changes nothing (a wall bump) draws no frame: retry until one does
        for _attempt in range(20):
            start = time.perf_counter()
            if window.press(keys.choice(moves)) and window.frames.flush():
                window.ctx.finish()
                turn.append((time.perf_counter() - start) * 1000)
                cells.append(window.grid.updated)
                break
        start = time.perf_counter()
        window.switch_to()
        window.clear()
        with window.camera.activate():
            bare.draw(pixelated=True)
        window.flip()
        window.ctx.finish()
        floor.append((time.perf_counter() - start) * 1000)
    return turn, floor, cells


def measure(repeats: int) -> list[dict]:
    game = _game()
    from engine.frontend.launch import open_window

    window = open_window(game, headless=True)
    try:
        idle_cpu, idle_frames, default_cpu, default_frames = _idle(window)
        turn, floor, cells = _turn_to_frame(window, repeats)
    finally:
        window.close()
    sprites = GRID[0] * GRID[1]
    t, f = statistics.median(turn), statistics.median(floor)
    return [
        {"name": f"window idle CPU, {IDLE_SECONDS:.0f} s on demand ({idle_frames} frames)", "value": idle_cpu,
         "unit": "s",
         "target": "< 0.05 s, 0 frames", "frames": idle_frames,
         "arcade_default_cpu": default_cpu, "arcade_default_frames": default_frames},
        {"name": f"  Arcade default loop, same {GRID[0]}x{GRID[1]} grid", "value": default_cpu, "unit": "s",
         "target": f"comparison ({default_frames} frames)", "frames": default_frames},
        {"name": f"turn to frame {GRID[0]}x{GRID[1]}", "value": t, "unit": "ms", "target": "< 1.3x floor",
         "floor": f, "ratio": t / f if f else None, "cells_changed": statistics.median(cells),
         "samples": len(turn)},
        {"name": f"  floor: {sprites} sprites drawn bare", "value": f, "unit": "ms", "target": "comparison"},
    ]


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 7)))
