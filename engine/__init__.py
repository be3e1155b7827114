"""Undercroft: a turn-based roguelike engine.

This module is the public surface for plugin authors: the hook marker, the content and level
types, the FOV, generator and pathfinding contracts, actions, and the registry loader.
"""

from __future__ import annotations

__version__ = "0.1.0"

from engine.core.actions import Action, ActionResult, Attack, Move, Wait  # noqa: E402
from engine.core.content import ContentError, ItemKind, MonsterKind, load_kinds  # noqa: E402
from engine.core.generate import generate_level, run_generator  # noqa: E402
from engine.core.registry import PluginError, Registry, hookimpl, load_registry  # noqa: E402
from engine.core.rules import GameRules, load_rules  # noqa: E402
from engine.kit.fov import FovAlgorithm, radius_mask  # noqa: E402
from engine.kit.mapgen import FLOOR, STAIRS, WALL, GenContext, GenerationError, Level, Rect  # noqa: E402
from engine.kit.path import UNREACHABLE, Moves, Pathfinder, descend, downhill  # noqa: E402

__all__ = [
    "FLOOR",
    "STAIRS",
    "UNREACHABLE",
    "WALL",
    "Action",
    "ActionResult",
    "Attack",
    "ContentError",
    "FovAlgorithm",
    "GameRules",
    "GenContext",
    "GenerationError",
    "ItemKind",
    "Level",
    "MonsterKind",
    "Move",
    "Moves",
    "Pathfinder",
    "PluginError",
    "Rect",
    "Registry",
    "Wait",
    "descend",
    "downhill",
    "generate_level",
    "hookimpl",
    "load_kinds",
    "load_registry",
    "load_rules",
    "radius_mask",
    "run_generator",
]
