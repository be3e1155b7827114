"""The delver with items and prompts: menus, the targeting cursor, plugins' questions, equipment,
and the Amulet carried up and out. Kinds the default game does not have yet come from a small
plugin written here (never placed by the loot tables: their ``min_depth`` is out of reach)."""

import textwrap

import pytest

from engine import Fighter, Monster, load_registry
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.plugins.bots._delver_pack import counts
from engine.plugins.depths import identify

KINDS = """
    from engine import ItemKind, hookimpl

    def kind(name, glyph, effect, use, **more):
        return ItemKind(name=name, glyph=glyph, color=(200, 100, 50), effect=effect, use=use,
                        min_depth=100_000, **more)

    @hookimpl
    def register_items(register):
        register(kind("tonic", "!", "heal", "quaff", params={"amount": 5}))
        register(kind("murk", "!", "nothing", "quaff"))
        register(kind("zap", "?", "zap", "read", target="monster", params={"damage": 30}))
        register(kind("sword", "/", "nothing", "wear", slot="hand", attack=3))
        register(kind("stick", "/", "nothing", "wear", slot="hand", attack=1))

    @hookimpl
    def register_effects(register):
        register("nothing", lambda game, entity, kind, amount, **target: None)

        def zap(game, entity, kind, amount, target=None):
            for e in game.entities_at(*target):
                if not game.is_player(e):
                    game.damage(e, kind.params["damage"], by=entity)
        register("zap", zap)
"""

ROOM = """
    ############
    #..........#
    #..@.......#
    #.........>#
    ############
"""


@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kinds")
    (folder / "bot_test_kinds.py").write_text(textwrap.dedent(KINDS))
    return str(folder), load_registry(plugins_dirs=[folder], entry_points=False)


def game_with(kinds, tmp_path, picture=ROOM):
    folder, registry = kinds
    path = tmp_path / "map.txt"
    path.write_text(textwrap.dedent(picture).strip("\n") + "\n")
    game = new_game(Setup(seed=1, plugins_dirs=[folder], map_file=str(path)), registry)
    identify.learn_all(game.api)  # the bot's sense of known kinds (unknown ones: tests/test_depths_identify.py)
    return game, registry


def test_it_drinks_the_healing_kind_from_the_quaff_menu(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path)
    api, bot = game.api, registry.bots["delver"].start()
    api.give("murk")
    api.give("tonic")
    game.api.component(game.player, Fighter).hp = 10
    assert bot(api) == "q"
    assert api.prompt()["kind"] == "menu" if Session.of(game).press("q") else False  # two kinds: the menu asks
    letter = bot(api)
    assert [o["label"] for o in api.prompt()["options"] if o["letter"] == letter] == ["tonic"]
    Session.of(game).press(letter)
    share = game.rules.params["healing"]["share"]  # the default game's potions heal a share of max HP
    most = api.hp(game.player)[1]
    assert api.prompt() is None and api.hp(game.player)[0] == min(most, 10 + max(5, most * share // 100))
    assert counts(api, api.pack()) == {"murk": 1}


def test_it_reads_an_aimed_scroll_at_a_monster_it_would_not_beat_through_the_cursor(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path, ROOM.replace("#..@....", "#..@...o"))
    api, bot = game.api, registry.bots["delver"].start()
    orc = api.visible_monsters()[0]
    api.give("zap")
    api.component(orc, Monster).awake = True
    api.component(game.player, Fighter).hp = 8  # an orc (14 HP, hits for 5) would kill it
    keys = []
    for _ in range(10):
        keys.append(bot(api))
        Session.of(game).press(keys[-1])
        if keys[-1] == "enter":
            break
    assert keys[0] == "r" and keys[-1] == "enter", keys
    assert api.hp(orc)[0] == 0 and counts(api, api.pack()) == {}


def test_losing_a_fight_it_reads_a_teleport_scroll_it_knows(kinds, tmp_path):
    """An orc beside it that would kill it, and a scroll of teleport it knows: it reads it and is
    elsewhere (it had died with teleports in its pack, fleeing on foot from what kept up). With an
    unknown teleport, or no blow in reach, it does not."""
    game, registry = game_with(kinds, tmp_path, ROOM.replace("#..@....", "#..@o..."))
    api, bot = game.api, registry.bots["delver"].start()
    orc = api.visible_monsters()[0]
    api.component(orc, Monster).awake = True
    api.give("scroll of teleport")
    api.component(game.player, Fighter).hp = 4  # the orc hits for 5
    keys = [bot(api)]
    Session.of(game).press(keys[0])
    while api.prompt() is not None:
        keys.append(bot(api))
        Session.of(game).press(keys[-1])
    assert keys[0] == "r", keys
    assert counts(api, api.pack()) == {} and api.distance(game.player, orc) > 1


def test_a_teleport_is_kept_while_no_blow_can_reach_it(kinds, tmp_path):
    from engine.plugins.bots._delver_items import escape
    from engine.plugins.bots._delver_look import DelverView, Memory

    game, registry = game_with(kinds, tmp_path, ROOM.replace("#..@....", "#..@...o"))
    api = game.api
    api.component(api.visible_monsters()[0], Monster).awake = True
    api.give("scroll of teleport")
    api.component(game.player, Fighter).hp = 4
    assert escape(DelverView(api, Memory())) is None  # the orc is four steps off: it runs first


def test_it_leaves_a_scroll_for_a_monster_it_can_beat(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path, ROOM.replace("#..@....", "#..@r..."))
    api, bot = game.api, registry.bots["delver"].start()
    api.give("zap")
    api.component(api.visible_monsters()[0], Monster).awake = True
    assert bot(api) == "l"  # a rat: struck, not read at


def test_it_wears_what_is_better_and_not_what_is_worse(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path)
    api, bot = game.api, registry.bots["delver"].start()
    api.give("stick")
    api.give("sword")
    key = bot(api)
    assert key == "w"
    Session.of(game).press(key)
    Session.of(game).press(bot(api))  # the menu: the sword's letter
    assert api.attack_defense(game.player)[0] == 4 + 3
    assert bot(api) != "w"  # the stick is worse than the sword


def test_it_answers_a_level_up_question_hp_then_attack(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path)
    api, bot = game.api, registry.bots["delver"].start()
    for _ in range(2):
        api.ask("test.level", "You grow. Choose:", ["Defense +1", "Attack +1", "More HP (+5)"])
    Session.of(game).press(".")  # the question opens after a turn
    assert api.prompt()["kind"] == "question"
    first = bot(api)
    Session.of(game).press(first)
    second = bot(api)
    Session.of(game).press(second)
    assert (first, second) == ("c", "b") and api.prompt() is None


def test_it_closes_a_prompt_it_did_not_open(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path)
    api, bot = game.api, registry.bots["delver"].start()
    Session.of(game).press("x")  # look mode
    assert api.prompt()["kind"] == "look" and bot(api) == "esc"


def test_it_picks_up_with_the_pickup_key_and_carries_the_amulet_up_and_out(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path)  # the stairs up are where it starts
    api, bot = game.api, registry.bots["delver"].start()
    x, y = api.position(game.player)
    api.spawn("Amulet of the Undercroft", x + 4, y)
    for _ in range(30):
        if game.state.won:
            break
        Session.of(game).press(bot(api))
    assert game.state.won and game.depth == 1


def test_it_leaves_equipment_no_better_than_its_own_lying(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path)
    api, bot = game.api, registry.bots["delver"].start()
    api.give("sword")
    x, y = api.position(game.player)
    api.spawn("stick", x + 2, y)  # worse than the sword it carries: not worth a letter
    keys = [bot(api) for _ in range(1)]
    assert keys[0] == "w"  # it wears the sword first
    for _ in range(6):
        key = bot(api)
        Session.of(game).press(key)
    assert counts(api, api.pack()) == {"sword": 1}
    api.spawn("sword", *api.position(game.player))  # as good as its own: left too
    assert bot(api) not in ("g", ",")


def test_with_a_full_pack_on_the_amulet_it_drops_what_it_needs_least_and_takes_it(kinds, tmp_path):
    from engine.kit import limits

    game, registry = game_with(kinds, tmp_path)
    api, bot = game.api, registry.bots["delver"].start()
    api.give("tonic")
    api.give("sword")
    Session.of(game).press("w b")  # the sword worn
    while len(api.pack()) < limits.MAX_PACK:
        api.give("stick")  # spares it needs least: each a letter of its own
    x, y = api.position(game.player)
    api.move(game.player, x + 1, y)  # off the stairs up, where nothing is dropped
    api.spawn("Amulet of the Undercroft", x + 1, y)
    keys = []
    for _ in range(6):
        if any(api.name_of(i).startswith("Amulet") for i in api.pack()):
            break
        keys.append(bot(api))
        Session.of(game).press(keys[-1])
    carried = counts(api, api.pack())
    assert keys[0] == "d" and carried["Amulet of the Undercroft"] == 1
    assert carried["stick"] == limits.MAX_PACK - 3 and carried["sword"] == 1 and carried["tonic"] == 1


def test_carrying_the_amulet_it_never_flees_down_the_stairs(kinds, tmp_path):
    game, registry = game_with(kinds, tmp_path)
    api, bot = game.api, registry.bots["delver"].start()
    api.give("Amulet of the Undercroft")
    api.move(game.player, 10, 3)  # on the stairs down
    troll = api.spawn("troll", 9, 3)
    api.component(troll, Monster).awake = True
    api.component(game.player, Fighter).hp = 5  # outmatched: it flees
    key = bot(api)
    assert key not in (None, ">")
    api.remove(api.pack()[0])  # without the Amulet, the stairs down are its way out
    assert bot(api) == ">"
