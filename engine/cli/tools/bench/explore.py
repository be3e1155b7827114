"""Explore figures for ``python -m engine bench`` (the ``path`` group): what one step of auto-explore
(``o``) costs to choose, on the default game's first level at 80x43 and at 1000x1000, at the start
and after walking a while. Explore searches what the player knows (see engine.core.play.travel), so a
step on the big map should cost what the explored part costs, not the map's million cells.
"""

from __future__ import annotations

import statistics
import time

from engine.frontend.bench import undying_game

SIZES = ((80, 43), (1000, 1000))  # cells
WALKED = 300  # explore steps taken before the "after walking" figure


def _step_ms(game, repeats: int) -> tuple[float, int]:
    """Median ms of choosing the next explore step, and the cells the player has seen."""
    from engine.core.play.travel import Travel, next_step

    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        next_step(game.api, Travel("explore"))
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), int(game.state.view.seen.sum())


def _walk(game, steps: int) -> None:
    from engine.core.play.travel import Travel, next_step
    from engine.core.turn.actions import Move

    for _ in range(steps):
        step = next_step(game.api, Travel("explore"))
        if not isinstance(step, tuple) or not game.take_turn(Move(*step)):
            return


def bench_figures(repeats: int) -> list[dict]:
    rows = []
    for size in SIZES:
        game = undying_game(size)
        _step_ms(game, 1)  # the first call pays for the pathfinder's kernel, once
        for when in ("at the start", f"after {WALKED} steps"):
            if when != "at the start":
                _walk(game, WALKED)
            ms, seen = _step_ms(game, max(5, repeats * 3))
            rows.append({"name": f"explore step {size[0]}x{size[1]}, {when} ({seen} cells seen)", "value": ms,
                         "unit": "ms", "target": "a figure"})
        game.close()
    return rows
