"""The default game's monsters hunt: they path around what a greedy step sticks on, remember where
they last saw the player, search there, go back to sleep, and the cowardly flee along a safety map."""

import dataclasses

from engine import Monster, load_registry, testing
from engine.plugins.rules.monster_ai import SEARCH, Hunting, hunt

CUP = """
    #########
    #@......#
    #.......#
    #...###.#
    #...#o#.#
    #...#.#.#
    #.......#
    #########
"""


def game_with(registry, picture: str, seed: int = 1):
    """A started default game whose first level is ``picture`` (seed 1, as these tests were written for)."""
    return testing.game_from_map(registry, picture, seed=seed)


def wake(game, monster, remembered):
    """As if it saw the player at ``remembered`` a moment ago."""
    game.world.get(monster, Monster).awake = True
    game.scheduler.add(monster, 100)
    game.api.add_component(monster, Hunting(*remembered, search=SEARCH))


def test_a_monster_walks_around_the_walls_a_greedy_step_sticks_on(registry):
    g = game_with(registry, CUP)
    (orc,) = g.api.monsters()
    x, y = g.api.position(orc)
    # the old greedy chase: toward the player by the diagonal, else straight: every one is a wall
    assert all(g.api.is_wall(x + dx, y + dy) for dx, dy in ((-1, -1), (-1, 0), (0, -1)))
    wake(g, orc, g.api.position(g.player))
    positions = []
    for _ in range(14):
        testing.press(g, ".")
        positions.append(g.api.position(orc))
    assert positions[0] == (5, 5)  # out of the cup the way it opens, away from the player first
    assert g.api.distance(orc, g.player) <= 1 or not g.alive  # and around to the player


def test_a_monster_searches_where_it_last_saw_the_player_then_sleeps(registry):
    hall = "#" * 60 + "\n#@" + "." * 47 + "o" + "." * 9 + "#\n#" + "." * 58 + "#\n" + "#" * 60
    g = game_with(registry, hall)  # the player far beyond the light's reach: never seen again
    (orc,) = g.api.monsters()
    wake(g, orc, (44, 1))  # the player was last seen there
    for _ in range(40):
        testing.press(g, ".")
        if not g.world.get(orc, Monster).awake:
            break
    assert not g.world.get(orc, Monster).awake and orc not in g.scheduler  # asleep: it costs nothing now
    assert g.api.component(orc, Hunting).search == 0


def test_a_hunter_notices_the_player_and_closes_in_around_another_monster(registry):
    g = game_with(registry, """
        #########
        #@.r.o..#
        #.......#
        #########
    """)
    orc = next(e for e in g.api.monsters() if g.api.name_of(e) == "orc")
    for _ in range(6):
        testing.press(g, ".")
    assert g.api.distance(orc, g.player) == 1  # the rat in the way was stepped around


def test_a_hurt_coward_flees_along_the_safety_map():
    registry = load_registry(entry_points=False)  # its own: the orc's params change below
    orc = registry.monsters["orc"]
    registry.monsters["orc"] = dataclasses.replace(orc, params={**orc.params, "flee": 50})
    g = game_with(registry, """
        ##############
        #@...o.......#
        ##############
    """)
    (monster,) = g.api.monsters()
    g.api.damage(monster, 10)  # 4 of 14 HP left: under half
    start = g.api.distance(monster, g.player)
    testing.press(g, ".")
    testing.press(g, ".")
    assert g.api.distance(monster, g.player) > start  # it ran, down the corridor away from the player
    assert hunt  # the behaviour under test is the default game's


def test_the_monsters_fleeing_one_threat_share_one_safety_map_and_step_as_with_a_new_one(registry):
    """The safety map is remembered for the level by threats (every monster fleeing the player on a
    turn asks for the same one): the steps it gives are the ones a map made anew gives, and a new
    level forgets it."""
    g = game_with(registry, """
        ###########
        #.........#
        #.o.#####.#
        #...#o..#.#
        #.@.#...#.#
        #.........#
        ###########
    """)
    api = g.api
    threat = [api.position(g.player)]
    steps = {m: api.step_away(m, threat) for m in api.monsters()}
    assert len(steps) == 2 and None not in steps.values()
    assert len([k for k in api._paths._maps if k[0] == "safety"]) == 1
    for m, step in steps.items():
        api._paths._maps.clear()
        assert api.step_away(m, threat) == step  # made anew: the same step
    assert api.step_away(api.monsters()[0], [(1, 1), (1, 1)]) is not None  # another threat list, another map
    assert len([k for k in api._paths._maps if k[0] == "safety"]) == 2
    g.enter_level(2)
    api.walk_cost()
    assert not [k for k in api._paths._maps if k[0] == "safety"]
