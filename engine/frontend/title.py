"""The title screen: Continue (when a run is saved), New run, and a new run of any preset.

New run plays the saved run's preset when there is a saved run (a bunyip save: a new bunyip
run), else the one the command line names or the default (:func:`new_run_preset`). Each preset
is listed with its whole summary, wrapped under itself.

A window opened with nothing asked on the command line shows it. Looking at the save changes
nothing. The window claims the save before it reads it, so no other window can resume it
meanwhile; when another window plays it (or the folder cannot be written) the screen says so
(``saved["blocked"]``) and offers only new runs, which are not saved. The window builds the chosen
game through ``engine.persist.keeper.open_game`` (see :func:`engine.frontend.launch.run_window`):
the choice is ``"continue"``, ``"new"`` (the preset of the command line, else the default one) or
``"game:NAME"`` (a new run of that preset).

Behind the title the window holds an inert game (``engine.core.play.setup.prepare``: not started, no
level), which only gives it a preset to size itself by.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import arcade

from engine.frontend.panel import TextBox, wrap

BG = (8, 8, 14, 255)
TITLE = (240, 210, 120)
TEXT = (225, 225, 225)
DIM = (140, 150, 170)
WARN = (235, 120, 90)
SUMMARY_CHARS = 60  # a preset's summary, wrapped to lines of this many characters


@dataclass
class Title:
    """What the title screen offers: the saved run (its summary; ``blocked`` when it cannot be
    resumed), the presets as (name, summary), and the preset a new run plays."""

    saved: dict[str, Any] | None = None
    presets: list[tuple[str, str]] = field(default_factory=list)
    default: str = ""


def one_line(line: str, width: int = 100) -> str:
    """A long reason (it names paths) cut to one screen line."""
    line = line[:1].upper() + line[1:]
    return line if len(line) <= width else line[: width - 3] + "..."


def can_continue(title: Title) -> bool:
    return title.saved is not None and not title.saved.get("blocked")


def new_run_preset(saved: dict[str, Any] | None, presets: list[str], fallback: str) -> str:
    """The preset New run plays: the saved run's, when there is one of a registered preset, else
    ``fallback`` (the command line's, or the default)."""
    game = (saved or {}).get("game")
    return game if game in presets else fallback


def menu(title: Title) -> list[tuple[tuple, str | None]]:
    """The menu's lines, ((text, colour), the key a click on it presses), top down."""
    saved = title.saved
    out: list[tuple[tuple, str | None]] = []
    if saved is not None:
        run = (f"{saved['game']}, depth {saved['depth']}, turn {saved['turn']}, seed {saved['seed']}"
               if "game" in saved else "a saved run")
        if saved.get("blocked"):
            out += [((f"   A saved run: {run}", DIM), None), ((f"   {one_line(saved['blocked'])}", WARN), None),
                    (("", TEXT), None)]
        else:
            out.append(((f"c  Continue: {run}", TEXT), "c"))
    unsaved = " (not saved)" if saved is not None and saved.get("blocked") else ""
    out.append(((f"n  New run{': ' + title.default if title.default else ''}{unsaved}", TEXT), "n"))
    if title.presets:
        out += [(("", TEXT), None), (("   Or a new run of a preset:", DIM), None)]
        width = max(len(name) for name, _ in title.presets)
        for i, (name, summary) in enumerate(title.presets[:9]):
            first, *rest = wrap(summary, SUMMARY_CHARS) or [""]
            out.append(((f"{i + 1}  {name:<{width}}  {first}", TEXT), str(i + 1)))
            out += [((f"{'':<{width + 5}}{more}", TEXT), str(i + 1)) for more in rest]
    out += [(("", TEXT), None), (("Esc  Quit", DIM), "esc")]
    return out


def lines(title: Title) -> list[tuple]:
    """The menu's lines, (text, colour), top down."""
    return [line for line, _ in menu(title)]


class TitleScreen:
    def __init__(self, title: Title | dict[str, Any], row_px: int, font_size: float | None = None) -> None:
        self.title = title if isinstance(title, Title) else Title(saved=title)
        size = font_size or max(8.0, row_px * 0.6)
        self.head = TextBox(row_px, size)
        self.head.fill = self.head.border = None
        self.head.show([("UNDERCROFT", TITLE, 2.5), ("a turn-based roguelike", DIM)], spacing=1.4, center=True)
        self.menu = TextBox(row_px, size)
        self.keys = [key for _, key in menu(self.title)]
        self.menu.show(lines(self.title), spacing=1.3)
        self.row_px = row_px

    @property
    def saved(self) -> dict[str, Any] | None:
        return self.title.saved

    def choice(self, token: str) -> str | None:
        """What a key chooses: "continue", "new", "game:NAME", "quit", or None (not a title key)."""
        if token == "esc":
            return "quit"
        if token in ("c", "C"):
            return "continue" if can_continue(self.title) else None
        if token == "enter":
            return "continue" if can_continue(self.title) else "new"
        if token in ("n", "N"):
            return "new"
        if token.isdigit() and 1 <= int(token) <= min(9, len(self.title.presets)):
            return f"game:{self.title.presets[int(token) - 1][0]}"
        return None

    def strings(self) -> list[str]:
        return self.head.strings() + self.menu.strings()

    def key_at(self, px: float, py: float) -> str | None:
        """The key a click at framebuffer point (px, py) presses (a preset's wrapped summary
        line is its digit's), or None."""
        line = self.menu.row_at(px, py)
        return self.keys[line] if line is not None and line < len(self.keys) else None

    def draw(self, width: int, height: int) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, width, height, BG)
        head_w, head_h = self.head.size()
        menu_w, menu_h = self.menu.size()
        gap = self.row_px
        top = (height + head_h + gap + menu_h) // 2
        self.head.place((width - head_w) // 2, top - head_h, head_w, head_h)
        self.menu.place(max(0, (width - menu_w) // 2), top - head_h - gap - menu_h)
        self.head.draw()
        self.menu.draw()
