"""Explore figures for ``python -m engine bench`` (the ``path`` group): what one step of auto-explore
(``o``) costs to choose, on the default game's first level at 80x43 and at 1000x1000, at the start
and after walking a while. Explore searches what the player knows (see engine.core.play.travel), so a
step on the big map should cost what the explored part costs, not the map's million cells.
CPU time; the median of the samples, with their spread.
"""

from __future__ import annotations

from engine.cli.tools.timing import cpu, summary
from engine.frontend.bench import undying_game

SIZES = ((80, 43), (1000, 1000))  # cells
WALKED = 300  # explore steps taken before the "after walking" figure


def _step_ms(game, repeats: int) -> tuple[list[float], int]:
    """CPU ms of choosing the next explore step, ``repeats`` times, and the cells the player has seen."""
    from engine.core.play.travel import Travel, next_step

    times = []
    for _ in range(repeats):
        start = cpu()
        next_step(game.api, Travel("explore"))
        times.append((cpu() - start) * 1000)
    return times, int(game.state.view.seen.sum())


def _walk(game, steps: int) -> None:
    from engine.core.play.travel import Travel, next_step
    from engine.core.turn.actions import Action, Move

    for _ in range(steps):
        step = next_step(game.api, Travel("explore"))
        if not isinstance(step, tuple | Action) or not game.take_turn(
                step if isinstance(step, Action) else Move(*step)):
            return


def bench_figures(repeats: int) -> list[dict]:
    rows = []
    for size in SIZES:
        game = undying_game(size)
        _step_ms(game, 1)  # the first call pays for the pathfinder's kernel, once
        for when in ("at the start", f"after {WALKED} steps"):
            if when != "at the start":
                _walk(game, WALKED)
            times, seen = _step_ms(game, max(5, repeats * 3))
            rows.append({"group": "path", "name": f"explore step {size[0]}x{size[1]}, {when} ({seen} cells seen)",
                         **summary(times), "unit": "ms", "target": "a figure"})
        game.close()
    return rows
