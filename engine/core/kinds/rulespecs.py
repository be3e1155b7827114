"""The specs of a preset's fields that engine.core.kinds.schema's common ones do not cover: a number or
none, the player, the tiles and the window's look, and the preset's own monster kinds.

:class:`engine.core.kinds.rules.GameRules` names them in its fields' annotations; the schema checks a
preset with them when it is read (``load_rules``) or built in Python (``validate``).
"""

from __future__ import annotations

from typing import Any

from engine.core.kinds.content import MonsterKind
from engine.core.kinds.schema import Bool, Char, Choice, Color, Int, Json, Map, NonEmpty, Obj, Spec, Tuple, fail, of
from engine.kit import limits
from engine.kit.walls import RULES as WALL_RULES

DEFAULT_TILES = {
    "wall": {"glyph": "#", "color": (150, 140, 130), "remembered": (60, 56, 52)},
    "floor": {"glyph": ".", "color": (110, 110, 120), "remembered": (44, 44, 52)},
    "stairs": {"glyph": ">", "color": (240, 220, 80), "remembered": (110, 100, 40)},
    "upstairs": {"glyph": "<", "color": (150, 230, 255), "remembered": (60, 95, 110)},
}


class OrNone(Spec):
    """A whole number in ``0..hi``, or none: TOML has no null, so ``-1`` (or ``false``) means none."""

    def __init__(self, hi: int) -> None:
        self.int = Int(0, hi, "a whole number >= 0 (or -1 for none)")
        self.expected = f"a whole number in 0..{hi} (or -1 for none)"

    def check(self, value: Any, where: str) -> int | None:
        if value is None or value is False or (value == -1 and not isinstance(value, bool)):
            return None
        return self.int.check(value, where)


SIZE = Int(1, limits.MAX_MAP_SIDE)
SPAWNS = Int(0, limits.MAX_SPAWNS)
PLAYER = Obj({"hp": Int(1, limits.MAX_STAT), "attack": Int(0, limits.MAX_STAT), "defense": Int(0, limits.MAX_STAT),
              "speed": Int(1, limits.MAX_SPEED), "glyph": Char(), "color": Color()},
             defaults={"defense": 0, "speed": 100, "glyph": "@", "color": (255, 255, 255)})
TILE = Obj({"glyph": Char(), "color": Color(), "remembered": Color()},
           defaults={"glyph": True, "color": True, "remembered": True})
# How the window draws a preset that recreates another game's screen (every key optional; see
# GameRules.look). A window of 64..16384 px a side: the window's first size caps it to the screen.
LOOK = Obj({"window": Tuple(Int(64, 16_384), Int(64, 16_384), expected="[width, height] in pixels, each 64..16384"),
            "tileset": NonEmpty(),
            "checker": Tuple(Color(), Color(), expected="[[r, g, b], [r, g, b]] with each 0..255"),
            "death": Choice("band", "dim"),
            "death_color": Color(),
            "warn_low_hp": Bool(),
            "walls": Choice(*WALL_RULES)},
           defaults=dict.fromkeys(("window", "tileset", "checker", "death", "death_color", "warn_low_hp", "walls"),
                                  True))


class MonsterKinds(Spec):
    """A preset's own monster kinds: a table of monster tables, each named by its key."""

    expected = "a table of monster tables"

    def check(self, value: Any, where: str) -> dict[str, MonsterKind]:
        table = Map(Json()).check(value, where)
        spec = of(MonsterKind)
        out = {}
        for name, row in table.items():
            if not isinstance(row, dict):
                raise fail(f"{where}.{name}", "a monster table", row)
            out[name] = spec.check({**row, "name": name}, f"{where}.{name}.")
        return out
