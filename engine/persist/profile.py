"""The profile: what survives every run. Runs started, deaths, escapes, the deepest depth, gold
collected, and the ten best runs.

It lives in ``profile.json`` beside the run save, in its own file, so nothing about a run (a death,
a bad run save) can damage it; a bad profile is moved aside and a fresh one started. Every change
is a read-modify-write of the whole file, written atomically (:mod:`engine.persist.files`).

A run's score is its gold, plus 100 for each level below the first, plus 500 for an escape.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core.rng import MAX_SEED
from engine.core.schema import Int, List, Obj, Str
from engine.persist import files as savefile

KIND = "profile"
SCHEMA = 1
MIGRATIONS: dict[int, Any] = {}  # schema n -> fn(data) -> data of schema n + 1; none yet
NAME = "profile.json"
TOP = 10
COUNTERS = ("runs", "deaths", "escapes", "deepest", "gold")
ENTRY = {"score": int, "seed": int, "preset": str, "depth": int, "turns": int, "cause": str, "date": str}


def path() -> Path:
    return savefile.data_dir() / NAME


def fresh() -> dict[str, Any]:
    return {**dict.fromkeys(COUNTERS, 0), "top": []}


ENTRY_SPEC = Obj({key: Int(0, MAX_SEED, "a whole number") if kind is int else Str(200) for key, kind in ENTRY.items()})
SPEC = Obj({**{key: Int(0, 10**15, "a whole number") for key in COUNTERS},
            "top": List(ENTRY_SPEC, most=TOP, expected=f"a list of at most {TOP} runs")}, unknown_ok=True)


def check(data: dict[str, Any]) -> dict[str, Any]:
    """The profile's fields, validated (SchemaError names the first bad one)."""
    return SPEC.check(data, "")


def load() -> dict[str, Any]:
    """The profile; a fresh one when there is none or it is bad (one line on stderr, moved aside)."""
    data = savefile.load(path(), KIND, SCHEMA, what="profile", then="starting a fresh profile",
                         migrations=MIGRATIONS, check=check)
    return data if data is not None else fresh()


def update(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Load, change and write the profile; returns it. A profile that cannot be written is not
    worth ending a run over: that is one line on stderr."""
    data = load()
    change(data)
    try:
        savefile.write_json(path(), KIND, SCHEMA, data)
    except OSError as e:
        savefile.warn(f"profile {path()}: cannot write it ({e.strerror or e})")
    return data


def score(gold: int, depth: int, escaped: bool) -> int:
    return gold + 100 * max(0, depth - 1) + (500 if escaped else 0)


def run_started() -> dict[str, Any]:
    return update(lambda p: p.__setitem__("runs", p["runs"] + 1))


def reached(depth: int) -> dict[str, Any]:
    return update(lambda p: p.__setitem__("deepest", max(p["deepest"], depth)))


def run_ended(*, escaped: bool, seed: int, preset: str, depth: int, turns: int, gold: int, cause: str,
              date: str | None = None) -> dict[str, Any]:
    """Count a death or an escape, add the gold, and keep the run if it is among the best ten."""
    entry = {"score": score(gold, depth, escaped), "seed": seed, "preset": preset[:200], "depth": depth,
             "turns": turns, "cause": cause[:200],
             "date": date or datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")}

    def change(p: dict[str, Any]) -> None:
        p["escapes" if escaped else "deaths"] += 1
        p["gold"] += gold
        p["deepest"] = max(p["deepest"], depth)
        # a stable sort: among equal scores the earlier run keeps its place
        p["top"] = sorted([*p["top"], entry], key=lambda e: -e["score"])[:TOP]

    return update(change)


def lines(p: dict[str, Any]) -> list[str]:
    """The profile as text: the death screen and ``python -m engine scores`` show these lines."""
    out = [f"Runs {p['runs']}   Deaths {p['deaths']}   Escapes {p['escapes']}   "
           f"Deepest {p['deepest']}   Gold {p['gold']}"]
    if p["top"]:
        out.append(f"{'#':>2} {'score':>6} {'depth':>5} {'turns':>6}  {'preset':<12} {'seed':<20} {'date':<16} cause")
    for i, e in enumerate(p["top"], 1):
        out.append(f"{i:>2} {e['score']:>6} {e['depth']:>5} {e['turns']:>6}  {e['preset']:<12} {e['seed']:<20} "
                   f"{e['date']:<16} {e['cause']}")
    return out
