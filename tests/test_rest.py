"""Rest (Z, Brogue's): one key waits turn after turn until the player's HP is full, and stops as a
walk does (a monster comes into view, a blow); it does not start at full HP or with an awake
monster in view, and gives up in a game where waiting heals nobody. Recorded as a travel is."""

import dataclasses

from engine import Fighter, Monster, testing
from engine.core.model.events import KeyPlayed
from engine.core.play.session import Session
from engine.kit import limits
from engine.plugins.rules.monster_ai import Hunting

ROOM = """
    ##########
    #@.......#
    #........#
    #........#
    ##########
"""


def hurt(game, by: int) -> int:
    fighter = game.world.get(game.player, Fighter)
    fighter.hp -= by
    return fighter.hp


def test_rest_at_full_health_says_so_and_takes_no_time(registry):
    g = testing.game_from_map(registry, ROOM)
    s = testing.press(g, "Z")
    assert s["turn"] == 0 and s["messages"][-1] == "You are already at full health."


def test_rest_waits_until_the_player_is_healed(registry):
    g = testing.game_from_map(registry, ROOM)
    every = int(g.rules.params["growth"]["regen"])  # the default game heals 1 HP every `every` turns
    hurt(g, 3)
    s = testing.press(g, "Z")
    hp, max_hp = g.api.hp(g.player)
    assert hp == max_hp and s["messages"][-1] == "You are fully healed."
    assert 2 * every < s["turn"] <= 3 * every  # no turn more than the third heal needed
    assert testing.press(g, "Z")["turn"] == s["turn"]  # healed: the next Z waits no turn


def test_rest_does_not_start_with_an_awake_monster_in_view(registry):
    g = testing.game_from_map(registry, ROOM.replace("#........#\n    ##", "#......o.#\n    ##"))
    orc = g.api.monsters()[0]
    assert g.api.component(orc, Monster).awake  # it noticed the player
    hurt(g, 3)
    s = testing.press(g, "Z")
    assert s["turn"] == 0 and s["messages"][-1] == "Not with the orc in view."


# the player rests in a room; an orc hunting them comes up the corridor, out of sight until it
# turns the corner
CORRIDOR = """
    ###########
    #@....#####
    #.....#####
    #.....#####
    #..........
    ###########
"""


def test_rest_stops_when_a_monster_comes_into_view(registry):
    g = testing.game_from_map(registry, CORRIDOR.replace("#..........", "#.........o"))
    orc = g.api.monsters()[0]
    g.api.sleep(orc)
    g.world.get(orc, Monster).awake = True  # hunting already, from where the player was seen
    g.scheduler.add(orc, 100)
    g.api.add_component(orc, Hunting(1, 1, 50))
    g.new_in_view = False
    hp = hurt(g, 10)
    assert not g.api.sees(*g.api.position(orc))
    s = testing.press(g, "Z")
    assert g.api.sees(*g.api.position(orc)) and s["turn"] > 0  # stopped as the orc came into view
    assert g.api.hp(g.player)[0] == hp  # before its first blow
    assert "You are fully healed." not in s["messages"]


def test_rest_gives_up_where_waiting_heals_nobody(registry, monkeypatch):
    monkeypatch.setattr(limits, "MAX_REST_UNHEALED", 30)
    g = testing.game_from_map(registry, ROOM)
    params = {**g.rules.params, "growth": {**g.rules.params["growth"], "regen": 0}}  # the preset's own untouched
    g.rules = dataclasses.replace(g.rules, params=params)
    hp = hurt(g, 3)
    s = testing.press(g, "Z")
    assert s["turn"] == 30 and g.api.hp(g.player)[0] == hp  # 30 turns unhealed
    assert s["messages"][-1] == "You rest, but feel no better."


def test_a_long_rest_counts_from_the_last_heal(registry, monkeypatch):
    """A game that heals slower than MAX_REST_UNHEALED a point still rests to full HP: the wait
    counts from the last point healed, not from the start."""
    g = testing.game_from_map(registry, ROOM)
    every = int(g.rules.params["growth"]["regen"])
    monkeypatch.setattr(limits, "MAX_REST_UNHEALED", every + 1)
    hurt(g, 4)
    s = testing.press(g, "Z")
    assert s["messages"][-1] == "You are fully healed." and s["turn"] > 3 * every


def test_the_windows_rest_plays_many_turns_a_step_and_records_where_it_stopped(registry):
    g = testing.game_from_map(registry, ROOM)
    heard = []
    g.listeners.append(lambda event, game: isinstance(event, KeyPlayed) and heard.append(event.token))
    hurt(g, 5)
    session = Session.of(g)
    assert session.press("Z", step_by_step=True).walking and g.turn == 0
    assert session.step(10).walking and g.turn == 10  # ten turns, one outcome
    session.interrupt()
    assert heard == ["Z:10"]
    h = testing.game_from_map(registry, ROOM)
    hurt(h, 5)
    testing.press(h, "Z:10")  # the replay rests as long
    assert h.turn == 10


def test_presets_with_their_own_keys_have_no_rest(registry):
    g = testing.game_from_map(registry, ROOM, game="rogue-sdl")
    hurt(g, 3)
    assert testing.press(g, "Z")["turn"] == 0
    assert g.rules.keys and "Z" not in g.rules.keys  # its own keys table: the classic game's keys alone


def test_a_monster_walking_into_view_is_news_while_the_player_stands(registry):
    """A held wait stops (Outcome.noticed) the turn a monster walks into a view that did not
    change: the view is made when the player moves, and this one stood."""
    g = testing.game_from_map(registry, CORRIDOR.replace("#..........", "#.........o"))
    orc = g.api.monsters()[0]
    g.world.get(orc, Monster).awake = True
    g.scheduler.add(orc, 100)
    g.api.add_component(orc, Hunting(1, 1, 50))
    session = Session.of(g)
    noticed = []
    while not g.api.sees(*g.api.position(orc)):
        noticed.append(session.press(".").noticed)
    assert noticed[:-1] == [False] * (len(noticed) - 1) and noticed[-1]  # at once, and not before
    assert not session.press(".").noticed  # in view already: no news


def test_a_rest_hurt_by_no_blow_says_why_it_stopped(registry):
    """Venom (a status's tick) takes HP each turn: the rest stops, as a walk does, and says why (no
    blow's message does)."""
    g = testing.game_from_map(registry, ROOM)
    hurt(g, 5)
    g.api.add_status(g.player, "envenomed", 3)
    s = testing.press(g, "Z")
    assert s["turn"] == 1 and s["messages"][-1] == "You cannot rest while losing health."


def test_a_rest_stopped_by_a_blow_lets_the_blow_say_it(registry):
    g = testing.game_from_map(registry, ROOM.replace("#@.......#", "#@o......#"))
    orc = g.api.monsters()[0]
    g.api.sleep(orc)  # asleep beside the player: a rest may start
    hp = hurt(g, 10)
    session = Session.of(g)
    assert session.press("Z", step_by_step=True).walking
    g.api.wake(orc)
    g.api.add_component(orc, Hunting(1, 1, 50))
    while session.step().walking:
        pass
    assert g.api.hp(g.player)[0] < hp and g.messages[-1].startswith("The orc hits you")
    assert "You cannot rest while losing health." not in g.messages
