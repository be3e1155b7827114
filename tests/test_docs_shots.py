"""docs/make_shots.py, the README's pictures: its key-finding still plays the games it shoots (it
reads the engine's API, and once stopped on a renamed attribute without a test noticing). The
pictures themselves are the golden scenes' (test_pictures) and --shot's (test_cli)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

MAKE_SHOTS = Path(__file__).resolve().parent.parent / "docs" / "make_shots.py"


@pytest.fixture(scope="module")
def make_shots():
    spec = importlib.util.spec_from_file_location("make_shots", MAKE_SHOTS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_lesson28_capture_is_found(make_shots):
    keys = make_shots.caught(2)
    assert keys and set(keys) <= {"up", "down", "left", "right"}


def test_the_walks_and_the_death_hunts_play(make_shots):
    assert len(make_shots.explore("rogue-sdl", 5, "wasd", 20)) == 20
    keys = make_shots.hunt("rogue-sdl", 5, "wasd", ".")  # ends in the player's death, or says why not
    assert keys and set(keys) <= {"w", "a", "s", "d", "."}  # moves, the stairs, a menu's first answer (a)
