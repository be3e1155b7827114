"""The profile: what survives every run. Runs started, deaths, quits, escapes, the deepest depth, gold
collected and the best ten runs, for all presets together and for each preset on its own; and the
front end's settings (window size, zoom, mute, ...).

It lives in ``profile.json`` beside the run save, in its own file, so nothing about a run (a death,
a bad run save) can damage it; a bad profile is moved aside and a fresh one started. Every change
is a read-modify-write of the whole file under the data folder's short lock (:func:`engine.persist.
lock.shared`), written atomically (:mod:`engine.persist.files`): two Undercrofts sharing the folder
lose no update. When nothing can be saved (:func:`engine.persist.files.saving_enabled`) the changes
are made in memory and returned, and nothing more is said.

Schema 3 (schemas 1 and 2 are upgraded on load, not refused)::

    {"runs", "deaths", "quits", "escapes", "deepest", "gold": totals over every preset,
     "top": the best ten runs of all,
     "presets": {NAME: {"runs", "deaths", "quits", "escapes", "deepest", "gold", "top"}},
     "settings": {name: a JSON scalar},
     "ended_save": the digest of a run save whose run ended but which could not be removed, or null}

Counters saturate at :data:`engine.kit.limits.MAX_COUNT` (the loader refuses more, so the writer
never writes more). A schema-1 profile had no per-preset counts: its counters stay in the totals and
its best runs go to their presets' tables. A quit (a run of a preset without saves ended alive, not
won) is never a death; schema 2 counted quits as deaths, and they stay there. An escape is the only
victory (the Amulet carried out, an exit reached): ``escapes`` are the wins (the text says "Wins").
A run's score is its gold, plus 100 for each level below the first, plus 500 for an escape.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core.kinds.schema import Int, List, Map, Obj, Optional, Spec, Str, fail
from engine.kit.limits import (
    MAX_COUNT,
    MAX_PRESETS,
    MAX_PROFILE_TEXT,
    MAX_SEED,
    MAX_SETTING_NAME,
    MAX_SETTING_TEXT,
    MAX_SETTINGS,
    MAX_TOP,
)
from engine.persist import files as savefile
from engine.persist import lock

KIND = "profile"
SCHEMA = 3
NAME = "profile.json"
TOP = MAX_TOP
COUNTERS = ("runs", "deaths", "quits", "escapes", "deepest", "gold")
SETTING_NAME = re.compile(rf"[a-z][a-z0-9_]{{0,{MAX_SETTING_NAME - 1}}}")
Scalar = bool | int | float | str


def _from_1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 had totals only: keep them, and file its best runs under their presets."""
    presets: dict[str, Any] = {}
    top = data.get("top")
    for entry in top if isinstance(top, list) else []:
        if not isinstance(entry, dict):
            continue
        for key in ("score", "depth", "turns"):  # schema 1 allowed up to MAX_SEED here
            if isinstance(entry.get(key), int) and not isinstance(entry[key], bool):
                entry[key] = min(entry[key], MAX_COUNT)
        name = entry.get("preset")
        if isinstance(name, str) and 0 < len(name) <= MAX_PROFILE_TEXT and len(presets) < MAX_PRESETS:
            presets.setdefault(name, table())["top"].append(entry)
    return {**data, "presets": presets, "settings": {}}


def _from_2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 counted quits as deaths: they stay among its deaths, and quits are counted from now."""
    presets = data.get("presets")
    for t in [data, *(t for t in (presets.values() if isinstance(presets, dict) else ()) if isinstance(t, dict))]:
        t.setdefault("quits", 0)
    return data


MIGRATIONS: dict[int, Any] = {1: _from_1, 2: _from_2}  # schema n -> fn(data) -> data of schema n + 1


def path() -> Path:
    return savefile.data_dir() / NAME


def table() -> dict[str, Any]:
    """An empty table of counters and best runs (the totals', or one preset's)."""
    return {**dict.fromkeys(COUNTERS, 0), "top": []}


def fresh() -> dict[str, Any]:
    return {**table(), "presets": {}, "settings": {}, "ended_save": None}


COUNT = Int(0, MAX_COUNT, "a whole number")
ENTRY_SPEC = Obj({"score": COUNT, "seed": Int(0, MAX_SEED, "a whole number"), "preset": Str(MAX_PROFILE_TEXT),
                  "depth": COUNT, "turns": COUNT, "cause": Str(MAX_PROFILE_TEXT), "date": Str(MAX_PROFILE_TEXT)})
TABLE_SPEC = Obj({**dict.fromkeys(COUNTERS, COUNT),
                  "top": List(ENTRY_SPEC, most=TOP, expected=f"a list of at most {TOP} runs")})


class Setting(Spec):
    """A remembered setting's value: true/false, a finite number, or a short clean text."""

    expected = f"true/false, a number up to {MAX_COUNT:.0e} or a text of at most {MAX_SETTING_TEXT} characters"

    def check(self, value: Any, where: str) -> Scalar:
        ok = (isinstance(value, bool) or (isinstance(value, int) and -MAX_COUNT <= value <= MAX_COUNT)
              or (isinstance(value, float) and math.isfinite(value) and abs(value) <= MAX_COUNT)
              or (isinstance(value, str) and len(value) <= MAX_SETTING_TEXT and _clean(value) == value))
        if not ok:
            raise fail(where, self.expected, value)
        return value


SETTING_KEY = Str(MAX_SETTING_NAME, 1, SETTING_NAME.pattern,
                  expected=f"a name of a-z, 0-9 and _ (at most {MAX_SETTING_NAME} characters, starting with a letter)")
SETTINGS_SPEC = Map(Setting(), key=SETTING_KEY, most=MAX_SETTINGS, expected=f"an object of at most {MAX_SETTINGS} "
                    "settings")
SPEC = Obj({**TABLE_SPEC.fields,
            "presets": Map(TABLE_SPEC, key=Str(MAX_PROFILE_TEXT, 1), most=MAX_PRESETS,
                           expected=f"an object of at most {MAX_PRESETS} presets"),
            "settings": SETTINGS_SPEC,
            "ended_save": Optional(Str(32, 32, "[0-9a-f]+", expected="a digest of 32 hex digits"))},
           defaults={"ended_save": None}, unknown_ok=True)


def check(data: dict[str, Any]) -> dict[str, Any]:
    """The profile's fields, validated (SchemaError names the first bad one); returns a clean copy
    (without the file's envelope)."""
    out = SPEC.check(data, "")
    for name, t in out["presets"].items():
        for i, entry in enumerate(t["top"]):
            if entry["preset"] != name:
                raise fail(f"presets[{name!r}].top[{i}].preset", repr(name), entry["preset"])
    return {**{k: out[k] for k in (*COUNTERS, "top", "presets", "settings")}, "ended_save": out.get("ended_save")}


def load() -> dict[str, Any]:
    """The profile; a fresh one when there is none or it is bad (one line on stderr, moved aside)."""
    data = savefile.load(path(), KIND, SCHEMA, what="profile", then="starting a fresh profile",
                         migrations=MIGRATIONS, check=check)
    return data if data is not None else fresh()


def update(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Load, change and write the profile under the folder's short lock; returns it. A profile that
    cannot be written is not worth ending a run over: that is one line on stderr (a full disk, a
    lock held too long), or nothing at all when saving is off (said once already)."""
    return _update(change)[0]


def update_written(change: Callable[[dict[str, Any]], None]) -> bool:
    """:func:`update`, and whether the change was written (a mark that must last checks it)."""
    return _update(change)[1]


def _update(change: Callable[[dict[str, Any]], None]) -> tuple[dict[str, Any], bool]:
    if not savefile.saving_enabled():
        data = load()
        change(data)
        return data, False
    try:
        with lock.shared():
            data = load()
            change(data)
            written = savefile.write_json(path(), KIND, SCHEMA, data)
    except (OSError, lock.LockError) as e:
        if not (isinstance(e, OSError) and savefile.unwritable(e, path().parent)):  # that is said once
            reason = (e.strerror or str(e)) if isinstance(e, OSError) else str(e)
            savefile.warn(f"profile {path()}: cannot write it ({reason}); this change is not saved")
        data = load()
        change(data)
        return data, False
    return data, written


# -- what the keeper calls -------------------------------------------------------------------------

def _add(t: dict[str, Any], key: str, n: int) -> None:
    t[key] = min(MAX_COUNT, t[key] + max(0, n))  # saturate: the loader refuses more than MAX_COUNT


def _deeper(t: dict[str, Any], depth: int) -> None:
    t["deepest"] = min(MAX_COUNT, max(t["deepest"], depth))


def _table_of(p: dict[str, Any], preset: str | None) -> dict[str, Any] | None:
    """The preset's own table, made on first use; None without a preset or past MAX_PRESETS."""
    if not preset:
        return None
    name = preset[:MAX_PROFILE_TEXT]
    if name not in p["presets"]:
        if len(p["presets"]) >= MAX_PRESETS:
            return None  # counted in the totals only
        p["presets"][name] = table()
    return p["presets"][name]


def _tables(p: dict[str, Any], preset: str | None) -> list[dict[str, Any]]:
    own = _table_of(p, preset)
    return [p] if own is None else [p, own]


def run_started(preset: str | None = None) -> dict[str, Any]:
    """Count a run begun (of ``preset``; without one, in the totals only)."""
    return update(lambda p: [_add(t, "runs", 1) for t in _tables(p, preset)])


def reached(depth: int, preset: str | None = None) -> dict[str, Any]:
    """Note a depth reached (by a run of ``preset``; without one, in the totals only)."""
    return update(lambda p: [_deeper(t, depth) for t in _tables(p, preset)])


def score(gold: int, depth: int, escaped: bool) -> int:
    return gold + 100 * max(0, depth - 1) + (500 if escaped else 0)


def _clean(text: str) -> str:
    """``text`` with what UTF-8 cannot hold (a lone surrogate) written as a backslash escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _bounded(v: int, hi: int = MAX_COUNT) -> int:
    return min(hi, max(0, int(v)))


def run_ended(*, escaped: bool, seed: int, preset: str, depth: int, turns: int, gold: int, cause: str,
              date: str | None = None, quit: bool = False) -> dict[str, Any]:
    """Count a death, an escape or (``quit``) a quit, add the gold, and keep the run if it is among
    the best ten, in the totals and in ``preset``'s own table."""
    entry = {"score": _bounded(score(gold, depth, escaped)), "seed": _bounded(seed, MAX_SEED),
             "preset": _clean(preset)[:MAX_PROFILE_TEXT], "depth": _bounded(depth), "turns": _bounded(turns),
             "cause": _clean(cause)[:MAX_PROFILE_TEXT],
             "date": _clean(date or datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M"))
             [:MAX_PROFILE_TEXT]}

    def change(p: dict[str, Any]) -> None:
        for t in _tables(p, entry["preset"]):
            _add(t, "escapes" if escaped else "quits" if quit else "deaths", 1)
            _add(t, "gold", gold)
            _deeper(t, entry["depth"])
            # a stable sort: among equal scores the earlier run keeps its place
            t["top"] = sorted([*t["top"], entry], key=lambda e: -e["score"])[:TOP]

    return update(change)


# -- settings --------------------------------------------------------------------------------------

def settings() -> dict[str, Scalar]:
    """The front end's remembered settings (a copy): names to true/false, numbers or short texts."""
    return dict(load()["settings"])


def update_settings(**values: Scalar | None) -> dict[str, Scalar]:
    """Remember settings (``None`` forgets one); returns them all. Raises ValueError (one line) for
    a bad name or value, or when there would be more than MAX_SETTINGS, before anything is written."""
    SETTINGS_SPEC.check({k: v for k, v in values.items() if v is not None}, "settings")

    def change(p: dict[str, Any]) -> None:
        merged = {k: v for k, v in {**p["settings"], **values}.items() if v is not None}
        p["settings"] = SETTINGS_SPEC.check(merged, "settings")

    return dict(update(change)["settings"])


# -- as text ---------------------------------------------------------------------------------------

def _counts(t: dict[str, Any]) -> str:
    return (f"Runs {t['runs']}   Deaths {t['deaths']}   Quits {t['quits']}   Wins {t['escapes']}   "
            f"Deepest {t['deepest']}   Gold {t['gold']}")


def _best(t: dict[str, Any], with_preset: bool) -> list[str]:
    """The best runs, each column as wide as its widest cell (a seed has up to 19 digits, a count 16)."""
    if not t["top"]:
        return []
    heads = ["#", "score", "depth", "turns", *(["preset"] if with_preset else []), "seed", "date", "cause"]
    rows = [[str(i), str(e["score"]), str(e["depth"]), str(e["turns"]),
             *([_clean(e["preset"])] if with_preset else []), str(e["seed"]), _clean(e["date"]), _clean(e["cause"])]
            for i, e in enumerate(t["top"], 1)]
    least = {"#": 2, "score": 6, "depth": 5, "turns": 6, "preset": 12, "date": 16}
    widths = [max(least.get(head, 0), *(len(row[c]) for row in [heads, *rows])) for c, head in enumerate(heads)]
    numbers = 4  # "#", score, depth and turns line up on the right, the rest on the left

    def line(cells: list[str]) -> str:
        shown = [cell.rjust(w) if c < numbers else cell if c == len(cells) - 1 else cell.ljust(w)
                 for c, (cell, w) in enumerate(zip(cells, widths, strict=True))]
        return " ".join(shown[:numbers]) + "  " + " ".join(shown[numbers:])

    return [line(heads), *(line(row) for row in rows)]


def lines(p: dict[str, Any], game: str | None = None) -> list[str]:
    """The profile as text. The first line is the counters, "Runs N   Deaths N ...   (whose)": the
    death screen shows it alone. With ``game``, that preset's own table; without, the totals over
    every preset, then each preset's table."""
    if game is not None:
        t = p["presets"].get(game) or table()
        return [f"{_counts(t)}   ({_clean(game)})", *_best(t, with_preset=False)]
    out = [f"{_counts(p)}   (all presets)"]
    for name in sorted(p["presets"]):
        out += ["", *lines(p, name)]
    return out
