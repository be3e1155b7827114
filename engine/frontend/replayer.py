"""A replay in the window: ``--shot`` plays every key at once and renders the last frame offscreen;
otherwise a window presses ``speed`` keys per second, then stays open for the player to look at."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.errors import UsageError
from engine.persist import replay

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry
    from engine.core.turn.game import Game


def play_in_window(data: dict[str, Any], registry: Registry, *, shot: str | None, speed: float | None,
                   seconds: float | None = None) -> Game:
    from engine.frontend import loop
    from engine.frontend.launch import check_display, check_shot, open_window, shoot

    check_display(headless=shot is not None)
    shot_path = check_shot(shot) if shot else None
    game = replay.build(data, registry)
    window = open_window(game, headless=shot is not None)
    keys = iter(data["keys"])
    shot_failed: list[str] = []

    def last_frame() -> None:
        window.frames.cancel()  # the keys' frames fold into one frame, drawn now
        if shot_path is not None:
            window.frames.after_draw.append(lambda: shoot(window, shot_path, shot_failed))
        window.frames.draw()

    try:
        if speed is None:
            # a replay that ends with the quit key closes the window: its shot is of the frame it
            # closes on, as play's --shot after keys that quit
            window.last_frame = last_frame
            for token in keys:
                window.press(token)
                if window.closed:  # the replay's quit key closed the window, as the run's did
                    break
            if not window.closed:
                window.last_frame = None
                last_frame()
        else:
            import pyglet

            def step(_dt: float) -> None:
                token = next(keys, None)
                if token is None or window.closed:
                    pyglet.clock.unschedule(step)
                    return
                window.press(token)

            pyglet.clock.schedule_interval(step, 1.0 / speed)
            window.frames.draw()
            loop.run(seconds)
    finally:
        if not window.closed:
            window.close()
    if shot_failed:
        raise UsageError(f"--shot {shot}: cannot write it ({shot_failed[0]})")
    return game
