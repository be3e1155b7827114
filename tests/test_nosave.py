"""Presets without saves (bunyip, rogue-sdl, lesson28, as their sources): no exit leaves a run to
resume, the next start is a new run, and the profile counts the run's end as a quit, never a death.
(A stop signal and a kill: tests/test_stop_signals.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.play.session import Session
from engine.persist import keeper, profile
from engine.persist.saveslot import saved_run

NO_SAVES = ["bunyip", "rogue-sdl", "lesson28"]
MOVES = "right right"  # two turns in each of them, with --seed 3


def play(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ARCADE_HEADLESS": "1", "UNDERCROFT_HOME": str(home), "UNDERCROFT_LOAD_PLUGINS": ""}
    return subprocess.run([sys.executable, "-m", "engine", *args], env=env, capture_output=True, text=True,
                          timeout=180)


def next_start(home: Path) -> dict:
    """What the next plain start plays (it resumes a saved run, else begins the default game)."""
    done = play(home, "--headless", "--dump", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def on_disk_profile(home: Path) -> dict:
    return json.loads((home / "profile.json").read_text())


@pytest.mark.parametrize("game", NO_SAVES)
@pytest.mark.parametrize("end", ["the keys run out", "escape"])
def test_a_preset_without_saves_leaves_no_run_and_counts_a_quit(tmp_path, game, end):
    keys = MOVES + (" esc" if end == "escape" else "")
    done = play(tmp_path, "--headless", "--game", game, "--seed", "3", "--keys", keys)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert not (tmp_path / "run.json").exists()
    after = next_start(tmp_path)
    assert (after["game"], after["turn"], after["run"]) == ("undercroft", 0, 1)  # a new run, not the old one
    counts = on_disk_profile(tmp_path)["presets"][game]
    assert (counts["runs"], counts["quits"], counts["deaths"]) == (1, 1, 0)
    assert counts["top"][0]["cause"] == "quit on depth 1" and counts["top"][0]["turns"] == 2


def test_a_window_closed_on_a_preset_without_saves_leaves_no_run(tmp_path):
    done = play(tmp_path, "--game", "bunyip", "--seed", "3", "--keys", MOVES, "--seconds", "0.2")
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "run.json").exists()
    assert on_disk_profile(tmp_path)["presets"]["bunyip"]["quits"] == 1
    assert next_start(tmp_path)["game"] == "undercroft"


def test_a_preset_without_saves_leaves_another_presets_saved_run_alone(tmp_path):
    assert play(tmp_path, "--headless", "--new", "--seed", "3", "--keys", ". . esc").returncode == 0
    saved = (tmp_path / "run.json").read_bytes()
    for game in NO_SAVES:  # played, quit and died in: nothing of theirs replaces or removes it
        assert play(tmp_path, "--headless", "--game", game, "--keys", MOVES).returncode == 0
    assert (tmp_path / "run.json").read_bytes() == saved
    after = next_start(tmp_path)
    assert (after["game"], after["turn"]) == ("undercroft", 2)


def test_a_run_of_a_preset_without_saves_left_by_an_older_undercroft_is_not_resumed(home, registry,
                                                                                     monkeypatch, capsys):
    from engine.core.play.setup import Setup

    ruleset = type(registry.rulesets["bunyip"])
    monkeypatch.setattr(ruleset, "saves", True)  # as the last release kept it
    game = keeper.open_game(Setup(game="bunyip", seed=3), registry, choice="new")
    for token in MOVES.split():
        Session.of(game).press(token)
    keeper.close(game)
    assert (home / "run.json").exists()
    monkeypatch.setattr(ruleset, "saves", False)  # this release
    capsys.readouterr()
    assert saved_run(registry=registry) is None  # the title offers no Continue for it
    again = keeper.open_game(Setup(), registry, choice="continue")
    keeper.close(again)
    err = capsys.readouterr().err
    assert again.rules.name == "undercroft" and again.turn == 0
    assert err.count("\n") == 1 and "bunyip has no saves" in err and "removed it" in err
    assert saved_run()["game"] == "undercroft"  # the new run's own save replaced it


def test_quits_are_counted_apart_from_deaths_in_every_preset(home, capsys):
    from engine.cli.main import main

    for preset in ("undercroft", "bunyip"):
        profile.run_started(preset)
        profile.run_ended(escaped=False, quit=True, seed=5, preset=preset, depth=2, turns=9, gold=3,
                          cause="quit on depth 2")
    p = profile.load()
    assert (p["quits"], p["deaths"]) == (2, 0)
    assert (p["presets"]["undercroft"]["quits"], p["presets"]["bunyip"]["deaths"]) == (1, 0)
    assert main(["scores", "--game", "bunyip"]) == 0
    assert capsys.readouterr().out.startswith("Runs 1   Deaths 0   Quits 1   Wins 0   Deepest 2")
    assert main(["scores", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["quits"] == 2 and shown["presets"]["bunyip"]["quits"] == 1


SCHEMA_2 = {"kind": "profile", "schema": 2, "runs": 4, "deaths": 3, "escapes": 0, "deepest": 2, "gold": 10,
            "top": [], "settings": {"mute": True}, "ended_save": None,
            "presets": {"rogue-sdl": {"runs": 4, "deaths": 3, "escapes": 0, "deepest": 2, "gold": 10, "top": []}}}


def test_a_schema_2_profile_is_upgraded_with_its_original_kept(home, capsys):
    home.mkdir(parents=True, exist_ok=True)
    (home / "profile.json").write_text(json.dumps(SCHEMA_2))
    original = (home / "profile.json").read_bytes()
    p = profile.load()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "schema 2 is older" in err and "kept as profile.v2.json" in err
    assert (home / "profile.v2.json").read_bytes() == original
    # schema 2 counted its quits as deaths and cannot tell them apart: they stay where they were
    assert (p["runs"], p["deaths"], p["quits"], p["presets"]["rogue-sdl"]["quits"]) == (4, 3, 0, 0)
    assert p["settings"] == {"mute": True}
    profile.run_started("rogue-sdl")
    assert on_disk_profile(home)["schema"] == profile.SCHEMA == 3


def test_scores_columns_hold_any_seed_and_count(home, capsys):
    from engine.cli.main import main
    from engine.kit.limits import MAX_COUNT, MAX_SEED

    for seed, turns in ((MAX_SEED, 12), (7, MAX_COUNT), (10**18 + 3, 5)):
        profile.run_ended(escaped=False, seed=seed, preset="lesson28", depth=1, turns=turns, gold=0,
                          cause="caught on depth 1", date="2026-01-01 00:00")
    profile.run_ended(escaped=True, seed=1, preset="lesson28", depth=1, turns=3, gold=MAX_COUNT, cause="escaped",
                      date="2026-01-01 00:00")
    for args in (["scores", "--game", "lesson28"], ["scores"]):
        assert main(args) == 0
        text = capsys.readouterr().out.splitlines()
        tables = [line for line in text if line.lstrip()[:1] in ("#", "1", "2", "3", "4")]
        head = tables[0]
        for line in tables[1:]:  # every cell ends (numbers) or starts (texts) where its header does
            assert line.index("2026-01-01") == head.index("date"), (head, line)
            for name in ("score", "depth", "turns"):
                end = head.index(name) + len(name)
                assert line[end - 1] != " " and line[end] == " ", (name, head, line)
            at = head.index("seed")
            assert line[at - 1] == " " and line[at:].split()[0].isdigit(), (head, line)
            if "preset" in head:
                assert line[head.index("preset"):].startswith("lesson28 "), (head, line)


BOOM = """
import numpy as np
from engine import hookimpl

calls = [0]


def boom(transparent, origin, radius):
    calls[0] += 1
    if calls[0] > 2:
        raise RuntimeError("boom")
    out = np.zeros(transparent.shape, bool)
    out[origin[1], origin[0]] = True
    return out


@hookimpl
def register_fov_algorithms(register):
    register("boom", boom, summary="fails on its third call")
"""


def test_a_crashed_run_of_a_preset_without_saves_leaves_no_run_and_is_no_quit(tmp_path):
    plugins, home = tmp_path / "plugins", tmp_path / "home"
    plugins.mkdir()
    (plugins / "boom.py").write_text(BOOM)
    done = play(home, "--headless", "--game", "bunyip", "--plugins-dir", str(plugins), "--plugin", "fov=boom",
                "--keys", "right right right right")
    assert done.returncode != 0 and "boom" in done.stderr and "Traceback" not in done.stderr
    assert not (home / "run.json").exists()
    bunyip = on_disk_profile(home)["presets"]["bunyip"]
    # a crash is not the player's doing: the run is counted begun, and in no ending
    assert (bunyip["runs"], bunyip["quits"], bunyip["deaths"]) == (1, 0, 0)
    assert next_start(home)["game"] == "undercroft"
