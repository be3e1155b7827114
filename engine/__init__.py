"""Undercroft: a turn-based roguelike engine.

This module is the public surface for plugin authors: the hook marker, the content and level
types, the FOV, generator and pathfinding contracts, actions and the requests they make, rulesets and
systems, and the registry loader. Plugins import from here and from ``engine.kit``, nothing else.
"""

from __future__ import annotations

import os as _os

# numpy's OpenBLAS starts a thread per core as numpy is imported, and they spin for a while: 30-35 ms
# of CPU of every start on two cores (a window's first frame, a headless run). The engine does no
# linear algebra that threads would speed (a palette's 3-vector products), so one thread, unless the
# environment says otherwise. Set before anything imports numpy: every engine module imports this first.
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
del _os

from engine.core.kinds.commands import KeyCommand, Page  # noqa: E402
from engine.core.kinds.content import ContentError, ItemKind, MonsterKind, load_kinds  # noqa: E402
from engine.core.kinds.rules import GameRules, load_rules  # noqa: E402
from engine.core.kinds.statuskinds import StatusKind  # noqa: E402
from engine.core.kinds.tables import LootRow  # noqa: E402
from engine.core.kinds.terrainkinds import TerrainKind  # noqa: E402
from engine.core.kinds.verbs import Verb  # noqa: E402
from engine.core.loading.loader import load_registry  # noqa: E402
from engine.core.model.components import (  # noqa: E402
    Actor,
    Carried,
    Charges,
    Equipped,
    Fighter,
    Inventory,
    Item,
    LeftBehind,
    Monster,
    Player,
    Position,
    Renderable,
    Status,
    Statuses,
)
from engine.core.model.events import (  # noqa: E402
    Blast,
    Bolt,
    Escaped,
    Event,
    GoldFound,
    Hurt,
    KeyPlayed,
    LevelEntered,
    LevelledUp,
    PlayerDied,
    QuitAsked,
    RunStarted,
    Shot,
    Victory,
)
from engine.core.model.requests import ChangeLevel, NewRun, Quit, Request, Won  # noqa: E402
from engine.core.play.setup import generate_level  # noqa: E402
from engine.core.plugin.registry import PluginError, Registry, hears, hookimpl, player_only  # noqa: E402
from engine.core.turn.actions import VETO, Action, ActionResult, Attack, Move, Wait  # noqa: E402
from engine.core.turn.api import GameAPI  # noqa: E402
from engine.core.turn.generate import run_generator  # noqa: E402
from engine.core.turn.item_actions import Throw, UseItem, Wear  # noqa: E402
from engine.core.turn.ruleset import Ruleset  # noqa: E402
from engine.core.turn.systems import Phase, System  # noqa: E402
from engine.core.version import PLUGIN_API  # noqa: E402 - the plugin API version (README: deprecations)
from engine.core.version import VERSION as __version__  # noqa: E402, F401 - the package version
from engine.kit.fov import FovAlgorithm, radius_mask  # noqa: E402
from engine.kit.limits import MAX_MAP_BYTES, MAX_MAP_SIDE  # noqa: E402
from engine.kit.mapgen import FLOOR, STAIRS, WALL, GenContext, GenerationError, Level, Rect  # noqa: E402
from engine.kit.path import UNREACHABLE, Moves, Pathfinder, descend, downhill  # noqa: E402

__all__ = [
    "FLOOR",
    "MAX_MAP_BYTES",
    "MAX_MAP_SIDE",
    "PLUGIN_API",
    "STAIRS",
    "UNREACHABLE",
    "VETO",
    "WALL",
    "Action",
    "ActionResult",
    "Actor",
    "Attack",
    "Blast",
    "Bolt",
    "Carried",
    "Charges",
    "ChangeLevel",
    "ContentError",
    "Equipped",
    "Escaped",
    "Event",
    "Fighter",
    "FovAlgorithm",
    "GameAPI",
    "GameRules",
    "GenContext",
    "GenerationError",
    "GoldFound",
    "Hurt",
    "Inventory",
    "Item",
    "ItemKind",
    "KeyPlayed",
    "LeftBehind",
    "Level",
    "LootRow",
    "KeyCommand",
    "LevelEntered",
    "LevelledUp",
    "Monster",
    "MonsterKind",
    "Move",
    "Moves",
    "NewRun",
    "Page",
    "Pathfinder",
    "Phase",
    "Player",
    "PlayerDied",
    "PluginError",
    "Position",
    "Quit",
    "QuitAsked",
    "Rect",
    "Registry",
    "Renderable",
    "Request",
    "Ruleset",
    "RunStarted",
    "Shot",
    "Status",
    "StatusKind",
    "Statuses",
    "System",
    "Throw",
    "Verb",
    "TerrainKind",
    "Victory",
    "UseItem",
    "Wait",
    "Wear",
    "Won",
    "descend",
    "downhill",
    "generate_level",
    "hears",
    "hookimpl",
    "load_kinds",
    "load_registry",
    "load_rules",
    "player_only",
    "radius_mask",
    "run_generator",
]
