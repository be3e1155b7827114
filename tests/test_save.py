"""Run saves: save then resume plays exactly as never quitting; the save stays while played; death deletes it."""

import json
import os
import random

import pytest

from engine.cli.main import main
from engine.cli.play import parser, wants_new
from engine.core.model.requests import ChangeLevel
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import dumps
from engine.core.turn.keys import DEFAULT_KEYS
from engine.persist import files as savefile
from engine.persist import keeper, lock, runspec
from engine.persist.runsave import capture, load

TOKENS = sorted(t for t in DEFAULT_KEYS if t != "esc")
A = "l l j j h k y u b n . kp5 kp1 kp9 > q l l l j j j"
B = "h h h k k k . . > q l j l j u u b b n n y y"


def run(capsys, *args) -> tuple[dict | None, str]:
    assert main(["--headless", *args]) == 0
    out = capsys.readouterr()
    return (json.loads(out.out) if out.out.strip() else None), out.err


@pytest.mark.parametrize("seed", [4, 11, 42])  # seeds whose player lives through A and B
def test_save_then_resume_is_the_same_as_never_quitting(home, capsys, seed):
    run(capsys, "--seed", str(seed), "--keys", A + " esc")
    assert (home / "run.json").exists()
    resumed, err = run(capsys, "--keys", B, "--dump", "json")
    assert err == ""
    one_go, _ = run(capsys, "--seed", str(seed), "--new", "--keys", f"{A} {B}", "--dump", "json")
    assert resumed == one_go
    assert resumed["turn"] > 10


def test_resume_several_times_in_a_row(home, capsys):
    keys = [random.Random(5).choice(TOKENS) for _ in range(300)]
    run(capsys, "--seed", "5", "--keys", " ".join(keys[:100]) + " esc")
    run(capsys, "--keys", " ".join(keys[100:200]) + " esc")
    resumed, _ = run(capsys, "--keys", " ".join(keys[200:]), "--dump", "json")
    one_go, _ = run(capsys, "--seed", "5", "--new", "--keys", " ".join(keys), "--dump", "json")
    assert resumed == one_go


@pytest.mark.parametrize("seed", range(1, 13))
def test_capture_restore_mid_game_keeps_every_stream_energy_and_order(registry, seed):
    """In process, without files: restore at a random key, then both games take the same keys."""
    dice = random.Random(seed)
    keys = [dice.choice(TOKENS) for _ in range(500)]
    cut = dice.randrange(50, 450)
    g = new_game(Setup(seed=seed), registry)
    for k in keys[:cut]:
        Session.of(g).press(k)
    for _ in range(20):  # a menu or cursor open is not saved (tests/test_pack.py): cut after it
        if Session.of(g).prompt is None:
            break
        Session.of(g).press(dice.choice(TOKENS))
    for key in ("esc", "a"):  # a menu whose letters no token gives (Identify which?), a question
        if Session.of(g).prompt is not None:
            Session.of(g).press(key)
    if not g.alive:
        Session.of(g).press("R")
    data = json.loads(json.dumps(capture(g)))
    h, _ = load(data, registry)
    assert dumps(h) == dumps(g)
    assert len(h.scheduler) == len(g.scheduler)
    assert sorted(h.scheduler.energy.values()) == sorted(g.scheduler.energy.values())
    for k in keys[cut:]:
        Session.of(g).press(k)
        Session.of(h).press(k)
        assert dumps(h) == dumps(g)


def test_the_save_stays_on_disk_while_the_run_is_played(home, capsys, registry):
    run(capsys, "--seed", "4", "--keys", "l l esc")
    saved = (home / "run.json").read_bytes()
    first = keeper.open_game(Setup(), registry, choice="continue")
    assert (first.seed, first.turn) == (4, 2)
    assert (home / "run.json").read_bytes() == saved  # kept, untouched: a crash now resumes it
    assert lock.holder(home / "run.json") == os.getpid()  # and marked in play
    Session.of(first).press("l")
    keeper.close(first)  # the session ends while the run goes on: a save point
    assert json.loads((home / "run.json").read_text())["turn"] == 3
    assert lock.holder(home / "run.json") is None


def test_quitting_writes_the_save_again(home, capsys):
    run(capsys, "--seed", "4", "--keys", "l esc")
    run(capsys, "--keys", "l esc")
    data = json.loads((home / "run.json").read_text())
    assert data["kind"] == "run" and data["schema"] == runspec.SCHEMA and data["keys"] == ["l", "l"]


def test_the_run_is_saved_at_each_new_level(home, registry):
    g = keeper.open_game(Setup(seed=1), registry)
    assert json.loads((home / "run.json").read_text())["depth"] == 1
    g.apply(ChangeLevel(2))  # as the stairs would
    Session.of(g).press(".")  # the key that ends the turn on the new level writes the save
    assert json.loads((home / "run.json").read_text())["depth"] == 2


def map_file(tmp_path, text="#######\n#@o...#\n#######\n"):
    path = tmp_path / "m.txt"
    path.write_text(text)
    return str(path)


def test_death_deletes_the_save_and_counts_in_the_profile(home, capsys, tmp_path):
    m = map_file(tmp_path)
    state, _ = run(capsys, "--map", m, "--keys", ". " * 30, "--dump", "json")
    assert state["alive"] is False
    assert not (home / "run.json").exists()
    profile = json.loads((home / "profile.json").read_text())
    assert profile["deaths"] == 1 and profile["runs"] == 1
    assert profile["top"][0]["cause"] == "killed by an orc on depth 1"
    morgue = next(home.glob("morgue-*.txt")).read_text()
    for needle in ("Preset:  undercroft", "Turns:   4", "HP:      0/20", "killed by an orc", "#@....#",
                   "The orc kills you."):
        assert needle in morgue


def test_quitting_a_dead_run_writes_no_save(home, capsys, tmp_path):
    run(capsys, "--map", map_file(tmp_path), "--keys", ". " * 30 + "esc")
    assert not (home / "run.json").exists()


def test_seed_map_game_and_new_start_new_runs(home, capsys):
    for args in (["--new"], ["--seed", "9"], ["--game", "undercroft"], ["--plugin", "fov=symmetric"],
                 ["--map", "m.txt"], ["--size", "80x43"]):
        assert wants_new(parser().parse_args(args))
    assert not wants_new(parser().parse_args(["--plugins-dir", "x", "--keys", "l"]))
    run(capsys, "--seed", "8", "--keys", "l l esc")
    state, _ = run(capsys, "--dump", "json")
    assert state["seed"] == 8


def test_saved_run_summary_for_the_title_screen(home, capsys):
    assert keeper.saved_run() is None
    run(capsys, "--seed", "6", "--keys", "l esc")
    info = keeper.saved_run()
    assert info["seed"] == 6 and info["game"] == "undercroft" and info["depth"] == 1
    assert (home / "run.json").exists()  # looking does not consume


def test_write_is_atomic_and_leaves_no_temporary_files(home):
    path = home / "x.json"
    for i in range(5):
        savefile.write_json(path, "test", 1, {"i": i})
    assert savefile.read_json(path, "test", 1)["i"] == 4
    assert sorted(p.name for p in home.iterdir()) == ["x.json"]


def test_migrations_upgrade_old_schemas(home):
    path = home / "old.json"
    savefile.write_json(path, "test", 1, {"hp": 3})
    data = savefile.read_json(path, "test", 2, {1: lambda d: {**d, "max_hp": d["hp"]}})
    assert data["schema"] == 2 and data["max_hp"] == 3
