"""An FOV may declare a reach cap (a fog, a short-sighted light): the game honours it, sight never
goes beyond it, and the test kit holds the algorithm to it."""

import textwrap

import numpy as np
import pytest

from engine import load_registry, radius_mask, testing
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.testing import ContractError

FOG = """
    from engine import hookimpl
    from engine.plugins.fov.symmetric import symmetric_fov

    def short_sight(transparent, origin, radius):
        return symmetric_fov(transparent, origin, 4 if radius is None or radius > 4 else radius)

    @hookimpl
    def register_fov_algorithms(register):
        register("fog", symmetric_fov, symmetric=True, reach=4, summary="a fog: nothing beyond 4 cells")
        register("short", short_sight, symmetric=True, summary="caps itself without saying so")
"""


@pytest.fixture
def registry(tmp_path):
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "fog.py").write_text(textwrap.dedent(FOG))
    return load_registry(plugins_dirs=[tmp_path / "plugins"], entry_points=False)


def test_the_game_never_sees_beyond_the_cap(registry, tmp_path):
    (tmp_path / "room.txt").write_text("#" * 22 + "\n" + ("#" + "." * 20 + "#\n") * 9 + "#" * 22 + "\n")
    (tmp_path / "room.txt").write_text((tmp_path / "room.txt").read_text().replace(".", "@", 1))
    game = new_game(Setup(seed=1, map_file=str(tmp_path / "room.txt"), plugins=["fov=fog"]), registry)
    assert game.rules.fov_radius == 8  # the preset asks for more: the fog says 4
    Session.of(game).press(".")
    visible = game.state.view.visible
    assert visible.any() and not (visible & ~radius_mask(visible.shape, game.position(game.player), 4)).any()
    for radius in (None, 2, 4, 30):
        assert (registry.fov["fog"](np.ones((20, 30), bool), (15, 10), radius)
                == radius_mask((20, 30), (15, 10), 4 if radius is None or radius > 4 else radius)).all()


def test_the_kit_holds_a_capped_fov_to_its_cap_and_names_an_undeclared_one(registry):
    testing.check_fov(registry.fov["fog"], cases=40)
    with pytest.raises(ContractError, match=r"it lights at most 4 away: declare it, register\(\.\.\., reach=4\)"):
        testing.check_fov(registry.fov["short"], cases=40)


def test_a_reach_that_is_no_whole_number_is_refused_at_load(tmp_path):
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "bad.py").write_text(textwrap.dedent("""
        from engine import hookimpl, radius_mask

        @hookimpl
        def register_fov_algorithms(register):
            register("murk", lambda t, origin, radius: radius_mask(t.shape, origin, radius), reach=0)
    """))
    registry = load_registry(plugins_dirs=[tmp_path / "plugins"], entry_points=False)
    assert "register_fov_algorithms: 'murk': reach 0: expected a whole number 1..1000" in registry.broken["bad"]
