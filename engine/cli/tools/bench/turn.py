"""Turn figures for ``python -m engine bench``: engine CPU time per player turn in the default game,
and with a hunting crowd: 10, 100 and 500 of a 250x250 level's 500 monsters kept hunting the player;
and a monster's action's CPU time on levels of 50, 200 and 500 monsters, all of them hunting, and a
turn's with 100 hunting among 100, 500 and 1000 monsters, the rest asleep, which must not grow with
the number of monsters (the spatial index and the shared distance maps are what keep it so).
The game is the one shipped: the built-in plugins only (what is installed varies), unless the
caller passes a registry.

The crowd is the default game's own monsters with their own behaviours (``hunt``, ``coward``,
``archer``). A hunter is kept hunting by noticing the player wherever it stands (as if its sight
were unlimited and nothing hid the player): every turn it takes the path a monster takes when it
sees the player, a shortest walk around walls and the crowd, and it never loses interest and goes
back to sleep. Each row says how many monsters acted (returned an action) per player turn, so a
figure of idle scheduler slots cannot pass for a crowd's."""

from __future__ import annotations

import random
import statistics
import time

from engine.cli.tools.timing import alternated, paired_ratio, summary, verdict
from engine.core.loading.loader import load_registry
from engine.core.model.components import Actor, Fighter, Monster
from engine.core.play.session import Session
from engine.core.play.setup import default_game
from engine.core.turn.acting import Acting
from engine.core.turn.game import Game
from engine.core.turn.keys import DEFAULT_KEYS
from engine.core.turn.sight import Sight

MOVES = [t for t, c in DEFAULT_KEYS.items() if c.startswith("move") or c == "wait"]
CROWD = 500  # monsters on the crowd's 250x250 level
HUNTERS = (10, 100, 500)  # of them kept hunting
CROWDS = (50, 200, 500)  # monsters on a level where all of them hunt: a monster's action at each
AMONG = 100  # hunting among the sleeping rest of a level of each of AMONGST monsters
AMONGST = (100, 500, 1000)


class KeenSight(Sight):
    """A run's sight where the game's ``keen`` monsters notice the player wherever they stand."""

    def notices(self, entity: int) -> bool:
        return entity in self.run.keen or super().notices(entity)


class CountedActing(Acting):
    """A game's acting that counts the monsters' actions in the game's ``acted``."""

    def _behaviour(self, name: str) -> tuple:
        fn, plugin, where = super()._behaviour(name)
        game = self.game

        def counted(api, me):
            action = fn(api, me)
            if action is not None:
                game.acted += 1
            return action

        entry = self._behaviours[name] = (counted, plugin, where)
        return entry


class HuntingCrowd(Game):
    """The game, with a set of monsters (``keen``) that notice the player wherever they stand, and a
    count of the monsters' actions."""

    keen: frozenset[int] = frozenset()
    acted = 0  # actions the monsters' behaviours returned

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sight, self.acting = KeenSight(self), CountedActing(self)

    def keep_hunting(self, count: int, rng: random.Random) -> None:
        """Wake ``count`` of the level's monsters, chosen with ``rng``, and keep them hunting: they
        cannot die either (the player's blows would thin the crowd as the figure is taken)."""
        monsters = sorted(e for e, _ in self.world.query(Monster))
        self.keen = frozenset(rng.sample(monsters, min(count, len(monsters))))
        for e in sorted(self.keen):
            fighter = self.world.get(e, Fighter)
            fighter.hp = fighter.max_hp = 10**9
            monster = self.world.get(e, Monster)
            if not monster.awake:
                monster.awake = True
                self.state.scheduler.add(e, self.world.get(e, Actor).speed)


def per_turn(game: Game, n: int, keys: random.Random) -> tuple[float, float]:
    """(CPU seconds per player turn, monster actions per player turn) over ``n`` random move keys.
    Wall bumps take no turn but their time is counted, so this errs on the slow side. The player
    cannot die: the bench is not about the rules."""
    fighter = game.world.get(game.player, Fighter)
    turn0, acted0 = game.turn, getattr(game, "acted", 0)
    spent = 0.0
    session = Session.of(game)
    for _ in range(n):
        fighter.hp = fighter.max_hp
        token = keys.choice(MOVES)
        start = time.process_time()
        session.press(token)
        spent += time.process_time() - start
    turns = max(1, game.turn - turn0)
    return spent / turns, (getattr(game, "acted", 0) - acted0) / turns


def crowd_rules(registry, monsters: int = CROWD):
    """The default game on a 250x250 level of ``monsters`` monsters, the start room included, with
    no doors (its rats are animals that cannot open them: a crowd shut out of the player's room
    would measure idle hunters), traps or set pieces: the hunt is the figure."""
    import dataclasses

    game = default_game(registry)
    params = {name: table for name, table in game.params.items() if name not in ("doors", "traps", "vaults")}
    return dataclasses.replace(game, width=250, height=250, monster_count=(monsters, 0, 0, 0),
                               monster_free_start_room=False, params=params)


def crowd_turn(registry, hunters: int, seed: int, turns: int, monsters: int = CROWD) -> tuple[float, float]:
    """(CPU ms per player turn, monster actions per turn) for ``hunters`` of a crowd of ``monsters``
    kept hunting."""
    game = HuntingCrowd(registry, crowd_rules(registry, monsters), seed=seed).start()
    try:
        game.world.get(game.player, Fighter).max_hp = 10**9
        game.keep_hunting(hunters, random.Random(seed))
        seconds, acted = per_turn(game, turns, random.Random(seed))
    finally:
        game.close()
    return seconds * 1000, acted


def _row(name: str, samples: list[float], target: str, **extra) -> dict:
    return {"group": "turn", "name": name, **summary(samples), "unit": "ms", "target": target, **extra}


def turn_figures(repeats: int = 7, turns: int = 200, registry=None) -> list[dict]:
    """Engine CPU time per player turn (medians over ``repeats`` seeds, with the spread): the
    default game at 80x43, depth 5; and the hunting crowd at 250x250, 10, 100 and 500 of its
    monsters kept hunting."""
    registry = registry or load_registry(entry_points=False)  # the game as shipped: what is installed varies
    rules = default_game(registry)
    samples = []
    for r in range(repeats):
        game = Game(registry, rules, seed=1000 + r).start()
        game.enter_level(5)
        game.world.get(game.player, Fighter).max_hp = 10**9
        samples.append(per_turn(game, turns, random.Random(r))[0] * 1000)
        game.close()
    rows = [_row("turn 80x43 depth 5", samples, "< 1 ms", awake=0)]
    rows[0]["verdict"] = verdict({"median_ms": rows[0]["value"]}, {"median_ms": 1.0})
    # the crowds alternated seed by seed (10, 100, 500 hunting on seed 1000, then on seed 1001 in
    # another order, ...): a ratio between two crowd sizes pairs runs that saw the same load. The
    # levels of fewer monsters, all hunting, run in the same rounds (500 of 500 is the crowd's own)
    runs = {**{(CROWD, h): h for h in HUNTERS}, **{(n, n): n for n in CROWDS},
            **{(n, min(AMONG, n)): n for n in AMONGST}}
    seeds = {key: iter(range(1000, 1000 + repeats)) for key in runs}
    figures = alternated({key: (lambda key=key: crowd_turn(registry, key[1], next(seeds[key]), turns, key[0]))
                          for key in runs}, repeats)
    for hunters in HUNTERS:
        samples = figures[(CROWD, hunters)]
        acted = statistics.median(a for _, a in samples)
        row = _row(f"turn 250x250, {CROWD} monsters, {hunters} hunting", [ms for ms, _ in samples],
                   "< 5 ms" if hunters == max(HUNTERS) else "a figure", hunters=hunters, acted=acted,
                   note=f"{acted:.0f} acted a turn")
        if hunters == max(HUNTERS):
            row["verdict"] = verdict({"median_ms": row["value"]}, {"median_ms": 5.0})
        rows.append(row)
    low, high = min(HUNTERS), max(HUNTERS)
    ratio = paired_ratio([ms for ms, _ in figures[(CROWD, high)]], [ms for ms, _ in figures[(CROWD, low)]])
    if ratio:
        row = {"name": f"  ratio {high} hunting / {low} hunting", "value": ratio["ratio"],
               "spread": ratio["ratio_spread"], "unit": "x", "target": "< 15x"}
        row["verdict"] = verdict({"ratio": row["value"]}, {"ratio": 15.0})
        rows.append(row)
    rows.extend(action_rows({n: figures[(n, n)] for n in CROWDS}))
    rows.extend(among_rows({n: figures[(n, min(AMONG, n))] for n in AMONGST}, AMONG))
    return rows


def action_rows(figures: dict[int, list[tuple[float, float]]]) -> list[dict]:
    """A monster's action's CPU µs (a player turn's time over the actions the monsters took in it)
    on levels of each number of monsters, all hunting, from crowd_turn's samples; and the ratio of
    the most to the fewest, which must stay under 1.5x: a monster's step must not grow with the
    number of monsters (the fewest pay more of the turn's shared costs, the player's and the
    goal's map, each)."""
    rows, per = [], {}
    for monsters, samples in figures.items():
        per[monsters] = [ms * 1000 / acted if acted else 0.0 for ms, acted in samples]
        acted = statistics.median(a for _, a in samples)
        rows.append({"group": "turn", "name": f"action 250x250, {monsters} monsters, all hunting",
                     **summary(per[monsters]), "unit": "us", "target": "a figure", "monsters": monsters,
                     "acted": acted, "note": f"{acted:.0f} acted a turn"})
    low, high = min(figures), max(figures)
    ratio = paired_ratio(per[high], per[low])
    if ratio and low != high:
        row = {"name": f"  ratio action {high} monsters / {low} monsters", "value": ratio["ratio"],
               "spread": ratio["ratio_spread"], "unit": "x", "target": "< 1.5x"}
        row["verdict"] = verdict({"ratio": row["value"]}, {"ratio": 1.5})
        rows.append(row)
    return rows


def among_rows(figures: dict[int, list[tuple[float, float]]], hunters: int) -> list[dict]:
    """The CPU ms of a player turn with ``hunters`` monsters hunting on levels of each number of
    monsters, the rest asleep, from crowd_turn's samples, with how many acted; and the ratio of the
    most monsters' to the fewest's, which must stay under 1.5x: the same hunters cost the same
    among 100 monsters or 1000 (the sleeping rest cost nothing; a turn is judged, not an action:
    the more monsters sleep in the way, the more hunters find no step and wait, their turn taken
    all the same)."""
    rows = []
    for monsters, samples in figures.items():
        acted = statistics.median(a for _, a in samples)
        among = min(hunters, monsters)
        rows.append({"group": "turn", "name": f"turn 250x250, {among} hunting among {monsters} monsters",
                     **summary([ms for ms, _ in samples]), "unit": "ms", "target": "a figure",
                     "monsters": monsters, "among": among, "acted": acted, "note": f"{acted:.0f} acted a turn"})
    low, high = min(figures), max(figures)
    ratio = paired_ratio([ms for ms, _ in figures[high]], [ms for ms, _ in figures[low]])
    if ratio and low != high:
        row = {"name": f"  ratio turn {high} monsters / {low} monsters, {min(hunters, low)} hunting",
               "value": ratio["ratio"], "spread": ratio["ratio_spread"], "unit": "x", "target": "< 1.5x"}
        row["verdict"] = verdict({"ratio": row["value"]}, {"ratio": 1.5})
        rows.append(row)
    return rows
