"""The sidebar's sections, the folded log, and light and memory: remembered items, walls that
bound a remembered floor."""

from __future__ import annotations

import numpy as np
import pytest

from engine import testing
from engine.core.model.components import Fighter, Monster
from engine.core.play.session import Session
from engine.frontend.compose import known_cells
from engine.frontend.log import fold
from engine.frontend.sidebar import Bar, Line, monsters, rows_for, stats, underfoot, visible_monsters
from engine.kit.mapgen import FLOOR, WALL


def test_repeated_messages_fold_with_a_count():
    assert fold(["a", "a", "a", "b", "a", "a"]) == ["a x3", "b", "a x2"]
    assert fold([]) == [] and fold(["x"]) == ["x"]


def test_monsters_in_view_are_listed_nearest_first_with_their_health(registry):
    game = testing.game_from_map(registry, """
        ##########
        #g..@.r.o#
        ##########
    """)
    order = [kind for _, kind, *_ in visible_monsters(game)]
    assert order == ["rat", "goblin", "orc"]  # 2, 3 (left) and 4 cells away
    rat = next(e for e, m in game.world.query(Monster) if m.kind == "rat")
    game.world.get(rat, Fighter).hp = 1
    rows = monsters(game)
    assert all(isinstance(r, Bar) for r in rows)
    top = game.world.get(rat, Fighter).max_hp
    assert (rows[0].label, rows[0].value, rows[0].glyph, rows[0].entity) == (f"rat 1/{top}", 1, "r", rat)
    assert rows[0].maximum == top


def test_a_monster_row_says_its_hp_and_its_state_in_words(registry):
    game = testing.game_from_map(registry, """
        ########
        #@..g..#
        ########
    """)
    goblin = next(e for e, m in game.world.query(Monster) if m.kind == "goblin")
    fighter = game.world.get(goblin, Fighter)
    game.world.get(goblin, Monster).awake = False  # it has not noticed the player
    (row,) = monsters(game)
    assert row.label == f"goblin {fighter.hp}/{fighter.max_hp} asleep"
    game.world.get(goblin, Monster).awake = True
    game.api.add_status(goblin, "confused", 3)
    game.api.add_status(goblin, "hasted", 3)
    fighter.hp = 2
    (row,) = monsters(game)
    assert row.label == f"goblin 2/{fighter.max_hp} confused (3), hasted (3)" and row.value == 2


def test_monsters_out_of_view_are_not_listed(registry):
    game = testing.game_from_map(registry, """
        ###############
        #@...........r#
        ###############
    """)
    assert monsters(game) == []


def test_underfoot_names_the_stairs_and_sections_are_separated(registry):
    game = testing.game_from_map(registry, """
        ######
        #@>..#
        ######
    """)
    assert underfoot(game) == []
    Session.of(game).press("l")
    assert [r.text for r in underfoot(game)] == ["Here: stairs down"]
    rows = rows_for(game, [stats, underfoot], 20)
    top = len(stats(game))
    assert rows[top] is None and isinstance(rows[top + 1], Line)  # a blank row between two sections
    assert rows[top + 1].text == "Here: stairs down"
    assert len(rows_for(game, [stats, underfoot], 2)) == 2  # cut to what fits


def test_known_cells_add_walls_that_bound_a_seen_floor():
    terrain = np.full((5, 7), WALL, dtype=np.uint8)
    terrain[1:4, 1:6] = FLOOR
    seen = np.zeros_like(terrain, dtype=bool)
    seen[2, 2] = True  # one floor cell remembered; none of its walls ever lit
    wall = np.zeros(256, dtype=bool)
    wall[WALL] = True
    known = known_cells(terrain, seen, slice(0, 5), slice(0, 7), wall)
    assert known[2, 2] and known.sum() == 1  # its neighbours are floor: no wall to add
    seen[1, 1] = True  # a floor cell in the corner: the three walls around the corner bound it
    known = known_cells(terrain, seen, slice(0, 5), slice(0, 7), wall)
    assert known[0, 0] and known[0, 1] and known[1, 0] and known[0, 2]
    assert not known[1, 2]  # unseen floor stays unknown
    # a window into the map gives the same answer as the whole map, sliced
    part = known_cells(terrain, seen, slice(1, 4), slice(0, 3), wall)
    assert (part == known[1:4, 0:3]).all()


arcade = pytest.importorskip("arcade")

from test_frontend import brightest, cell_pixels, screenshot, window_for  # noqa: E402, F401


def test_items_are_remembered_where_last_seen(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, """
        ##########################
        #.....!@.................#
        ##########################
    """)
    window = window_for(game)
    window.frames.draw()
    glyph, lit = window.grid.shown(6, 1)
    assert glyph == "!"
    for _ in range(12):
        window.press("l")
    image = screenshot(window)
    assert not game.floor.visible[1, 6]
    glyph, remembered = window.grid.shown(6, 1)
    assert glyph == "!" and sum(remembered) < sum(lit) * 0.6  # still there, dimmed
    assert brightest(cell_pixels(window, image, 6, 1)) != (0, 0, 0)
    for _ in range(13):
        window.press("h")  # back onto it
    window.press("g")  # picked up, so no longer remembered
    for _ in range(10):
        window.press("l")
    screenshot(window)
    assert not game.floor.visible[1, 6] and window.grid.shown(6, 1)[0] == "."


def test_the_lit_look_tints_lit_cells_and_leaves_unknown_black(registry, window_for):  # noqa: F811
    game = testing.game_from_map(registry, """
        ##############################
        #@...........................#
        ##############################
    """)
    window = window_for(game)
    for _ in range(12):
        window.press("l")
    image = screenshot(window)
    lit = cell_pixels(window, image, 13, 1)
    remembered = cell_pixels(window, image, 1, 1)
    unknown = cell_pixels(window, image, 28, 1)
    darkest = min(lit, key=sum)
    assert darkest != (0, 0, 0) and sum(darkest) > sum(min(remembered, key=sum))  # the light's tint
    assert set(unknown) == {(0, 0, 0)}
    assert min(remembered, key=sum) != (0, 0, 0)  # remembered floor has its own dark ground


def test_a_behaviour_that_flees_says_so_on_its_sidebar_row_until_its_next_turn():
    import types

    from engine import MonsterKind, Move, hookimpl, testing

    scared = [True]

    def bolt(game, me):
        """Runs from the player, and says so while it does."""
        if not scared[0]:
            return None
        game.declare(me, "fleeing")
        step = game.step_away(me, [game.position(game.player)])
        return Move(*step) if step is not None else None

    plugin = types.SimpleNamespace(
        register_behaviours=hookimpl(lambda register: register("bolt", bolt)),
        register_monsters=hookimpl(lambda register: register(MonsterKind(
            name="hare", glyph="H", color=(200, 180, 120), hp=3, attack=1, behaviour="bolt"))))
    game = testing.game_from_map(testing.load_plugin(plugin), """
        ##############
        #@..H........#
        ##############
    """)
    hare = next(e for e, m in game.world.query(Monster) if m.kind == "hare")
    game.world.get(hare, Monster).awake = True
    testing.press(game, ".")
    (row,) = monsters(game)
    assert row.label == "hare 3/3 fleeing" and game.api.declared(hare) == "fleeing"
    scared[0] = False  # its next turn declares nothing: the word is gone
    testing.press(game, ".")
    (row,) = monsters(game)
    assert row.label == "hare 3/3" and game.api.declared(hare) is None
    game.api.declare(hare, "cornered")
    assert monsters(game)[0].label == "hare 3/3 cornered"
    game.api.declare(hare, None)
    assert game.api.declared(hare) is None
    with pytest.raises(ValueError, match="declare: state '' is not a word of 1 to 30 characters"):
        game.api.declare(hare, "")


def test_a_row_longer_than_the_sidebar_is_cut_with_an_ellipsis_not_clipped(registry, window_for, monkeypatch):  # noqa: F811
    import engine.frontend.sidebarview as view
    from engine.frontend.sidebar import DIM

    game = testing.game_from_map(registry, "#####\n#@..#\n#####\n")
    window = window_for(game)
    sidebar = window.sidebar
    long = "Here: Bat droppings: soft, and slippery underfoot, and everywhere in the belfry"
    monkeypatch.setattr(view, "rows_for", lambda *args: [Line(long, DIM, ",", (200, 200, 100)), Line("short", DIM)])
    sidebar.update(game)
    (_, first), (_, second) = sidebar.texts[:2]
    assert len(first.text) <= sidebar.columns - 3 and first.text.endswith("...")
    assert first.text[:-3].rstrip() in long and second.text == "short"
