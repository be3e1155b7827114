"""The turn bench's crowd: the default game's own monsters, kept hunting, and rows that say how many
of them acted (timings themselves are figures, never asserted)."""

from __future__ import annotations

import random

from engine.cli.tools.bench import turn as bench_turn
from engine.core.loading.loader import load_registry
from engine.core.model.components import Monster


def test_the_crowd_is_the_default_games_monsters_with_their_own_behaviours_kept_hunting():
    registry = load_registry(entry_points=False)
    game = bench_turn.HuntingCrowd(registry, bench_turn.crowd_rules(registry), seed=3).start()
    try:
        game.keep_hunting(30, random.Random(3))
        assert len(game.keen) == 30
        for e in game.keen:  # nobody's behaviour was replaced (the crowd once chased greedily)
            monster = game.world.get(e, Monster)
            assert monster.behaviour == registry.monsters[monster.kind].behaviour
        seconds, acted = bench_turn.per_turn(game, 10, random.Random(3))
        assert seconds > 0 and acted > 0
        for e in game.keen:  # still hunting: awake and scheduled, alive
            assert game.world.get(e, Monster).awake and e in game.state.scheduler
    finally:
        game.close()


def test_the_rows_give_the_spread_and_how_many_acted(monkeypatch):
    monkeypatch.setattr(bench_turn, "HUNTERS", (2, 6))
    monkeypatch.setattr(bench_turn, "CROWDS", (3, 8))
    monkeypatch.setattr(bench_turn, "AMONGST", (3, 9))
    monkeypatch.setattr(bench_turn, "AMONG", 2)
    rows = bench_turn.turn_figures(repeats=2, turns=3)
    crowd = [row for row in rows if row.get("hunters")]
    assert [row["name"] for row in crowd] == ["turn 250x250, 500 monsters, 2 hunting",
                                              "turn 250x250, 500 monsters, 6 hunting"]
    for row in rows[:3]:
        low, high = row["spread"]
        assert row["unit"] == "ms" and low <= row["value"] <= high
    assert all(row["acted"] >= 0 and row["note"].endswith("acted a turn") for row in crowd)
    names = [row["name"] for row in rows]
    assert "  ratio 6 hunting / 2 hunting" in names


def test_a_monsters_action_is_timed_on_levels_of_each_crowd_all_hunting(monkeypatch):
    monkeypatch.setattr(bench_turn, "HUNTERS", (2,))
    monkeypatch.setattr(bench_turn, "CROWDS", (3, 8))
    monkeypatch.setattr(bench_turn, "AMONGST", (1, 9))
    monkeypatch.setattr(bench_turn, "AMONG", 2)
    runs = []
    real = bench_turn.crowd_turn

    def counted(registry, hunters, seed, turns, monsters=bench_turn.CROWD):
        runs.append((monsters, hunters))
        return real(registry, hunters, seed, turns, monsters)

    monkeypatch.setattr(bench_turn, "crowd_turn", counted)
    rows = bench_turn.turn_figures(repeats=2, turns=3)
    # every monster hunting, or 2 among the sleeping rest (the one of a level of 1 hunting), alternated
    assert sorted(set(runs)) == [(1, 1), (3, 3), (8, 8), (9, 2), (500, 2)]
    actions = [row for row in rows if row.get("monsters") and not row.get("among")]
    assert [row["name"] for row in actions] == ["action 250x250, 3 monsters, all hunting",
                                                "action 250x250, 8 monsters, all hunting"]
    for row in actions:
        low, high = row["spread"]
        assert row["unit"] == "us" and low <= row["value"] <= high and row["note"].endswith("acted a turn")
    among = [row for row in rows if row.get("among")]
    assert [row["name"] for row in among] == ["turn 250x250, 1 hunting among 1 monsters",
                                              "turn 250x250, 2 hunting among 9 monsters"]
    for row in among:
        low, high = row["spread"]
        assert row["unit"] == "ms" and low <= row["value"] <= high and row["note"].endswith("acted a turn")
    names = [row["name"] for row in rows]
    assert "  ratio action 8 monsters / 3 monsters" in names
    assert rows[-1]["name"] == "  ratio turn 9 monsters / 1 monsters, 1 hunting" and rows[-1]["target"] == "< 1.5x"


def test_the_action_rows_give_the_cost_per_action_and_judge_the_ratio():
    rows = bench_turn.action_rows({50: [(1.0, 50.0), (2.0, 40.0)], 500: [(10.0, 500.0), (30.0, 400.0)]})
    assert [row["value"] for row in rows[:2]] == [35.0, 47.5]  # µs per action: medians of 20, 50 and 20, 75
    assert rows[2]["value"] == 1.25 and rows[2]["verdict"] == "met"  # the rounds' ratios: 1.0 and 1.5
