"""The bunyip preset: the Go engine's roguelike example, rule for rule."""

from test_frontend import screenshot, window_for  # noqa: F401

from engine import testing
from engine.core.model.components import Fighter
from engine.core.play import status as hud
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.persist import keeper, profile


def bunyip(picture, registry):
    return testing.game_from_map(registry, picture, game="bunyip")


def test_the_map_follows_the_examples_numbers():
    for seed in (7, 1, 2, 3, 99):
        g = new_game(Setup(game="bunyip", seed=seed))
        level = g.level
        assert level.terrain.shape == (32, 60) and level.stairs is None
        rooms = level.rooms
        assert rooms and level.start == (rooms[0].x + rooms[0].w // 2, rooms[0].y + rooms[0].h // 2)
        for i, r in enumerate(rooms):
            assert 1 <= r.x <= 48 and 1 <= r.y <= 24 and 4 <= r.w <= 11 and 3 <= r.h <= 7
            assert r.x + r.w < 59 and r.y + r.h < 31
            for o in rooms[:i]:
                assert not r.intersects(o, margin=1)
        s = testing.press(g, "")
        centres = {(r.x + r.w // 2, r.y + r.h // 2) for r in rooms[1:]}
        assert all((m["x"], m["y"]) in centres and m["kind"] == "goblin" and m["hp"] == 3 for m in s["monsters"])
        assert s["items"] == []
        assert g.fov.name == "raycast" and g.rules.fov_radius == 8
        g.close()


def test_a_fixed_default_seed():
    a = testing.press(new_game(Setup(game="bunyip")), "")
    b = testing.press(new_game(Setup(game="bunyip")), "")
    c = testing.press(new_game(Setup(game="bunyip", seed=8)), "")
    assert a["seed"] == 7 and a["map"] == b["map"] and a["monsters"] == b["monsters"]
    assert c["map"] != a["map"]


def test_opening_message_and_status_line():
    g = new_game(Setup(game="bunyip"))
    assert testing.press(g, "")["messages"] == ["You descend into the dark. Goblins stir."]
    goblins = len(testing.press(g, "")["monsters"])
    assert hud.line(g, "status") == f"Turn 0   HP 10/10   goblins {goblins}"


def test_a_wall_bump_still_takes_the_turn(registry):
    g = bunyip("""
        ##########
        #@.......#
        #.......g#
        ##########
    """, registry)
    s = testing.press(g, "k")
    assert s["turn"] == 1 and (s["player"]["x"], s["player"]["y"]) == (1, 1)
    assert s["monsters"][0]["x"] == 7  # the goblin, seen at the end of the last turn, came closer


def test_hit_slay_and_bite(registry):
    g = bunyip("""
        #######
        #@g...#
        #######
    """, registry)
    s = testing.press(g, "l")
    assert s["messages"][-2:] == ["You hit the goblin.", "The goblin bites you!"]
    assert s["player"]["hp"] == 9 and s["monsters"][0]["hp"] == 1
    s = testing.press(g, "l")
    assert s["messages"][-1] == "You slay the goblin." and s["monsters"] == []


def test_the_log_keeps_the_last_four_lines(registry):
    g = bunyip("""
        #########
        #@g.....#
        #########
    """, registry)
    s = testing.press(g, "l . .")  # welcome, hit, bite, bite, bite: the welcome has scrolled away
    assert s["messages"] == ["You hit the goblin."] + ["The goblin bites you!"] * 3


def test_goblins_act_on_what_the_player_saw_last_turn(registry):
    g = bunyip("""
        #########
        #@......#
        #.#######
        #.......#
        #....g..#
        #########
    """, registry)
    assert not g.floor.visible[4, 5]
    s = testing.press(g, "j")  # the goblin comes into view only after this move: it has not acted yet
    assert g.floor.visible[4, 5] and (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (5, 4)
    s = testing.press(g, ".")  # seen at the end of the last turn, now it comes
    assert (s["monsters"][0]["x"], s["monsters"][0]["y"]) == (4, 3)


def test_death_has_no_restart(registry):
    g = bunyip("""
        #####
        #@g.#
        #####
    """, registry)
    g.world.get(g.player, Fighter).hp = 1
    s = testing.press(g, ".")
    assert not s["alive"] and s["player"]["hp"] == 0
    assert hud.line(g, "death_title") == "You died. Escape to quit."
    s = testing.press(g, "R")
    assert not s["alive"] and s["run"] == 1


def test_escape_quits_and_the_next_launch_is_the_fixed_map_fresh(home):
    first = keeper.open_game(Setup(game="bunyip"))
    start = testing.press(first, "")
    for token in "l l j j l".split():
        Session.of(first).press(token)
    Session.of(first).press("esc")
    assert first.quit_requested and keeper.saved_run() is None  # nothing kept to resume
    fresh = keeper.open_game(Setup(game="bunyip"), choice="continue")  # so even "continue" starts anew
    s = testing.press(fresh, "")
    assert s["turn"] == 0 and s["map"] == start["map"] and s["monsters"] == start["monsters"]
    table = profile.load()["presets"]["bunyip"]
    assert table["runs"] == 2 and table["top"][0]["cause"] == "quit on depth 1"  # the quit run is counted


def test_a_run_is_counted_in_its_own_table(home, capsys):
    from engine.cli.main import main

    assert main(["--headless", "--game", "bunyip", "--keys", "l l j esc"]) == 0
    p = profile.load()
    assert set(p["presets"]) == {"bunyip"} and p["presets"]["bunyip"]["runs"] == 1 and p["runs"] == 1
    assert main(["scores", "--game", "bunyip"]) == 0
    assert capsys.readouterr().out.startswith("Runs 1   ")


def test_the_death_screen_is_the_dimmed_window_and_one_line(registry, window_for):  # noqa: F811
    g = bunyip("""
        #####
        #@g.#
        #####
    """, registry)
    g.world.get(g.player, Fighter).hp = 1
    window = window_for(g)
    Session.of(g).press(".")
    assert not g.alive
    image = screenshot(window)
    width, height = image.size
    pixels = list(image.getdata())
    assert (255, 80, 80) in pixels  # the line, in the example's red
    # everything reddish on screen is that one line: no band across the map ((25, 4, 4) at 88%),
    # no red status line under it
    reddish = [(i % width, i // width) for i, (r, g, b) in enumerate(pixels) if r > 2 * g + 4 and r > 2 * b + 4]
    xs, ys = [x for x, _ in reddish], [y for _, y in reddish]
    assert max(ys) - min(ys) < window.hud.row_px
    assert abs((min(xs) + max(xs)) / 2 - width / 2) < 8 and abs((min(ys) + max(ys)) / 2 - height / 2) < 12
    assert window.hud.death_line.text == "You died. Escape to quit."
    assert window.painter.profile_lines == []  # no profile line: the example has no profile
    # the whole window is dimmed, the status line under the map too (HUD text is 235 grey undimmed)
    hud_rows = image.crop((0, height - 6 * window.hud.row_px, width, height))
    assert 0 < max(map(max, hud_rows.getdata())) < 120
