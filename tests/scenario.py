"""Scenario helpers: build a game from an ASCII picture, press keys, look at the state."""

from __future__ import annotations

import textwrap
from pathlib import Path

from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import snapshot


def game_from(picture: str, tmp_path: Path, *, game: str | None = None, plugins=(), seed: int = 1):
    path = tmp_path / "map.txt"
    path.write_text(textwrap.dedent(picture).strip("\n") + "\n")
    return new_game(Setup(game=game, seed=seed, plugins=list(plugins), map_file=str(path)))


def press(game, keys: str) -> dict:
    for token in keys.split():
        Session.of(game).press(token)
    return snapshot(game)
