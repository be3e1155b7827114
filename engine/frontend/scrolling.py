"""A list longer than the rows a panel has for it (a long menu, the help in a short window): the
rows that fit from a first one, with a count of the others above and below, moved by the window's
Up and Down keys. One for each panel that scrolls; what it shows is the panel's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Scroll:
    top: int = 0  # the first row shown
    top_most: int = 0  # the most ``top`` may be: 0 when every row fits

    def window(self, rows: list[Any], room: int) -> tuple[list[Any], str, str]:
        """The rows that fit in ``room`` from :attr:`top` (kept within reach of the last), and the
        lines that count the others above and below ("... 2 above", "... 17 more"; "" for none)."""
        self.top_most = max(0, len(rows) - room)
        self.top = min(self.top, self.top_most)
        shown = rows[self.top:self.top + room]
        below = len(rows) - self.top - len(shown)
        return shown, f"... {self.top} above" if self.top else "", f"... {below} more" if below else ""

    def move(self, step: int) -> bool:
        """Move by ``step`` rows; whether it scrolls at all (a list that fits leaves the keys to
        the game)."""
        if not self.top_most:
            return False
        self.top = max(0, min(self.top_most, self.top + step))
        return True
