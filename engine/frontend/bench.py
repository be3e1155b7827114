"""Window figures for ``python -m engine bench``: idle cost of the on-demand loop, and key-to-frame.

- idle: CPU seconds and frames over 5 s of the real pyglet event loop with the window open and
  no input, beside Arcade's default loop (``_dispatch_frame`` at 60 Hz) drawing the same map.
- animation: a key's shot and hit (the player's key, animations on as by default) played in the
  real loop: the frames it draws (bounded: one a frame of the animation, and the clean last one),
  how long it lasts, and the frames of 1 s idle after it (0: the loop sleeps again).
- key-to-frame: CPU ms from a key press to the finished frame (``ctx.finish()``) on maps of
  80x43, 250x250 and 1000x1000 cells in the same 1280x800 window, alternated in blocks in one run,
  so the ratio 1000x1000 / 80x43 says whether a frame's cost depends on the map's size (it should
  not: only the viewport is drawn). Each block is ``BLOCK`` random moves (the camera mostly still,
  as in play) and ``CAMERA`` moves whose frame moves the camera: the view is first placed (untimed)
  so that the player stands at the edge of its dead zone, then the key steps across it and the
  view recentres (every sprite re-pointed). The main row is every key; rows beside it split the
  keys whose frame kept the camera still from those that moved it. Beside them the floor: the
  viewport's number of sprites drawn bare.

CPU time is the process's (``time.process_time``): with EGL and Mesa's software renderer the
drawing runs on the renderer's threads, which it counts. A ratio pairs the blocks of the same
round (the median of each block), with the spread of those ratios. The measurements run in a
child process with ``ARCADE_HEADLESS=1`` (EGL): the window library is chosen when pyglet is first
imported, and the caller may already have imported it differently.
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
PRESSES = 40  # random key presses per map per repeat of key-to-frame, in blocks of BLOCK
BLOCK = 8  # random presses on one map before the next map's turn: small blocks, so drift hits all alike
CAMERA = 2  # presses per block whose frame moves the camera (the player steps across the dead zone)
STEPS = {"h": (-1, 0), "l": (1, 0), "k": (0, -1), "j": (0, 1), "y": (-1, -1), "u": (1, -1), "b": (-1, 1),
         "n": (1, 1)}  # the default keys' moves


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


def _animation(window) -> tuple[int, float, int]:
    """(frames drawn, seconds it played, frames in 1 s idle after): a shot from 6 cells off
    and its hit on the player, as an archer's key hands them back."""
    from engine.core.model.events import Hurt, Shot
    from engine.core.play.session import Outcome
    from engine.frontend import loop

    px, py = window.game.position(window.game.player)
    events = (Shot((px + 6, py), (px, py)), Hurt(window.game.player, 1, at=(px, py)))
    window.frames.draw()
    frames0, start = window.frames.frames, time.perf_counter()
    window.heard_outcome(Outcome(changed=True, events=events))
    while window.animations.frames and time.perf_counter() - start < 2:
        loop.run(0.005)
    lasted = time.perf_counter() - start
    loop.run(0.05)  # the clean frame after the last
    drawn = window.frames.frames - frames0
    idle0 = window.frames.frames
    loop.run(1.0)
    return drawn, lasted, window.frames.frames - idle0


def _press_to_frame(window, keys: random.Random, moves: list[str]) -> tuple[float, bool, int] | None:
    """One key press to a finished frame: (CPU ms, whether the camera moved, sprites touched)."""
    for _attempt in range(20):  # a press that changes nothing (a wall bump) draws no frame: retry
        got = _press(window, keys.choice(moves))
        if got is not None:
            return got
    return None


def _press(window, token: str) -> tuple[float, bool, int] | None:
    origin = window.map_view.origin
    start = time.process_time()
    if window.press(token) and window.frames.flush():
        window.ctx.finish()
        return (time.process_time() - start) * 1000, window.map_view.origin != origin, window.grid.updated
    return None


def _camera_press(window, keys: random.Random) -> tuple[float, bool, int] | None:
    """A key press whose frame moves the camera: the view placed (untimed, with a frame drawn) so
    that the player stands at the inner edge of its dead zone, the key stepping across. None when
    no step can (the whole map shown, the player near the map's edges, or every such step blocked)."""
    view = window.map_view
    cols, rows = view.shape
    width, height = view.map_size
    if width <= cols and height <= rows:
        return None
    px, py = window.game.position(window.game.player)
    placed = {t: (_edge(px, dx, cols, width), _edge(py, dy, rows, height)) for t, (dx, dy) in sorted(STEPS.items())}
    tokens = [t for t, (x0, y0) in placed.items() if x0 is not None and y0 is not None]
    keys.shuffle(tokens)
    for token in tokens:  # a step into a wall or a monster moves nobody: try another way
        view.origin = placed[token]
        window.frames.draw()  # the placed view's own frame, untimed
        window.ctx.finish()
        got = _press(window, token)
        if got is not None and got[1]:
            return got
    return None


def _edge(at: int, step: int, span: int, size: int) -> int | None:
    """The view's first cell along one axis that puts ``at`` on the inner edge of the dead zone
    toward ``step`` (so that one step across recentres the view), or centred when ``step`` is 0;
    None when the map's edge is too near for a step to move the view."""
    edge = max(1, span // 4)
    if step == 0:
        return max(0, min(size - span, at - span // 2))
    start = at - edge if step < 0 else at - (span - edge) + 1
    if start <= 0 or start + span >= size:  # no more map beyond (or the map's edge): the view would not move
        return None
    return start


def _floor(window, bare) -> float:
    start = time.process_time()
    window.switch_to()
    window.clear()
    with window.grid.camera.activate():
        bare.draw(pixelated=True)
    window.flip()
    window.ctx.finish()
    return (time.process_time() - start) * 1000


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
    """Samples per map size, alternated in blocks: one window (Arcade draws in one), playing each
    map's game in turn. Returns, per map, (every key's ms by block, still-camera ms, moving-camera
    ms, floor ms, sprites touched), and the view shapes."""
    from engine.core.turn.keys import DEFAULT_KEYS

    moves = [t for t, c in DEFAULT_KEYS.items() if c.startswith("move")]
    keys = random.Random(5)
    samples: list[tuple[list, list, list, list, list]] = [([], [], [], [], []) for _ in games]
    shapes = []
    blocks = PRESSES // BLOCK
    order = list(range(len(games)))
    for r in range(repeats * blocks):
        for i in order[r % len(order):] + order[:r % len(order)]:  # the order turned each round
            game = games[i]
            window.set_game(game)
            window.frames.draw()  # the switch's own frame (every sprite re-pointed) is not a key's
            bare = _bare_sprites(window)
            if r == 0:
                shapes.append((i, window.map_view.shape))
            every, still, moved, floor, cells = samples[i]
            block = []
            for k in range(BLOCK + CAMERA):
                got = _press_to_frame(window, keys, moves) if k < BLOCK else _camera_press(window, keys)
                if got is not None:
                    block.append(got[0])
                    (moved if got[1] else still).append(got[0])
                    cells.append(got[2])
                floor.append(_floor(window, bare))
            every.append(block)
    return samples, [shape for _, shape in sorted(shapes)]


def _stats(samples: list[float]) -> dict:
    ordered = sorted(samples)
    q = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) >= 4 else [ordered[0], 0, ordered[-1]]
    return {"value": round(statistics.median(ordered), 3), "spread": [round(ordered[0], 3), round(ordered[-1], 3)],
            "iqr": [round(q[0], 3), round(q[-1], 3)], "samples": len(ordered)}


def measure(repeats: int) -> list[dict]:
    games = [undying_game(size) for size in MAPS]
    window = _window(games[0])
    try:
        idle_cpu, idle_frames, default_cpu, default_frames = _idle(window)
        animated, lasted, after = _animation(window)
        samples, shapes = _key_to_frame(window, games, repeats)
    finally:
        window.close()
    rows = [
        {"group": "window", "name": f"window idle CPU, {IDLE_SECONDS:.0f} s on demand ({idle_frames} frames)",
         "value": idle_cpu, "unit": "s", "target": "< 0.05 s, 0 frames", "frames": idle_frames,
         "arcade_default_cpu": default_cpu, "arcade_default_frames": default_frames,
         "verdict": "met" if idle_cpu < 0.05 and idle_frames == 0 else
         f"missed: {idle_cpu:.3f} s, {idle_frames} frames"},
        {"group": "window", "name": f"  Arcade default loop, same {MAPS[0][0]}x{MAPS[0][1]} map", "value": default_cpu,
         "unit": "s", "target": f"comparison ({default_frames} frames)", "frames": default_frames},
    ]
    from engine.frontend.animations import FRAME_SECONDS, KEY_FRAMES

    rows += [
        {"group": "window", "name": "animation: a shot and its hit, frames drawn", "value": animated, "unit": "frames",
         "target": f"<= {KEY_FRAMES + 1} (its frames, then one clean)", "lasted_s": round(lasted, 3),
         "verdict": "met" if 0 < animated <= KEY_FRAMES + 1 else f"missed: {animated} frames"},
        {"group": "window", "name": "  idle 1 s after it", "value": after, "unit": "frames", "target": "0",
         "verdict": "met" if after == 0 else f"missed: {after} frames"},
        {"group": "window", "name": "  how long it played", "value": round(lasted, 3), "unit": "s",
         "target": f"<= {KEY_FRAMES * FRAME_SECONDS:.2f} s and a frame's lateness"},
    ]
    base_blocks = [statistics.median(b) for b in samples[0][0] if b]
    for (width, height), window_samples, (cols, rows_) in zip(MAPS, samples, shapes, strict=True):
        every, still, moved, floor, cells = window_samples
        keys = [ms for block in every for ms in block]
        first = (width, height) == MAPS[0]
        row = {"group": "window", "name": f"key to frame {width}x{height} map ({cols}x{rows_} cells shown), every key",
               **_stats(keys), "unit": "ms", "target": "comparison" if first else
               f"< 1.3x the {MAPS[0][0]}x{MAPS[0][1]} figure", "floor": statistics.median(floor),
               "cells_changed": statistics.median(cells),
               "note": f"{len(moved)} of {len(keys)} keys moved the camera"}
        if not first:
            ratios = [statistics.median(b) / base for b, base in zip(every, base_blocks, strict=False) if b and base]
            if ratios:
                row["ratio_to_smallest"] = round(statistics.median(ratios), 2)
                row["ratio_spread"] = [round(min(ratios), 2), round(max(ratios), 2)]
                row["verdict"] = ("met" if row["ratio_to_smallest"] < 1.3 else
                                  f"missed: {row['ratio_to_smallest']:g}x the {MAPS[0][0]}x{MAPS[0][1]} figure")
        rows.append(row)
        for label, part in (("the camera still", still), ("the camera moved (every sprite re-pointed)", moved)):
            if part:
                rows.append({"group": "window", "name": f"  keys whose frame kept {label}" if "still" in label
                             else f"  keys whose frame {label}", **_stats(part), "unit": "ms", "target": "comparison"})
        rows.append({"group": "window", "name": f"  floor: all {cols * rows_} view sprites drawn bare",
                     **_stats(floor), "unit": "ms", "target": "comparison"})
    return rows


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 7)))
