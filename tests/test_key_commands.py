"""Key commands are registered kinds (``register_commands``): a plugin's key that is neither a move
nor an item's verb. A command that acts takes a turn, one that asks which way asks only when there
is a choice, one that shows a page takes none; its key means it only in the presets it belongs to,
and a bad one is refused in one line."""

import types

import pytest

from engine import KeyCommand, Page, Wait, hookimpl, testing
from engine.frontend.helpscreen import help_rows

ROOM = """
    #######
    #.....#
    #..@..#
    #.....#
    #######
"""


def knocker(params=""):
    """A plugin as a third party writes it: ``K`` knocks on the walls beside you (asked which way
    when there are several; a turn, said in the log), ``L`` lists the cells you have knocked on."""
    module = types.ModuleType("knocker")

    def walls(game, player):
        x, y = game.position(player)
        return [(dx, dy) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)) if game.is_wall(x + dx, y + dy)]

    def knock(game, player, step):
        if step is None:
            game.log("No wall to knock on.")
            return None
        x, y = game.position(player)
        game.data("knocker").setdefault("knocked", []).append([x + step[0], y + step[1]])
        game.log(f"You knock on the wall at {x + step[0]},{y + step[1]}.")
        return Wait()

    def listed(game, player, step):
        return Page("Knocked on", [f"{x},{y}" for x, y in game.data("knocker").get("knocked", [])])

    module.register_commands = hookimpl(lambda register: [
        register(KeyCommand(name="knock", key="K", act=knock, directions=walls, ask="Knock which way?",
                            params=params, summary="knock on a wall beside you")),
        register(KeyCommand(name="knocked", key="L", act=listed, params=params, summary="list the knocks"))])
    return module


@pytest.fixture(scope="module")
def registry():
    registry = testing.load_plugin(knocker())
    testing.check_plugin(registry, "knocker")
    return registry


def test_with_no_wall_beside_you_the_command_says_so_and_takes_no_time(registry):
    s = testing.press(testing.game_from_map(registry, ROOM), "K")
    assert s["turn"] == 0 and s["prompt"] is None and s["messages"][-1] == "No wall to knock on."


def test_one_way_is_taken_at_once_and_is_a_turn(registry):
    game = testing.game_from_map(registry, ROOM)
    s = testing.press(game, "h h K")
    assert s["turn"] == 3 and s["prompt"] is None and s["messages"][-1] == "You knock on the wall at 0,2."


def test_several_ways_are_asked_and_a_wrong_key_asks_again(registry):
    game = testing.game_from_map(registry, ROOM)
    s = testing.press(game, "h h k K")  # the corner: a wall west and north
    assert s["turn"] == 3 and s["prompt"]["kind"] == "direction" and s["prompt"]["title"] == "Knock which way?"
    s = testing.press(game, "l")  # no wall east: still asked
    assert s["prompt"]["kind"] == "direction" and "direction" in s["prompt"]["detail"] and s["turn"] == 3
    s = testing.press(game, "k")
    assert s["prompt"] is None and s["turn"] == 4 and s["messages"][-1] == "You knock on the wall at 1,0."
    s = testing.press(game, "K esc")
    assert s["prompt"] is None and s["turn"] == 4  # cancelled: no time


def test_a_page_shows_and_any_key_closes_it_without_time(registry):
    game = testing.game_from_map(registry, ROOM)
    testing.press(game, "h h K")
    s = testing.press(game, "L")
    assert s["prompt"]["kind"] == "page" and s["prompt"]["title"] == "Knocked on"
    assert [o["label"] for o in s["prompt"]["options"]] == ["0,2"] and s["turn"] == 3
    s = testing.press(game, "x")
    assert s["prompt"] is None and s["turn"] == 3


def test_the_keys_are_the_presets_and_the_help_lists_them(registry):
    game = testing.game_from_map(registry, ROOM)
    keys = game.api.keys()
    assert keys["K"] == "knock" and keys["L"] == "knocked"
    assert dict(help_rows(game))["knock"] == "K"


def test_a_command_with_params_belongs_only_to_presets_with_that_table():
    registry = testing.load_plugin(knocker(params="knocking"))
    game = testing.game_from_map(registry, ROOM)  # the default game has no [params.knocking]
    assert "K" not in game.api.keys()
    s = testing.press(game, "h h K")
    assert s["turn"] == 2 and s["messages"][-1] != "You knock on the wall at 0,2."
    registry.games["undercroft"].params["knocking"] = {}
    try:
        game = testing.game_from_map(registry, ROOM)
        assert testing.press(game, "h h K")["messages"][-1] == "You knock on the wall at 0,2."
    finally:
        del registry.games["undercroft"].params["knocking"]


def test_a_key_the_keymap_binds_keeps_its_meaning():
    module = types.ModuleType("grabber")
    module.register_commands = hookimpl(lambda register: register(
        KeyCommand(name="grab", key="g", act=lambda game, player, step: Wait())))
    registry = testing.load_plugin(module)
    game = testing.game_from_map(registry, ROOM)
    assert game.api.keys()["g"] == "pickup"
    assert [w for w in registry.warnings if "'grab'" in w] == [  # said once when it loads, with keys that are free
        "key 'g' of command 'grab' (plugin grabber) is taken by the default keys (pickup): it has no key in a "
        "preset played with them; choose a free key (f m p A B C D E...)"]


def test_a_key_an_earlier_command_or_verb_has_is_warned_and_keeps_the_first():
    module = types.ModuleType("shouter")
    module.register_commands = hookimpl(lambda register: register(
        KeyCommand(name="shout", key="s", act=lambda game, player, step: Page("Shout", ["HEY"]))))
    registry = testing.load_plugin(module)
    game = testing.game_from_map(registry, ROOM)
    assert game.api.keys()["s"] == "search"
    said = [w for w in registry.warnings if "'shout'" in w]
    assert len(said) == 1 and said[0].startswith(
        "key 's' of command 'shout' (plugin shouter) is taken by command 'search' (plugin depths_search) in game "
        "'undercroft': it has no key there; choose a free key (")
    assert not [w for w in testing.load_plugin().warnings if w.startswith("key ")]  # the built-ins' keys: no clash


@pytest.mark.parametrize(("command", "line"), [
    (dict(name="two words", key="K"), "name must be a non-empty word"),
    (dict(name="explore", key="K"), "name 'explore' is a command's"),
    (dict(name="knock", key="travel:1,1"), "key must be a key token"),
    (dict(name="knock", key="K", act="knock"), "act must be callable"),
    (dict(name="knock", key="K", directions=3), "directions must be callable or None"),
])
def test_a_bad_command_is_refused_in_one_line(command, line):
    module = types.ModuleType("badknock")
    fields = {"act": lambda game, player, step: None, **command}
    module.register_commands = hookimpl(lambda register: register(KeyCommand(**fields)))
    registry = testing.load_plugin(module)
    said = [w for w in registry.warnings if "badknock" in w]
    said += [str(p) for p in registry.plugins if p.name == "badknock"]
    assert any(line in s for s in said), said


def test_a_command_that_answers_nonsense_switches_its_plugin_off():
    module = types.ModuleType("odd")
    module.register_commands = hookimpl(lambda register: register(
        KeyCommand(name="odd", key="K", act=lambda game, player, step: 42)))
    game = testing.game_from_map(testing.load_plugin(module), ROOM)
    s = testing.press(game, "K", allow_plugin_errors=True)
    assert s["turn"] == 0 and [f.plugin for f in game.isolation.failures] == ["odd"]
    assert "expected an Action, a Page or None" in str(game.isolation.failures[0])
