"""``python -m engine bench --markdown``: the bench's rows summed up as the README's Performance
table, one line per claim: the figure (medians, with their spread where one row makes it, or the
range over the rows it sums up), the target, and whether it is met or by how much it is missed.

Nothing here measures: it reads the rows (``--from-json FILE`` reads them from an earlier
``--json`` run). A line whose rows are absent (a group not run, libtcod not installed) is left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable


def _n(value: float | None, unit: str = "") -> str:
    """A figure to about three significant digits."""
    if value is None:
        return "-"
    a = abs(value)
    text = f"{value:.3f}" if a < 1 else f"{value:.2f}" if a < 10 else f"{value:.1f}" if a < 100 else f"{value:.0f}"
    return text + unit


def _x(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def _spread(row: dict, key: str = "spread") -> str:
    s = row.get(key)
    return f"{_n(s[0])}-{_n(s[1])}" if s else ""


def _with_spread(row: dict, unit: str = "") -> str:
    spread = _spread(row)
    return f"{_n(row['value'])}{unit}" + (f" ({spread})" if spread else "")


def _range(values: Iterable[float], fmt: Callable[[float], str] = _x) -> str:
    values = sorted(v for v in values if v is not None)
    if not values:
        return "-"
    return fmt(values[0]) if values[0] == values[-1] else f"{fmt(values[0])}-{fmt(values[-1])}"


def _verdicts(rows: list[dict]) -> str:
    """"met" when every row with a verdict met it; else how many missed, and the worst by name."""
    judged = [r for r in rows if r.get("verdict")]
    if not judged:
        return ""
    missed = [r for r in judged if r["verdict"] != "met"]
    if not missed:
        return "met" if len(judged) == 1 else f"met ({len(judged)} of {len(judged)})"
    if len(judged) == 1:
        return missed[0]["verdict"]

    def over(r: dict) -> float:
        found = re.findall(r"\(([\d.]+)x over\)", r["verdict"])
        return max(map(float, found)) if found else 0.0

    worst = max(missed, key=over)
    said = worst["verdict"].removeprefix("missed: ")
    return f"missed in {len(missed)} of {len(judged)}; worst `{worst['name'].strip()}`: {said}"


def _line(figure: str, value: str, target: str, verdict: str) -> str:
    return f"| {figure} | {value} | {target} | {verdict or '-'} |"


def markdown(rows: list[dict]) -> str:
    """The summary table, Markdown."""
    by_name = {r["name"]: r for r in rows}
    out = ["| figure | median (spread: min-max over the repeats) | target | verdict |", "|---|---|---|---|"]
    for part in (_turn, _bot, _fov, _path, _gen, _window, _start, _compile):
        out += part(rows, by_name)
    return "\n".join(out)


def _turn(rows: list[dict], by_name: dict) -> list[str]:
    out = []
    row = by_name.get("turn 80x43 depth 5")
    if row:
        out.append(_line("engine CPU time per player turn, 80x43, depth 5 (the default game)", _with_spread(row, " ms"),
                         row["target"], row.get("verdict", "")))
    crowd = [r for r in rows if r.get("hunters")]
    if crowd:
        counts = " / ".join(str(r["hunters"]) for r in crowd)
        values = " / ".join(_with_spread(r) for r in crowd)
        acted = " / ".join(f"{r['acted']:.0f}" for r in crowd)
        judged = [r for r in crowd if r.get("verdict")]
        out.append(_line(f"CPU time per turn, 250x250, 500 of the default game's monsters, {counts} of them kept "
                         f"hunting (their own behaviours); {acted} act a turn", f"{values} ms",
                         f"{crowd[-1]['hunters']} hunting: {crowd[-1]['target']}", _verdicts(judged)))
    ratio = next((r for r in rows if r["name"].startswith("  ratio ") and "hunting" in r["name"]), None)
    if ratio:
        out.append(_line(ratio["name"].strip().removeprefix("ratio "), f"{_n(ratio['value'])}x ({_spread(ratio)})",
                         ratio["target"], ratio.get("verdict", "")))
    actions = [r for r in rows if r.get("monsters") and "among" not in r]
    if actions:
        counts = " / ".join(str(r["monsters"]) for r in actions)
        values = " / ".join(_with_spread(r) for r in actions)
        out.append(_line(f"CPU time per monster action, 250x250, {counts} monsters, all hunting", f"{values} µs",
                         "a figure", ""))
    ratio = next((r for r in rows if r["name"].startswith("  ratio action ")), None)
    if ratio:
        out.append(_line(f"per action, {ratio['name'].strip().removeprefix('ratio action ')} (a step does not "
                         "grow with the crowd)", f"{_n(ratio['value'])}x ({_spread(ratio)})", ratio["target"],
                         ratio.get("verdict", "")))
    among = [r for r in rows if r.get("among")]
    if among:
        counts = " / ".join(str(r["monsters"]) for r in among)
        values = " / ".join(_with_spread(r) for r in among)
        acted = " / ".join(f"{r['acted']:.0f}" for r in among)
        out.append(_line(f"CPU time per turn, 250x250, {among[-1]['among']} hunting among {counts} monsters (the rest "
                         f"asleep); {acted} act a turn", f"{values} ms", "a figure", ""))
    ratio = next((r for r in rows if r["name"].startswith("  ratio turn ")), None)
    if ratio:
        out.append(_line(f"per turn, {ratio['name'].strip().removeprefix('ratio turn ')} (the same hunters cost the "
                         "same among more monsters asleep)", f"{_n(ratio['value'])}x ({_spread(ratio)})",
                         ratio["target"], ratio.get("verdict", "")))
    return out


def _bot(rows: list[dict], by_name: dict) -> list[str]:
    run = next((r for r in rows if r.get("group") == "bot" and r["unit"] == "s"), None)
    turn = next((r for r in rows if r.get("group") == "bot" and r["unit"] == "us"), None)
    if run is None:
        return []
    value = (f"{_n(run['value'])} s a run, the mean (runs {_spread(run)}, median {_n(run['median'])}; "
             f"{run['turns']:,} turns a run)")
    if turn is not None:
        value += f"; {_n(turn['value'])} µs a turn ({_spread(turn)})"
    seeds = run["name"].rpartition("seeds ")[2]
    return [_line(f"CPU time of a `delver` run of the default game, seeds {seeds} in one process, as "
                  "`sim --runs 20 --jobs 1` plays them (its start not included)", value, run["target"],
                  run.get("verdict", ""))]


def _timed_fov(rows: list[dict]) -> list[dict]:
    """The FOV rows that carry a target (compiled, or a plugin with no pure-Python twin), not first calls."""
    return [r for r in rows if r.get("group") == "fov" and r.get("unit") == "us" and r.get("variant") != "overhead"
            and not r["target"].startswith("pure-Python")]


def _fov(rows: list[dict], by_name: dict) -> list[str]:
    out = []
    timed = _timed_fov(rows)
    names = sorted({r["fov"] for r in timed}, key=lambda n: (not _is_default(timed, n), n))
    for name in names:
        mine = [r for r in timed if r["fov"] == name]
        tcod = [r for r in mine if r.get("ratio") is not None]
        sizes = sorted({r["map"] for r in mine}, key=lambda m: int(m.split("x")[0]))
        terrains = [t for t in ("caves", "rooms", "bsp") if any(r.get("terrain", "caves") == t for r in mine)]
        per = "; ".join(
            f"{t}: {_range(r['ratio'] for r in tcod if r.get('terrain', 'caves') == t)} `compute_fov`, "
            f"{_range(r['ratio_map'] for r in tcod if r.get('terrain', 'caves') == t)} a `Map`"
            for t in terrains) if tcod else "no libtcod to compare (pip install tcod)"
        target = mine[0]["target"].split(";")[0]
        label = " (the default game's)" if _is_default(timed, name) else ""
        out.append(_line(f"FOV `{name}`{label}, compiled, {' / '.join(sizes)}, r4-r50 and no radius, per map",
                         per, target, _verdicts([_without_worst(r) for r in tcod])))
        if _is_default(timed, name):
            strict = [r for r in tcod if r["map"] == "80x50" and r["radius"] is None]
            if strict:
                value = "; ".join(f"{r.get('terrain', 'caves')}: {_x(r['ratio_map'])} "
                                  f"({_spread(r, 'ratio_map_spread')})" for r in strict)
                out.append(_line(f"FOV `{name}`, 80x50 with no radius, beside a persistent `tcod.map.Map`", value,
                                 "< 1.5x a Map on rooms, bsp and caves", _verdicts(strict)))
    big = [r for r in timed if r.get("worst_ms") is not None]
    if big:
        worst = {}
        for r in big:
            worst[r["fov"]] = max(worst.get(r["fov"], 0.0), r["worst_ms"])
        value = ", ".join(f"`{n}` {_n(v)}" for n, v in sorted(worst.items(), key=lambda kv: kv[1]))
        judged = [{"name": r["name"], "verdict": _worst_only(r)} for r in big]
        out.append(_line("FOV, the slowest single call at 1000x1000 (any radius, any map), per algorithm",
                         f"{value} ms", "every call < 30 ms", _verdicts(judged)))
    first = [r for r in rows if r.get("group") == "fov" and str(r.get("variant", "")).endswith("first call")]
    if first:
        sizes = sorted({r["map"] for r in first}, key=lambda m: int(m.split("x")[0]))
        value = "; ".join(f"{m}: up to {_n(max(r['value'] for r in first if r['map'] == m))} ms" for m in sizes)
        out.append(_line("FOV, the first call at a new map size (tables built), r20 and no radius, every variant",
                         value, "< 100 ms", _verdicts(first)))
    return out


def _is_default(timed: list[dict], name: str) -> bool:
    return any(r["fov"] == name and r["target"].startswith("<= 1.5x compute_fov, <= 2x Map") for r in timed)


def _without_worst(row: dict) -> dict:
    """The row judged on its ratios alone (its slowest call is a line of its own)."""
    verdict = row.get("verdict", "")
    if not verdict.startswith("missed: "):
        return row
    parts = [p for p in verdict.removeprefix("missed: ").split(", ") if not p.startswith("worst ")]
    return {**row, "verdict": "missed: " + ", ".join(parts) if parts else "met"}


def _worst_only(row: dict) -> str:
    parts = [p for p in row.get("verdict", "").removeprefix("missed: ").split(", ") if p.startswith("worst ")]
    return "missed: " + parts[0] if parts else "met"


def _path(rows: list[dict], by_name: dict) -> list[str]:
    out = []
    compiled = [r for r in rows if r["name"].startswith("path ") and r.get("verdict")]
    for op, words in (("dijkstra", "Dijkstra map from one goal, beside `tcod.path.dijkstra2d`"),
                      ("astar", "A* between far cells, beside `tcod.path.AStar` made per query")):
        mine = [r for r in compiled if r["name"].startswith(f"path {op} ")]
        if not mine:
            continue
        terrains = [t for t in ("cave", "rooms", "bsp") if any(r.get("terrain") == t for r in mine)]
        sizes = sorted({r["map"] for r in mine}, key=lambda m: int(m.split("x")[0]))
        value = "; ".join(f"{t}: {_range(r['ratio'] for r in mine if r.get('terrain') == t)}" for t in terrains)
        if op == "astar":
            reused = [r["ratio_to"]["AStar reused"] for r in mine if "AStar reused" in r.get("ratio_to", {})]
            if reused:
                value += f" (an `AStar` made once and reused: {_range(reused)})"
        out.append(_line(f"pathfinding (compiled), {words}, {' / '.join(sizes)}", value,
                         mine[0]["target"].split(" (")[0], _verdicts(mine)))
    explore = [r for r in rows if r["name"].startswith("explore step ")]
    if explore:
        value = "; ".join(f"{r['name'].removeprefix('explore step ')}: {_with_spread(r, ' ms')}" for r in explore)
        out.append(_line("choosing one explore step (`o`)", value, "a figure", ""))
    return out


def _gen(rows: list[dict], by_name: dict) -> list[str]:
    out = []
    gen = [r for r in rows if r.get("group") == "gen" and r.get("variant") == "default"]
    for size in sorted({r["map"] for r in gen}, key=lambda m: int(m.split("x")[0])):
        mine = sorted((r for r in gen if r["map"] == size and r["value"] is not None), key=lambda r: -r["value"])
        if not mine:
            continue
        samples = mine[0].get("samples")
        value = ", ".join(f"`{r['generator']}` {_n(r['value'])}" for r in mine)
        out.append(_line(f"generators at {size}, compiled, median of {samples} seeds", f"{value} ms",
                         mine[0]["target"], _verdicts(mine)))
    return out


def _window(rows: list[dict], by_name: dict) -> list[str]:
    out = []
    idle = next((r for r in rows if r["name"].startswith("window idle CPU")), None)
    if idle:
        arcade = idle.get("arcade_default_cpu")
        value = f"{_n(idle['value'])} s CPU, {idle.get('frames', 0)} frames"
        if arcade is not None:
            value += f" (Arcade's own loop: {_n(arcade)} s, {idle.get('arcade_default_frames')} frames)"
        out.append(_line("window idle, 5 s with no input", value, idle["target"], idle.get("verdict", "")))
    keys = [r for r in rows if r["name"].startswith("key to frame ")]
    if keys:
        sizes = " / ".join(r["name"].split()[3] for r in keys)
        value = " / ".join(_with_spread(r) for r in keys) + " ms"
        ratios = [r for r in keys if r.get("ratio_to_smallest") is not None]
        if ratios:
            each = ", ".join(f"{r['name'].split()[3]}: {_x(r['ratio_to_smallest'])} ({_spread(r, 'ratio_spread')})"
                             for r in ratios)
            value += f"; {each} the {keys[0]['name'].split()[3]} figure"
        moved = []
        for i, r in enumerate(rows):
            if r in keys:
                follow = [x for x in rows[i + 1:i + 4]
                          if x["name"].strip().startswith("keys whose frame the camera moved")]
                if follow:
                    moved.append(f"{r['name'].split()[3]}: {_with_spread(follow[0])}")
        if moved:
            value += "; keys whose frame moves the camera: " + ", ".join(moved) + " ms"
        out.append(_line(f"key press to finished frame (CPU), {sizes} map, every key (camera moves included)", value,
                         "< 1.3x the smallest map's", _verdicts(ratios)))
    shots = [r for r in rows if r["name"].startswith("shot ") and r["name"].endswith("start to PNG")]
    for r in shots:
        i = rows.index(r)
        memory = rows[i + 1] if i + 1 < len(rows) and rows[i + 1]["name"].strip() == "peak memory" else None
        value = f"{_with_spread(r, ' s')} CPU (wall {_n(r.get('wall'))} s)"
        target = r["target"]
        if memory:
            value += f", {_n(memory['value'])} MB at peak"
            if memory["target"] != target:
                target += f", {memory['target']}"
        verdict = _verdicts([x for x in (r, memory) if x])
        out.append(_line(f"`--headless --shot`, {r['name'].removeprefix('shot ').removesuffix(': start to PNG')}, "
                         "start to PNG", value, target, verdict))
    return out


def _start(rows: list[dict], by_name: dict) -> list[str]:
    out = []
    start = [r for r in rows if r.get("group") == "start"]
    for r in start:
        if r.get("ratio") is None:
            continue
        base = next((x for x in start[start.index(r) + 1:] if x.get("ratio") is None), None)
        value = (f"{_with_spread(r, ' s')} CPU (wall {_n(r['wall'])} s): {_x(r['ratio'])} "
                 f"({_spread(r, 'ratio_spread')})")
        if base:
            value += f" {base['name'].strip()}'s {_n(base['value'])} s"
        out.append(_line(r["name"].removeprefix("start: "), value, r["target"], r.get("verdict", "")))
    return out


def _compile(rows: list[dict], by_name: dict) -> list[str]:
    out = []
    comp = [r for r in rows if r.get("group") == "compile" and r["value"] is not None]
    for label in ("first compile (empty cache)", "warm start (cached)"):
        mine = [r for r in comp if r["name"].endswith(label)]
        if mine:
            value = ", ".join(f"`{r['fov']}` {_n(r['value'])}" for r in mine) + " s CPU"
            out.append(_line(f"numba: a whole process that calls one kernel, {label}", value, "a figure", ""))
    return out
