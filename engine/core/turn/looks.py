"""How an entity looks: one recipe per kind of entity, for the game that spawns it and the save
that rebuilds it (looks are not saved: they come from the kinds and the preset)."""

from __future__ import annotations

from engine.core.kinds.content import ItemKind, MonsterKind
from engine.core.kinds.rules import GameRules
from engine.core.model.components import Renderable

PLAYER_COLOR = (255, 255, 255)
# layers: the higher one is drawn on a shared cell (the player over an item it stands on)
ITEM_LAYER, MONSTER_LAYER, PLAYER_LAYER = 0, 1, 2


def player_look(rules: GameRules) -> Renderable:
    p = rules.player
    return Renderable(str(p.get("glyph", "@")), tuple(p.get("color", PLAYER_COLOR)), PLAYER_LAYER)


def monster_look(kind: MonsterKind) -> Renderable:
    return Renderable(kind.glyph, kind.color, MONSTER_LAYER)


def item_look(kind: ItemKind) -> Renderable:
    return Renderable(kind.glyph, kind.color, ITEM_LAYER)
