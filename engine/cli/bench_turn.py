"""Turn figures for ``python -m engine bench``: engine time per player turn in the default game, and
on a crowded map with 10, 100 and 500 monsters awake (the scheduler's cost grows linearly)."""

from __future__ import annotations

import dataclasses
import random
import statistics
import time

from engine.core.components import Actor, Fighter, Monster
from engine.core.game import Game
from engine.core.keys import DEFAULT_KEYS
from engine.core.setup import default_game, load

MOVES = [t for t, c in DEFAULT_KEYS.items() if c.startswith("move") or c == "wait"]


def _per_turn(game: Game, n: int, keys: random.Random) -> float:
    """Seconds per player turn over ``n`` random move keys. Wall bumps take no turn but their
    time is counted, so this errs on the slow side. The player cannot die: the bench is not
    about the rules."""
    fighter = game.world.get(game.player, Fighter)
    turn0 = game.turn
    start = time.perf_counter()
    for _ in range(n):
        fighter.hp = fighter.max_hp
        game.press(keys.choice(MOVES))
    return (time.perf_counter() - start) / max(1, game.turn - turn0)


def turn_figures(repeats: int = 7, turns: int = 200, registry=None) -> list[dict]:
    """Engine time per player turn: the default game at 80x43, depth 5; and a 250x250 level of 500
    monsters with 10, 100 and 500 of them awake (sleeping monsters cost nothing; awake ones are
    what the scheduler pays for, linearly)."""
    registry = registry or load()
    rules = default_game(registry)
    # the crowd chases greedily (bunyip's behaviour): it never goes back to sleep, so "500 awake"
    # stays 500 awake for the whole measurement, and the figure is the turn loop's own cost
    chasers = {name: dataclasses.replace(kind, behaviour="chase") for name, kind in registry.monsters.items()}
    crowd = dataclasses.replace(rules, width=250, height=250, monster_count=(500, 0, 0, 0),
                                monster_free_start_room=False, monster_kinds=chasers)
    cases = [
        ("turn 80x43 depth 5", rules, 5, 0, "< 1 ms"),
        ("turn 250x250, 500 chasers, 10 awake", crowd, 1, 10, "< 5 ms"),
        ("turn 250x250, 500 chasers, 100 awake", crowd, 1, 100, "a figure"),
        ("turn 250x250, 500 chasers, 500 awake", crowd, 1, 500, "< 5 ms; 500/10 < 15x"),
    ]
    rows = []
    for name, case_rules, depth, awake, target in cases:
        samples = []
        for r in range(repeats):
            game = Game(registry, case_rules, seed=1000 + r).start()
            if depth != 1:
                game.enter_level(depth)
            game.world.get(game.player, Fighter).max_hp = 10**9
            if awake:
                sleeping = sorted(e for e, m in game.world.query(Monster) if not m.awake)
                for e in random.Random(r).sample(sleeping, min(awake, len(sleeping))):
                    game.world.get(e, Monster).awake = True
                    game.scheduler.add(e, game.world.get(e, Actor).speed)
            samples.append(_per_turn(game, turns, random.Random(r)) * 1000)
            game.close()
        rows.append({"name": name, "value": statistics.median(samples), "unit": "ms", "target": target,
                     "awake": awake})
    by_awake = {row["awake"]: row["value"] for row in rows if row["awake"]}
    if by_awake.get(10):
        rows.append({"name": "  ratio 500 awake / 10 awake", "value": by_awake[500] / by_awake[10], "unit": "x",
                     "target": "< 15x"})
    return rows
