"""Words a player uses: the title's whole preset summaries and the New run of
the saved run's preset, and an item worn that says each of its stats once. (The help screen's
words: tests/test_frontend.py.)"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from engine.cli.main import main
from engine.core.play import commands
from engine.core.play.setup import Setup, new_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_worn_item_says_each_stat_once_in_one_wording(registry):
    game = new_game(Setup(seed=1), registry)
    worn = [kind for kind in registry.items.values() if kind.use == "wear"]
    assert worn
    for kind in worn:
        item = game.give(kind.name)
        said = commands.describe_item(game, item)
        for stat in ("attack", "defense"):
            value = getattr(kind, stat)
            assert len(re.findall(rf"\b{stat}\b", said)) == (1 if value else 0), said
            if value:
                assert f"{stat} {value:+d}" in said, said
        assert f"Slot: {kind.slot}." in said and kind.description in said


def test_the_title_wraps_whole_summaries_and_a_click_on_any_line_of_one_picks_it():
    pytest.importorskip("arcade")
    from engine.frontend.title import SUMMARY_CHARS, Title, menu

    summary = "A long summary of a preset that goes on and on, well past the width of one line of the title."
    title = Title(presets=[("short", "One line."), ("long", summary)], default="short")
    rows = menu(title)
    texts = [line[0] for line, _ in rows]
    assert not any(text.endswith("...") for text in texts)
    long_rows = [line[0] for line, key in rows if key == "2"]
    assert len(long_rows) > 1 and long_rows[0].startswith("2  long ")
    assert " ".join(" ".join(row.split()) for row in long_rows) == f"2 long {summary}"
    assert all(len(row) <= len("2  short  ") + SUMMARY_CHARS for row in long_rows)
    assert [key for _, key in rows if key is not None] == ["n", "1", "2", "2", "esc"]


FROST = """
from engine import GameRules, hookimpl

@hookimpl
def register_games(register):
    register(GameRules(name="frost", generators=((1, "bsp"),), fov="symmetric", monster_count=(0, 0, 0, 0)))
"""


def test_new_run_offers_the_saved_runs_preset(home, tmp_path):
    """A saved run of another preset (one that saves: a third party's) makes New run play that preset."""
    pytest.importorskip("arcade")
    from engine.frontend.title import Title, lines, new_run_preset

    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "frost.py").write_text(FROST)
    assert main(["--headless", "--plugins-dir", str(plugins), "--game", "frost", "--seed", "3", "--keys", "l"]) == 0
    from engine.persist import keeper

    saved = keeper.saved_run()
    games = ["undercroft", "bunyip", "rogue-sdl", "lesson28", "frost"]
    assert new_run_preset(saved, games, "undercroft") == "frost"
    assert new_run_preset(None, games, "undercroft") == "undercroft"
    assert new_run_preset({"game": "gone"}, games, "undercroft") == "undercroft"
    text = [line for line, _ in lines(Title(saved=saved, default=new_run_preset(saved, games, "undercroft")))]
    assert "n  New run: frost" in text
    # the whole window path: N on the title screen plays a new run of frost
    env = {**os.environ, "UNDERCROFT_HOME": str(home), "ARCADE_HEADLESS": "1"}
    window = subprocess.run([sys.executable, "-m", "engine", "--plugins-dir", str(plugins), "--seconds", "0.2",
                             "--keys", "n l", "--dump", "json"],
                            capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert window.returncode == 0, window.stderr
    dumped = json.loads(window.stdout)
    assert dumped["game"] == "frost" and dumped["seed"] != 3
