"""The default game's new monsters and the Amulet's guardian (plugins/depths/monsters.py, #25
item 7): a shade seen only beside the player, a cutpurse that steals and runs, a goblin shaman that
calls goblins (bounded), a venomous cave spider, a ghoul, and Vorgath the Warden, placed once by
the Amulet. Drawn maps of the default game, played with keys."""

from __future__ import annotations

from engine import Carried, Fighter, Monster, testing
from engine.core.model.requests import ChangeLevel
from engine.core.play.prompts import describe_cell
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import snapshot
from engine.core.play.travel import threat_in_view
from engine.frontend.sidebar import visible_monsters
from engine.persist.morgue import cause_of_death
from engine.plugins.bots._delver_look import DelverView, Memory
from engine.plugins.bots.delver import Delver
from engine.plugins.depths.monsters import BOSS, Loot, Post, Summoned

AMULET = "Amulet of the Undercroft"
MINE = {"cave spider", "cutpurse", "goblin shaman", "shade", "ghoul"}


def the(game, kind: str) -> int:
    return next(e for e, m in game.world.query(Monster) if m.kind == kind)


def sturdy(game, hp: int = 500) -> None:
    """The player cannot die in this test (its HP raised)."""
    fighter = game.world.get(game.player, Fighter)
    fighter.hp = fighter.max_hp = hp


# -- the shade: seen only beside the player ---------------------------------------------------
def test_a_shade_is_unseen_at_range_and_seen_beside_the_player(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@......S#
        ##########
    """)
    shade = the(game, "shade")
    cell = game.api.position(shade)
    assert game.api.sees(*cell)  # its cell is in full view...
    assert shade not in game.api.visible_monsters()  # ...but not the shade: not in the view,
    assert visible_monsters(game) == []  # not in the sidebar,
    assert "shade" not in describe_cell(game, cell)  # not in look,
    assert DelverView(game.api, Memory()).monsters == []  # not for the bots
    assert threat_in_view(game.api) is None  # nor named by explore ("Not with the shade in view.")
    game.api.move(shade, 2, 1)  # beside the player
    assert shade in game.api.visible_monsters()
    assert [kind for _, kind, *_ in visible_monsters(game)] == ["shade"]
    assert "shade" in describe_cell(game, (2, 1))
    assert threat_in_view(game.api) == shade


def test_an_unseen_shade_still_notices_the_player_and_comes_to_strike(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@......S#
        ##########
    """)
    sturdy(game)
    shade = the(game, "shade")
    assert game.world.get(shade, Monster).awake  # it noticed the player, unseen
    said = testing.press(game, ". . . . . . . .")["messages"]
    assert any(m.startswith("The shade hits you") for m in said)
    assert shade in game.api.visible_monsters()


# -- the cutpurse: steals, runs, drops it when killed -----------------------------------------
def test_a_cutpurse_steals_one_item_runs_and_drops_it_when_killed(registry):
    game = testing.game_from_map(registry, """
        ##############
        #@t..........#
        #............#
        ##############
    """)
    sturdy(game)
    known_as = game.api.item_name(game.api.give("scroll of teleport", 1))  # "scroll labelled ..."
    thief = the(game, "cutpurse")
    s = testing.press(game, ".")
    assert any(f"snatches your {known_as} and runs" in m for m in s["messages"])
    assert s["player"]["inventory"] == []
    assert game.api.component(thief, Loot).kind == "scroll of teleport"
    start = game.api.distance(game.player, thief)
    testing.press(game, ". .")
    assert game.api.distance(game.player, thief) > start  # it runs
    where = game.api.position(thief)
    game.api.kill(thief, game.player)
    s = snapshot(game)
    assert {"kind": "scroll of teleport", "x": where[0], "y": where[1], "amount": 1} in s["items"]
    assert any(f"drops your {known_as}." in m for m in s["messages"])


def test_a_cutpurse_takes_nothing_in_use_nor_the_amulet_and_strikes_instead(registry):
    game = testing.game_from_map(registry, """
        #######
        #@t...#
        #######
    """)
    sturdy(game)
    game.api.give(AMULET, 1)
    dagger = game.api.give("dagger", 1)
    testing.press(game, f"w {game.api.component(dagger, Carried).letter}")
    s = testing.press(game, ". .")
    assert sorted(i["kind"] for i in s["player"]["inventory"]) == sorted([AMULET, "dagger"])
    assert game.api.component(the(game, "cutpurse"), Loot) is None
    assert any(m.startswith("The cutpurse hits you") for m in s["messages"])


# -- the goblin shaman: calls goblins, bounded -------------------------------------------------
def test_a_goblin_shaman_calls_goblins_and_no_more_than_its_bounds(registry):
    game = testing.game_from_map(registry, """
        ################
        #@.............#
        #..............#
        #.....G........#
        #..............#
        ################
    """)
    sturdy(game, 5000)
    shaman = the(game, "goblin shaman")
    params = game.api.kind_of(shaman).params
    testing.press(game, " ".join(["."] * 4))
    called = game.api.query(Summoned)
    assert called and all(game.api.name_of(e) == "goblin" for e, _ in called)
    assert any("calls for help" in m for m in game.messages)
    alive_most, ever = 0, set()
    for _ in range(60):
        testing.press(game, ".")
        now = game.api.query(Summoned)
        alive_most = max(alive_most, len(now))
        ever |= {e for e, _ in now}
        for goblin, _ in now:  # the player's blows, as it were: the summons die, so it may call again
            if game.api.hp(goblin)[0] > 0 and game.rng("test").random() < 0.3:
                game.api.kill(goblin, game.player)
    assert alive_most <= params["summons"]
    assert len(ever) <= params["most"] * params["count"][1]


# -- the cave spider: its bite envenoms -------------------------------------------------------
def test_a_cave_spider_s_bite_envenoms(registry):
    game = testing.game_from_map(registry, """
        ######
        #@s..#
        ######
    """)
    sturdy(game)
    s = testing.press(game, ".")
    assert "envenomed" in s["player"]["statuses"]
    hp = s["player"]["hp"]
    game.api.kill(the(game, "cave spider"), game.player)
    assert testing.press(game, ".")["player"]["hp"] == hp - 1  # the venom, with the spider gone


# -- Vorgath the Warden ---------------------------------------------------------------------
def test_the_warden_is_placed_once_beside_the_amulet_on_the_deepest_level_and_never_elsewhere(registry):
    game = new_game(Setup(seed=3), registry)
    assert all(BOSS not in {k.name for k in game.api.monster_kinds(d)} for d in range(1, 11))
    game.apply(ChangeLevel(10))
    s = snapshot(game)
    (amulet,) = [i for i in s["items"] if i["kind"] == AMULET]
    (boss,) = [m for m in s["monsters"] if m["kind"] == BOSS]
    assert max(abs(boss["x"] - amulet["x"]), abs(boss["y"] - amulet["y"])) == 1
    assert not boss["awake"]


def test_the_warden_rises_says_its_name_calls_its_guards_at_half_hp_and_its_fall_is_said(registry):
    game = testing.game_from_map(registry, """
        ###########
        #@.......W#
        #.........#
        ###########
    """)
    sturdy(game)
    boss = the(game, BOSS)
    said = testing.press(game, ". . . . . . . . .")["messages"]
    assert f"{BOSS} rises from beside the Amulet!" in said
    assert any(m.startswith(f"{BOSS} hits you for") for m in said)  # a proper name: no "The"
    assert not any(o == "orc" for o in (game.api.name_of(m) for m in game.api.monsters()))
    fighter = game.world.get(boss, Fighter)
    fighter.hp = fighter.max_hp // 2
    said = testing.press(game, ".")["messages"]
    assert f"{BOSS} roars, and its guards come!" in said
    assert [game.api.name_of(e) for e, _ in game.api.query(Summoned)] == ["orc", "orc"]
    fighter.hp = fighter.max_hp // 4
    testing.press(game, ". .")
    assert len(game.api.query(Summoned)) == 2  # once only
    fighter.hp = 1
    bx, by = game.api.position(boss)
    px, py = game.api.position(game.player)
    step = {(-1, 0): "h", (1, 0): "l", (0, -1): "k", (0, 1): "j", (-1, -1): "y", (1, -1): "u",
            (-1, 1): "b", (1, 1): "n"}[(bx - px, by - py)]
    said = testing.press(game, step)["messages"]
    assert f"You kill {BOSS}!" in said
    assert f"{BOSS} falls, and the Amulet lies unguarded." in said


def test_the_warden_kills_by_name_and_goes_back_to_its_post_when_it_lost_the_player(registry):
    game = testing.game_from_map(registry, """
        ###########
        #@W.......#
        ###########
    """)
    game.world.get(game.player, Fighter).hp = 1
    testing.press(game, ".")
    assert cause_of_death(game) == f"killed by {BOSS} on depth 1"
    game = testing.game_from_map(registry, """
        ###########
        #@..#....W#
        #..##.....#
        #.........#
        ###########
    """)
    boss = the(game, BOSS)
    assert not game.world.get(boss, Monster).awake  # out of view: asleep
    game.api.add_component(boss, Post(5, 2))
    game.api.wake(boss)
    testing.press(game, ". . . . . . .")
    assert game.api.position(boss) == (5, 2) and not game.world.get(boss, Monster).awake


# -- the roster and the bot ---------------------------------------------------------------------
def test_the_default_game_places_the_new_kinds_across_its_depths(registry):
    game = new_game(Setup(seed=1), registry)
    placed = {k.name for d in range(1, game.rules.max_depth + 1) for k in game.api.monster_kinds(d)}
    assert MINE <= placed
    assert len(placed | {game.rules.params["monsters"]["boss"]}) >= 14
    for lesson in ("lesson28", "rogue-sdl"):  # the classic presets keep their own monsters
        classic = new_game(Setup(game=lesson, seed=1), registry)
        assert not MINE & {k.name for d in range(1, 11) for k in classic.api.monster_kinds(d)}


def test_the_delver_runs_after_a_thief_with_its_loot(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@...t...#
        ##########
    """)
    thief = the(game, "cutpurse")
    game.api.add_component(thief, Loot("potion"))
    game.api.declare(thief, "fleeing")
    assert Delver()(game.api) == "l"


def test_a_cutpurse_names_what_it_steals_as_the_player_knows_it(registry):
    """The messages of a theft say the item as the pack does: an unknown potion by its appearance,
    never its true kind (the thief's line was the one place that told it)."""
    game = testing.game_from_map(registry, """
        ##############
        #@t..........#
        #............#
        ##############
    """)
    sturdy(game)
    item = game.api.give("potion of haste", 1)
    known_as = game.api.item_name(item)
    assert known_as != "potion of haste"  # unknown in the default game
    thief = the(game, "cutpurse")
    said = testing.press(game, ".")["messages"]
    assert any(f"snatches your {known_as} and runs" in m for m in said)
    assert not any("haste" in m for m in said)
    game.api.kill(thief, game.player)
    said = snapshot(game)["messages"]
    assert any(f"drops your {known_as}." in m for m in said)
    assert not any("haste" in m for m in said)
