"""What ``sim`` makes of its runs: the summary (the same dict for the table and ``--json``), the
table, and ``--plot``'s histograms (matplotlib, the optional extra ``plot``).

Everything here is a function of the runs sorted by seed, and holds no timing: the same runs give
the same summary, byte for byte, whatever played them.
"""

from __future__ import annotations

import importlib.util
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

MISSING_PLOT = "sim: --plot needs matplotlib: pip install 'undercroft[plot]'"
BAR = 30  # characters of the longest bar in the table


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Outcomes, wins, the deepest depth reached, turns and causes of death over ``runs``."""
    played = [r for r in runs if r["outcome"] != "crashed"]
    turns = sorted(r["turns"] for r in played)
    depths = Counter(r["depth"] for r in played)
    causes = Counter(r["cause"] or "unknown" for r in played if r["outcome"] == "died")
    deaths = Counter(r["depth"] for r in played if r["outcome"] == "died")
    return {
        "runs": len(runs),
        "outcomes": dict(sorted(Counter(r["outcome"] for r in runs).items())),
        "wins": sum(1 for r in runs if r["won"]),
        "depth": [{"depth": d, "runs": n} for d, n in sorted(depths.items())],
        "deaths_by_depth": [{"depth": d, "runs": n} for d, n in sorted(deaths.items())],
        "turns": {
            "median": statistics.median(turns) if turns else 0,
            "mean": round(statistics.fmean(turns), 1) if turns else 0,
            "min": turns[0] if turns else 0,
            "p10": turns[len(turns) // 10] if turns else 0,
            "p90": turns[len(turns) * 9 // 10] if turns else 0,
            "max": turns[-1] if turns else 0,
        },
        "causes": [{"cause": c, "runs": n} for c, n in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))],
        "crashed": [{"seed": r["seed"], **r["crash"]} for r in runs if r["outcome"] == "crashed"],
    }


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:5.1f}%" if total else "    -"


def _rows(title: str, pairs: list[tuple[str, int]], total: int) -> list[str]:
    if not pairs:
        return []
    width = max(len(title), *(len(k) for k, _ in pairs))
    top = max(n for _, n in pairs) or 1
    out = [f"{title:<{width}}  {'runs':>7}  {'share':>6}"]
    for k, n in pairs:
        out.append(f"{k:<{width}}  {n:>7}  {_pct(n, total)}  {'#' * max(1 if n else 0, round(BAR * n / top))}")
    return out


def table(report: dict[str, Any]) -> str:
    """The summary as text: the runs, outcomes, depth reached, turns, causes of death, crashes."""
    s = report["summary"]
    total = s["runs"]
    seeds = report["seeds"]
    lines = [f"sim: {report['game']}, bot {report['bot']}, seeds {seeds[0]}-{seeds[1]} ({total} runs), "
             f"turn limit {report['max_turns']}", ""]
    lines += _rows("outcome", list(s["outcomes"].items()), total) + [""]
    lines += [f"wins: {s['wins']} of {total} ({_pct(s['wins'], total).strip()})", ""]
    lines += _rows("depth reached", [(str(d["depth"]), d["runs"]) for d in s["depth"]], total) + [""]
    t = s["turns"]
    lines += [f"turns: median {t['median']:g}, mean {t['mean']:g}, 10% {t['p10']}, 90% {t['p90']}, "
              f"min {t['min']}, max {t['max']}", ""]
    died = s["outcomes"].get("died", 0)
    if died:
        lines += _rows("cause of death", [(c["cause"], c["runs"]) for c in s["causes"]], died) + [""]
        lines += _rows("died on depth", [(str(d["depth"]), d["runs"]) for d in s["deaths_by_depth"]], died) + [""]
    off = Counter(p for r in report["runs"] for p in r.get("plugins_off", []))
    if off:
        lines += ["plugins that failed and were switched off during runs: "
                  + ", ".join(f"{p} ({n} runs)" for p, n in sorted(off.items())), ""]
    if report.get("not_played"):
        lines += [f"not played: {len(report['not_played'])} runs (seeds {spans(report['not_played'])})", ""]
    if s["crashed"]:
        lines.append(f"crashed: {len(s['crashed'])} runs (the others went on)")
        for c in s["crashed"]:
            lines.append(f"  seed {c['seed']}: the {c['where']} raised {c['error']}" + (f" at {c['at']}" if c["at"]
                                                                                         else ""))
            if c.get("replay_command"):
                lines.append(f"    replay the keys: {c['replay_command']}")
            lines.append(f"    play it again:   {c['rerun_command']}")
    return "\n".join(lines).rstrip() + "\n"


# The default game's balance targets (#25): what the README's balance table is held to.
WIN_SHARE = (10, 35)  # percent of runs won
MOST_DEPTH_SHARE = 25  # percent of runs ended by deaths on any one depth, at most
MOST_CAUSE_SHARE = 35  # percent of deaths by any one monster kind, at most
EARLY_DEPTH, LEAST_EARLY_SHARE = 4, 8  # at least this percent of runs end on depths 1..EARLY_DEPTH
LEAST_MEDIAN_TURNS = 2000  # the median run is longer


def targets(report: dict[str, Any]) -> list[tuple[str, bool]]:
    """The balance targets as (what was measured beside its target, met)."""
    s, total = report["summary"], report["summary"]["runs"] or 1
    won = 100 * s["wins"] / total
    deaths = s["deaths_by_depth"]
    worst = max(deaths, key=lambda d: (d["runs"], -d["depth"]), default={"depth": "-", "runs": 0})
    died = sum(d["runs"] for d in deaths) or 1
    cause = s["causes"][0] if s["causes"] else {"cause": "none", "runs": 0}
    early = 100 * sum(d["runs"] for d in deaths if d["depth"] <= EARLY_DEPTH) / total
    median = s["turns"]["median"]
    return [
        (f"won {won:.1f}% (target {WIN_SHARE[0]}-{WIN_SHARE[1]}%)", WIN_SHARE[0] <= won <= WIN_SHARE[1]),
        (f"the most runs ended on one depth: {100 * worst['runs'] / total:.1f}% (depth {worst['depth']}; "
         f"target at most {MOST_DEPTH_SHARE}%)", 100 * worst["runs"] / total <= MOST_DEPTH_SHARE),
        (f"the deadliest kind: {100 * cause['runs'] / died:.1f}% of deaths "
         f"({cause['cause'].removeprefix('killed by ')}; target at most {MOST_CAUSE_SHARE}%)",
         100 * cause["runs"] / died <= MOST_CAUSE_SHARE),
        (f"runs ended on depths 1-{EARLY_DEPTH}: {early:.1f}% (target at least {LEAST_EARLY_SHARE}%)",
         early >= LEAST_EARLY_SHARE),
        (f"median run {median:,g} turns (target over {LEAST_MEDIAN_TURNS:,})", median > LEAST_MEDIAN_TURNS),
    ]


def markdown(report: dict[str, Any]) -> str:
    """The summary as the README's balance table (Markdown): outcomes, depth reached and depth
    of death side by side, turns, causes of death, and each target met or missed."""
    s, total = report["summary"], report["summary"]["runs"]

    def cell(n: int) -> str:
        return f"{n} ({100 * n / total:.1f}%)" if total else str(n)

    outcomes = [(k, v) for k, v in s["outcomes"].items()]
    reached = [(str(d["depth"]), d["runs"]) for d in s["depth"]]
    died = [(str(d["depth"]), d["runs"]) for d in s["deaths_by_depth"]]
    lines = ["| outcome | runs | | depth reached | runs | | died on depth | runs |",
             "|---|---|---|---|---|---|---|---|"]
    for i in range(max(len(outcomes), len(reached), len(died))):
        row = []
        for pairs in (outcomes, reached, died):
            row += [pairs[i][0], cell(pairs[i][1])] if i < len(pairs) else ["", ""]
        lines.append("| " + " | ".join(row[:2] + [""] + row[2:4] + [""] + row[4:]) + " |")
    t = s["turns"]
    deaths = s["outcomes"].get("died", 0)
    causes = ", ".join(f"{c['cause'].removeprefix('killed by ')} {c['runs']} ({100 * c['runs'] / deaths:.1f}%)"
                       for c in s["causes"]) if deaths else "none"
    lines += ["", f"Turns: median {t['median']:,g} (10%: {t['p10']:,}, 90%: {t['p90']:,}). Causes of death: {causes}.",
              "", "Targets:", ""]
    lines += [f"- {'met' if ok else 'MISSED'}: {text}" for text, ok in targets(report)]
    return "\n".join(lines) + "\n"


def spans(seeds: list[int]) -> str:
    """Sorted seeds as ranges: ``0-3, 7, 9-10``."""
    parts: list[list[int]] = []
    for seed in seeds:
        if parts and seed == parts[-1][1] + 1:
            parts[-1][1] = seed
        else:
            parts.append([seed, seed])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in parts)


def plot_target_problem(path: Path) -> str | None:
    """What keeps ``--plot`` from writing ``path``, in a few words, or None: asked before the runs,
    so that hours of runs never end in a plot that cannot be written."""
    if path.suffix.lower() != ".png":
        return "expected a file name ending in .png (the plot is a PNG image)"
    if not path.parent.is_dir():  # "." for a bare name
        return f"no folder {path.parent} to write it in"
    if path.exists() and not path.is_file():  # a folder, or a FIFO that opening would block on
        return "is not a regular file"
    existed = path.exists()
    try:
        with path.open("ab"):  # appending changes nothing in a file already there
            pass
    except OSError as e:
        return f"cannot write it ({e.strerror or e})"
    if not existed:
        path.unlink(missing_ok=True)
    return None


def plot_available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def plot(report: dict[str, Any], path: Path) -> None:
    """Write the depth and cause-of-death histograms of ``report`` to ``path`` (a PNG)."""
    import matplotlib

    matplotlib.use("Agg")  # no window: a file
    import matplotlib.pyplot as plt

    s = report["summary"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    depths = s["depth"]
    left.bar([d["depth"] for d in depths], [d["runs"] for d in depths], color="C0", label="reached")
    deaths = s["deaths_by_depth"]
    left.bar([d["depth"] for d in deaths], [d["runs"] for d in deaths], color="C3", width=0.5, label="died there")
    left.set_xlabel("deepest depth reached")
    left.set_ylabel("runs")
    left.legend()
    causes = s["causes"][:15][::-1]
    right.barh([c["cause"] for c in causes], [c["runs"] for c in causes], color="C3")
    right.set_xlabel("runs")
    right.set_title("causes of death")
    seeds = report["seeds"]
    fig.suptitle(f"{report['game']}, bot {report['bot']}: {s['runs']} runs (seeds {seeds[0]}-{seeds[1]}), "
                 f"{s['wins']} won")
    fig.tight_layout()
    fig.savefig(path, dpi=100, format="png")
    plt.close(fig)
