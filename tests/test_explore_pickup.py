"""Explore picks up items on the way (issue #25, item 8), as DCSS's and Brogue's ``o`` do: in the
default game (where stepping on an item picks up gold alone) it walks to the items it remembers and
picks each up, but not one the player dropped or stepped off, and not when the pack has no room
(said once). Its walks go by the level's path cost: a kind no path enters (``cost=math.inf``: a
known trap, a door that will not open) is never stepped on, a dear one is walked around."""

import json
import math

import pytest

from engine import Inventory, ItemKind, LeftBehind, LootRow, TerrainKind, hookimpl, testing
from engine.core.play.session import Session
from engine.persist import runsave
from engine.plugins.depths import identify


def walk(game, key="o"):
    """Press ``key`` and walk its travel a step at a time: every cell the player stood on."""
    api, session = game.api, Session.of(game)
    cells = [api.position(api.player)]
    outcome = session.press(key, step_by_step=True)
    while outcome.walking:
        outcome = session.step()
        cells.append(api.position(api.player))
    return cells


def carried(game):
    return sorted(game.api.name_of(e) for e in game.api.pack())


ROOM = """
    #########
    #@..)..$#
    #.......#
    #########
"""


def test_explore_walks_to_an_item_and_picks_it_up_and_to_gold(registry):
    game = testing.game_from_map(registry, ROOM)
    state = testing.press(game, "o")
    assert carried(game) == ["dagger"] and state["player"]["gold"] > 0  # the gold taken by the step
    assert state["items"] == [] and state["messages"][-1] == "Explored all you can reach."
    assert any(m.startswith("You pick up the dagger") for m in state["messages"])


def test_the_classic_games_explore_walks_past_items_as_before(registry):
    game = testing.game_from_map(registry, ROOM.replace("#.......#", "#......>#"), game="lesson28")
    state = testing.press(game, "o")
    assert state["player"]["x"] < 4 and state["turn"] == 0  # the room is all in view: nothing to explore
    assert {i["kind"] for i in state["items"]} >= {"dagger"}


def test_explore_leaves_an_item_the_player_dropped(registry):
    game = testing.game_from_map(registry, ROOM)
    api = game.api
    testing.press(game, "l l l g d a")  # onto the dagger, pick it up, drop it
    dagger = next(e for e in api.items() if api.name_of(e) == "dagger")
    assert api.component(dagger, LeftBehind) == LeftBehind(dropped=True)
    state = testing.press(game, "o")  # standing on it: not picked up again, and not walked back to
    assert carried(game) == [] and api.position(dagger) == (4, 1) and state["player"]["gold"] > 0


def test_explore_does_not_walk_back_to_an_item_the_player_stepped_off(registry):
    game = testing.game_from_map(registry, ROOM)
    api = game.api
    testing.press(game, "l l l l")  # over the dagger and off it
    dagger = next(e for e in api.items() if api.name_of(e) == "dagger")
    assert api.component(dagger, LeftBehind) == LeftBehind(dropped=False)
    assert (4, 1) not in walk(game) and carried(game) == []


def test_a_full_pack_walks_on_and_says_so_once(registry):
    game = testing.game_from_map(registry, """
        ##########
        #@......$#
        #...?..?.#
        ##########
    """)
    api = game.api
    identify.learn_all(api)  # the scrolls by their names (unknown ones: tests/test_depths_identify.py)
    for _ in range(26):
        assert api.give("dagger") is not None
    assert api.give("dagger") is None  # full
    cells = walk(game)
    full = [m for m in api.messages() if m.startswith("Your pack is full")]
    assert full == ["Your pack is full: no room for the scroll of lightning."]  # once, for two scrolls
    assert (4, 2) not in cells and (7, 2) not in cells  # not walked to
    assert api.component(api.player, Inventory).gold > 0  # gold still fits


class Snares:
    """A fixture plugin: a snare any creature may step on that no path enters (a known trap, as the
    trap plugins mark theirs), mud a path goes around when it can, and a dart to throw (in the
    default game's loot, so that its key throws)."""

    @staticmethod
    @hookimpl
    def register_terrain(register):
        register(TerrainKind(name="fixture-snare", glyph="\u00a7", color=(200, 60, 60), cost=math.inf))
        register(TerrainKind(name="fixture-mud", glyph="\u00a4", color=(120, 90, 50), cost=5))

    @staticmethod
    @hookimpl
    def register_items(register):
        register(ItemKind(name="fixture-dart", glyph=")", color=(180, 180, 200), effect="heal", use="throw",
                          attack=3))

    @staticmethod
    @hookimpl
    def register_loot(register):
        register("undercroft", "rich", LootRow(item="fixture-dart", weight=1))


@pytest.fixture(scope="module")
def snared():
    return testing.load_plugin(Snares)


def test_a_thrown_dart_is_fetched_again(snared):
    game = testing.game_from_map(snared, ROOM.replace(")", "."))
    api = game.api
    api.give("fixture-dart")
    testing.press(game, "t l l l enter")
    dart = next(e for e in api.items() if api.name_of(e) == "fixture-dart")
    assert api.position(dart) == (4, 1) and api.component(dart, LeftBehind) is None
    testing.press(game, "o")
    assert carried(game) == ["fixture-dart"]


def test_explore_never_steps_on_a_kind_no_path_enters(snared):
    game = testing.game_from_map(snared, """
        ############
        #@.........#
        #.########.#
        #.########.#
        #..........#
        ############
        ############
    """)
    api = game.api
    api.set_terrain(5, 4, "fixture-snare")  # the ring's bottom, halfway
    assert not api.is_wall(5, 4) and api.walk_cost()[4, 5] == 0  # walkable, yet no path's
    cells = walk(game)
    assert (5, 4) not in cells and api.messages()[-1] == "Explored all you can reach."
    assert {(4, 4), (6, 4)} <= set(cells) or (api.seen()[4, 4] and api.seen()[4, 6])  # both sides, around


def test_explore_does_not_fetch_an_item_past_a_snare_and_leaves_one_by_it(snared):
    game = testing.game_from_map(snared, """
        ##########
        #@......)#
        ##########
    """)
    api = game.api
    api.set_terrain(6, 1, "fixture-snare")
    cells = walk(game)
    assert (6, 1) not in cells and carried(game) == []
    testing.press(game, "l l l l l")  # the player steps on it themselves: it is walkable
    assert api.position(api.player) == (6, 1)
    testing.press(game, "o")  # and explore walks on off it, to the dagger
    assert carried(game) == ["dagger"]


def test_explore_walks_around_a_dear_kind_when_there_is_another_way(snared):
    game = testing.game_from_map(snared, """
        #######
        #@...)#
        #.....#
        #######
    """)
    api = game.api
    api.set_terrain(3, 1, "fixture-mud")
    cells = walk(game)
    assert (3, 1) not in cells and carried(game) == ["dagger"]


def test_the_dropped_mark_survives_a_save_and_resume(registry):
    game = testing.game_from_map(registry, ROOM)
    testing.press(game, "l l l g d a")
    data = json.loads(json.dumps(runsave.capture(game)))
    resumed, _keys = runsave.load(data, registry)
    api = resumed.api
    dagger = next(e for e in api.items() if api.name_of(e) == "dagger")
    assert api.component(dagger, LeftBehind) == LeftBehind(dropped=True)
    testing.press(resumed, "o")
    assert carried(resumed) == [] and api.position(dagger) == (4, 1)
