"""The pack and its prompts: letters, stacks, a full pack, menus when
there is more than one item, equipment, aimed items with a cursor that can be cancelled, look mode,
the message history, and a plugin's question. The items are a test plugin's, so these tests hold
whatever the default game's tables become."""

import json
import textwrap

import pytest

from engine import testing
from engine.core.model.events import KeyPlayed
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import snapshot
from engine.persist import runsave
from engine.plugins.depths import identify

KIT = """
    from engine import ItemKind, hookimpl

    def bolt(game, entity, kind, amount, target):
        hit = [e for e in game.entities_at(*target) if e in game.monsters()]
        for monster in hit:
            game.damage(monster, kind.params["damage"], by=entity)
        return f"bolt at {target[0]},{target[1]}"

    def blast(game, entity, kind, amount, target):
        cells = game.area(target, kind.radius)
        for x, y in cells:
            for monster in [e for e in game.entities_at(x, y) if e in game.monsters()]:
                game.damage(monster, kind.params["damage"], by=entity)
        return f"blast of {len(cells)} cells"

    def nothing(game, entity, kind, amount):
        return None

    ITEMS = [
        dict(name="bolt scroll", glyph="?", effect="bolt", use="read", target="nearest", params={"damage": 100}),
        dict(name="blast scroll", glyph="%", effect="blast", use="read", target="cell", radius=1,
             params={"damage": 100}),
        dict(name="charm scroll", glyph="&", effect="bolt", use="read", target="monster", params={"damage": 1}),
        dict(name="sword", glyph="(", effect="nothing", use="wear", slot="hand", attack=3,
             description="A plain sword."),
        dict(name="axe", glyph="/", effect="nothing", use="wear", slot="hand", attack=5),
        dict(name="mail", glyph="[", effect="nothing", use="wear", slot="body", defense=2),
    ]

    @hookimpl
    def register_items(register):
        for row in ITEMS:
            register(ItemKind(color=(200, 200, 200), **row))

    @hookimpl
    def register_effects(register):
        register("bolt", bolt)
        register("blast", blast)
        register("nothing", nothing)
"""


@pytest.fixture
def kit(tmp_path, monkeypatch):
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "kit.py").write_text(textwrap.dedent(KIT))
    monkeypatch.setenv("UNDERCROFT_HOME", str(tmp_path / "home"))
    return folder


def play(tmp_path, kit, picture, seed=1):
    path = tmp_path / "map.txt"
    path.write_text(textwrap.dedent(picture).strip("\n") + "\n")
    from engine import load_registry

    registry = load_registry(plugins_dirs=[kit], entry_points=False)
    game = new_game(Setup(seed=seed, map_file=str(path)), registry)
    identify.learn_all(game.api)  # the pack's words as they were: unknown items are tests/test_depths_identify.py's
    return game


def pack(state):
    return [(p["letter"], p["kind"], p["count"], p["equipped"]) for p in state["player"]["inventory"]]


def test_walking_picks_up_gold_alone_and_g_the_rest_under_letters(tmp_path, kit):
    g = play(tmp_path, kit, """
        #######
        #@$!!(#
        #######
    """)
    s = testing.press(g, "l")
    assert s["player"]["gold"] > 0 and s["turn"] == 1
    s = testing.press(g, "l")
    assert s["messages"][-1] == "You see here: potion." and pack(s) == []
    s = testing.press(g, "g")
    assert pack(s) == [("a", "potion", 1, False)] and s["turn"] == 3 and "(a)" in s["messages"][-1]
    s = testing.press(g, "l ,")
    assert pack(s) == [("a", "potion", 2, False)]  # potions stack under one letter
    s = testing.press(g, "l g")
    assert pack(s) == [("a", "potion", 2, False), ("b", "sword", 1, False)]


def test_g_with_nothing_here_and_a_full_pack_say_so_and_take_no_time(tmp_path, kit):
    g = play(tmp_path, kit, """
        #####
        #@!.#
        #####
    """)
    s = testing.press(g, "g")
    assert s["messages"][-1] == "There is nothing here to pick up." and s["turn"] == 0
    for _ in range(26):
        assert g.give("sword") is not None  # equipment does not stack: 26 letters
    assert g.give("sword") is None and g.give("potion") is None
    s = testing.press(g, "l g")
    assert s["messages"][-1] == "Your pack is full: no room for the potion." and s["turn"] == 1
    assert [p["letter"] for p in s["player"]["inventory"]] == list("abcdefghijklmnopqrstuvwxyz")
    assert s["items"] == [{"kind": "potion", "x": 2, "y": 1, "amount": 1}]


def test_several_items_here_ask_which_and_escape_asks_nothing(tmp_path, kit):
    g = play(tmp_path, kit, """
        ####
        #@.#
        ####
    """)
    g.spawn_item("sword", 1, 1, 1)
    g.spawn_item("mail", 1, 1, 1)
    s = testing.press(g, "g")
    assert s["prompt"]["kind"] == "menu" and [o["label"] for o in s["prompt"]["options"]] == ["sword", "mail"]
    s = testing.press(g, "esc")
    assert s["prompt"] is None and pack(s) == [] and s["turn"] == 0
    s = testing.press(g, "g b")
    assert s["prompt"] is None and pack(s) == [("a", "mail", 1, False)] and s["turn"] == 1


def test_inventory_lists_by_letter_and_describes_without_time(tmp_path, kit):
    g = play(tmp_path, kit, "####\n#@.#\n####\n")
    g.give("potion", 3)
    g.give("sword")
    s = testing.press(g, "i")
    assert [(o["letter"], o["label"]) for o in s["prompt"]["options"]] == [("a", "potion (3)"), ("b", "sword")]
    s = testing.press(g, "b")
    assert s["prompt"]["detail"] == "sword: attack +3 (none worn). A plain sword. Slot: hand."
    assert s["prompt"]["options"][1]["note"] == "attack +3 (none worn)" and s["prompt"]["options"][1]["about"] == \
        "A plain sword."
    s = testing.press(g, "esc")
    assert s["prompt"] is None and s["turn"] == 0


def test_wear_swap_take_off_and_the_blows_count_it(tmp_path, kit):
    g = play(tmp_path, kit, "#####\n#@r.#\n#####\n")
    g.give("sword")
    g.give("axe")
    g.give("mail")
    s = testing.press(g, "w")
    assert s["prompt"]["title"] == "Wear or wield what?" and len(s["prompt"]["options"]) == 3
    s = testing.press(g, "a")
    assert s["player"]["attack"] == 7 and s["turn"] == 1
    s = testing.press(g, "w b")  # the axe takes the sword's hand: the sword stays in the pack
    assert s["player"]["attack"] == 9 and pack(s)[:2] == [("a", "sword", 1, False), ("b", "axe", 1, True)]
    s = testing.press(g, "w")
    assert [o["label"] for o in s["prompt"]["options"]] == ["sword", "mail"]
    s = testing.press(g, "c")
    assert s["player"]["defense"] == 2 and s["prompt"] is None
    s = testing.press(g, "T")
    assert s["prompt"]["title"] == "Take off what?"
    s = testing.press(g, "c")
    assert s["player"]["defense"] == 0 and ("c", "mail", 1, False) in pack(s)


def test_taking_off_into_a_full_pack_is_fine_worn_items_never_left_it(tmp_path, kit):
    g = play(tmp_path, kit, "####\n#@.#\n####\n")
    for _ in range(26):
        g.give("sword")
    testing.press(g, "w a")
    s = testing.press(g, "T")
    assert s["messages"][-1] == "You take off the sword." and len(s["player"]["inventory"]) == 26
    assert not any(p["equipped"] for p in s["player"]["inventory"])


def test_drop_one_item_at_once_never_on_the_stairs(tmp_path, kit):
    g = play(tmp_path, kit, "#####\n#@.>#\n#####\n")
    g.give("sword")
    s = testing.press(g, "d")  # the start is the way up: no dropping there either
    assert s["messages"][-1] == "Not on the stairs: drop it somewhere else." and len(pack(s)) == 1
    s = testing.press(g, "l d")
    assert pack(s) == [] and s["items"] == [{"kind": "sword", "x": 2, "y": 1, "amount": 1}]
    s = testing.press(g, "g l d")
    assert s["messages"][-1] == "Not on the stairs: drop it somewhere else." and len(pack(s)) == 1
    assert s["turn"] == 4  # l, d, g and l took turns; the refused drops did not


def test_a_scroll_at_the_nearest_monster_and_none_in_view(tmp_path, kit):
    g = play(tmp_path, kit, """
        ########
        #@...r.#
        ########
    """)
    g.give("bolt scroll", 2)
    s = testing.press(g, "r")
    assert "bolt at 5,1" in s["messages"]
    assert s["monsters"] == [] and pack(s) == [("a", "bolt scroll", 1, False)] and s["turn"] == 1
    s = testing.press(g, "r")
    assert s["messages"][-1] == "No target in view." and pack(s) == [("a", "bolt scroll", 1, False)]
    assert s["turn"] == 1


def test_a_targeting_cursor_moves_shows_its_cells_and_cancels_for_free(tmp_path, kit):
    g = play(tmp_path, kit, """
        #########
        #@......#
        #.....r.#
        #.......#
        #########
    """)
    g.give("blast scroll")
    s = testing.press(g, "r")
    prompt = s["prompt"]
    assert prompt["kind"] == "target" and prompt["cursor"] == [6, 2]  # on the nearest monster
    assert prompt["affected"] == [[6, 1], [5, 2], [6, 2], [7, 2], [6, 3]]  # radius 1: the round FOV's
    s = testing.press(g, "h k")
    assert s["prompt"]["cursor"] == [5, 1] and [4, 1] in s["prompt"]["affected"]
    s = testing.press(g, "esc")
    assert s["prompt"] is None and s["turn"] == 0 and pack(s) == [("a", "blast scroll", 1, False)]
    s = testing.press(g, "r enter")
    assert s["prompt"] is None and s["turn"] == 1 and s["monsters"] == [] and pack(s) == []
    assert "blast of 5 cells" in s["messages"]


def test_a_monster_target_tabs_between_monsters_and_refuses_an_empty_cell(tmp_path, kit):
    g = play(tmp_path, kit, """
        #########
        #@..r...#
        #......r#
        #########
    """)
    g.give("charm scroll")
    s = testing.press(g, "r")
    assert s["prompt"]["cursor"] == [4, 1]
    s = testing.press(g, "tab")
    assert s["prompt"]["cursor"] == [7, 2]
    s = testing.press(g, "tab")
    assert s["prompt"]["cursor"] == [4, 1]
    s = testing.press(g, "l enter")
    assert s["prompt"]["detail"].startswith("No monster there") and s["turn"] == 0
    s = testing.press(g, "h enter")
    assert s["prompt"] is None and s["messages"][-1] == "bolt at 4,1" and s["turn"] == 1


def test_a_click_aims_and_chooses(tmp_path, kit):
    g = play(tmp_path, kit, "########\n#@...r.#\n########\n")
    g.give("charm scroll")
    s = testing.press(g, "r travel:5,1")
    assert s["prompt"] is None and s["messages"][-1] == "bolt at 5,1"


def test_look_says_what_is_seen_remembered_or_unknown(tmp_path, kit):
    g = play(tmp_path, kit, """
        ##########
        #@..r....#
        ######.###
        ######.###
        ##########
    """)
    s = testing.press(g, "x")
    assert s["prompt"]["kind"] == "look" and s["prompt"]["detail"] == "you; stairs up"
    s = testing.press(g, "l l l")
    assert s["prompt"]["detail"] == "a rat (4/4 HP, awake): A filthy cave rat: weak alone, quick to bite; floor"
    s = testing.press(g, "esc")
    assert s["prompt"] is None and s["turn"] == 0
    g.state.view.seen[1, 8] = False
    g.state.view.visible[1, 8] = False
    g.state.view.visible[1, 7] = False
    s = testing.press(g, "x l l l l l l")
    assert s["prompt"]["cursor"] == [7, 1] and s["prompt"]["detail"] == "You remember floor."
    s = testing.press(g, "l")
    assert s["prompt"]["detail"] == "You have not seen this place."


def test_the_message_history_scrolls_and_closes(tmp_path, kit):
    g = play(tmp_path, kit, "#####\n#@..#\n#####\n")
    testing.press(g, "g g g")
    for key in ("v", "ctrlp"):
        s = testing.press(g, key)
        assert s["prompt"] == {"kind": "history", "title": "Messages", "detail": "", "back": 0, "lines": 4}
        s = testing.press(g, "k k k k k")
        assert s["prompt"]["back"] == 3
        s = testing.press(g, "j esc")
        assert s["prompt"] is None


def test_a_prompts_keys_are_heard_when_it_closes_so_a_save_with_one_open_replays(tmp_path, kit):
    g = play(tmp_path, kit, "########\n#@...r.#\n########\n")
    g.give("charm scroll")
    heard = []
    g.listeners.append(lambda event, game: isinstance(event, KeyPlayed) and heard.append(event.token))
    testing.press(g, "i a")
    assert heard == []
    testing.press(g, "esc")
    assert heard == ["i", "a", "esc"]
    testing.press(g, "r l")
    assert heard == ["i", "a", "esc"]  # the cursor is open: nothing happened yet
    testing.press(g, "h enter")
    assert heard == ["i", "a", "esc", "r", "l", "h", "enter"]


QUESTION = """
    from engine import hookimpl

    @hookimpl
    def on_turn_end(game):
        if game.turn == 2:
            game.ask("test.gift", "A gift: which?", ["gold", "health"])

    @hookimpl
    def on_answer(game, question, choice):
        if question == "test.gift":
            game.log(["You chose gold.", "You chose health."][choice])
"""


def test_a_plugins_question_waits_for_its_answer_across_a_save(tmp_path, kit):
    (kit / "ask.py").write_text(textwrap.dedent(QUESTION))
    g = play(tmp_path, kit, "######\n#@...#\n######\n")
    s = testing.press(g, "l l")
    assert s["prompt"]["kind"] == "question" and [o["label"] for o in s["prompt"]["options"]] == ["gold", "health"]
    s = testing.press(g, "l esc c")  # nothing but an option answers it
    assert s["prompt"]["kind"] == "question" and s["turn"] == 2
    resumed, _ = runsave.load(json.loads(json.dumps(runsave.capture(g))), g.registry)
    for game in (g, resumed):
        Session.of(game)  # the player's session on the resumed run asks again
        assert snapshot(game)["prompt"]["title"] == "A gift: which?"
        s = testing.press(game, "b")
        assert s["prompt"] is None and s["messages"][-1] == "You chose health."
        assert testing.press(game, "l")["turn"] == 3
