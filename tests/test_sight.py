"""Who stands in the player's view: Sight.standing_in_view agrees with reading the view at every
monster's cell, whether it looks only within the light's square (a few monsters) or at the
square's cells (a crowd), and after the player moved, before the view is made again (it reads the
view as it was seen, from where it was seen)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import testing
from engine.core.play.setup import default_game
from engine.core.turn.game import Game


@pytest.fixture(scope="module")
def registry():
    return testing.load_plugin()


def _by_the_view(game) -> list[int]:
    visible = game.state.view.visible
    return sorted(m for m in game.api.monsters() if visible[game.api.position(m)[1], game.api.position(m)[0]])


@pytest.mark.parametrize("radius, monsters", [(8, 30), (2, 60)])  # the second: more monsters than the square's cells
def test_the_monsters_standing_in_view_are_those_on_cells_in_view(registry, radius, monsters):
    rules = dataclasses.replace(default_game(registry), fov_radius=radius, monster_count=(0, 0, 0, 0))
    game = Game(registry, rules, seed=5).start()
    api, rng = game.api, random.Random(radius)
    try:
        floor = [(x, y) for y in range(api.walls().shape[0]) for x in range(api.walls().shape[1])
                 if api.passable(x, y)]
        for x, y in rng.sample(floor, monsters):
            api.spawn(rng.choice(["rat", "goblin", "kobold"]), x, y)
        assert (2 * radius + 1) ** 2 < len(game.state.spatial.blockers()) or radius == 8
        checked = seen = 0
        for x, y in rng.sample([c for c in floor if api.passable(*c)], 40):
            assert api.move(api.player, x, y)
            game.sight.update_view()
            found = game.sight.standing_in_view()
            assert found == _by_the_view(game)
            seen += len(found)
            sides = ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            step = next((cell for cell in sides if api.passable(*cell)), None)
            if step is not None:  # moved, the view not made again: read as it was seen
                assert api.move(api.player, *step)
                assert game.sight.standing_in_view() == _by_the_view(game)
                checked += 1
        assert seen > 10 and checked > 20
    finally:
        game.close()


def test_a_monster_at_the_edge_of_the_view_stays_in_it_until_the_view_is_made_again(registry):
    """The view is read around where it was seen from: the player stepping away from a rat at the
    light's very edge (8 cells) does not take it out of the view that saw it."""
    game = testing.game_from_map(registry, """
        ######################
        #r.......@...........#
        ######################
    """)
    api = game.api
    (rat,) = api.monsters()
    assert game.sight.standing_in_view() == [rat]  # 8 cells off: at the light's edge
    assert api.move(api.player, 10, 1)  # a step away, the view not made again
    assert game.sight.standing_in_view() == [rat]
    game.sight.update_view()
    assert game.sight.standing_in_view() == []


def test_the_light_changed_after_a_step_makes_the_view_from_where_the_player_stands(registry):
    """A wall raised (the light changes) after the player stepped and before the view system ran:
    the view is made again from the player's cell, and read around that cell."""
    game = testing.game_from_map(registry, """
        ######################
        #r.......@...........#
        ######################
    """)
    api = game.api
    (rat,) = api.monsters()
    assert api.move(api.player, 10, 1)
    api.set_terrain(15, 1, "wall")  # in view, out of the way: only the light changes
    assert game.state.view.origin == (10, 1) and not game.state.view.visible[1, 16]
    assert game.sight.standing_in_view() == [] == _by_the_view(game)  # 9 cells off now: out of the light
