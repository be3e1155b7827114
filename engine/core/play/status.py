"""What the HUD says, as text: the window draws these lines; tests read them from the game.

Each line is a template in the preset's ``messages`` (``status``, ``keys``, ``keys_dead``,
``death_title``, ``death_hint``; an empty death title means no death overlay), filled from
:func:`values`, so a preset can say "Turn 12   HP 8/10   goblins 3" without the window knowing
which game it draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.kinds.messages import HUD_FALLBACK as FALLBACK
from engine.core.kinds.messages import HUD_MESSAGES as DEFAULTS
from engine.core.model.components import Fighter, Inventory, Monster
from engine.core.turn import inventory, verbkeys

if TYPE_CHECKING:
    from engine.core.turn.run import Run


def growth(game: Run) -> tuple[int, int, int]:
    """The player's (level, xp, xp wanted for the next level), from the player's component that
    has whole-number ``level`` and ``xp`` fields (and ``next``), as a growth plugin's ``Experience``
    has; (1, 0, 0) when the player has none (a game without growth)."""
    for component in game.world.components(game.player):
        level, xp = getattr(component, "level", None), getattr(component, "xp", None)
        if isinstance(level, int) and isinstance(xp, int):
            nxt = getattr(component, "next", 0)
            return level, xp, nxt if isinstance(nxt, int) else 0
    return 1, 0, 0


def values(game: Run) -> dict[str, Any]:
    """The fields a HUD template may use (``engine.core.kinds.messages.HUD_FIELDS``), now."""
    fighter = game.world.get(game.player, Fighter)
    inv = game.world.get(game.player, Inventory)
    potions = sum(inventory.count(game, e) for e in inventory.of_use(game, "quaff"))
    return {
        "hp": fighter.hp,
        "max_hp": fighter.max_hp,
        "gold": inv.gold,
        "potions": potions,
        "depth": game.depth,
        "turn": game.turn,
        "run": game.run_number,
        "seed": game.seed,
        "monsters": sum(1 for _ in game.world.query(Monster)),
        "game": game.rules.name,
        **dict(zip(("level", "xp", "xp_next"), growth(game), strict=True)),
        "verbs": verbkeys.line(game.registry, game.rules),
    }


def line(game: Run, key: str) -> str:
    messages = game.rules.messages
    while key not in messages and key in FALLBACK:
        key = FALLBACK[key]
    template = messages[key] if key in messages else DEFAULTS[key]
    return template.format(**values(game))


def hp_low(game: Run) -> bool:
    """HP under a third of max: the HUD shows it in red."""
    fighter = game.world.get(game.player, Fighter)
    return fighter.hp * 3 < fighter.max_hp
