"""The default game's content: loot tables with nothing in them, on the
floor and dropped on death; every potion, scroll and piece of equipment; growth with a choice on
level-up; monsters that differ (fast, slow, ranged, fleeing, regenerating); statuses and
experience kept by a save."""

import dataclasses
import json
import random

import pytest

from engine import Actor, Attack, Monster, load_registry, testing
from engine.core.kinds.content import ContentError
from engine.core.kinds.rules import load_rules
from engine.core.kinds.tables import LootRow, LootTable
from engine.core.play.setup import Setup, check_rules, new_game
from engine.core.play.snapshot import snapshot
from engine.core.turn.run import Choices
from engine.persist import runsave
from engine.plugins.depths import identify
from engine.plugins.rules import conditions, effects
from engine.plugins.rules.growth import Experience, threshold
from engine.plugins.rules.monster_ai import SEARCH, Hunting


@pytest.fixture(scope="module")
def registry():
    return load_registry(entry_points=False)


def game_with(registry, picture: str, seed: int = 1):
    """A started default game whose first level is ``picture`` (seed 1, as these tests were written for)."""
    return testing.game_from_map(registry, picture, seed=seed)


def named(g, kind):
    return next(e for e in g.api.monsters() if g.api.name_of(e) == kind)


def wake(g, monster):
    """As if it had just seen the player."""
    g.world.get(monster, Monster).awake = True
    g.scheduler.add(monster, g.api.component(monster, Actor).speed)
    g.api.add_component(monster, Hunting(*g.api.position(g.player), search=SEARCH))


def stats_rows(g):
    """The sidebar's first section, as text."""
    from engine.frontend.sidebar import stats

    return [getattr(row, "text", None) or getattr(row, "label", "") for row in stats(g)]


def with_params(g, **tables):
    """The game's rules with plugin params replaced (a test's tuning)."""
    g.rules = dataclasses.replace(g.rules, params={**g.rules.params, **tables})


HALL = """
    ###############
    #@............#
    #.............#
    #.............#
    ###############
"""

# --- loot tables ----------------------------------------------------------------------------


def test_a_loot_row_scales_with_depth_and_nothing_has_a_weight():
    table = LootTable(items=(LootRow("potion", 10, per_depth=2), LootRow("plate armour", 3, min_depth=6),
                             LootRow("dagger", 8, max_depth=3, per_depth=-3)), nothing=50, nothing_per_depth=-5)
    assert table.at(1) == [("potion", 10), ("dagger", 8), (None, 50)]
    assert table.at(3) == [("potion", 14), ("dagger", 2), (None, 40)]
    assert table.at(6) == [("potion", 20), ("plate armour", 3), (None, 25)]
    assert table.at(20) == [("potion", 48), ("plate armour", 3)]  # nothing worn down to 0
    rolls = [tuple(table.roll(1, random.Random(s))) for s in range(400)]
    empty = sum(r == () for r in rolls) / len(rolls)
    assert 0.6 < empty < 0.8  # one roll: nothing 50 of 68
    assert LootTable(items=(LootRow("potion", 1),), rolls=(3, 3)).roll(1, random.Random(1)) == ["potion"] * 3


def test_a_malformed_loot_table_is_one_line(tmp_path):
    base = (tmp_path / "g.toml")
    head = 'name = "x"\ngenerators = [[1, "bsp"]]\nfov = "symmetric"\n'
    for body, where in [
        ('[loot.floor]\nitems = [{ item = "potion", weight = -1 }]\n', "loot.floor.items[0].weight"),
        ('[loot.floor]\nnothing = 5\n', "loot.floor.items: missing"),
        ('[loot.floor]\nitems = [{ item = "potion", weight = 1, chance = 3 }]\n', "unknown key"),
        ('[loot.floor]\nrolls = [4, 2]\nitems = [{ item = "potion", weight = 1 }]\n', "loot.floor.rolls"),
        ('loot = 3\n', "loot"),
    ]:
        base.write_text(head + body)
        with pytest.raises(ContentError) as e:
            load_rules(base)
        assert where in str(e.value) and "\n" not in str(e.value)


def test_an_unknown_item_in_a_loot_table_is_refused_before_play(registry):
    rules = registry.games["undercroft"]
    bad = dataclasses.replace(rules, loot={"floor": LootTable(items=(LootRow("potion of flight", 1),))})
    with pytest.raises(ValueError, match=r"loot.floor: no item named 'potion of flight'"):
        check_rules(registry, bad, Choices())


def test_a_preset_drawing_two_terrains_with_one_glyph_is_refused_before_play(registry):
    """A floor drawn as '#', the wall's glyph, was accepted: a map drawn as the window draws it would
    read back as walls."""
    rules = registry.games["undercroft"]
    bad = dataclasses.replace(rules, tiles={**rules.tiles, "floor": {**rules.tile("floor"), "glyph": "#"}})
    with pytest.raises(ValueError, match=r"^game undercroft: tiles.floor.glyph: '#' is tiles.wall.glyph too "):
        check_rules(registry, bad, Choices())
    check_rules(registry, rules, Choices())  # its own glyphs: each its own


def test_the_floor_table_places_depth_scaled_items(registry):
    floor = registry.games["undercroft"].loot["floor"]
    allowed = {row.item for row in floor.items} | {"potion", "gold"}
    seen = {1: set(), 8: set()}
    for seed in range(1, 7):
        g = new_game(Setup(seed=seed))
        for depth in seen:
            g.enter_level(depth)
            kinds = {i["kind"] for i in snapshot(g)["items"]}
            assert kinds <= allowed | {"Amulet of the Undercroft", "vault key"}  # a vault's key (plugins/depths)
            seen[depth] |= kinds
        g.close()
    assert not seen[1] & {"war axe", "plate armour", "scroll of fireball"}  # gated by depth
    assert not seen[8] & {"dagger", "leather armour"}
    assert len(seen[1] - {"potion", "gold"}) >= 3 and len(seen[8] - {"potion", "gold"}) >= 3


def test_a_monster_drops_what_its_table_gives_on_its_cell(registry):
    g = game_with(registry, "######\n#@r..#\n######\n")
    g.rules = dataclasses.replace(g.rules, loot={"drop": LootTable(items=(LootRow("scroll of teleport", 1),))})
    rat = named(g, "rat")
    s = testing.press(g, "l l")
    assert rat not in g.api.monsters()
    assert [(i["kind"], i["x"], i["y"]) for i in s["items"]] == [("scroll of teleport", 2, 1)]
    assert g.api.loot("none here") == []
    g.rules = dataclasses.replace(g.rules, loot={"drop": LootTable(items=(LootRow("potion", 1),), nothing=10**6)})
    assert g.api.loot("drop") == [] or g.api.loot("drop") == [("potion", 1)]


def test_ogres_and_trolls_name_the_rich_table(registry):
    rules = registry.games["undercroft"]
    for kind in ("ogre", "troll"):
        assert registry.monsters[kind].params["drops"] in rules.loot
    assert "drop" in rules.loot


# --- potions -------------------------------------------------------------------------------------


def test_haste_doubles_the_players_turns_then_wears_off(registry):
    g = game_with(registry, """
        ###################
        #@...............g#
        ###################
    """)
    goblin = named(g, "goblin")
    wake(g, goblin)
    g.give("potion of haste")
    s = testing.press(g, "q")
    assert s["player"]["statuses"] == {"hasted": 29} and g.api.component(g.player, Actor).speed == 200
    steps = []
    for _ in range(6):
        before = g.api.position(goblin)
        testing.press(g, ".")
        steps.append(g.api.position(goblin) != before)
    assert steps.count(True) == 3  # the goblin moves once for two of the player's turns
    for _ in range(40):
        testing.press(g, ".")
    s = snapshot(g)
    assert s["player"]["statuses"] == {} and g.api.component(g.player, Actor).speed == 100
    assert "You are no longer hasted." in s["messages"]


def test_troll_blood_heals_and_confuses_and_the_confused_stumble(registry):
    g = game_with(registry, HALL)
    g.api.damage(g.player, 15)
    g.give("potion of troll blood")
    s = testing.press(g, "q")
    assert s["player"]["hp"] == 20 and s["player"]["statuses"] == {"confused": 7}
    with_params(g, conditions={"stumble": 100})
    start = g.api.position(g.player)
    trail = [testing.press(g, "l")["player"]["x"] for _ in range(5)]
    assert trail != list(range(start[0] + 1, start[0] + 6))  # not straight on
    assert "You stumble." in snapshot(g)["messages"]
    g2 = game_with(registry, HALL)
    g2.api.add_status(g2.player, "confused", 5)
    with_params(g2, conditions={"stumble": 0})
    assert [testing.press(g2, "l")["player"]["x"] for _ in range(4)] == [2, 3, 4, 5]


# --- scrolls -------------------------------------------------------------------------------------


def test_lightning_strikes_the_nearest_monster_in_view(registry):
    g = game_with(registry, "##########\n#@.O...o.#\n##########\n")
    ogre, orc = named(g, "ogre"), named(g, "orc")
    g.give("scroll of lightning")
    s = testing.press(g, "r")
    most = g.registry.monsters["ogre"].hp
    assert g.api.hp(ogre) == (most - 14, most) and g.api.hp(orc) == (14, 14)
    assert "Lightning strikes the ogre for 14!" in s["messages"] and s["turn"] == 1
    g.give("scroll of lightning")
    g.api.kill(ogre)
    g.api.kill(orc)
    s = testing.press(g, "r")  # nobody in view: nothing read, no time
    assert s["messages"][-1] == "No target in view." and s["turn"] == 1 and s["player"]["inventory"]


def test_confusion_aims_at_a_monster_which_then_stumbles(registry):
    g = game_with(registry, HALL.replace("#@....", "#@..o."))
    orc = named(g, "orc")
    g.give("scroll of confusion")
    identify.learn_all(g.api)  # known: aimed (an unknown one goes off at once: test_depths_identify)
    s = testing.press(g, "r")
    assert s["prompt"]["kind"] == "target"
    s = testing.press(g, "enter")
    assert g.api.statuses(orc)["confused"].turns == 9 and "bewildered" in s["messages"][-1]
    action = conditions.on_action(g.api, orc, Attack(g.player))
    assert isinstance(action, conditions.Stagger)  # its blow becomes a random step
    wake(g, orc)
    places = {g.api.position(orc)}
    for _ in range(6):
        testing.press(g, ".")
        places.add(g.api.position(orc))
    assert len(places) > 2


def test_fireball_burns_everyone_in_its_radius_the_reader_too(registry):
    g = game_with(registry, """
        ###############
        #@.......o....#
        #........o....#
        #.............#
        #...........g.#
        ###############
    """)
    o1, o2 = sorted(e for e in g.api.monsters() if g.api.name_of(e) == "orc")
    goblin = named(g, "goblin")
    g.give("scroll of fireball")
    identify.learn_all(g.api)  # known: aimed (an unknown one goes off at once: test_depths_identify)
    s = testing.press(g, "r")
    assert s["prompt"]["kind"] == "target" and len(s["prompt"]["affected"]) > 1
    s = testing.press(g, "enter")
    assert g.api.hp(o1)[0] == 2 and g.api.hp(o2)[0] == 2 and g.api.hp(goblin)[0] == 8
    kind = g.registry.items["scroll of fireball"]
    effects.fireball(g.api, g.player, kind, 1, target=g.api.position(g.player))
    assert g.api.hp(g.player)[0] == 20 - 12


def test_teleport_and_magic_mapping(tmp_path):
    g = new_game(Setup(seed=5))
    g.give("scroll of teleport")
    before = g.api.position(g.player)
    s = testing.press(g, "r")
    after = g.api.position(g.player)
    assert after != before and not g.api.is_wall(*after) and "elsewhere" in s["messages"][-2]  # then "It was.."
    g.give("scroll of magic mapping")
    floor = ~g.api.walls()
    assert not g.api.seen()[floor].all()
    s = testing.press(g, "r")
    assert g.api.seen()[floor].all() and s["seen"] > 0 and "map" in s["messages"][-2]
    g.close()


def test_equipment_has_three_tiers_of_each_slot_across_the_depths(registry):
    g = game_with(registry, HALL)
    gear = {"weapon": [], "armour": []}
    for name, kind in registry.items.items():
        if kind.use == "wear":
            gear[kind.slot].append((kind.attack + kind.defense, name))
    assert all(len(v) >= 3 for v in gear.values())
    floor = {row.item: row for row in g.rules.loot["floor"].items}
    for tiers in gear.values():
        first = [floor[name].min_depth for _, name in sorted(tiers)]
        assert first == sorted(first) and first[0] == 1 and first[-1] >= 6  # better gear deeper
    g.give("war axe")
    g.give("plate armour")
    s = testing.press(g, "w a w b")
    assert (s["player"]["attack"], s["player"]["defense"]) == (4 + 7, 0 + 5)


# --- growth --------------------------------------------------------------------------------------


def test_a_kill_gives_xp_and_a_level_asks_what_grows(registry):
    g = game_with(registry, "#######\n#@r...#\n#######\n")
    s = snapshot(g)
    assert (s["player"]["level"], s["player"]["xp"]) == (1, 0)
    assert "Level 1   XP 0/10" in stats_rows(g)
    g.api.component(g.player, Experience).xp = 9
    s = testing.press(g, "l l")
    assert (s["player"]["level"], s["player"]["xp"]) == (2, 11)
    assert s["prompt"]["kind"] == "question"
    # the question states its amounts: what each choice adds, and the HP the level-up gave back
    hp = g.rules.params["growth"]["hp"]
    assert [o["label"] for o in s["prompt"]["options"]] == [f"More HP: +{hp} max HP (and {hp} HP now)",
                                                            "More attack: +1 attack", "More defense: +1 defense"]
    assert s["prompt"]["title"] == "Level 2. What grows?"  # at full HP: nothing to give back
    s = testing.press(g, "b")
    assert s["prompt"] is None and s["player"]["attack"] == 5
    assert s["messages"][-1] == "You feel stronger: +1 attack."
    wanted = threshold(g.rules.params["growth"], 2)
    assert wanted == 10 * 2 + g.rules.params["growth"]["step"] and f"Level 2   XP 11/{wanted}" in stats_rows(g)


def test_each_choice_grows_its_stat():
    g = new_game(Setup(seed=2))
    exp_params = g.rules.params["growth"]
    for choice, stat, gain in ((0, "max_hp", exp_params["hp"]), (2, "defense", exp_params["defense"])):
        before = snapshot(g)["player"][stat]
        g.hook("on_answer", question="growth.level", choice=choice)
        assert snapshot(g)["player"][stat] == before + gain
    g.close()


def test_the_presets_have_no_growth_but_the_keys():
    for game in ("rogue-sdl", "bunyip", "lesson28"):
        g = new_game(Setup(game=game, seed=3))
        p = snapshot(g)["player"]
        assert (p["level"], p["xp"], p["statuses"]) == (1, 0, {})
        assert g.api.component(g.player, Experience) is None
        g.close()


def test_a_save_keeps_experience_statuses_and_haste(registry):
    g = game_with(registry, HALL)
    g.api.component(g.player, Experience).xp = 7
    g.give("potion of haste")
    testing.press(g, "q l")
    g.api.add_status(g.player, "confused", 6)
    resumed, _ = runsave.load(json.loads(json.dumps(runsave.capture(g))), g.registry)
    for game in (g, resumed):
        p = snapshot(game)["player"]
        assert (p["level"], p["xp"], p["statuses"]) == (1, 7, {"confused": 6, "hasted": 28})
        assert game.api.component(game.player, conditions.BaseSpeed).speed == 100
    assert snapshot(g) == snapshot(resumed)


# --- monsters that differ ------------------------------------------------------------------------


def hits(messages, kind):
    return sum(m.startswith((f"The {kind} hits you", f"The {kind} kills you")) for m in messages)


def test_a_fast_monster_acts_twice_a_slow_one_once_in_two(registry):
    g = game_with(registry, "########\n#@j....#\n########\n")
    jackal = named(g, "jackal")
    wake(g, jackal)
    g.log("-")
    s = testing.press(g, ".")
    assert hits(s["messages"][s["messages"].index("-"):], "jackal") == 2
    g = game_with(registry, "########\n#@O....#\n########\n")
    ogre = named(g, "ogre")
    wake(g, ogre)
    blows = []
    for _ in range(6):
        g.log("-")
        s = testing.press(g, ".")
        blows.append(hits(s["messages"][len(s["messages"]) - s["messages"][::-1].index("-"):], "ogre"))
        if not s["alive"]:
            break
    assert blows[:2].count(1) == 1 and sum(blows[:4]) == 2  # a blow every other turn


def test_an_archer_shoots_from_afar_and_steps_back_when_adjacent(registry):
    g = game_with(registry, """
        ###########
        #@...a....#
        #.........#
        #.........#
        ###########
    """)
    archer = named(g, "goblin archer")
    wake(g, archer)
    s = testing.press(g, ".")
    assert g.api.position(archer) == (5, 1) and s["player"]["hp"] == 20 - 3
    assert s["messages"][-1] == "The goblin archer shoots you for 3."  # a shot, worded apart from a blow
    assert not any("hits you" in m for m in s["messages"])
    g.api.move(archer, 2, 2)
    s = testing.press(g, ".")
    assert g.api.distance(archer, g.player) == 2 and s["player"]["hp"] == 17  # stepped back, did not shoot


def test_a_hurt_coward_runs_and_a_healthy_one_fights(registry):
    g = game_with(registry, HALL.replace("#@....", "#@k..."))
    kobold = named(g, "kobold")
    wake(g, kobold)
    s = testing.press(g, ".")
    assert g.api.distance(kobold, g.player) == 1 and s["player"]["hp"] == 17
    g.api.damage(kobold, 6)  # 4 of 10: below half
    testing.press(g, ".")
    assert g.api.distance(kobold, g.player) == 2
    testing.press(g, ".")
    assert g.api.distance(kobold, g.player) == 3


def test_a_troll_regenerates(registry):
    g = game_with(registry, "#############################\n#@.........................T#\n"
                            "#############################\n")
    troll = named(g, "troll")
    g.api.damage(troll, 20)
    hurt = g.api.hp(troll)[0]
    for _ in range(6):
        testing.press(g, ".")
    assert g.api.hp(troll)[0] == hurt + 3  # a HP every 2 turns, asleep or not


def test_at_least_seven_kinds_across_the_depths_with_the_speeds_asked(registry):
    kinds = registry.monsters
    assert len(kinds) >= 7
    behaviours = {k.behaviour for k in kinds.values()}
    assert {"hunt", "coward", "archer"} <= behaviours
    assert any(k.speed == 200 for k in kinds.values()) and any(k.speed == 50 for k in kinds.values())
    assert any("regen" in k.params for k in kinds.values())
    g = new_game(Setup(seed=1))
    at = {d: {k.name for k in g.api.monster_kinds(d)} for d in (1, 5, 10)}
    assert at[1] != at[5] != at[10] and "rat" not in at[10] and "troll" in at[10]
    g.close()


def test_the_api_rolls_loot_and_reveals_cells(registry):
    g = game_with(registry, HALL)
    g.rules = dataclasses.replace(g.rules, loot={"t": LootTable(items=(LootRow("gold", 1),), rolls=(2, 2))})
    assert [(name, 5 <= amount <= 15) for name, amount in g.api.loot("t")] == [("gold", True)] * 2
    assert g.api.loot("t", label="other") != [] and g.api.loot("missing") == []
    mask = g.api.walls() & False
    mask[0, 0] = True
    g.api.reveal(mask)
    assert g.api.seen()[0, 0]
    with pytest.raises(ValueError, match="reveal: expected a bool array of shape"):
        g.api.reveal(mask[:1])
