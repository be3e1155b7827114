"""``--map`` reads what a player sees: ``<`` (the start on the stairs up), every registered kind's
glyph (the preset's own kinds included), and the glyphs the preset draws its terrain with."""

from __future__ import annotations

import dataclasses
import types

import pytest

from engine import MonsterKind, hookimpl, testing
from engine.core.errors import UsageError


def test_a_start_on_the_stairs_up(registry):
    game = testing.game_from_map(registry, """
        #######
        #<..>.#
        #######
    """)
    state = testing.press(game, "")
    assert (state["player"]["x"], state["player"]["y"]) == (1, 1) and state["map"][1] == "#<..>.#"
    assert game.api.upstairs() == (1, 1)  # the default game keeps its levels: the start is the stairs up
    classic = testing.game_from_map(registry, "#####\n#<.>#\n#####", game="rogue-sdl")
    assert testing.press(classic, "")["player"]["x"] == 1  # a preset without stairs up: the start alone
    with pytest.raises(UsageError, match=r":2:4: a second start '<' \(the map has one: '@', or '<' on the stairs "
                                         r"up\)$"):
        testing.game_from_map(registry, "######\n#@.<>#\n######")


def test_the_presets_own_glyphs_read_back(registry):
    """A preset that draws walls as blocks and its own monster as 'ü': a map drawn as its window
    draws it reads back; the kinds' glyphs and the fixed characters keep their meaning."""
    tiles = {"wall": {"glyph": "\u2588", "color": (165, 160, 175), "remembered": (82, 81, 84)},
             "floor": {"glyph": "\u00b7", "color": (95, 95, 105), "remembered": (48, 48, 50)},
             "stairs": {"glyph": "r", "color": (40, 190, 255), "remembered": (51, 85, 99)}}  # 'r' is the rat's
    uruk = MonsterKind(name="uruk", glyph="\u00fc", color=(200, 60, 60), hp=4, attack=2)
    blocks = dataclasses.replace(registry.games["undercroft"], name="blocks", default=False, tiles=tiles,
                                 monster_kinds={"uruk": uruk})
    mine = testing.load_plugin(types.SimpleNamespace(register_games=hookimpl(lambda register: register(blocks))))
    game = testing.game_from_map(mine, """
        \u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588
        \u2588@\u00b7\u00b7\u00fcr>\u2588
        \u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588
    """, game="blocks")
    state = testing.press(game, "")
    assert state["map"][0] == "#" * 8 and state["map"][1][1:4] == "<.." and state["map"][1][6] == ">"
    assert sorted((m["kind"], m["x"]) for m in state["monsters"]) == [("rat", 5), ("uruk", 4)]
    with pytest.raises(UsageError, match=r"unknown character '\u00b7' \(valid: "):
        testing.game_from_map(mine, "#####\n#@\u00b7>#\n#####")  # the default game draws floors with '.'
