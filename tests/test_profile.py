"""The profile: it counts runs, deaths, escapes, depth and gold, keeps the best ten, survives all."""

import json

import pytest

from engine.cli.main import main
from engine.persist import profile


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = tmp_path / "home"
    monkeypatch.setenv("UNDERCROFT_HOME", str(folder))
    return folder


def end(score_gold: int, depth: int = 1, escaped: bool = False, seed: int = 1):
    return profile.run_ended(escaped=escaped, seed=seed, preset="undercroft", depth=depth, turns=10,
                             gold=score_gold, cause="killed by a rat", date="2026-01-01 00:00")


def test_counts_and_the_best_ten(home):
    profile.run_started()
    for i in range(12):
        end(i * 10, seed=i)
    end(0, depth=3, escaped=True, seed=99)
    p = profile.load()
    assert (p["runs"], p["deaths"], p["escapes"], p["deepest"]) == (1, 12, 1, 3)
    assert p["gold"] == sum(i * 10 for i in range(12))
    assert len(p["top"]) == 10
    assert [e["score"] for e in p["top"]] == [700, 110, 100, 90, 80, 70, 60, 50, 40, 30]
    assert p["top"][0]["seed"] == 99


def test_scores_command_text_and_json(home, capsys):
    end(42, depth=2, seed=5)
    assert main(["scores"]) == 0
    text = capsys.readouterr().out
    assert "Deaths 1" in text and "killed by a rat" in text and " 142 " in text
    assert main(["scores", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["top"][0] == {"score": 142, "seed": 5, "preset": "undercroft", "depth": 2, "turns": 10,
                              "cause": "killed by a rat", "date": "2026-01-01 00:00"}


def test_a_fresh_profile_when_none_exists(home, capsys):
    assert main(["scores", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == profile.fresh()


def test_it_survives_a_bad_run_save_and_counts_the_runs(home, capsys):
    home.mkdir(parents=True)
    end(7)
    (home / "run.json").write_text("{not json")
    assert main(["--headless", "--keys", "l"]) == 0
    assert "run save" in capsys.readouterr().err
    p = profile.load()
    assert p["deaths"] == 1 and p["runs"] == 1 and p["top"][0]["score"] == 7


def test_deepest_depth_follows_the_player_down(home, capsys, tmp_path):
    m = tmp_path / "m.txt"
    m.write_text("#####\n#@.>#\n#####\n")
    assert main(["--headless", "--map", str(m), "--keys", "l l >"]) == 0
    assert profile.load()["deepest"] == 2


def test_an_escape_is_counted_and_scored(home, registry):
    from engine.core.components import Position
    from engine.core.setup import Setup
    from engine.persist import keeper

    g = keeper.open_game(Setup(seed=4), registry)
    me = g.world.get(g.player, Position)
    step = next((dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if g.passable(me.x + dx, me.y + dy))
    g.level.exit = (me.x + step[0], me.y + step[1])  # as a preset's exit would be
    g.press({(1, 0): "l", (-1, 0): "h", (0, 1): "j", (0, -1): "k"}[step])
    p = profile.load()
    assert (p["escapes"], p["deaths"], p["runs"]) == (1, 0, 2)  # the escape, and the next run begun
    assert p["top"][0]["cause"] == "escaped from depth 1" and p["top"][0]["score"] == 500
