"""Unknown potions and scrolls (#25 item 5, plugins/depths/identify.py): each run of the default
game names them by appearances shuffled from its seed, the player learns a kind by using it or by a
scroll of identify, every place that shows an item names it as the player knows it, ``\\`` lists
what is known, and the delver knows only what a player would."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine import load_registry, testing
from engine.core.turn import naming
from engine.persist import runsave
from engine.plugins.bots._delver_look import DelverView, Memory
from engine.plugins.bots._delver_pack import Unknown
from engine.plugins.bots.delver import Delver
from engine.plugins.depths import identify

SHELF = """
    ##########
    #@12.3.4.#
    ##########

    1: potion of haste
    2: potion of troll blood
    3: scroll of identify
    4: scroll of teleport
"""


@pytest.fixture(scope="module")
def registry():
    return load_registry(entry_points=False)


def names(game) -> dict[str, str]:
    return dict(identify._state(game.api)["names"])


def shown(state) -> list[tuple[str, str]]:
    return [(i["kind"], i.get("name", i["kind"])) for i in state["player"]["inventory"]]


def test_appearances_are_shuffled_per_seed_and_the_same_for_one_seed(registry):
    a, b, c = (names(testing.game_from_map(registry, SHELF, seed=s)) for s in (1, 1, 2))
    assert a == b and a != c
    assert a["potion of haste"].endswith(" potion") and a["scroll of teleport"].startswith("scroll labelled ")
    assert len(set(a.values())) == len(a)  # no two kinds look alike
    assert "potion" not in a  # the healing potion is known from the start ([params.identify] known)


def test_an_unknown_potion_is_named_by_its_appearance_in_the_pack_look_and_messages(registry):
    game = testing.game_from_map(registry, SHELF, seed=3)
    haste = names(game)["potion of haste"]
    state = testing.press(game, "l")
    assert state["messages"][-1] == f"You see here: {haste}."
    state = testing.press(game, "x")  # look at the cell the player stands on
    assert "potion of haste" not in state["prompt"]["detail"] and haste in state["prompt"]["detail"]
    state = testing.press(game, "esc g i")
    assert state["messages"][-1] == f"You pick up the {haste} (a)."
    assert shown(state) == [("potion of haste", haste)]  # --dump json: the true kind and the shown name
    assert state["prompt"]["options"][0]["label"] == haste
    article = "An" if haste[0] in "aeiou" else "A"  # "An amber potion", not "A amber potion"
    assert state["prompt"]["options"][0]["about"] == f"{article} {haste}. You do not know what it does."
    assert "haste" not in json.dumps({k: state[k] for k in ("messages", "prompt")})


def test_drinking_it_makes_it_known_says_so_and_names_the_others_of_its_kind(registry):
    game = testing.game_from_map(registry, SHELF, seed=3)
    for _ in range(2):  # two of the same kind, one stack
        game.api.give("potion of haste")
    state = testing.press(game, "q")
    assert state["messages"][-2:] == ["You feel yourself speed up.", "It was a potion of haste."]
    assert shown(state) == [("potion of haste", "potion of haste")]
    testing.press(game, "l")
    assert naming.item_name(game, None, registry.items["potion of haste"]) == "potion of haste"
    state = testing.press(game, "q")
    assert "It was" not in state["messages"][-1]  # said once


def test_the_scroll_of_identify_names_one_unknown_kind_asked_which_when_several(registry):
    game = testing.game_from_map(registry, SHELF, seed=4)
    appearance = names(game)
    game.api.give("scroll of identify")
    game.api.give("potion of haste")
    state = testing.press(game, "r")  # one unknown kind besides it: at once
    assert state["messages"][-2:] == ["It was a scroll of identify.",
                                      f"The {appearance['potion of haste']} is a potion of haste."]
    game = testing.game_from_map(registry, SHELF, seed=4)
    for kind in ("scroll of identify", "potion of haste", "potion of troll blood"):
        game.api.give(kind)
    state = testing.press(game, "r")  # the one scroll: read at once, then the question
    assert state["prompt"]["kind"] == "question" and state["prompt"]["title"] == "Identify which?"
    labels = [o["label"] for o in state["prompt"]["options"]]
    assert labels == [appearance["potion of haste"], appearance["potion of troll blood"]]
    state = testing.press(game, "b")
    assert state["messages"][-1] == f"The {appearance['potion of troll blood']} is a potion of troll blood."
    assert ("potion of troll blood", "potion of troll blood") in shown(state)
    assert ("potion of haste", appearance["potion of haste"]) in shown(state)


def test_the_scroll_of_identify_lies_on_the_default_games_floor(registry):
    rows = [row.item for row in registry.games["undercroft"].loot["floor"].items]
    assert "scroll of identify" in rows


def test_backslash_lists_what_is_known_and_the_unknown_seen(registry):
    game = testing.game_from_map(registry, SHELF, seed=5)
    appearance = names(game)
    state = testing.press(game, "l g q \\")
    lines = [o["label"] for o in state["prompt"]["options"]]
    assert state["prompt"]["kind"] == "page" and state["prompt"]["title"] == "What you know"
    assert f"  potion of haste ({appearance['potion of haste']})" in lines and "  potion" in lines
    assert f"  {appearance['potion of troll blood']}" in lines  # in view, not known
    assert state["turn"] == 3  # the page takes no time
    assert "\\ known" in registry.games["undercroft"].messages["keys"]


def test_a_resumed_run_names_them_as_it_did(registry):
    game = testing.game_from_map(registry, SHELF, seed=6)
    before = names(game)
    testing.press(game, "l g q l g")  # the haste potion drunk (known), the troll blood carried (unknown)
    resumed, _ = runsave.load(json.loads(json.dumps(runsave.capture(game))), game.registry)
    assert names(resumed) == before
    state = testing.press(resumed, "i")
    assert shown(state) == [("potion of troll blood", before["potion of troll blood"])]
    assert "potion of haste" in identify._state(resumed.api)["known"]


def test_the_bots_view_of_the_pack_names_appearances_not_true_kinds(registry):
    game = testing.game_from_map(registry, SHELF, seed=7)
    appearance = names(game)
    game.api.give("potion of haste")
    game.api.give("potion")
    look = DelverView(game.api, Memory())
    carried = {c.letter: c.kind for c in look.carried}
    assert isinstance(carried["a"], Unknown) and carried["a"].name == appearance["potion of haste"]
    assert carried["a"].effect == "" and carried["a"].params == {}
    assert carried["b"].name == "potion" and look.potions == 1  # the healing potion: known
    assert set(look.pack) == {appearance["potion of haste"], "potion"}


def test_the_bot_learns_by_drinking_when_safe(registry):
    game = testing.game_from_map(registry, SHELF, seed=8)
    game.api.give("potion of haste")
    delver = Delver()
    for _ in range(4):
        key = delver(game.api)
        testing.press(game, key)
        if identify.unknown(game.api, registry.items["potion of haste"]) is None:
            break
    assert identify.unknown(game.api, registry.items["potion of haste"]) is None


@pytest.mark.parametrize("preset", ["lesson28", "rogue-sdl", "bunyip"])
def test_the_classic_presets_name_every_item_by_its_kind(registry, preset):
    game = testing.game_from_map(registry, "#####\n#@..#\n#####", game=preset)
    for kind in registry.items.values():
        assert naming.item_name(game, None, kind) == kind.name
        assert naming.item_description(game, None, kind) == kind.description
    assert "identify" not in game.state.plugin_data


def test_a_kind_learned_changes_the_names_version_and_the_bots_kept_pack_names_it_anew(registry):
    """The delver keeps its pack while ``game.names_version`` stays the same (it names no item at
    every key): identify says so when a kind is learned, or its kept pack would go on calling a
    known potion by its appearance (the pack itself does not change when a kind is learned)."""
    game = testing.game_from_map(registry, SHELF, seed=9)
    game.api.give("potion of haste")
    memory = Memory()
    before = game.api.names_version
    assert [c.kind.name for c in DelverView(game.api, memory).carried] == [names(game)["potion of haste"]]
    testing.press(game, "l")  # a step: no name changes
    assert game.api.names_version == before
    assert identify.learn(game.api, "potion of haste")
    assert game.api.names_version != before
    kept = DelverView(game.api, memory).carried  # the same memory: the kept pack, asked again
    assert [(c.kind.name, isinstance(c.kind, Unknown)) for c in kept] == [("potion of haste", False)]
    learned = game.api.names_version
    identify.learn_all(game.api)
    assert game.api.names_version != learned


TWO_SHELVES = """
    ########
    #@.1.1.#
    #..2.3.#
    ########

    1: potion of haste
    2: potion of troll blood
    3: scroll of teleport
"""


def drawn(game, x, y):
    """What the window draws at (x, y): its colour and the name a tileset is asked for."""
    from engine.frontend import compose

    look = compose.look_for(game.rules)
    names = compose.Names()
    tables = compose.Tables(game.rules, look, names)
    tables.fit(list(game.level.kinds), game.registry.terrain)
    h, w = game.level.terrain.shape
    cells = compose.compose(game, slice(0, h), slice(0, w), tables, look, names)
    return tuple(int(c) for c in cells.fg[y, x]), names.names[cells.name[y, x]], int(cells.state[y, x])


def test_an_unknown_kind_is_drawn_as_its_disguise_not_in_its_own_colour(registry):
    """Each potion kind has a colour of its own: drawn in it, an unknown potion would be named at a
    glance. It is drawn in its appearance's colour (a scroll in parchment's), on the map, remembered
    and at the player's feet, and on a tileset as its appearance; once known, as its kind."""
    from engine.frontend import palette, sidebar

    game = testing.game_from_map(registry, TWO_SHELVES, seed=3)
    haste, troll = registry.items["potion of haste"], registry.items["potion of troll blood"]
    disguise = names(game)["potion of haste"]
    color = identify.COLORS[disguise.split()[0]]
    assert color != tuple(haste.color)
    assert drawn(game, 3, 1)[:2] == (color, f"item:{disguise}")
    assert drawn(game, 5, 2)[:2] == (identify.PARCHMENT, f"item:{names(game)['scroll of teleport']}")
    troll_color = identify.COLORS[names(game)["potion of troll blood"].split()[0]]
    assert drawn(game, 3, 2)[0] == troll_color != tuple(troll.color)
    # remembered: out of view, the memory draws the disguise too (dimmed as memory is)
    game.state.view.visible[:] = False
    fg, name, _ = drawn(game, 3, 1)
    assert fg == tuple(int(c) for c in palette.remembered_array(np.array([color], dtype=np.uint8))[0])
    assert name == f"item:{disguise}"
    testing.press(game, "l l")  # onto the first potion: the sidebar's "Here:" line
    here = [row for row in sidebar.underfoot(game) if "Here:" in row.text]
    assert here and here[0].glyph_color == color
    testing.press(game, "g q")  # drink it: the kind is known, and the other potion of it drawn as it is
    assert drawn(game, 5, 1)[:2] == (tuple(haste.color), "item:potion of haste")
    assert drawn(game, 3, 2)[0] == troll_color  # the other kind still unknown


def test_a_bad_item_color_answer_fails_the_plugin_and_the_kind_keeps_its_colour(registry, tmp_path):
    plugin = tmp_path / "badcolor.py"
    plugin.write_text("from engine import hookimpl\n\n@hookimpl\ndef item_color(game, kind):\n"
                      "    return (300, 0, 0) if kind.name == 'gold' else None\n")
    local = load_registry(entry_points=False, plugins_dirs=[str(tmp_path)])
    game = testing.game_from_map(local, "#@$#\n", seed=1)
    gold = local.items["gold"]
    assert naming.item_color(game, gold) == tuple(gold.color)
    assert "badcolor" in game.isolation.off


# an unknown scroll that aims goes off at once: a cursor (its mode, its blast) or a refusal for want
# of a target would name it, and Escape would keep it unread
READING_ROOM = """
    ##########
    #@1......#
    #........#
    ##########

    1: {scroll}
"""


def _read_unknown(registry, scroll, monster=""):
    picture = READING_ROOM.format(scroll=scroll)
    if monster:
        picture = picture.replace("#........#\n", f"#......{monster}.#\n")
    game = testing.game_from_map(registry, picture, seed=3)
    testing.press(game, "l g h")
    assert identify.unknown(game.api, game.api.item_kind(scroll)) is not None
    return game, game.turn, testing.press(game, "r")


def test_an_unknown_fireball_goes_off_at_once_on_the_nearest_monster(registry):
    game, turn, state = _read_unknown(registry, "scroll of fireball", monster="o")
    assert state["prompt"] is None and state["turn"] == turn + 1  # no cursor: read, a turn spent
    orc = state["monsters"][0]
    assert orc["hp"] < registry.monsters["orc"].hp and state["player"]["hp"] == state["player"]["max_hp"]
    assert state["messages"][-1] == "It was a scroll of fireball." and state["player"]["inventory"] == []


def test_an_unknown_fireball_read_with_no_monster_in_view_bursts_on_the_reader(registry):
    game, turn, state = _read_unknown(registry, "scroll of fireball")
    hp = state["player"]["hp"]
    assert state["prompt"] is None and hp < state["player"]["max_hp"]
    assert state["messages"][-2:] == [f"The fireball bursts: it burns you ({20 - hp}).", "It was a scroll of fireball."]


def test_a_reader_killed_by_their_own_blast_is_killed_by_the_scroll(registry):
    from engine.persist.morgue import cause_of_death

    game = testing.game_from_map(registry, READING_ROOM.format(scroll="scroll of fireball"), seed=3)
    testing.press(game, "l g h")
    game.api.damage(game.player, game.api.hp(game.player)[0] - 1)
    assert not testing.press(game, "r")["alive"]
    assert cause_of_death(game) == "killed by your own scroll of fireball on depth 1"


@pytest.mark.parametrize("scroll", ["scroll of confusion", "scroll of lightning"])
def test_an_unknown_scroll_wanting_a_monster_is_read_and_learnt_with_none_in_view(registry, scroll):
    game, turn, state = _read_unknown(registry, scroll)
    assert state["turn"] == turn + 1 and state["player"]["inventory"] == []  # used up, not kept unread
    assert state["messages"][-2:] == ["No target in view.", f"It was a {scroll}."]


def test_a_known_aimed_scroll_still_opens_the_cursor(registry):
    game = testing.game_from_map(registry, READING_ROOM.format(scroll="scroll of fireball"), seed=3)
    identify.learn_all(game.api)
    state = testing.press(game, "l g h r")
    assert state["prompt"]["kind"] == "target" and state["prompt"]["radius"] == 2
    assert testing.press(game, "esc")["player"]["inventory"]  # Escape keeps it


def _bot_reads(registry, picture):
    """The delver's first key with an unknown scroll of fireball in its pack, full HP."""
    game = testing.game_from_map(registry, picture, seed=8)
    game.api.give("scroll of fireball")
    return DelverView(game.api, Memory()), Delver()(game.api)


def test_the_bot_reads_an_unknown_scroll_with_a_monster_in_view_not_near(registry):
    """An unknown scroll goes off at the nearest monster: the bot reads one to learn it while a
    monster is in view beyond a blast's reach, never alone (a fireball would burst on it) nor
    with the monster beside it."""
    room = "##########\n#@.......#\n#........#\n##########"
    assert _bot_reads(registry, room)[1] != "r"  # alone: not read
    look, key = _bot_reads(registry, room.replace("#........#", "#......o.#"))
    assert look.monsters and key == "r"  # the orc six cells off
    assert _bot_reads(registry, room.replace("#........#", "#.o......#"))[1] != "r"  # the orc beside it
