"""Vaults and set pieces (plugins/depths/vaults.py) and captives who become allies
(plugins/depths/allies.py), on drawn maps and on generated levels of the default game."""

from __future__ import annotations

import json

import pytest

from engine import Fighter, TerrainKind, hookimpl, testing
from engine.cli.tools.catalog import entries
from engine.core.play.setup import Setup, new_game
from engine.kit.regions import label_regions
from engine.persist.runsave import capture, load
from engine.plugins.depths import identify
from engine.plugins.depths.allies import Ally
from engine.plugins.depths.vaults import Lurking, VaultKey, VaultPrize


class SecretDoors:
    """A stand-in for the doors plugin's ``secret-door`` (looks like a wall; walkable once found)."""

    @staticmethod
    @hookimpl
    def register_terrain(register):
        register(TerrainKind(name="secret-door", glyph="%", color=(165, 160, 175), walkable=False,
                             transparent=False, description="a wall"))


@pytest.fixture(scope="module")
def registry():
    return testing.load_plugin()


@pytest.fixture(scope="module")
def with_secret_doors():
    plain = testing.load_plugin()
    # the doors plugin may register the kind itself: the stand-in only where nobody does
    return plain if "secret-door" in plain.terrain else testing.load_plugin(SecretDoors)


VAULT = """
    ###########
    #@.-......#
    ######.####
    #####___###
    #####...###
    ###########
"""


def _vault(registry):
    """The vault drawn open (a drawn level is connected), its door then shut as a generator would:
    the key on the level and the items on the altars are the vault's (marked when it was made)."""
    game = testing.game_from_map(registry, VAULT)
    api = game.api
    api.set_terrain(6, 2, "vault-door")
    for x, name in zip((5, 6, 7), ("long sword", "chain mail", "potion of troll blood"), strict=True):
        api.add_component(api.spawn(name, x, 3), VaultPrize(1))
    key = next(e for e in api.items() if api.name_of(e) == "vault key")
    assert api.component(key, VaultKey).depth == 1  # marked when the level was made
    api.note_feature("vault 6,2")
    return game, api


def test_the_vault_door_refuses_without_the_key_and_opens_with_it(registry):
    game, api = _vault(registry)
    assert api.terrain(6, 2).name == "vault-door" and api.is_wall(6, 2)
    assert [api.terrain(x, 3).name for x in (5, 6, 7)] == ["altar"] * 3
    testing.press(game, "l l l l")  # past the key, to (5, 1), then beside the door
    state = testing.press(game, "n")  # into the door, no key: no time passes
    assert "The vault door is locked. Its key lies somewhere on this level." in state["messages"]
    assert api.terrain(6, 2).name == "vault-door" and api.position(api.player) == (5, 1)
    turn = game.turn
    testing.press(game, "h h g")  # back to the key, take it
    assert [api.name_of(e) for e in api.pack() if api.component(e, VaultKey)] == ["vault key"]
    state = testing.press(game, "l l n")
    assert "You unlock the vault door." in state["messages"] and game.turn == turn + 6
    assert api.terrain(6, 2).name in ("open-door", "floor") and not api.is_wall(6, 2)
    assert not any(api.name_of(e) == "vault key" for e in api.pack())  # used up
    testing.press(game, "n")
    assert api.position(api.player) == (6, 2)


def test_a_key_opens_only_the_vault_of_its_own_level(registry):
    game, api = _vault(registry)
    testing.press(game, "l l g")
    (key,) = [e for e in api.pack() if api.component(e, VaultKey)]
    api.component(key, VaultKey).depth = 7  # found on another level
    state = testing.press(game, "l l n")
    assert "This key is for a vault on another level." in state["messages"]
    assert api.terrain(6, 2).name == "vault-door"


def test_taking_one_treasure_seals_the_others(registry):
    game, api = _vault(registry)
    assert len(api.query(VaultPrize)) == 3
    testing.press(game, "l l g l l n n")  # the key, the door, into the doorway
    state = testing.press(game, "b g")  # onto the long sword's altar, take it
    assert "The other treasures sink into the floor." in state["messages"]
    assert [api.name_of(e) for e in api.items()] == []
    assert "long sword" in [api.name_of(e) for e in api.pack()]
    assert api.query(VaultPrize) == []


AMBUSH = """
    ###########
    #@....#...#
    #.....+.g.#
    #.....#g..#
    ###########
"""


def test_the_ambush_wakes_all_on_entry(registry):
    game = testing.game_from_map(registry, AMBUSH.replace("+", "."))
    api = game.api
    lurkers = [m for m in api.monsters()]
    for m in lurkers:
        api.add_component(m, Lurking(7, 1, 3, 3))
    testing.press(game, "j l l l l")  # in sight of them, still outside: they lie still
    assert api.position(api.player) == (5, 2)
    assert [api.position(m) for m in lurkers] == [(8, 2), (7, 3)]
    assert not any(api.component(m, __import__("engine").Monster).awake for m in lurkers)
    state = testing.press(game, "l l")  # through the gap and into the room
    assert "It's an ambush!" in state["messages"]
    assert all(m["awake"] for m in state["monsters"])
    assert api.query(Lurking) == []


CAPTIVE = """
    ################
    #@.g...........#
    #..............#
    #..............#
    ################
"""


def _freed(registry):
    game = testing.game_from_map(registry, CAPTIVE)
    api = game.api
    goblin = next(m for m in api.monsters() if api.name_of(m) == "goblin")
    api.add_status(goblin, "captive", None)
    return game, api, goblin


def test_the_captive_does_nothing_and_is_freed_by_bumps(registry):
    game, api, goblin = _freed(registry)
    testing.press(game, ". .")
    assert api.position(goblin) == (3, 1) and api.hp(api.player) == api.hp(api.player)
    state = testing.press(game, "l l")  # beside it, then a first bump: work at the shackles
    assert "You work at the goblin's shackles." in state["messages"]
    assert api.has_status(goblin, "captive") and api.hp(goblin)[0] == 8  # a bump is no blow
    state = testing.press(game, "l l")
    assert "You free the goblin: it joins you." in state["messages"]
    assert not api.has_status(goblin, "captive") and api.has_status(goblin, "ally")
    assert api.component(goblin, Ally) is not None


def test_the_sidebar_calls_the_freed_monster_your_ally(registry):
    from engine.frontend.sidebar import states

    game, api, goblin = _freed(registry)
    assert "captive" in states(game, goblin)
    testing.press(game, "l l l l")
    assert "your ally" in states(game, goblin)


def test_the_ally_swaps_places_follows_and_fights(registry):
    game, api, goblin = _freed(registry)
    testing.press(game, "l l l l")
    testing.press(game, "l")  # into the ally: they swap, no blow
    assert api.position(api.player) == (3, 1) and api.position(goblin) == (2, 1)
    assert api.hp(goblin)[0] == 8
    testing.press(game, "l l l l l l l l")
    assert api.position(api.player) == (11, 1) and api.distance(goblin, api.player) <= 3  # it followed
    rat = api.spawn("rat", 13, 3)
    api.component(rat, Fighter).hp = 30  # a long fight, to watch it
    api.wake(rat)
    for _ in range(6):
        state = testing.press(game, ".")
    said = " ".join(state["messages"])
    assert "The goblin hits the rat" in said  # the ally strikes a hostile monster near the player
    assert api.hp(rat)[0] < 30


def test_a_bolt_at_the_nearest_monster_and_the_aim_pass_the_ally_and_the_captive_by(registry):
    game, api, goblin = _freed(registry)
    identify.learn_all(api)
    rat = api.spawn("rat", 6, 1)
    api.component(rat, Fighter).hp = 30  # it lives through the bolt, to be aimed at again
    kobold = api.spawn("kobold", 5, 3)
    api.add_status(kobold, "captive", None)  # a second captive, nearer than the rat
    api.give("scroll of lightning")
    state = testing.press(game, "r")  # the goblin (captive) is nearest, the kobold next: the rat is struck
    assert "Lightning strikes the rat for 14!" in state["messages"]
    assert api.hp(goblin) == (8, 8) and api.hp(kobold)[0] == api.hp(kobold)[1] and api.hp(rat)[0] == 16
    testing.press(game, "l l l l")  # the goblin freed: an ally now, still the nearest
    assert api.has_status(goblin, "ally")
    api.give("scroll of confusion")
    game.state.last_target = None
    state = testing.press(game, "r")  # the cursor starts on the nearest foe, not on the ally beside
    assert state["prompt"]["cursor"] == list(api.position(rat))
    turn = testing.press(game, "esc")["turn"]
    api.remove(rat)
    state = testing.press(game, "r")  # only friends in view: nobody to aim at, no turn spent
    assert state["prompt"] is None and state["messages"][-1] == "No target in view."
    assert state["turn"] == turn and api.hp(goblin) == (8, 8)


def test_a_hostile_monster_beside_an_ally_and_not_the_player_strikes_the_ally(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@..r....#
        #....g...#
        ##########
    """)
    api = game.api
    rat, goblin = (next(m for m in api.monsters() if api.name_of(m) == n) for n in ("rat", "goblin"))
    from engine.plugins.depths.allies import befriend

    befriend(api, goblin)
    api.component(goblin, Fighter).attack = 0  # the ally cannot hurt: only the rat's blows are watched
    api.component(goblin, Fighter).hp = api.component(goblin, Fighter).max_hp = 50
    api.component(rat, Fighter).hp = api.component(rat, Fighter).max_hp = 50
    state = testing.press(game, ".")
    assert "The rat hits the goblin" in " ".join(state["messages"])
    assert api.hp(api.player)[0] == api.hp(api.player)[1]


def test_an_ally_survives_a_save_and_resume(registry):
    game, api, goblin = _freed(registry)
    testing.press(game, "l l l l")
    data = json.loads(json.dumps(capture(game)))
    again, _ = load(data, registry)
    api2 = again.api
    (ally,) = [e for e, _ in api2.query(Ally)]
    assert api2.name_of(ally) == "goblin" and api2.has_status(ally, "ally")
    testing.press(again, "l")  # and it is still an ally: a swap, not a blow
    assert api2.position(api2.player) == (3, 1) and api2.hp(ally)[0] == 8


def _levels(registry, seeds, depths, game=None):
    for seed in seeds:
        g = new_game(Setup(seed=seed, game=game), registry)
        try:
            for depth in depths:
                if depth != g.depth:
                    g.enter_level(depth)
                yield g
        finally:
            g.close()


def _connected(api) -> bool:
    """Every walkable cell reachable from the player, through the doors that open (a vault's with
    its key, a secret one once found)."""
    walkable = ~api.walls()
    h, w = walkable.shape
    for y in range(h):
        for x in range(w):
            if api.terrain(x, y).name in ("vault-door", "secret-door"):
                walkable[y, x] = True
    labels, _ = label_regions(walkable)
    px, py = api.position(api.player)
    return bool((labels[walkable] == labels[py, px]).all())


def test_generated_levels_from_depth_2_sometimes_hold_a_vault_and_stay_connected(registry):
    seen = {"vault": 0, "ambush": 0, "captive": 0, "treasure": 0}
    for g in _levels(registry, range(1, 9), (1, 2, 3)):
        api = g.api
        features = api.features()
        if g.depth == 1:
            assert features == []
        for feature in features:
            seen[feature.split()[0]] += 1
        vaults = [f for f in features if f.startswith("vault")]
        if vaults:
            door = tuple(int(v) for v in vaults[0].split()[1].split(","))
            api.set_terrain(*door, "floor")  # opened: the vault joins the level
            assert len([e for e, p in api.query(VaultPrize) if p.depth == g.depth]) >= 2
            assert sum(api.name_of(e) == "vault key" for e in api.items()) == 1
        assert _connected(api), (g.depth, features)
    assert seen["vault"] >= 3 and seen["ambush"] >= 1 and seen["captive"] >= 1 and seen["treasure"] >= 1


def test_the_catalog_lists_the_set_pieces(registry):
    lines = list(entries(range(1, 5), range(2, 4), registry=registry))
    assert any(line.startswith("  feature vault ") for line in lines)


@pytest.mark.parametrize("preset", ["lesson28", "rogue-sdl", "bunyip"])
def test_classic_presets_get_no_set_pieces(registry, preset):
    for g in _levels(registry, range(1, 4), (1, 2, 3), game=preset):
        assert g.api.features() == [] and not {"vault-door", "altar"} & set(g.level.kinds)


def test_a_treasure_room_hides_behind_a_secret_door_where_the_kind_is_registered(registry, with_secret_doors):
    hidden = []
    for g in _levels(with_secret_doors, range(1, 13), (2, 3, 4)):
        for feature in g.api.features():
            if feature.startswith("treasure"):
                x, y = (int(v) for v in feature.split()[1].split(","))
                assert g.api.terrain(x, y).name == "secret-door"
                hidden.append(feature)
    assert hidden
    for g in _levels(registry, range(1, 5), (2, 3, 4)):
        if "secret-door" not in registry.terrain:
            assert not any(f.startswith("treasure") for f in g.api.features())


def _bot_plays(game, keys: int) -> None:
    api = game.api
    bot = api.bot("delver")
    for _ in range(keys):
        key = bot(api)
        if key is None:
            break
        testing.press(game, key)


def test_the_delver_takes_the_key_opens_the_vault_and_takes_one_treasure(registry):
    game, api = _vault(registry)
    _bot_plays(game, 40)
    assert api.terrain(6, 2).name != "vault-door"
    taken = [api.name_of(e) for e in api.pack()]
    assert len({"long sword", "chain mail", "potion of troll blood"} & set(taken)) == 1
    assert api.query(VaultPrize) == [] and api.items() == []


def test_the_delver_frees_a_captive_and_never_strikes_its_ally(registry):
    game, api, goblin = _freed(registry)
    identify.learn_all(api)  # the scroll known: an unknown one read to learn it (when safe) would hit the ally
    _bot_plays(game, 30)
    assert api.has_status(goblin, "ally") and api.hp(goblin) == (8, 8)
    fighter = api.component(goblin, Fighter)
    fighter.hp = fighter.max_hp = 40
    fighter.attack = 12  # a foe like it would be worth a scroll
    api.give("scroll of lightning")  # a scroll it reads at monsters in view: never at its ally
    _bot_plays(game, 30)
    assert api.hp(goblin) == (40, 40) and "scroll of lightning" in [api.name_of(e) for e in api.pack()]


def test_an_ally_beside_the_player_follows_down_the_stairs_and_one_farther_stays(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@>g....r#
        ##########
    """)
    api = game.api
    from engine.plugins.depths.allies import befriend

    goblin, rat = (next(m for m in api.monsters() if api.name_of(m) == n) for n in ("goblin", "rat"))
    befriend(api, goblin)
    befriend(api, rat)
    api.component(goblin, Fighter).hp = 5
    state = testing.press(game, "l >")
    assert state["depth"] == 2
    followers = [e for e, _ in api.query(Ally)]
    assert [api.name_of(e) for e in followers] == ["goblin"] and api.hp(followers[0])[0] == 5
    assert api.distance(followers[0], api.player) <= 3 and api.has_status(followers[0], "ally")
    testing.press(game, "<")  # back up (the goblin beside the player, as it arrived, comes along)
    testing.press(game, ".")
    assert sorted(api.name_of(e) for e, _ in api.query(Ally)) == ["goblin", "rat"]  # the rat stayed


def test_the_delver_walks_on_to_a_captive_it_saw_and_lost_and_lets_it_be_after_a_while(registry):
    from engine.plugins.bots._delver_look import DelverView, Memory
    from engine.plugins.bots._delver_vaults import FREE_KEYS, free

    game, api, goblin = _freed(registry)
    memory = Memory()
    assert free(DelverView(api, memory)) is not None and memory.captive == (3, 1)  # seen: on its way
    api.remove_status(goblin, "captive")  # as if out of view: no captive in sight now
    api.move(goblin, 8, 1)
    assert free(DelverView(api, memory)) is not None  # it goes on to where it saw one
    memory.freeing = FREE_KEYS
    assert free(DelverView(api, memory)) is None  # a walk that long: it lets it be
    memory.freeing = 0
    api.move(api.player, 2, 1)  # beside where it saw it, and nobody there: forgotten
    assert free(DelverView(api, memory)) is None and memory.captive is None


def test_a_captive_and_an_ally_are_drawn_on_a_friend_s_green_and_a_foe_of_their_kind_is_not(registry):
    """Told apart from a foe of its kind at a glance: the window draws a creature with a friendly
    status (captive, ally) on the friend's background, in the light; the same kind hostile beside
    it on the floor's."""
    from engine.frontend import compose, palette

    game, api, goblin = _freed(registry)
    foe = api.spawn("goblin", 4, 2)

    def background(x, y):
        look = compose.look_for(game.rules)
        names = compose.Names()
        tables = compose.Tables(game.rules, look, names)
        tables.fit(list(game.level.kinds), game.registry.terrain)
        h, w = game.level.terrain.shape
        return tuple(int(c) for c in compose.compose(game, slice(0, h), slice(0, w), tables, look, names).bg[y, x])

    testing.press(game, ".")
    assert api.is_friendly(goblin) and not api.is_friendly(foe) and not api.is_friendly(api.player)
    assert background(*api.position(goblin)) == palette.FRIEND_BG  # the captive
    assert background(*api.position(foe)) == palette.LIGHT_BG
    testing.press(game, "l l l l")
    assert api.has_status(goblin, "ally") and background(*api.position(goblin)) == palette.FRIEND_BG
    assert api.is_friendly(goblin)
    assert api.position(foe) is None or background(*api.position(foe)) != palette.FRIEND_BG
