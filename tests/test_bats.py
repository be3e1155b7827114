"""The example third-party package: discovered through the entry point; bats act twice a turn."""

import pytest

from engine import load_registry, testing
from engine.core.model.components import Monster


@pytest.fixture
def with_bats(monkeypatch):
    monkeypatch.setenv("UNDERCROFT_LOAD_PLUGINS", "bats")


def test_bats_are_discovered(with_bats):
    registry = load_registry()
    bat = registry.monsters["bat"]
    assert (bat.glyph, bat.speed, bat.behaviour) == ("b", 200, "flutter")
    assert "flutter" in registry.behaviours


def test_bats_spawn_in_the_default_game(with_bats):
    from engine.core.play.setup import Setup, new_game

    kinds = set()
    for seed in range(1, 6):
        g = new_game(Setup(seed=seed))
        kinds |= {m.kind for _, m in g.world.query(Monster)}
    assert "bat" in kinds


def test_a_bat_acts_twice_per_player_turn(with_bats):
    g = testing.game_from_map(load_registry(), """
        ###########
        #.........#
        #@.......b#
        #.........#
        ###########
    """)
    bat = next(e for e, m in g.world.query(Monster) if m.kind == "bat")
    turns, cells = [], []
    flutter = g.registry.behaviours["flutter"]

    def spy(game, entity):
        turns.append(entity)
        action = flutter(game, entity)
        cells.append(game.position(entity))
        return action

    g.registry.behaviours["flutter"] = spy
    try:
        testing.press(g, ".")
        assert turns == [bat, bat]
        testing.press(g, ". .")
        assert turns == [bat] * 6
        assert len(set(cells)) > 1  # it moved
    finally:
        g.registry.behaviours["flutter"] = flutter


def test_the_examples_own_tests_pass():
    """The example's tests (examples/undercroft-bats/tests, written with engine.testing) pass, run
    as its author runs them: pytest in the package's folder, this project's conftest not in play."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "examples" / "undercroft-bats"
    env = {**os.environ, "UNDERCROFT_LOAD_PLUGINS": "bats", "ARCADE_HEADLESS": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "14 passed" in done.stdout
