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
    rows = bench_turn.turn_figures(repeats=2, turns=3)
    crowd = [row for row in rows if row.get("hunters")]
    assert [row["name"] for row in crowd] == ["turn 250x250, 500 monsters, 2 hunting",
                                              "turn 250x250, 500 monsters, 6 hunting"]
    for row in rows[:3]:
        low, high = row["spread"]
        assert row["unit"] == "ms" and low <= row["value"] <= high
    assert all(row["acted"] >= 0 and row["note"].endswith("acted a turn") for row in crowd)
    assert rows[-1]["name"] == "  ratio 6 hunting / 2 hunting"
