"""Bot-run figures of ``python -m engine bench`` (group ``bot``): the default game played whole by
the ``delver`` bot, as ``sim --runs 20 --jobs 1`` plays it (#26 item 3: at most 0.3 CPU-s a run).

Seeds 0-19 (the sim's), each a whole run up to the sim's turn limit, one after another in this
process, after an untimed short run that loads the registry, the bot and the compiled kernels (what
a sim worker does once). The figure is CPU time: a run's mean (what the target names: the sim's
total over its runs), with the spread of the runs (short and long games: a seed's run is the same
on every machine) and the median beside it; then the same per turn, the game's and the bot's work
together. A sim's process start (about 1.5 CPU-s, a few hundredths of a second a run over 20) is
not in it. The runs are the sim's own (``engine.cli.tools.sim.runs.play_one``): the same outcomes
as ``docs/balance.json``'s for these seeds.
"""

from __future__ import annotations

import statistics

from engine.cli.tools.timing import cpu, spread, verdict

RUNS = 20  # seeds 0..RUNS-1: sim --runs 20's
QUICK_RUNS = 4
TARGET_S = 0.3  # CPU-s a run (#26 item 3)


def bench_figures(quick: bool = False) -> list[dict]:
    from engine.cli.tools.sim.command import DEFAULT_MAX_TURNS
    from engine.cli.tools.sim.runs import RunSpec, play_one, registry_for

    registry_for(())
    play_one(RunSpec(seed=RUNS, game=None, bot="delver", max_turns=300))  # untimed: a worker's start
    seconds, turns = [], []
    for seed in range(QUICK_RUNS if quick else RUNS):
        start = cpu()
        result = play_one(RunSpec(seed=seed, game=None, bot="delver", max_turns=DEFAULT_MAX_TURNS))
        seconds.append(cpu() - start)
        turns.append(max(1, int(result["turns"])))
    mean = statistics.fmean(seconds)
    per_turn = [s / t * 1e6 for s, t in zip(seconds, turns, strict=True)]
    run = {"group": "bot", "name": f"delver run, default game, seeds 0-{len(seconds) - 1}", "value": round(mean, 3),
           "spread": [round(v, 3) for v in spread(seconds)], "median": round(statistics.median(seconds), 3),
           "samples": len(seconds), "unit": "s", "target": f"<= {TARGET_S} s a run",
           "turns": round(statistics.fmean(turns)), "note": f"mean of {len(seconds)} runs"}
    run["verdict"] = verdict({"mean_s": mean}, {"mean_s": TARGET_S})
    turn = {"group": "bot", "name": "  per turn, the game and the bot", "samples": len(seconds), "unit": "us",
            "value": round(sum(seconds) / sum(turns) * 1e6, 1), "spread": [round(v, 1) for v in spread(per_turn)],
            "target": "a figure"}
    return [run, turn]
