"""The "Rogue SDL" part 3 preset, rule for rule."""

from collections import Counter

from engine.core import status as hud
from engine.core.components import Fighter, Inventory
from engine.core.setup import Setup, new_game
from scenario import game_from, press


def sdl(picture, tmp_path):
    return game_from(picture, tmp_path, game="rogue-sdl")


def test_four_way_moves_with_arrows_and_wasd(tmp_path):
    g = sdl("""
        #######
        #.....#
        #..@..#
        #.....#
        #######
    """, tmp_path)
    s = press(g, "y u b n kp7 kp1")
    assert (s["player"]["x"], s["player"]["y"], s["turn"]) == (3, 2, 0)
    s = press(g, "d s a w right down left up")
    assert (s["player"]["x"], s["player"]["y"], s["turn"]) == (3, 2, 8)


def test_wall_bump_takes_no_turn(tmp_path):
    g = sdl("""
        #####
        #@..#
        #####
    """, tmp_path)
    assert press(g, "up left a w")["turn"] == 0


def test_period_takes_the_stairs_and_H_drinks(tmp_path):
    g = sdl("""
        ######
        #@!>.#
        ######
    """, tmp_path)
    s = press(g, ".")
    assert s["messages"][-1] == "There are no stairs here." and s["turn"] == 0
    s = press(g, "d")
    assert s["messages"][-1] == "You pick up a potion. Press H to drink it."
    g.world.get(g.player, Fighter).hp = 15
    s = press(g, "H")
    assert s["player"]["hp"] == 20 and s["messages"][-1] == "You drink a potion, and feel better."
    s = press(g, "h")
    assert s["messages"][-1] == "You have no potions." and s["turn"] == 2
    s = press(g, "d")
    assert s["messages"][-1] == "There are stairs down here. Press . to go down."
    s = press(g, ".")
    assert s["depth"] == 2 and s["messages"][-1] == "You go down the stairs to depth 2."
    assert len(s["map"]) == 40 and len(s["map"][0]) == 80


def test_monster_attacks_only_at_manhattan_distance_one(tmp_path):
    g = sdl("""
        ######
        #@...#
        #..o.#
        ######
    """, tmp_path)
    s = press(g, "d")  # player (2, 1); orc (3, 2) is diagonal: no attack, it steps (vertical on a tie)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 1)
    assert s["player"]["hp"] == 20 and not any("hits you" in m for m in s["messages"])
    s = press(g, "s")  # player (2, 2); orc (3, 1) diagonal again: it steps down beside the player
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 2) and s["player"]["hp"] == 20
    s = press(g, "a")  # player (1, 2); orc (3, 2): two away along x, steps to (2, 2)
    s = press(g, "w")  # player (1, 1); orc (2, 2) diagonal: steps up to (2, 1)
    s = press(g, "s")  # player (1, 2); orc (2, 1) diagonal: steps down to (2, 2)
    assert s["player"]["hp"] == 20
    s = press(g, "w")  # player (1, 1); orc (2, 2) diagonal; a wall bump next would be no turn
    s = press(g, "a")  # a wall: no turn, the orc does not act
    assert s["player"]["hp"] == 20


def test_step_along_the_farther_axis_vertical_on_a_tie(tmp_path):
    g = sdl("""
        ########
        #@.....#
        #......#
        #......#
        #...r..#
        ########
    """, tmp_path)
    s = press(g, "d")  # player (2, 1); rat (4, 4): dx=-2, dy=-3 -> y to (4, 3)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (4, 3)
    s = press(g, "a")  # player (1, 1); rat (4, 3): dx=-3, dy=-2 -> x to (3, 3)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 3)
    s = press(g, "d")  # player (2, 1); rat (3, 3): dx=-1, dy=-2 -> y to (3, 2): diagonal to the player
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 2)
    s = press(g, "d")  # player (3, 1); rat (3, 2): Manhattan 1 -> it bites
    assert s["messages"][-1] == "The rat hits you for 2." and s["player"]["hp"] == 18


def test_tie_goes_vertical(tmp_path):
    g = sdl("""
        #######
        #@....#
        #.....#
        #...r.#
        #######
    """, tmp_path)
    s = press(g, "d")  # player (2, 1); rat (4, 3): dx=-2, dy=-2 -> y to (4, 2)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (4, 2)


def test_a_wall_in_the_way_stops_it(tmp_path):
    g = sdl("""
        ########
        #@.....#
        #......#
        #...#r.#
        ########
    """, tmp_path)
    s = press(g, "s")  # player (1, 2); rat (5, 3): dx=-4, dy=-1 -> x: (4, 3) is wall, stands still
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (5, 3)


def test_messages_and_hud_as_in_the_course(tmp_path):
    g = sdl("""
        #######
        #@o...#
        #######
    """, tmp_path)
    s = press(g, "d")
    assert s["messages"][-2:] == ["You hit the orc for 4.", "The orc hits you for 5."]
    g.world.get(g.player, Inventory).gold = 28
    g.world.get(g.player, Inventory).pack["potion"] = 1
    assert hud.line(g, "status") == "HP 15/20   Gold 28   Potions 1   Depth 1"
    s = press(g, "d d d")
    assert s["messages"][-1] == "You kill the orc!"


def test_death_and_restart(tmp_path):
    g = sdl("""
        #######
        #@o...#
        #######
    """, tmp_path)
    g.world.get(g.player, Fighter).hp = 5
    s = press(g, "w")  # a wall: no turn
    assert s["alive"]
    g.world.get(g.player, Inventory).gold = 40
    s = press(g, "d")
    assert not s["alive"] and s["messages"][-2:] == ["The orc hits you for 5.", "You die."]
    assert hud.line(g, "keys_dead") == "You have died. Press R to play again, or Esc to quit."
    s = press(g, "d . h")
    assert not s["alive"]
    s = press(g, "R")
    assert s["alive"] and s["depth"] == 1 and s["player"]["hp"] == 20
    assert s["player"]["gold"] == 0 and s["player"]["potions"] == 0
    assert s["messages"] == ["Welcome to Rogue SDL. Find the stairs down: >"]


def test_spawning_rules():
    kinds_by_depth = {1: Counter(), 2: Counter(), 4: Counter()}
    for seed in range(1, 41):
        g = new_game(Setup(game="rogue-sdl", seed=seed))
        for depth in kinds_by_depth:
            g.enter_level(depth)
            s = press(g, "")
            level = g.level
            n = len(s["monsters"])
            assert 3 + depth <= n <= 3 + depth + 2
            start_room = next(r for r in level.rooms if r.contains(*level.start))
            for m in s["monsters"]:
                assert not start_room.contains(m["x"], m["y"])
            for thing in s["monsters"] + s["items"]:
                assert any(r.contains(thing["x"], thing["y"]) for r in level.rooms)  # rooms, not corridors
                assert (thing["x"], thing["y"]) not in (level.start, level.stairs)
            potions = [i for i in s["items"] if i["kind"] == "potion"]
            gold = [i for i in s["items"] if i["kind"] == "gold"]
            assert 1 <= len(potions) <= 3 and 2 <= len(gold) <= 5
            assert all(5 <= i["amount"] <= 15 for i in gold)
            kinds_by_depth[depth].update(m["kind"] for m in s["monsters"])
        g.close()
    assert set(kinds_by_depth[1]) == {"rat"}
    assert set(kinds_by_depth[2]) == {"rat", "goblin"}
    share = kinds_by_depth[2]["goblin"] / sum(kinds_by_depth[2].values())
    assert 0.25 < share < 0.55  # a roll of 60+ out of 0..99: 40%
    assert set(kinds_by_depth[4]) == {"rat", "goblin", "orc"}
