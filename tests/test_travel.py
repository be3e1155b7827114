"""Travel: auto-explore (o), the stairs (> off them), a clicked cell. Each step is a normal turn; a
travel stops at once at news, a blow or a new level; replays record the key, not the steps."""

import json

import pytest

from engine import Fighter, Monster, testing
from engine.cli.main import main
from engine.core.model.events import KeyPlayed
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.turn.keys import check_token
from engine.persist import runsave

STEP_KEYS = {(0, -1): "k", (0, 1): "j", (-1, 0): "h", (1, 0): "l", (-1, -1): "y", (1, -1): "u", (-1, 1): "b",
             (1, 1): "n"}
ROOMS = """
    ##############
    #@...#.......#
    #....#.......#
    #....###.#####
    #............#
    ##.###########
    #......#.....#
    #......#.....#
    #............#
    ##############
"""


def test_explore_uncovers_the_whole_map_and_says_so(registry):
    g = testing.game_from_map(registry, ROOMS)
    s = testing.press(g, "o")
    walkable = g.level.terrain != 0
    assert (g.floor.seen | ~walkable).all() and s["turn"] > 10  # every floor cell seen, one key
    assert s["messages"][-1] == "Explored all you can reach."
    assert testing.press(g, "o")["turn"] == s["turn"]  # nothing left: no time passes


def test_explore_stops_at_once_when_a_monster_comes_into_view(registry):
    g = testing.game_from_map(registry, ROOMS.replace("#......#.....#\n    #............#",
                                                      "#......#.....#\n    #..........r.#"))
    s = testing.press(g, "o")
    rat = g.api.monsters()[0]
    assert g.api.sees(*g.api.position(rat))  # it stopped the moment the rat came into view
    assert "Explored all you can reach." not in s["messages"]  # not because it was done
    turn = s["turn"]
    assert g.api.component(rat, Monster).awake  # it noticed the player
    assert testing.press(g, "o")["turn"] == turn  # and it will not go on with the awake rat in view


# a room, the way on down a corridor: from @ the rat's corner is in view (the light reaches 8)
# but out of the rat's sight (6), and every step down the corridor takes the player farther
HALL = """
    #########
    #......r#
    #@......#
    #.#######
    #.#######
    #.#######
    #.#######
    #.#######
    #.#######
    #.#######
    #.#######
    #.#######
    #########
"""


def test_a_sleeping_monster_in_view_does_not_stop_explore(registry):
    g = testing.game_from_map(registry, HALL)
    rat = g.api.monsters()[0]
    assert g.api.sees(*g.api.position(rat)) and not g.api.component(rat, Monster).awake
    s = testing.press(g, "o")
    assert s["player"]["y"] > 2 and s["turn"] > 0  # it went on down the corridor
    assert s["messages"][-1] == "Explored all you can reach."


def test_an_awake_monster_in_view_stops_explore_and_is_named(registry):
    g = testing.game_from_map(registry, HALL.replace("#......r#", "#..r...g#"))
    rat, goblin = sorted(g.api.monsters(), key=lambda m: g.api.name_of(m) != "rat")
    assert g.api.component(goblin, Monster).awake  # it noticed the player at once
    g.api.sleep(rat)  # nearer, but asleep: not the one named
    s = testing.press(g, "o")
    assert s["turn"] == 0 and s["messages"][-1] == "Not with the goblin in view."
    s = testing.press(g, "travel:1,3")  # every travel is refused the same way
    assert s["turn"] == 0 and s["messages"][-1] == "Not with the goblin in view."


def test_a_fleeing_monster_in_view_does_not_stop_explore(registry):
    g = testing.game_from_map(registry, HALL.replace("#......r#", "#...k...#"))
    kobold = g.api.monsters()[0]
    assert g.api.component(kobold, Monster).awake  # it noticed the player
    assert testing.press(g, "o")["messages"][-1] == "Not with the kobold in view."  # hale, it hunts
    g.api.damage(kobold, g.api.hp(kobold)[0] - 1)  # 1 HP left: below a coward's flee share
    testing.press(g, ".")  # its turn: it runs, and says so
    assert g.api.declared(kobold) == "fleeing"
    turn = g.turn
    s = testing.press(g, "o")
    assert s["turn"] > turn and s["messages"][-1] == "Explored all you can reach."  # on past it


def test_a_resumed_run_walks_past_a_fleeing_monster_as_the_unbroken_one(registry):
    """What a behaviour declared ("fleeing") is saved with the run: a resumed run refused the walk
    the unbroken run took (a replay and a resume of one run parted there)."""
    g = testing.game_from_map(registry, HALL.replace("#......r#", "#...k...#"))
    kobold = g.api.monsters()[0]
    g.api.damage(kobold, g.api.hp(kobold)[0] - 1)
    testing.press(g, ".")
    data = json.loads(json.dumps(runsave.capture(g)))
    assert data["declared"] == [[kobold, "fleeing"]]
    resumed, _ = runsave.load(data, registry)
    assert testing.press(resumed, "o") == testing.press(g, "o")  # walked past it, both
    bad = {**data, "declared": [[999, "fleeing"]]}
    with pytest.raises(ValueError, match=r"declared\[0\]: expected the id of a listed entity, got 999"):
        runsave.load(bad, registry)
    with pytest.raises(ValueError, match="declared"):
        runsave.load({**data, "declared": [[kobold, "x" * 31]]}, registry)


def test_travel_to_the_stairs_stops_when_hit(registry):
    g = testing.game_from_map(registry, """
        ###############
        #@............#
        #.............#
        #############.#
        #o..........>.#
        ###############
    """)
    orc = g.api.monsters()[0]
    from engine import Monster

    g.world.get(orc, Monster).awake = True  # hunting already: it will meet the player on the way
    g.scheduler.add(orc, 100)
    from engine.plugins.rules.monster_ai import Hunting

    g.api.add_component(orc, Hunting(1, 1, 8))
    g.floor.seen[:] = True  # the stairs are known
    hp = g.api.hp(g.player)[0]
    testing.press(g, ">")
    assert g.api.hp(g.player)[0] < hp and g.depth == 1  # stopped by the blow, short of the stairs
    assert g.api.position(g.player) != g.level.stairs


def test_downstairs_without_known_stairs_says_so_and_takes_no_time(registry):
    g = testing.game_from_map(registry, ROOMS.replace("#......#.....#\n    #......#.....#",
                                                      "#......#.....#\n    #......#...>.#"))
    s = testing.press(g, ">")
    assert s["turn"] == 0 and s["messages"][-1] == "You have not found the stairs down."


def test_travel_does_not_start_with_a_monster_in_view(registry):
    g = testing.game_from_map(registry, """
        #######
        #@..r.#
        #######
    """)
    s = testing.press(g, "o")
    assert s["turn"] == 0 and s["messages"][-1] == "Not with the rat in view."


def test_a_click_travels_over_known_floor(registry):
    g = testing.game_from_map(registry, ROOMS)
    s = testing.press(g, "travel:3,2")
    assert (s["player"]["x"], s["player"]["y"]) == (3, 2) and s["turn"] == 2
    s = testing.press(g, "travel:12,8")  # never seen: no known way
    assert s["messages"][-1] == "You know no way there." and s["turn"] == 2
    s = testing.press(g, "travel:500,9")  # off the map (and off the box of what is known)
    assert s["messages"][-1] == "You know no way there." and s["turn"] == 2


def test_explore_on_a_big_map_searches_the_box_of_what_is_known(monkeypatch):
    """On a 1000x1000 map, the masks and costs of an explore step, and its search, are made on
    the box of the cells seen (one wider), not the million cells (it cost 5-10 ms a step)."""
    from engine.core.play import travel as travel_module
    from engine.core.play.travel import Travel, next_step

    g = new_game(Setup(seed=4, size=(1000, 1000)))
    shapes = []
    real_grown, real_map = travel_module.grown, g.api.distance_map
    monkeypatch.setattr(travel_module, "grown", lambda mask: shapes.append(mask.shape) or real_grown(mask))
    monkeypatch.setattr(g.api, "distance_map",
                        lambda goals, cost=None: shapes.append(cost.shape) or real_map(goals, cost=cost))
    for _ in range(30):
        step = next_step(g.api, Travel("explore"))
        if not isinstance(step, tuple):
            break
        Session.of(g).press(STEP_KEYS[step])
    ys, xs = g.floor.seen.nonzero()
    box = (ys.max() - ys.min() + 3, xs.max() - xs.min() + 3)  # the seen cells' box, one wider each way
    assert len(shapes) >= 40 and all(h <= box[0] and w <= box[1] for h, w in shapes), (shapes, box)


def test_step_by_step_travel_interrupted_records_its_steps(registry):
    """The window walks a travel one drawn step at a time; a key press stops it, and what is
    recorded (o:3) makes a replay stop at the same place."""
    g = testing.game_from_map(registry, ROOMS)
    heard = []
    g.listeners.append(lambda event, game: isinstance(event, KeyPlayed) and heard.append(event.token))
    assert Session.of(g).press("o", step_by_step=True).changed and Session.of(g).travel is not None and heard == []
    for _ in range(3):
        assert Session.of(g).step().walking
    Session.of(g).interrupt()
    assert heard == ["o:3"] and g.turn == 3 and Session.of(g).travel is None
    h = testing.game_from_map(registry, ROOMS)
    testing.press(h, "o:3")
    assert h.api.position(h.player) == g.api.position(g.player) and h.turn == 3


@pytest.mark.parametrize("token", ["o:12", "travel:3,4", "travel:3,4:7", ">:2"])
def test_travel_tokens_are_keys(token):
    assert check_token(token) == token


@pytest.mark.parametrize("token", ["o:0", "travel:3", "travel:3,4,5", "h:x", "travel:-1,2"])
def test_bad_travel_tokens_are_refused(token):
    with pytest.raises(ValueError, match="unknown key"):
        check_token(token)


@pytest.mark.parametrize("keys", ["o o:4 > o . travel:3,3", "Z o:30 Z Z:3 o Z"])  # walks; rests (Z)
def test_a_run_with_travel_replays_to_the_same_bytes(tmp_path, monkeypatch, capsys, keys):
    monkeypatch.setenv("UNDERCROFT_HOME", str(tmp_path / "home"))
    rec = tmp_path / "r.json"
    assert main(["--headless", "--seed", "5", "--keys", keys, "--record", str(rec), "--dump", "json"]) == 0
    original = capsys.readouterr().out
    assert json.loads(rec.read_text())["keys"] == keys.split()
    assert main(["replay", str(rec), "--dump", "json"]) == 0
    assert capsys.readouterr().out == original


def test_presets_without_travel_keys_ignore_them(tmp_path):
    g = new_game(Setup(game="rogue-sdl", seed=2))
    before = g.api.position(g.player)
    session = Session.of(g)
    assert not session.press("o").changed and not session.press("travel:1,1").changed
    assert g.api.position(g.player) == before


def _whole_map_step(api, travel):
    """The step explore and travel took before their search was cut to what the player knows:
    walking over every unknown cell toward every unknown cell, over the whole map."""
    import numpy as np

    from engine.core.play import gathering
    from engine.kit.path import downhill

    def known_cost(api, unknown_passable):  # the player's knowledge over the whole map
        seen, walls, cost = api.seen(), api.walls(), api.walk_cost()
        floor = seen & ~walls
        walkable = (floor | ~seen) if unknown_passable else floor
        return walkable if cost.dtype == bool else np.where(walkable, np.where(seen, cost, 1.0), 0.0)

    here = api.position(api.player)
    occupied = {api.position(m) for m in api.monsters()}
    items = gathering.goals(api, travel.gathering) if travel.kind == "explore" else []
    if items:  # explore walks to the items it picks up first, over known floor
        cost = known_cost(api, unknown_passable=False)
        dist = api.distance_map([c for c in items if cost[c[1], c[0]] > 0], cost=cost)
        step = downhill(dist, here, cost, api.moves, blocked=occupied) if np.isfinite(dist[here[1], here[0]]) else None
        if step is not None:  # else (none reached, or a monster in the way) on to the unknown
            return step[0] - here[0], step[1] - here[1]
    if travel.kind == "explore":
        cost, goals = known_cost(api, unknown_passable=True), ~api.seen()
    else:
        cost, goals = known_cost(api, unknown_passable=False), [travel.goal]
        occupied.discard(travel.goal)
    dist = api.distance_map(goals, cost=cost)
    if not np.isfinite(dist[here[1], here[0]]):
        return None
    step = downhill(dist, here, cost, api.moves, blocked=occupied)
    return None if step is None else (step[0] - here[0], step[1] - here[1])


@pytest.mark.parametrize("generator,seed", [("caves", 1), ("bsp", 2), ("rooms_and_mazes", 3), ("drunkard", 4)])
def test_steps_searched_within_what_is_known_are_the_whole_maps_steps(generator, seed):
    """Explore searches known floor and the unknown cells beside it, inside their box; travel known
    floor inside its box: each step is the one the search over the whole map would take."""
    from engine.core.play.travel import Travel, next_step
    from engine.core.turn.actions import Action

    g = new_game(Setup(seed=seed, size=(90, 50), plugins=[f"generator={generator}"]))
    fighter = g.api.component(g.player, Fighter)
    fighter.hp = fighter.max_hp = 10_000  # the walk is the test, not the fights on the way
    compared = 0
    for turn in range(120):
        explore = Travel("explore")
        step = next_step(g.api, explore)
        if isinstance(step, str):
            break
        if isinstance(step, Action):  # it picks up what lies here
            g.take_turn(step)
            continue
        assert step == _whole_map_step(g.api, Travel("explore")), f"turn {turn}"
        far = [(x, y) for y, x in zip(*(g.floor.seen & (g.level.terrain != 0)).nonzero(), strict=True)][::-97]
        for goal in far[:3]:  # travel to known cells far apart
            there = next_step(g.api, Travel("travel", goal=goal))
            if isinstance(there, tuple):
                assert there == _whole_map_step(g.api, Travel("travel", goal=goal)), f"turn {turn} to {goal}"
                compared += 1
        Session.of(g).press(STEP_KEYS[step])
        if not g.alive:
            break
        compared += 1
    assert compared > 50
