"""Ranged play in the default game (plugins/depths/ranged.py, #25 item 6): wands zapped with ``z``
spend a charge each (an empty one does nothing and takes no time), slowing halves a monster's
actions, lightning strikes every creature on its line, digging turns walls to floor (never the
level's border) and paths go through after; a thrown dart hits, lands and is picked up again; a
goblin spearthrower throws javelins at the player from afar; darts and javelins that hit break
now and then (``params.breaks``), the player's and the spearthrower's alike."""

import dataclasses

import pytest

from engine import Actor, Bolt, Fighter, Shot, testing
from engine.plugins.depths._wands import bolt_line


@pytest.fixture(scope="module")
def registry():
    return testing.load_plugin()


def breaking(registry, monkeypatch, percent):
    """The registry with darts and javelins that break ``percent`` of the times they hit."""
    for name in ("dart", "javelin"):
        kind = registry.items[name]
        monkeypatch.setitem(registry.items, name, dataclasses.replace(kind, params={**kind.params, "breaks": percent}))
    return registry


@pytest.fixture
def lasting(registry, monkeypatch):
    """Darts and javelins that never break: a test of where they land."""
    return breaking(registry, monkeypatch, 0)


@pytest.fixture
def brittle(registry, monkeypatch):
    """Darts and javelins that always break when they hit."""
    return breaking(registry, monkeypatch, 100)


def sturdy(game, hp=500):
    """The player survives a long test."""
    fighter = game.api.component(game.api.player, Fighter)
    fighter.hp = fighter.max_hp = hp


def pack(s):
    return [(i["kind"], i["count"]) for i in s["player"]["inventory"]]


def labels(game):
    s = testing.press(game, "i")
    testing.press(game, "esc")
    return [o["label"] for o in s["prompt"]["options"]]


def heard(game):
    events = []
    game.listeners.append(lambda event, g: events.append(event))
    return events


def test_a_wand_spends_a_charge_a_zap_and_an_empty_one_does_nothing_and_takes_no_time(registry):
    game = testing.game_from_map(registry, "\n    ###########\n    #@......O.#\n    ###########\n")
    game.api.give("wand of lightning")
    assert labels(game) == ["wand of lightning (4 charges)"]
    for turn, left in ((1, "3 charges"), (2, "2 charges"), (3, "1 charge"), (4, "0 charges")):
        s = testing.press(game, "z enter")  # one wand: the cursor at once, on the ogre
        assert s["turn"] == turn and labels(game) == [f"wand of lightning ({left})"]
    ogre = s["monsters"][0]
    assert ogre["hp"] == registry.monsters["ogre"].hp - 4 * 9
    s = testing.press(game, "z enter")
    assert s["turn"] == 4 and s["monsters"][0]["hp"] == ogre["hp"]
    assert s["messages"][-1] == "Nothing happens: the wand of lightning has no charges left."
    assert pack(s) == [("wand of lightning", 1)]  # an empty wand is kept


def test_slowing_halves_the_targets_actions_for_a_while_then_it_speeds_up(registry):
    game = testing.game_from_map(registry, "\n    #######\n    #@r...#\n    #######\n")
    sturdy(game)
    testing.press(game, ". .")  # the rat wakes and bites every turn
    hp = game.api.hp(game.api.player)[0]
    testing.press(game, ". . . . . .")
    fast = hp - game.api.hp(game.api.player)[0]
    assert fast == 6 * 2
    game.api.give("wand of slowing")
    rat = game.api.monsters()[0]
    s = testing.press(game, "z enter")
    assert "The rat slows down." in s["messages"] and game.api.has_status(rat, "slowed")
    assert game.api.component(rat, Actor).speed == 50
    hp = game.api.hp(game.api.player)[0]
    testing.press(game, ". . . . . .")
    slow = hp - game.api.hp(game.api.player)[0]
    assert slow == 3 * 2  # half the bites
    testing.press(game, ". . . . . . . . . .")  # 12 turns after the zap: it runs out
    assert not game.api.has_status(rat, "slowed") and game.api.component(rat, Actor).speed == 100


def test_the_slowed_monster_says_so_on_the_sidebar(registry):
    from engine.frontend.sidebar import states

    game = testing.game_from_map(registry, "\n    #######\n    #@..r.#\n    #######\n")
    game.api.give("wand of slowing")
    testing.press(game, "z enter")
    rat = game.api.monsters()[0]
    assert registry.statuses["slowed"].label == "Slowed"
    assert [s for s in states(game, rat) if s.startswith("slowed (")]  # with the turns it has left


def test_lightning_strikes_every_creature_on_its_line_up_to_the_wall(registry):
    game = testing.game_from_map(registry, "\n    ##########\n    #@.o.o..o#\n    #........#\n    ##########\n")
    game.api.give("wand of lightning")
    events = heard(game)
    s = testing.press(game, "z enter")  # at the nearest orc: the bolt goes on past it to the wall
    assert [m["hp"] for m in s["monsters"]] == [5, 5, 5]
    assert "The lightning strikes the orc (9), the orc (9), the orc (9)." in s["messages"]
    bolts = [e for e in events if isinstance(e, Bolt)]
    assert bolts and bolts[0].start == (1, 1) and bolts[0].end == (8, 1)


def test_digging_turns_walls_to_floor_never_the_border_and_paths_go_through_after(registry):
    game = testing.game_from_map(registry, "\n    #########\n    #@###...#\n    #.......#\n    #########\n")
    api = game.api
    api.give("wand of digging")
    assert api.path((1, 1), (5, 1)) != [(2, 1), (3, 1), (4, 1), (5, 1)]
    events = heard(game)
    s = testing.press(game, "z l enter")  # aimed at the wall beside: the bolt goes on to the right
    assert s["turn"] == 1 and "The rock melts away: you dig through 3 walls." in s["messages"]
    assert [api.is_wall(x, 1) for x in range(9)] == [True] + [False] * 7 + [True]  # the border stays
    assert api.path((1, 1), (5, 1)) == [(2, 1), (3, 1), (4, 1), (5, 1)]
    assert api.visible()[1, 7]  # sight follows: the far end is seen down the new tunnel
    assert any(isinstance(e, Bolt) for e in events)
    s = testing.press(game, "z h enter enter")  # at the border beside: nothing to dig, a charge spent
    assert api.is_wall(0, 1) and "digs nothing" in s["messages"][-1]


def test_a_bolt_goes_on_past_the_cell_aimed_at_in_the_same_steps():
    assert bolt_line((1, 1), (3, 2), 6) == [(2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (7, 4)]
    assert bolt_line((1, 1), (1, 1), 6) == []


def test_a_thrown_dart_hits_lands_and_is_picked_up_again(lasting):
    game = testing.game_from_map(lasting, "\n    ########\n    #@...r.#\n    ########\n")
    game.api.give("dart", 2)
    assert labels(game) == ["dart (2)"]
    events = heard(game)
    s = testing.press(game, "t enter")  # at the rat: 2 of its 4 HP
    assert s["monsters"][0]["hp"] == 2 and "The dart hits the rat for 2." in s["messages"]
    assert [(i["kind"], i["x"], i["y"]) for i in s["items"]] == [("dart", 5, 1)]
    assert any(isinstance(e, Shot) for e in events)
    s = testing.press(game, "t enter")  # the second kills it, wherever it came
    assert s["monsters"] == [] and "The dart kills the rat!" in s["messages"]
    assert pack(s) == []
    for item in list(game.api.items()):
        if game.api.kind_of(item).name == "dart":
            game.api.move(game.api.player, *game.api.position(item))
            s = testing.press(game, "g")
    assert pack(s) == [("dart", 2)]


def test_a_spearthrower_throws_javelins_from_afar_which_land_to_be_picked_up(lasting):
    game = testing.game_from_map(lasting, "\n    #########\n    #@....p.#\n    #########\n")
    sturdy(game)
    events = heard(game)
    s = testing.press(game, ".")
    thrower = s["monsters"][0]
    assert (thrower["x"], thrower["y"]) == (6, 1)  # it stays where it is and throws
    assert "The goblin spearthrower throws a javelin: it hits you for 4." in s["messages"]
    assert s["player"]["hp"] == 500 - 4
    assert Shot((6, 1), (1, 1)) in events
    # under the player, but they stand on the stairs up, which it would hide: the cell before
    assert [(i["kind"], i["x"], i["y"]) for i in s["items"]] == [("javelin", 2, 1)]
    s = testing.press(game, "l")  # the second lands under the player, onto the first
    assert [(i["kind"], i["x"], i.get("amount", 1)) for i in s["items"]] == [("javelin", 2, 2)]
    s = testing.press(game, "g")  # both picked up
    assert pack(s) == [("javelin", 2)] and s["items"] == []
    s = testing.press(game, ". .")  # two thrown: it has none left, and comes to fight
    assert sum(1 for m in s["messages"] if "throws a javelin" in m) == 2
    assert s["monsters"][0]["x"] < 6


def bot_keys(game, count):
    """The delver's next ``count`` keys at most, each pressed (it stops when it has nothing to do)."""
    delver, keys = game.api.bot("delver"), []
    for _ in range(count):
        key = delver(game.api)
        if key is None:
            break
        keys.append(key)
        testing.press(game, key)
    return keys


def test_the_delver_throws_darts_at_a_monster_coming_and_picks_them_up_after(lasting):
    game = testing.game_from_map(lasting, "\n    #########\n    #@.....o#\n    #########\n")
    game.api.give("dart", 3)
    keys = bot_keys(game, 60)
    assert keys[:2] == ["t", "enter"]  # the cursor starts on the orc: thrown at once
    s = testing.press(game, "")
    assert s["monsters"] == [] and any("The dart hits the orc" in m for m in s["messages"])
    assert s["items"] == [] and pack(s) == [("dart", 3)]  # every one picked up again


def test_the_delver_zaps_lightning_at_a_monster_it_would_rather_not_meet(registry):
    game = testing.game_from_map(registry, "\n    ##########\n    #@......O#\n    ##########\n")
    game.api.give("wand of slowing")
    game.api.give("wand of lightning")
    keys = bot_keys(game, 3)
    assert keys[0] == "z" and keys[1] == "b"  # the wand of lightning, the strongest bolt
    assert game.api.hp(game.api.monsters()[0])[0] == registry.monsters["ogre"].hp - 9


def test_a_dart_that_breaks_is_gone_and_one_that_hits_nobody_never_breaks(brittle):
    game = testing.game_from_map(brittle, "\n    ########\n    #@.....#\n    #....r.#\n    ########\n")
    game.api.give("dart", 3)
    s = testing.press(game, "t enter")  # the cursor on the rat: hit, and broken
    assert s["monsters"][0]["hp"] == 2 and s["messages"][-1] == "The dart breaks."
    assert s["items"] == [] and pack(s) == [("dart", 2)]
    s = testing.press(game, "t k enter")  # at the empty cell above the rat: it lands, whole
    assert s["messages"][-1] == "The dart lands." and pack(s) == [("dart", 1)]
    assert [(i["kind"], i["y"]) for i in s["items"]] == [("dart", 1)]  # above the rat, wherever it went


def test_a_spearthrowers_javelin_that_hits_and_breaks_is_not_left_lying(brittle):
    game = testing.game_from_map(brittle, "\n    #########\n    #@....p.#\n    #########\n")
    sturdy(game)
    s = testing.press(game, ".")
    assert "The goblin spearthrower throws a javelin: it hits you for 4." in s["messages"]
    assert s["items"] == []


def test_breaking_is_the_runs_own_dice_same_seed_same_breaks(registry):
    def broken(seed):
        game = testing.game_from_map(registry, "\n    ##########\n    #@.......#\n    ##########\n", seed=seed)
        sturdy(game)
        game.api.give("dart", 30)
        out = []
        for _ in range(30):
            rat = game.api.monsters()[0] if game.api.monsters() else game.api.spawn("rat", 3, 1)
            game.api.component(rat, Fighter).hp = 99
            s = testing.press(game, "t enter")
            out.append(s["messages"][-1] == "The dart breaks.")
        return out

    first = broken(3)
    assert first == broken(3)
    assert 0 < sum(first) < 30  # some break, some do not (20 in 100)


def test_a_spearthrower_only_hunts_in_a_preset_without_the_ranged_params(registry):
    import dataclasses

    undercroft = registry.games["undercroft"]
    params = {name: table for name, table in undercroft.params.items() if name != "ranged"}
    registry.games["plain"] = dataclasses.replace(undercroft, name="plain", default=False, params=params)
    try:
        game = testing.game_from_map(registry, "\n    #########\n    #@....p.#\n    #########\n", game="plain")
        s = testing.press(game, ". .")
    finally:
        del registry.games["plain"]
    assert not any("javelin" in m for m in s["messages"]) and s["items"] == []
    assert s["monsters"][0]["x"] < 6  # it comes to fight


def test_one_rule_breaks_every_thrown_thing(registry):
    """GameAPI.breaks is the rule the player's throw and the spearthrower's both ask (each rolled it
    its own way): params.breaks percent of the hits, on the run's "throw" stream; 0 rolls nothing."""
    game = testing.game_from_map(registry, "\n    ######\n    #@...#\n    ######\n", seed=4)
    api, dart = game.api, registry.items["dart"]
    never, always = (dataclasses.replace(dart, params={**dart.params, "breaks": p}) for p in (0, 100))
    before = api.rng("throw").getstate()
    assert not any(api.breaks(never) for _ in range(50))
    assert api.rng("throw").getstate() == before  # nothing rolled for a kind that never breaks
    assert all(api.breaks(always) for _ in range(50))
    rolls = [api.breaks(dart) for _ in range(400)]  # the dart's own 20 in 100
    assert 40 < sum(rolls) < 120
