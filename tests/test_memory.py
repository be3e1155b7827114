"""Memory is run state: the items the player has seen are remembered by the run,
where they were last seen, through the stairs, a save and resume, and every step of a walk; look
and the window read that memory."""

from __future__ import annotations

import json

from PIL import Image
from test_frontend import brightest, cell_pixels, close_to, window_for  # noqa: F401

from engine import LeftBehind, testing
from engine.cli.main import main
from engine.core.model.state import KeptLevel
from engine.core.play.prompts import describe_cell
from engine.core.play.session import Session
from engine.core.play.setup import Setup
from engine.core.play.snapshot import dumps
from engine.frontend import palette
from engine.kit import limits
from engine.persist import keeper, runsave, runspec

# a potion in the room below, seen through its door from the corridor, then out of view from the
# stairs (the map of the reproduction)
SIDE_ROOM = """
    ##########
    #@.......#
    #........#
    #...>....#
    #........#
    ####.#####
    #........#
    #.!......#
    ##########
"""
POTION = (2, 7)
SEE_IT_THEN_STAIRS = "n n n j k k"  # to the door (the potion in view), back up onto the stairs


def play(game, keys: str) -> None:
    for token in keys.split():
        Session.of(game).press(token)


def test_an_item_seen_is_remembered_after_the_stairs_a_save_and_a_resume(home, tmp_path, registry, window_for):  # noqa: F811
    (tmp_path / "side.txt").write_text(SIDE_ROOM.replace("\n    ", "\n").strip("\n") + "\n")
    game = keeper.open_game(Setup(map_file=str(tmp_path / "side.txt"), seed=1), registry)
    play(game, SEE_IT_THEN_STAIRS)
    assert not game.api.sees(*POTION) and game.api.remembered() == {POTION: "potion"}
    play(game, ">")
    assert game.depth == 2 and POTION not in game.api.remembered()
    play(game, "<")
    assert game.depth == 1 and not game.api.sees(*POTION)
    assert game.api.remembered() == {POTION: "potion"}
    assert describe_cell(game, POTION) == "You remember a potion here."
    play(game, "esc")  # save and quit
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert resumed.depth == 1 and not resumed.api.sees(*POTION)
    assert resumed.api.remembered() == {POTION: "potion"}
    assert describe_cell(resumed, POTION) == "You remember a potion here."
    assert json.loads(dumps(resumed))["remembered"] == [[*POTION, "potion"]]


def test_a_shot_after_the_stairs_and_a_resume_shows_the_remembered_item(home, tmp_path, registry, window_for):  # noqa: F811
    """The issue's reproduction: ``--map`` with a potion in a side room, walk past it, ``> <``,
    save, ``--shot``: the ``!`` is drawn where it was seen, in its remembered colour."""
    (tmp_path / "side.txt").write_text(SIDE_ROOM.replace("\n    ", "\n").strip("\n") + "\n")
    assert main(["--headless", "--map", str(tmp_path / "side.txt"), "--seed", "1",
                 "--keys", SEE_IT_THEN_STAIRS + " > < esc"]) == 0
    shot = tmp_path / "shot.png"
    assert main(["--headless", "--shot", str(shot)]) == 0  # resumes the run, draws it
    again = keeper.open_game(Setup(), registry, choice="continue")
    assert again.depth == 1 and not again.floor.visible[POTION[1], POTION[0]]
    window = window_for(again)  # the same window as --shot's: the cell's place in the picture
    window.frames.draw()
    assert window.grid.shown(*POTION)[0] == "!"
    colour = palette.remembered(registry.items["potion"].color)
    pixels = cell_pixels(window, Image.open(shot).convert("RGB"), *POTION)
    assert close_to(brightest(pixels), colour, tolerance=12), (brightest(pixels), colour)


def test_an_item_that_moved_unseen_is_remembered_where_it_was_seen(registry):
    game = testing.game_from_map(registry, """
        ##########################
        #.....!@.................#
        ##########################
    """)
    potion = game.api.entities_at(6, 1)[0]
    play(game, "l " * 12)
    assert not game.api.sees(6, 1) and game.api.remembered() == {(6, 1): "potion"}
    game.state.spatial.move(potion, 1, 1)  # carried off while the player looked away
    play(game, "l")
    assert game.api.remembered() == {(6, 1): "potion"}
    assert describe_cell(game, (6, 1)) == "You remember a potion here."
    assert describe_cell(game, (1, 1)) == "You remember floor."
    play(game, "h " * 12)  # the old cell in view again: nothing there now
    assert game.api.sees(6, 1) and (6, 1) not in game.api.remembered()
    play(game, "h " * 4)
    assert game.api.sees(1, 1) and game.api.remembered() == {(1, 1): "potion"}


def test_an_item_a_monster_took_while_unseen_is_remembered_until_seen_again(registry):
    game = testing.game_from_map(registry, """
        ##########################
        #.....!@.................#
        ##########################
    """)
    play(game, "l " * 12)
    game.api.remove(game.api.entities_at(6, 1)[0])  # picked up or destroyed out of sight
    play(game, "l")
    assert game.api.remembered() == {(6, 1): "potion"}
    play(game, "h " * 13)
    assert game.api.remembered() == {}


def test_a_walk_of_one_key_remembers_the_items_it_passed(registry):
    """``o`` is one key (headless, it walks to its end at once): the items seen on its way are
    remembered all the same. The potion is one the player left there, which explore walks past
    (it picks up the others on its way)."""
    game = testing.game_from_map(registry, """
        ###########################
        #@........................#
        #########.#################
        ########!.#################
        ###########################
    """)
    game.api.add_component(game.api.entities_at(8, 3)[0], LeftBehind(dropped=True))
    state = testing.press(game, "o")
    assert state["player"]["x"] > 15 and state["turn"] > 10  # it walked away from the potion
    assert state["remembered"] == [[8, 3, "potion"]]


def test_a_save_of_the_previous_schema_loads_with_no_items_remembered(home, tmp_path, registry):
    (tmp_path / "side.txt").write_text(SIDE_ROOM.replace("\n    ", "\n").strip("\n") + "\n")
    game = keeper.open_game(Setup(map_file=str(tmp_path / "side.txt"), seed=1), registry)
    play(game, SEE_IT_THEN_STAIRS + " > < esc")
    data = json.loads((home / "run.json").read_text())
    assert data["schema"] == runspec.SCHEMA == 5 and data["remembered"] == [[*POTION, "potion"]]
    del data["remembered"]
    for kept in data["kept"]:
        del kept["remembered"]
    data["schema"] = 3
    (home / "run.json").write_text(json.dumps(data))
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert resumed.turn == game.turn and resumed.api.remembered() == {}
    assert all(kept.items == {} for kept in resumed.state.kept.values())


def test_a_save_with_a_bad_memory_is_refused_in_one_line(tmp_path, registry):
    game = testing.game_from_map(registry, SIDE_ROOM)
    play(game, SEE_IT_THEN_STAIRS)
    data = runsave.capture(game)
    for rows, message in (([[2, 7, "no such thing"]], "remembered: expected a known item kind"),
                          ([[2, 70, "potion"]], "remembered: expected a cell on the 10x9 map"),
                          ([[2, 7, "potion"], [2, 7, "gold"]], "remembered: a cell is listed twice"),
                          ([[2, 7]], 'remembered[0]: expected [x, y, "item kind"]')):
        try:
            runsave.load({**data, "remembered": rows}, registry)
        except ValueError as e:
            assert message in str(e) and "\n" not in str(e), str(e)
        else:
            raise AssertionError(f"{rows} was accepted")


def test_a_run_remembers_at_most_the_limit_forgetting_the_farthest_level_first(registry, monkeypatch):
    from engine.core.model import memory

    game = testing.game_from_map(registry, SIDE_ROOM)
    state = game.state
    level = state.level
    for depth in (2, 5):
        state.kept[depth] = KeptLevel(level, state.view.seen.copy(),
                                      items={(x, 1): "gold" for x in range(1, 9)})
    monkeypatch.setattr(limits, "MAX_REMEMBERED", 20)
    play(game, SEE_IT_THEN_STAIRS)  # remembers the potion: 17 in all, under the limit
    assert memory.remembered_total(state) == 17
    state.view.items.update({(x, 2): "gold" for x in range(1, 9)})
    memory.forget_past_limit(state)  # 25: depth 5, the farthest, forgets its 5 oldest
    assert memory.remembered_total(state) == 20
    assert list(state.kept[5].items) == [(x, 1) for x in range(6, 9)] and len(state.kept[2].items) == 8


def test_a_pile_is_remembered_by_its_newest_item_as_the_window_draws_it(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, """
        ##########################
        #.....!@.................#
        ##########################
    """)
    game.api.spawn("gold", 6, 1, 5)  # on the potion: the newest of the pile
    window = window_for(game)
    window.frames.draw()
    assert window.grid.shown(6, 1)[0] == "$"
    for _ in range(12):
        window.press("l")
    window.frames.draw()
    assert not game.api.sees(6, 1) and game.api.remembered() == {(6, 1): "gold"}
    assert window.grid.shown(6, 1)[0] == "$" and describe_cell(game, (6, 1)) == "You remember some gold here."


def test_in_view_with_the_lights_radius_finds_what_the_masks_alone_find():
    """The light's square only saves lookups: with the radius, in_view finds exactly the cells the
    masks hold, for views whose lit cells all lie within the radius of their origins."""
    import random

    import numpy as np

    from engine.core.model import memory

    rng = random.Random(5)
    for trial in range(200):
        radius = rng.randint(1, 9)
        looked = []
        for _ in range(rng.randint(1, 2)):
            ox, oy = rng.randrange(60), rng.randrange(30)
            mask = np.zeros((30, 60), dtype=bool)
            box = mask[max(0, oy - radius):oy + radius + 1, max(0, ox - radius):ox + radius + 1]
            box[...] = np.array([rng.random() < 0.5 for _ in range(box.size)]).reshape(box.shape)
            looked.append((mask, (ox, oy)))
        cells = [(rng.randrange(60), rng.randrange(30)) for _ in range(rng.randint(0, 40))]
        expected = [c for c in cells if any(mask[c[1], c[0]] for mask, _ in looked)]
        assert memory.in_view(cells, looked, radius) == expected, trial
        assert memory.in_view(cells, looked) == expected, trial
