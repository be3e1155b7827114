"""Sizes: the window's first size, and how the framebuffer splits into map, sidebar and text rows.

The window opens at the size it last had (the settings' ``window_size``, sidebar look only), else
at its natural size (the whole map at the zoom, plus the sidebar and log, or the preset's HUD
rows; in the sidebar look at least :data:`SMALLEST_NATURAL`, so that a small map's dialogs have
room beside its board), never larger than :data:`SCREEN_SHARE` of the screen. A map larger than that is shown
through the camera. The classic presets open at their own natural size, as they always did, or at
the size their ``look`` gives (``window``: the source game's window, times the zoom), the map then
centred in the whole window, with as much room above it as the text rows take below.

Text rows are ``HUD_ROW_PX`` window units tall at zoom 1 (at most the cell size in the classic
look, as before), times the zoom: zoom scales map and text together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.frontend.compose import WindowStyle, look_for

if TYPE_CHECKING:
    from engine.core.kinds.rules import GameRules
    from engine.frontend.settings import Settings

HUD_ROW_PX = 20  # the tallest text row at zoom 1, in window units
SIDEBAR_ROWS = 16  # the sidebar's width, in text rows (~30 characters of the HUD font)
SCREEN_SHARE = 0.9  # the largest first window, as a share of the screen each way
FALLBACK_SCREEN = (1422, 889)  # when the screen cannot be asked: 1280x800 at SCREEN_SHARE
SMALLEST_NATURAL = (800, 480)  # the sidebar look's smallest first window at zoom 1, in window units
Rect = tuple[int, int, int, int]


@dataclass(frozen=True)
class Plan:
    map: Rect
    sidebar: Rect  # (0, 0, 0, 0) in the classic look
    row_px: int
    hud_rows: int  # the classic HUD's rows, or the log's (messages and the keys line)


def row_px(rules: GameRules, look: WindowStyle, zoom: int) -> int:
    base = HUD_ROW_PX if look.sidebar else min(max(4, int(rules.cell)), HUD_ROW_PX)
    return base * zoom


def text_rows(rules: GameRules, look: WindowStyle) -> int:
    """The classic HUD keeps the preset's rows; the log gets them less the status line, which
    moved to the sidebar (at least 3: two messages and the keys)."""
    rows = max(3, int(rules.hud_rows))
    return max(3, rows - 1) if look.sidebar else rows


def plan(rules: GameRules, look: WindowStyle, framebuffer: tuple[int, int], zoom: int) -> Plan:
    """Split a framebuffer of (width, height) pixels at ``zoom`` (framebuffer pixels per cell pixel)."""
    fw, fh = framebuffer
    row = row_px(rules, look, zoom)
    rows = max(2, min(text_rows(rules, look), fh // 2 // row))  # a short window: fewer log lines
    text_h = rows * row
    if not look.sidebar:
        top = text_h if look.window is not None else 0  # a window of its own: the map in its middle
        return Plan((0, text_h, fw, max(1, fh - text_h - top)), (0, 0, 0, 0), row, rows)
    side_w = min(SIDEBAR_ROWS * row, fw // 2)
    return Plan((0, text_h, max(1, fw - side_w), max(1, fh - text_h)), (fw - side_w, 0, side_w, fh), row, rows)


def natural_size(rules: GameRules, cell: tuple[int, int], zoom: int) -> tuple[int, int]:
    """The whole map at ``zoom`` and the text around it, in window units."""
    look = look_for(rules)
    if look.window is not None:
        return look.window[0] * zoom, look.window[1] * zoom
    row = row_px(rules, look, zoom)
    width, height = rules.width * cell[0] * zoom, rules.height * cell[1] * zoom
    height += text_rows(rules, look) * row
    if look.sidebar:
        width += SIDEBAR_ROWS * row
        width, height = max(width, SMALLEST_NATURAL[0] * zoom), max(height, SMALLEST_NATURAL[1] * zoom)
    return width, height


def screen_size() -> tuple[int, int]:
    """The default screen's size in window units (a headless display reports one too)."""
    try:
        import pyglet

        screen = pyglet.display.get_display().get_default_screen()
        return int(screen.width), int(screen.height)
    except Exception:  # no display to ask: a 1280x800 window
        return FALLBACK_SCREEN


def initial_size(rules: GameRules, cell: tuple[int, int], zoom: int, settings: Settings) -> tuple[int, int]:
    """The window's first size (see the module's docstring)."""
    sw, sh = screen_size()
    cap = int(sw * SCREEN_SHARE), int(sh * SCREEN_SHARE)
    remembered = settings["window_size"]
    width, height = remembered if (remembered and look_for(rules).sidebar) else natural_size(rules, cell, zoom)
    return max(64, min(cap[0], int(width))), max(64, min(cap[1], int(height)))


def minimum(cell: tuple[int, int], row: int, look: WindowStyle) -> tuple[int, int]:
    """The smallest window worth drawing: a few cells, and the sidebar beside them."""
    width = cell[0] * 8 + (SIDEBAR_ROWS * row // 2 if look.sidebar else 0)
    return max(64, width), max(64, cell[1] * 4 + 3 * row)
