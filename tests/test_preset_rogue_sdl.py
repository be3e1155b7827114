"""The "Rogue SDL" part 3 preset, rule for rule."""

from collections import Counter

from test_frontend import screenshot, window_for  # noqa: F401

from engine import testing
from engine.core.model.components import Fighter, Inventory, Item, Monster, Position
from engine.core.play import status as hud
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.persist import keeper, profile


def sdl(picture, registry):
    return testing.game_from_map(registry, picture, game="rogue-sdl")


def test_four_way_moves_with_arrows_and_wasd(registry):
    g = sdl("""
        #######
        #.....#
        #..@..#
        #.....#
        #######
    """, registry)
    s = testing.press(g, "y u b n kp7 kp1")
    assert (s["player"]["x"], s["player"]["y"], s["turn"]) == (3, 2, 0)
    s = testing.press(g, "d s a w right down left up")
    assert (s["player"]["x"], s["player"]["y"], s["turn"]) == (3, 2, 8)


def test_wall_bump_takes_no_turn(registry):
    g = sdl("""
        #####
        #@..#
        #####
    """, registry)
    assert testing.press(g, "up left a w")["turn"] == 0


def test_period_takes_the_stairs_and_H_drinks(registry):
    g = sdl("""
        ######
        #@!>.#
        ######
    """, registry)
    s = testing.press(g, ".")
    assert s["messages"][-1] == "There are no stairs here." and s["turn"] == 0
    s = testing.press(g, "d")
    assert s["messages"][-1] == "You pick up a potion. Press H to drink it."
    g.world.get(g.player, Fighter).hp = 15
    s = testing.press(g, "H")
    assert s["player"]["hp"] == 20 and s["messages"][-1] == "You drink a potion, and feel better."
    s = testing.press(g, "h")
    assert s["messages"][-1] == "You have no potions." and s["turn"] == 2
    s = testing.press(g, "d")
    assert s["messages"][-1] == "There are stairs down here. Press . to go down."
    s = testing.press(g, ".")
    assert s["depth"] == 2 and s["messages"][-1] == "You go down the stairs to depth 2."
    assert len(s["map"]) == 40 and len(s["map"][0]) == 80


def test_monster_attacks_only_at_manhattan_distance_one(registry):
    g = sdl("""
        ######
        #@...#
        #..o.#
        ######
    """, registry)
    s = testing.press(g, "d")  # player (2, 1); orc (3, 2) is diagonal: no attack, it steps (vertical on a tie)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 1)
    assert s["player"]["hp"] == 20 and not any("hits you" in m for m in s["messages"])
    s = testing.press(g, "s")  # player (2, 2); orc (3, 1) diagonal again: it steps down beside the player
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 2) and s["player"]["hp"] == 20
    s = testing.press(g, "a")  # player (1, 2); orc (3, 2): two away along x, steps to (2, 2)
    s = testing.press(g, "w")  # player (1, 1); orc (2, 2) diagonal: steps up to (2, 1)
    s = testing.press(g, "s")  # player (1, 2); orc (2, 1) diagonal: steps down to (2, 2)
    assert s["player"]["hp"] == 20
    s = testing.press(g, "w")  # player (1, 1); orc (2, 2) diagonal; a wall bump next would be no turn
    s = testing.press(g, "a")  # a wall: no turn, the orc does not act
    assert s["player"]["hp"] == 20


def test_step_along_the_farther_axis_vertical_on_a_tie(registry):
    g = sdl("""
        ########
        #@.....#
        #......#
        #......#
        #...r..#
        ########
    """, registry)
    s = testing.press(g, "d")  # player (2, 1); rat (4, 4): dx=-2, dy=-3 -> y to (4, 3)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (4, 3)
    s = testing.press(g, "a")  # player (1, 1); rat (4, 3): dx=-3, dy=-2 -> x to (3, 3)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 3)
    s = testing.press(g, "d")  # player (2, 1); rat (3, 3): dx=-1, dy=-2 -> y to (3, 2): diagonal to the player
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (3, 2)
    s = testing.press(g, "d")  # player (3, 1); rat (3, 2): Manhattan 1 -> it bites
    assert s["messages"][-1] == "The rat hits you for 2." and s["player"]["hp"] == 18


def test_tie_goes_vertical(registry):
    g = sdl("""
        #######
        #@....#
        #.....#
        #...r.#
        #######
    """, registry)
    s = testing.press(g, "d")  # player (2, 1); rat (4, 3): dx=-2, dy=-2 -> y to (4, 2)
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (4, 2)


def test_a_wall_in_the_way_stops_it(registry):
    g = sdl("""
        ########
        #@.....#
        #......#
        #...#r.#
        ########
    """, registry)
    s = testing.press(g, "s")  # player (1, 2); rat (5, 3): dx=-4, dy=-1 -> x: (4, 3) is wall, stands still
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (5, 3)


def test_messages_and_hud_as_in_the_course(registry):
    g = sdl("""
        #######
        #@o...#
        #######
    """, registry)
    s = testing.press(g, "d")
    assert s["messages"][-2:] == ["You hit the orc for 4.", "The orc hits you for 5."]
    g.world.get(g.player, Inventory).gold = 28
    g.give("potion")
    assert hud.line(g, "status") == "HP 15/20   Gold 28   Potions 1   Depth 1"
    s = testing.press(g, "d d d")
    assert s["messages"][-1] == "You kill the orc!"


def test_death_and_restart(registry):
    g = sdl("""
        #######
        #@o...#
        #######
    """, registry)
    g.world.get(g.player, Fighter).hp = 5
    s = testing.press(g, "w")  # a wall: no turn
    assert s["alive"]
    g.world.get(g.player, Inventory).gold = 40
    s = testing.press(g, "d")
    assert not s["alive"] and s["messages"][-2:] == ["The orc hits you for 5.", "You die."]
    assert hud.line(g, "keys_dead") == "You have died. Press R to play again, or Esc to quit."
    s = testing.press(g, "d . h")
    assert not s["alive"]
    s = testing.press(g, "R")
    assert s["alive"] and s["depth"] == 1 and s["player"]["hp"] == 20
    assert s["player"]["gold"] == 0 and s["player"]["potions"] == 0
    assert s["messages"] == ["Welcome to Rogue SDL. Find the stairs down: >"]


def test_spawning_rules():
    kinds_by_depth = {1: Counter(), 2: Counter(), 4: Counter()}
    for seed in range(1, 41):
        g = new_game(Setup(game="rogue-sdl", seed=seed))
        for depth in kinds_by_depth:
            g.enter_level(depth)
            s = testing.press(g, "")
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


# -- where things go: a random room, then a random cell of it (the course's takeFreeSpot) -----------

CHI2_DF2_P001 = 13.82  # chi-square with 2 degrees of freedom: exceeded with probability 0.001


def room_shares(seeds, depths, registry):
    """Observed and expected counts of monsters and items in three bins of rooms: each level's
    smallest room, its largest, and the rest. Under the course's rule every room is equally likely
    (monsters: every room but the start room), whatever its size: a level's M monsters put M/(k-1)
    in each of its k-1 other rooms, its items N/k in each of its k rooms."""
    bins = {Monster: [[0, 0.0] for _ in range(3)], Item: [[0, 0.0] for _ in range(3)]}
    for seed in seeds:
        g = new_game(Setup(game="rogue-sdl", seed=seed), registry)
        for depth in depths:
            if depth != g.depth:
                g.enter_level(depth)
            rooms, start = g.level.rooms, g.level.start
            for kind in bins:
                pool = [r for r in rooms if not (kind is Monster and r.contains(*start))]
                by_area = sorted(pool, key=lambda r: r.w * r.h)
                cells = [(p.x, p.y) for _, (_, p) in g.world.query(kind, Position)]
                for counts, group in zip(bins[kind], (by_area[:1], by_area[-1:], by_area[1:-1]), strict=True):
                    counts[0] += sum(any(r.contains(*c) for r in group) for c in cells)
                    counts[1] += len(cells) * len(group) / len(pool)
        g.close()
    return bins


def chi_square(counts):
    return sum((observed - expected) ** 2 / expected for observed, expected in counts)


def test_things_go_in_a_random_room_first_then_a_cell_of_it(registry):
    """400 levels. Picking a room cell uniformly (the old rule) starves the small rooms: chi-square
    338 for monsters and 285 for items here (the smallest rooms got 56 monsters where 147 were
    due); the course's rule gives values of a few units."""
    bins = room_shares(range(1, 101), range(1, 5), registry)
    for kind, counts in bins.items():
        assert chi_square(counts) < CHI2_DF2_P001, (kind.__name__, counts)
        (small, due), _, _ = counts
        assert abs(small - due) < 0.2 * due, (kind.__name__, counts)  # the smallest rooms get their share


def test_the_rule_is_the_presets_own(registry):
    """The ruleset's spawn_cell: a room's rectangle, never a corridor; without rooms (another
    generator), the default rule. The default game keeps the default rule."""
    import random

    sdl = registry.rulesets["rogue-sdl"]
    g = new_game(Setup(game="rogue-sdl", seed=3), registry)
    rng = random.Random(1)
    for _ in range(500):
        x, y = sdl.spawn_cell(g, g.level, rng, [(0, 0)])
        assert any(r.contains(x, y) for r in g.level.rooms)
    g.close()
    caves = new_game(Setup(game="rogue-sdl", seed=3, plugins=["generator=caves"]), registry)
    assert not caves.level.rooms and testing.press(caves, "")["monsters"]  # placed all the same
    assert sdl.spawn_cell(caves, caves.level, random.Random(1), [(5, 6)]) == (5, 6)
    caves.close()
    from engine import Ruleset

    # the default game's ruleset keeps the engine's own placement, which rogue-sdl's replaces
    default = registry.rulesets[new_game(Setup(seed=3), registry).rules.ruleset]
    assert type(default).spawn_cell is Ruleset.spawn_cell and type(sdl).spawn_cell is not Ruleset.spawn_cell


# -- Escape, the status line, the profile -------------------------------------------------------------

def test_escape_quits_without_keeping_the_run(home):
    game = keeper.open_game(Setup(game="rogue-sdl", seed=4))
    assert keeper.saved_run() is None  # the course has no saves: never one, not even while playing
    for token in "d d s s".split():
        Session.of(game).press(token)
    Session.of(game).press("esc")
    assert game.quit_requested
    assert keeper.saved_run() is None  # Escape ends the run: the next start is a new game
    table = profile.load()["presets"]["rogue-sdl"]
    assert table["runs"] == 1 and table["top"][0]["cause"] == "quit on depth 1"
    assert (table["quits"], table["deaths"]) == (1, 0)
    again = keeper.open_game(Setup(game="rogue-sdl", seed=4), choice="continue")
    assert again.turn == 0 and profile.load()["presets"]["rogue-sdl"]["runs"] == 2
    Session.of(again).press("esc")


def test_a_run_is_counted_in_its_own_table(home, capsys):
    from engine.cli.main import main

    assert main(["--headless", "--game", "rogue-sdl", "--seed", "4", "--keys", "d d s esc"]) == 0
    p = profile.load()
    assert set(p["presets"]) == {"rogue-sdl"} and p["presets"]["rogue-sdl"]["runs"] == 1 and p["runs"] == 1
    assert main(["scores", "--game", "rogue-sdl"]) == 0
    # Escape ends the run (the course has no saves): a quit, never a death
    assert capsys.readouterr().out.startswith("Runs 1   Deaths 0   Quits 1   Wins 0   Deepest 1")


def test_the_status_line_stays_in_the_text_colour_at_low_hp(registry, window_for):  # noqa: F811
    from engine.frontend.compose import look_for

    g = sdl("""
        #######
        #@....#
        #######
    """, registry)
    g.world.get(g.player, Fighter).hp = 2
    assert hud.hp_low(g)
    window = window_for(g)
    screenshot(window)
    assert window.hud.lines()["status"] == "HP 2/20   Gold 0   Potions 0   Depth 1"
    assert window.hud.lines()["status_color"][:3] == (235, 235, 235)
    window.hud.update(g, warn_low_hp=True)  # what a preset that warns (the default game) gets
    assert window.hud.lines()["status_color"][:3] == (235, 60, 50)
    assert not window.look.warn_low_hp and look_for(new_game(Setup(seed=1)).rules).warn_low_hp
