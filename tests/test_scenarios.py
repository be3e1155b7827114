"""The default game's rules, each on a small ASCII map."""

from engine import testing
from engine.core.model.components import Fighter
from engine.core.play.session import Session


def test_bump_attacks_the_monster(registry):
    g = testing.game_from_map(registry, """
        #######
        #@r...#
        #######
    """)
    s = testing.press(g, "l")
    assert s["monsters"] == []  # the rat has 4 HP, the player's attack is 4
    assert s["messages"][-1] == "You kill the rat!"
    assert (s["player"]["x"], s["turn"]) == (1, 1)


def test_wall_bump_takes_no_time(registry):
    g = testing.game_from_map(registry, """
        #####
        #@..#
        #####
    """)
    s = testing.press(g, "h k j y")
    assert s["turn"] == 0
    assert (s["player"]["x"], s["player"]["y"]) == (1, 1)


def test_gold_is_picked_up_once(registry):
    g = testing.game_from_map(registry, """
        ######
        #@$..#
        ######
    """)
    s = testing.press(g, "l")
    gold = s["player"]["gold"]
    assert 5 <= gold <= 15
    assert s["items"] == []
    s = testing.press(g, "h l")
    assert s["player"]["gold"] == gold
    assert s["messages"].count(f"You pick up {gold} gold.") == 1


def test_potion_goes_into_the_pack_and_heals(registry):
    g = testing.game_from_map(registry, """
        ######
        #@!..#
        ######
    """)
    s = testing.press(g, "l")
    assert s["player"]["potions"] == 0 and s["messages"][-1] == "You see here: potion."
    s = testing.press(g, "g")
    assert s["player"]["potions"] == 1 and s["messages"][-1] == "You pick up the potion (a)."
    g.world.get(g.player, Fighter).hp = 5
    s = testing.press(g, "q")
    assert s["player"]["hp"] == 13 and s["player"]["potions"] == 0 and s["turn"] == 3
    g.world.get(g.player, Fighter).hp = 18
    g.give("potion")
    s = testing.press(g, "q")
    assert s["player"]["hp"] == 20  # never above max


def test_drinking_with_no_potion_costs_nothing(registry):
    g = testing.game_from_map(registry, """
        #######
        #@...r#
        #######
    """)
    s = testing.press(g, "q q q")
    assert s["turn"] == 0
    assert s["messages"][-1] == "You have nothing to drink."
    assert s["monsters"][0]["x"] == 5  # the rat never got a turn


def test_waiting_lets_the_monster_come(registry):
    g = testing.game_from_map(registry, """
        ########
        #@....r#
        ########
    """)
    s = testing.press(g, ". . .")
    assert s["turn"] == 3
    assert s["monsters"][0]["x"] == 3  # three steps toward the player


def test_monster_slides_along_a_wall(registry):
    g = testing.game_from_map(registry, """
        ########
        #@.....#
        #...#..#
        #....r.#
        ########
    """)
    s = testing.press(g, ".")
    # toward the player the diagonal (4, 2) is a wall, so it takes the straight step left
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (4, 3)


def test_a_monster_out_of_sight_does_nothing(registry):
    g = testing.game_from_map(registry, """
        #########
        #.......#
        #@...#r.#
        #.......#
        #########
    """)
    s = testing.press(g, ". . .")
    assert s["monsters"][0] == {"kind": "rat", "x": 6, "y": 2, "hp": 4, "awake": False}


def test_death_stops_the_monsters_and_only_R_and_esc_work(registry):
    g = testing.game_from_map(registry, """
        #######
        #@o...#
        #######
    """)
    # an orc (14 HP, attack 5) kills a 20-HP player in four bites; waiting lets it
    s = testing.press(g, ". . . . . .")
    assert s["alive"] is False and s["player"]["hp"] == 0
    assert "You die." in s["messages"]
    turn, messages = s["turn"], list(s["messages"])
    s = testing.press(g, "l . q >")
    assert s["turn"] == turn and s["messages"] == messages
    s = testing.press(g, "R")
    assert s["alive"] and s["run"] == 2 and s["player"]["hp"] == 20 and s["depth"] == 1


def test_no_monster_acts_after_the_players_death(registry):
    g = testing.game_from_map(registry, """
        #####
        #o@o#
        #####
    """)
    g.world.get(g.player, Fighter).hp = 1
    s = testing.press(g, ".")
    assert not s["alive"]
    assert sum("hits you" in m or "kills you" in m for m in s["messages"]) == 1


def test_stairs_say_so_and_descend(registry):
    g = testing.game_from_map(registry, """
        ######
        #@>..#
        ######
    """)
    s = testing.press(g, ">")  # off the stairs, > travels to the known stairs (one step here)
    assert s["depth"] == 1 and s["turn"] == 1 and (s["player"]["x"], s["player"]["y"]) == (2, 1)
    assert s["messages"][-1] == "There are stairs down here. Press > to descend."
    s = testing.press(g, ">")  # on them, > takes them
    assert s["depth"] == 2 and s["turn"] == 2
    assert s["map"] != ["######", "#.>..#", "######"]  # a generated level


def test_hp_never_shows_below_zero(registry):
    g = testing.game_from_map(registry, """
        #####
        #@o.#
        #####
    """)
    g.world.get(g.player, Fighter).hp = 2
    s = testing.press(g, ".")
    assert s["player"]["hp"] == 0


def test_news_is_a_monster_coming_into_view_or_noticing_you(registry):
    g = testing.game_from_map(registry, """
        ###############
        #@............#
        #############.#
        #.............#
        #......r......#
        ###############
    """)
    from engine.core.model.components import Monster

    rat = next(e for e, _ in g.world.query(Monster))
    news = []
    for key in "l l l l l l l l l l l l j j j h h".split():
        awake = g.world.get(rat, Monster).awake
        Session.of(g).press(key)
        in_view = bool(g.visible_monsters())
        news.append((g.new_in_view, in_view, g.world.get(rat, Monster).awake and not awake))
    first = next(i for i, (_, in_view, _) in enumerate(news) if in_view)
    assert news[first][0] is True  # the key that brought it into view says so
    assert not any(new for new, _, _ in news[:first])
    for new, in_view, woke in news[first + 1:]:
        assert in_view and new == woke  # still in view: news only when it noticed the player
    assert any(woke for _, _, woke in news)
