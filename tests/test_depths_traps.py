"""Traps (plugins/depths/traps.py) in the default game: hidden as floor until searched out or
sprung; a dart poisons, an alarm wakes the level and brings it, a trapdoor drops you a level, a
teleport trap moves you; a found trap is drawn ``^`` and kept off by travel, explore and monsters;
the magic-mapping scroll finds them; the classic presets have none."""

import numpy as np
import pytest

from engine import testing
from engine.core.model.components import Monster
from engine.core.play.setup import default_game
from engine.core.turn.game import Choices, Game

ROOM = """
    ##########
    #@.......#
    #........#
    #.......>#
    ##########
"""


@pytest.fixture(scope="module")
def registry():
    return testing.load_plugin()


def sprung(registry, trap, picture=ROOM):
    """A game whose player has stepped onto a hidden ``trap`` at (2, 1)."""
    game = testing.game_from_map(registry, picture)
    game.api.set_terrain(2, 1, f"hidden-trap-{trap}")
    return game, testing.press(game, "l")


def test_a_hidden_trap_looks_like_floor_until_it_is_sprung_then_it_shows(registry):
    game = testing.game_from_map(registry, ROOM)
    api = game.api
    api.set_terrain(2, 1, "hidden-trap-dart")
    s = testing.press(game, ".")
    assert s["map"][1][2] == "." and api.terrain(2, 1).shown == "floor" and not api.walls()[1, 2]
    s = testing.press(game, "l")
    assert api.terrain(2, 1).name == "trap-dart" and s["map"][1][2] == "^"


def test_a_dart_trap_hurts_and_poisons(registry):
    game, s = sprung(registry, "dart")
    api = game.api
    hp, top = api.hp(api.player)
    assert "A dart shoots out of the floor and pricks you!" in s["messages"]
    assert api.has_status(api.player, "poisoned") and hp <= top - 2
    testing.press(game, ". .")
    assert api.hp(api.player)[0] < hp  # the poison bites on


def test_an_alarm_wakes_every_monster_and_they_come(registry):
    picture = ROOM.replace("#........#\n    #.......>#", "#........#\n    #......o>#")
    game, s = sprung(registry, "alarm", picture)
    api = game.api
    (orc,) = api.monsters()
    assert "A shrill alarm rings out through the level!" in s["messages"]
    assert api.component(orc, Monster).awake
    start = api.position(orc)
    testing.press(game, ".")
    assert api.distance(orc, api.player) < max(abs(start[0] - 2), abs(start[1] - 1))


def test_a_trapdoor_drops_you_to_the_next_level(registry):
    game, s = sprung(registry, "trapdoor")
    assert game.api.depth == 2 and "A trapdoor opens beneath you: you fall!" in s["messages"]


def test_a_trapdoor_holds_on_the_deepest_level(registry):
    game = testing.game_from_map(registry, ROOM)
    api = game.api
    game.enter_level(api.rules.max_depth)
    x, y = api.position(api.player)
    cell = next((x + dx, y + dy) for dx, dy in api.moves.steps
                if api.terrain(x + dx, y + dy).name == "floor" and api.creature_at(x + dx, y + dy) is None)
    api.set_terrain(*cell, "hidden-trap-trapdoor")
    api.move(api.player, *cell)
    assert api.depth == api.rules.max_depth and "A trapdoor creaks under you, but holds." in api.messages()


def test_a_teleport_trap_moves_you_elsewhere(registry):
    game, s = sprung(registry, "teleport")
    assert game.api.position(game.api.player) != (2, 1) and "A flash of light: you are elsewhere!" in s["messages"]


def test_monsters_never_spring_traps(registry):
    game = testing.game_from_map(registry, ROOM.replace("#@.", "#@g"))
    api = game.api
    api.set_terrain(3, 1, "hidden-trap-teleport")
    api.set_terrain(3, 2, "hidden-trap-teleport")
    api.set_terrain(2, 2, "hidden-trap-teleport")
    (goblin,) = api.monsters()
    api.move(goblin, 3, 1)
    api.move(goblin, 2, 1)
    assert api.terrain(3, 1).name == "hidden-trap-teleport" and api.position(goblin) == (2, 1)


def test_searching_finds_a_hidden_trap(registry):
    game = testing.game_from_map(registry, ROOM)
    api = game.api
    api.set_terrain(3, 2, "hidden-trap-alarm")
    s = testing.press(game, "s s s s s")
    assert api.terrain(3, 2).name == "trap-alarm" and "You find an alarm trap." in s["messages"]
    assert s["map"][2][3] == "^" and not api.component(api.monsters()[0], Monster).awake if api.monsters() else True


def test_the_magic_mapping_scroll_finds_traps(registry):
    game = testing.game_from_map(registry, ROOM)
    api = game.api
    api.set_terrain(6, 3, "hidden-trap-dart")
    api.give("scroll of magic mapping")
    s = testing.press(game, "r")
    if s["prompt"] is not None:
        s = testing.press(game, next(o["letter"] for o in s["prompt"]["options"] if "mapping" in o["label"]))
    assert api.terrain(6, 3).name == "trap-dart"


FIELD = """
    ####################
    #@.................#
    #..................#
    #..................#
    #..................#
    #..................#
    ####################
"""


def _trap_line(api):
    for y in range(1, 5):
        api.set_terrain(4, y, "trap-dart")  # found traps from the top down to row 4: row 5 is clear


def test_travel_goes_around_found_traps(registry):
    game = testing.game_from_map(registry, FIELD)
    api = game.api
    _trap_line(api)
    s = testing.press(game, "travel:7,1")
    assert api.position(api.player) == (7, 1) and s["turn"] == 8  # the long way round (row 5), not 6 steps
    assert not api.has_status(api.player, "poisoned")


def test_explore_goes_around_found_traps(registry):
    game = testing.game_from_map(registry, FIELD)
    api = game.api
    _trap_line(api)
    s = testing.press(game, "o")
    assert api.seen().all() or "explored" in " ".join(s["messages"]).lower() or s["turn"] > 8
    assert not api.has_status(api.player, "poisoned") and api.position(api.player)[0] > 4


CORRIDORS = """
    #########
    #@.....>#
    #.#####.#
    #.......#
    #########
"""


def test_monsters_walk_around_a_found_trap(registry):
    game = testing.game_from_map(registry, CORRIDORS.replace(".>#", "g>#"))
    api = game.api
    api.set_terrain(4, 1, "trap-dart")
    (goblin,) = api.monsters()
    api.wake(goblin)
    api.add_status(goblin, "alerted", None, x=1, y=1)
    for _ in range(8):
        testing.press(game, ".")
        assert api.position(goblin) != (4, 1)
    assert api.position(goblin)[1] == 3 or api.distance(goblin, api.player) <= 1


def test_generated_levels_of_the_default_game_hide_traps(registry):
    rules = default_game(registry)
    names = []
    for seed in range(1, 5):
        game = Game(registry, rules, seed, Choices()).start()
        for depth in range(1, 7):
            if depth > 1:
                game.enter_level(depth)
            level = game.level
            here = [level.kinds[c] for c in np.unique(level.terrain)]
            assert "hidden-trap-trapdoor" not in here or depth >= 3  # trapdoors from depth 3
            names += here
        game.close()
    assert {"hidden-trap-dart", "hidden-trap-alarm", "hidden-trap-teleport"} <= set(names)
    assert not any(n.startswith("trap-") for n in names)  # none shows before it is found


@pytest.mark.parametrize("preset", ["lesson28", "rogue-sdl", "bunyip"])
def test_the_classic_presets_have_no_traps(registry, preset):
    game = Game(registry, registry.games[preset], 2, Choices()).start()
    names = set(np.array(game.level.kinds)[game.level.terrain].ravel().tolist())
    game.close()
    assert not any("trap" in n for n in names)


def test_a_trapdoor_or_teleport_trap_is_never_the_only_way_between_the_stairs(registry):
    from engine.kit.regions import flood

    rules, movers = default_game(registry), 0
    for seed in range(1, 9):
        game = Game(registry, rules, seed, Choices()).start()
        for depth in range(3, 10):
            game.enter_level(depth)
            level, cost = game.level, game.api.walk_cost()
            walkable = np.isfinite(cost) & (cost > 0)
            for name in ("hidden-trap-trapdoor", "hidden-trap-teleport"):
                if name not in level.kinds:
                    continue
                for y, x in zip(*(level.terrain == level.kinds.index(name)).nonzero(), strict=True):
                    movers += 1
                    without = walkable.copy()
                    without[y, x] = False
                    joined = flood(without, level.upstairs)
                    assert joined[level.stairs[1], level.stairs[0]], (seed, depth, (x, y))
        game.close()
    assert movers > 5  # the rule was put to the test


def test_a_teleport_never_lands_in_a_sealed_room(registry):
    room = """
        ###.#######
        #@.......>#
        #.........#
        ###.#######
        #...#######
        #...#######
        ###.#######
    """
    game = testing.game_from_map(registry, room)
    game.api.set_terrain(3, 3, "wall")  # the room below is sealed now (a vault whose key is elsewhere)
    cells = {game.api.teleport(game.api.player, "test") for _ in range(200)}
    assert all(y <= 2 for x, y in cells) and len(cells) > 10
    game.api.set_terrain(3, 3, "floor")  # open again: it may land there too
    cells = {game.api.teleport(game.api.player, "test") for _ in range(200)}
    assert any(y >= 4 for x, y in cells)


def test_the_delver_leaves_an_item_lying_on_a_known_trap(registry):
    from engine.plugins.bots._delver_bot import collect
    from engine.plugins.bots._delver_look import DelverView, Memory

    game = testing.game_from_map(registry, ROOM)
    game.api.spawn("potion", 4, 1)
    assert collect(DelverView(game.api, Memory())) is not None  # it would walk to it
    game.api.set_terrain(4, 1, "trap-trapdoor")  # a trapdoor it knows, under the potion
    assert collect(DelverView(game.api, Memory())) is None


AROUND = """
    #############
    #<..^.......#
    #.#########.#
    #.#########.#
    #...........#
    #############
"""


def test_carrying_the_amulet_the_delver_seeks_another_way_up_than_across_a_known_trap(registry):
    """Its known way up crosses a trapdoor it knows: it explores for another first (one crossed
    sent it down a level, back up and onto the trap again until the turn limit), and goes up."""
    from engine.core.play.session import Session

    game = testing.game_from_map(registry, AROUND)  # it starts on the stairs up
    api, bot = game.api, registry.bots["delver"].start()
    api.move(game.player, 11, 1)
    Session.of(game).press(".")  # a turn: what it sees from there
    api.set_terrain(4, 1, "trap-trapdoor")
    api.give("Amulet of the Undercroft")
    for _ in range(60):
        if game.state.won:
            break
        Session.of(game).press(bot(api))
        assert api.position(game.player) != (4, 1)
    assert game.state.won and game.depth == 1


def test_carrying_the_amulet_the_delver_goes_through_a_monster_with_no_way_round(registry):
    """A monster it remembers blocks the only way up: it walks on through it (no way round left
    it with nothing to do, and the run stopped)."""
    from engine import Monster
    from engine.core.play.session import Session
    from engine.plugins.bots._delver_bot import homeward
    from engine.plugins.bots._delver_look import DelverView, Memory

    game = testing.game_from_map(registry, """
        ############
        #<.........#
        ########.###
        ########.###
        ############
    """)  # it starts on the stairs up
    api = game.api
    api.move(game.player, 8, 3)
    api.give("Amulet of the Undercroft")
    rat = api.spawn("rat", 8, 1)
    api.component(rat, Monster).awake = False
    Session.of(game).press(".")  # a turn: what it sees from there
    memory = Memory()
    key = homeward(DelverView(api, memory))
    assert key == "k"  # toward the stairs, into the rat's cell, not nothing


TRAPPED_ROOM = """
    ##############
    #<.......#####
    ########.#####
    ########.#####
    ########.#####
    ######.....###
    ######..>..###
    ######.....###
    ##############
"""


@pytest.mark.parametrize("venturing", [True, False])
def test_the_delver_steps_over_a_known_trap_when_all_it_has_left_to_see_lies_beyond(registry, venturing):
    """Back up the stairs with the Amulet into a room whose only doorway holds a dart trap it has
    found, the way up unseen beyond: explore never steps on a trap, so it had nothing to do and
    the run stopped (sim seed 389). It steps over the trap (``venture``) and goes up; without that
    concern it stops as it did."""
    from engine.core.play.session import Session
    from engine.plugins.bots import _delver_bot

    game = testing.game_from_map(registry, TRAPPED_ROOM)
    api, bot = game.api, registry.bots["delver"].start()
    api.move(game.player, 8, 6)  # on the stairs down, come up them from the level below
    game.state.view.seen[:] = False  # it knows nothing of the level but the room (a test's shortcut)
    api.set_terrain(8, 4, "trap-dart")
    api.give("Amulet of the Undercroft")
    Session.of(game).press(".")  # a turn: what it sees from the room
    assert not api.seen()[1, 1]  # the stairs up are out of its sight
    concerns = _delver_bot.CONCERNS if venturing else tuple(c for c in _delver_bot.CONCERNS
                                                               if c is not _delver_bot.venture)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_delver_bot, "CONCERNS", concerns)
        for _ in range(80):
            key = bot(api)
            if key is None or game.state.won:
                break
            Session.of(game).press(key)
    assert game.state.won is venturing
