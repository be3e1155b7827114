"""The title screen: shown when a saved run exists, it offers Continue or New run.

Looking at the save changes nothing. The window claims the save before it reads it, so no other
window can resume it meanwhile; when another window plays it (or the folder cannot be written) the
screen says so (``saved["blocked"]``) and offers only a new run, which is not saved. The window
builds the chosen game through ``engine.persist.keeper.open_game``.
"""

from __future__ import annotations

from typing import Any

import arcade

from engine.frontend.atlas import FONT_NAME

CHOICES = {"c": "continue", "C": "continue", "enter": "continue", "n": "new", "N": "new"}
BG = (8, 8, 14, 255)


def lines(saved: dict[str, Any]) -> list[str]:
    run = (f"A saved run: {saved['game']}, depth {saved['depth']}, turn {saved['turn']}, seed {saved['seed']}"
           if "game" in saved else "A saved run")
    if saved.get("blocked"):
        return ["UNDERCROFT", "", run, "", one_line(saved["blocked"]), "", "N: new run (not saved)     Esc: quit"]
    return ["UNDERCROFT", "", run, "", "C or Enter: continue     N: new run     Esc: quit"]


def one_line(line: str, width: int = 100) -> str:
    """A long reason (it names paths) cut to one screen line."""
    line = line[:1].upper() + line[1:]
    return line if len(line) <= width else line[: width - 3] + "..."


class TitleScreen:
    def __init__(self, saved: dict[str, Any], row_px: int) -> None:
        self.saved = saved
        size = max(8.0, row_px * 0.6)
        self.texts = [arcade.Text(line, 0, 0, (235, 235, 235, 255), size * (2 if i == 0 else 1),
                                  font_name=FONT_NAME, anchor_x="center") for i, line in enumerate(lines(saved))]
        self.row_px = row_px

    def choice(self, token: str) -> str | None:
        """What a key chooses: "continue", "new", "quit", or None (not a title key)."""
        if token == "esc":
            return "quit"
        choice = CHOICES.get(token)
        return None if choice == "continue" and self.saved.get("blocked") else choice

    def draw(self, width: int, height: int) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, width, height, BG)
        step = self.row_px * 1.5
        top = height / 2 + step * len(self.texts) / 2
        for i, text in enumerate(self.texts):
            text.position = (width / 2, top - i * step)
            text.draw()
