"""Game presets: the rules, content and default plugin choices of one game.

A preset is a :class:`GameRules`, registered through ``register_games`` and usually read from a
TOML file in ``content/games/`` with :func:`load_rules`. The engine's turn loop reads every rule it
applies from here; nothing in ``engine/`` names a preset. Its message templates are
engine.core.kinds.messages'; the specs of its own fields, engine.core.kinds.rulespecs'.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from engine.core.kinds import deprecations
from engine.core.kinds.content import ContentError, MonsterKind, Refused, read_toml
from engine.core.kinds.messages import DEFAULT_MESSAGES, Messages, proper_names
from engine.core.kinds.rulespecs import DEFAULT_TILES, LOOK, PLAYER, SIZE, SPAWNS, TILE, MonsterKinds, OrNone
from engine.core.kinds.saying import KEY_KINDS, Message
from engine.core.kinds.schema import (
    Bool,
    Check,
    Choice,
    Int,
    Json,
    List,
    Map,
    NonEmpty,
    Optional,
    SchemaError,
    Spec,
    Str,
    Tuple,
    of,
)
from engine.core.kinds.tables import LOOT, LootTable
from engine.kit import limits


@dataclass(frozen=True, kw_only=True)
class GameRules:
    """Everything that makes one game differ from another.

    Sizes are in cells; ``cell`` is the cell size in pixels for the window and ``hud_rows`` the
    text rows below the map. ``generators`` is a list of ``(min_depth, name)``: the deepest entry
    whose ``min_depth`` is at most the level's depth is used. ``monster_count`` is
    ``(base, per_depth, extra_min, extra_max)``: base + per_depth * depth + a roll in
    extra_min..extra_max monsters per level. ``item_counts`` maps an item kind to the (min, max)
    number placed per level. ``monsters`` limits the monster kinds used (empty: all registered).

    ``monster_table``, when given, replaces the weighted table with threshold rolls: rows of
    ``(min_depth, min_roll, kind)``; a roll of 0..99 takes the last row whose depth and roll it
    reaches ("goblins on a roll of 60+ from depth 2"). ``monster_kinds`` are this preset's own
    kinds, used instead of registered kinds of the same name (a bunyip goblin is not ours).
    ``place_in_rooms`` puts monsters and items on room cells only. ``start_clearance``: on levels
    without a start room, no monster within fewer king-moves than this of the start.
    ``pathfinder`` names the registered pathfinder behaviours use (``--plugin path=NAME`` overrides;
    none: the only one registered, else the first by name). ``ruleset`` names a registered
    ruleset (``register_rulesets``) for what differs in how a turn goes (a wall bump, a touch,
    death, the restart and quit keys, when the view is recomputed); none means the engine's own
    (``engine.Ruleset``). ``default``: the preset played when none is
    chosen. ``tiles``: per terrain (``wall``, ``floor``, ``stairs``), its ``glyph``, ``color`` and
    ``remembered`` colour, for the window. ``key_repeat``: whether a held key keeps acting.

    ``look``: how the window draws the preset, where it recreates another game's screen (every key
    optional): ``window`` its size in pixels at zoom 1, the map centred in it; ``tileset`` the
    registered tileset it opens with (``--tileset`` still wins, F2 still switches); ``checker`` two
    background colours alternating under the map's cells like a board's squares ((x + y) even,
    odd); ``death`` the death screen, ``"band"`` (the map dimmed, a band with the death words and
    the profile's line) or ``"dim"`` (the whole window dimmed, the title alone in its middle);
    ``death_color`` the title's colour; ``warn_low_hp`` (default true) whether the status line
    turns red at low HP; ``walls`` how walls are drawn (``"plain"`` each its glyph, the classic
    look's; ``"facing"`` walls deep in rock dark; ``"lines"`` or ``"double"`` joined with box
    drawing; unset in the lit look: the tileset's rule, see ``engine.frontend.walls``).

    ``max_depth``: the deepest level, which has no stairs down, in a game that keeps its levels
    (none: the stairs go down forever).

    ``loot``: the preset's loot tables by name (``engine.core.kinds.tables.LootTable``: weighted item
    rows scaled by depth, a weight of nothing, a number of rolls). The table ``floor`` is rolled
    when a level is populated, after ``item_counts``; plugins roll the others
    (``GameAPI.loot``: the drops plugin rolls ``drop``, or a monster kind's ``params.drops``, when
    a monster dies). ``params``: plugins' numbers for this preset, one table per plugin
    (``[params.growth]``), read as ``game.rules.params.get("growth", {})``.
    """

    name: Annotated[str, NonEmpty()]
    summary: Annotated[str, Str(200)] = ""
    width: Annotated[int, SIZE] = 80
    height: Annotated[int, SIZE] = 43
    cell: Annotated[int, Int(4, 256)] = 16
    hud_rows: Annotated[int, Int(0, 100)] = 7
    generators: Annotated[tuple[tuple[int, str], ...], List(
        Tuple(Int(1, limits.MAX_DEPTH), NonEmpty(), expected='[min_depth, "generator"]'), lo=1, most=1000,
        expected='a list of [min_depth, "generator"] pairs', as_tuple=True)]
    generator_params: Annotated[dict[str, dict[str, Any]], Map(Map(Json()), expected="a table of tables "
                                                                   "(one per generator)")] = field(default_factory=dict)
    fov: Annotated[str, NonEmpty()]
    fov_radius: Annotated[int | None, OrNone(limits.MAX_MAP_SIDE)] = 8
    player: Annotated[dict[str, Any], PLAYER] = field(default_factory=lambda: {"hp": 20, "attack": 4, "defense": 0})
    monsters: Annotated[tuple[str, ...], List(NonEmpty(), most=10_000, as_tuple=True)] = ()
    monster_count: Annotated[tuple[int, int, int, int], Check(
        Tuple(SPAWNS, Int(0, 1000), SPAWNS, SPAWNS, expected="[base, per_depth, extra_min, extra_max]"),
        lambda v: v[2] <= v[3], "[base, per_depth, extra_min, extra_max] with extra_min <= extra_max")] = (3, 1, 0, 2)
    monster_free_start_room: Annotated[bool, Bool()] = True
    item_counts: Annotated[dict[str, tuple[int, int]], Map(Check(
        Tuple(SPAWNS, SPAWNS, expected="[min, max]"), lambda v: v[0] <= v[1], "[min, max] with min <= max"),
        expected="a table of item = [min, max]")] = field(default_factory=dict)
    movement: Annotated[int, Choice(4, 8)] = 8
    pathfinder: Annotated[str | None, Optional(NonEmpty())] = None
    ruleset: Annotated[str | None, Optional(NonEmpty())] = None
    default: Annotated[bool, Bool()] = False
    keys: Annotated[dict[str, str], Map(Str(100), expected="a table of strings")] = field(default_factory=dict)
    messages: Annotated[dict[str, str], Messages()] = field(default_factory=dict)
    log_size: Annotated[int, Int(0, limits.MAX_MESSAGES)] = 0
    seed: Annotated[int | None, OrNone(limits.MAX_SEED)] = None
    monster_table: Annotated[tuple[tuple[int, int, str], ...], List(
        Tuple(Int(1, limits.MAX_DEPTH), Int(0, 99), NonEmpty(), expected='[min_depth, min_roll 0..99, "monster"]'),
        most=1000, expected='a list of [min_depth, min_roll 0..99, "monster"] rows', as_tuple=True)] = ()
    monster_kinds: Annotated[dict[str, MonsterKind], Map(Spec())] = field(default_factory=dict)
    place_in_rooms: Annotated[bool, Bool()] = False
    start_clearance: Annotated[int, Int(0, limits.MAX_MAP_SIDE)] = 4
    tiles: Annotated[dict[str, dict[str, Any]], Map(TILE, key=Choice(*DEFAULT_TILES),
                                                  expected="a table of wall/floor/stairs tables")] = field(
        default_factory=dict)
    key_repeat: Annotated[bool, Bool()] = True
    max_depth: Annotated[int | None, OrNone(limits.MAX_DEPTH)] = None
    look: Annotated[dict[str, Any], LOOK] = field(default_factory=dict)
    loot: Annotated[dict[str, LootTable], Map(LOOT, most=1000, expected="a table of loot tables")] = field(
        default_factory=dict)
    params: Annotated[dict[str, dict[str, Any]], Map(Map(Json()), most=1000, expected="a table of tables (one per "
                                                                                      "plugin)")] = field(
        default_factory=dict)

    def generator_for(self, depth: int) -> str:
        """The generator of the deepest entry whose ``min_depth`` is at most ``depth`` (the
        shallowest entry above the first one's depth), whatever order the entries are listed in."""
        return max((entry for entry in self.generators if entry[0] <= depth), default=min(self.generators))[1]

    def tile(self, terrain: str) -> dict[str, Any]:
        """How a terrain looks: glyph, color, remembered colour (the preset's over the defaults)."""
        return {**DEFAULT_TILES[terrain], **self.tiles.get(terrain, {})}

    def message(self, key: str, **values: Any) -> str:
        template = self.messages.get(key, DEFAULT_MESSAGES.get(key, key))
        template = proper_names(template, values)  # "Vorgath the Warden hits you", not "The Vorgath..."
        return Message(template.format(**values), KEY_KINDS.get(key, ""))  # its kind: engine.core.kinds.saying


def _read_old_keywords(init: Callable[..., None]) -> Callable[..., None]:
    """GameRules(...) also takes plugin API 1's keywords (``wall_bump_costs_turn=True``, no
    ``fov``...) for one more API, each said in one line (:mod:`engine.core.kinds.deprecations`)."""
    @functools.wraps(init)
    def __init__(self: GameRules, **values: Any) -> None:
        if not values.keys() >= deprecations.DEFAULTED.keys() or values.keys() & deprecations.MOVED.keys():
            values = deprecations.rules_data(values, f"GameRules({values.get('name', '')!r}): ")
        init(self, **values)
    return __init__


GameRules.__init__ = _read_old_keywords(GameRules.__init__)  # type: ignore[method-assign]


# What each field of GameRules means, one entry per field (docs/make_reference.py renders them as
# a table with each field's type, default and valid values; a test fails when a field has none).
FIELDS: dict[str, str] = {
    "name": "The preset's name: `--game NAME` plays it.",
    "summary": "One line for `python -m engine plugins` and the title screen.",
    "width": "The map's width in cells.",
    "height": "The map's height in cells.",
    "cell": "The cell size in pixels in the window.",
    "hud_rows": "Text rows below the map (the status line, the message log).",
    "generators": "`(min_depth, generator)` pairs: each depth uses the deepest entry whose `min_depth` it has "
                  "reached.",
    "generator_params": "Params per generator name (`{\"caves\": {\"fill\": 0.4}}`), each of the JSON kind of "
                        "its default.",
    "fov": "The registered FOV algorithm (`--plugin fov=NAME` overrides).",
    "fov_radius": "The player's light radius in cells (None: unlimited), in the FOV's own light shape.",
    "player": "The player's `hp`, `attack` and `defense`.",
    "monsters": "The monster kinds the spawn table draws from. Empty: every registered kind, the installed "
                "plugins' included (the default game takes them in on purpose); list names to keep a preset "
                "to its own.",
    "monster_count": "`(base, per_depth, extra_min, extra_max)`: base + per_depth * depth + a roll in "
                     "extra_min..extra_max monsters per level.",
    "monster_free_start_room": "No monster is placed in the room that holds the start (on a level without "
                               "rooms: within `start_clearance` king-moves of it).",
    "item_counts": "Item kind -> `(min, max)` placed per level (only these kinds are placed).",
    "movement": "4 or 8: the ways creatures step (and what `adjacent` and pathfinding mean).",
    "pathfinder": "The registered pathfinder behaviours use (None: the only one, else the first by name).",
    "ruleset": "The registered ruleset for what differs in how a turn goes (None: the engine's own).",
    "default": "Played when no `--game` is given.",
    "keys": "Key token -> command name, over the default keys.",
    "messages": "Message key -> template (`{depth}`, the HUD fields...), over the default messages.",
    "log_size": "Messages kept in the log (0: the engine's limit).",
    "seed": "A fixed seed for every run of the preset (None: `--seed`, else a fresh one).",
    "monster_table": "`(min_depth, min_roll, monster)` rows replacing the weighted table: a roll of 0..99 "
                     "takes the last row whose depth and roll it reaches.",
    "monster_kinds": "The preset's own monster kinds, used instead of registered kinds of the same name.",
    "place_in_rooms": "Monsters and items go on room cells only (a level's `rooms`), never in corridors.",
    "start_clearance": "On a level without rooms, no monster within fewer king-moves than this of the start.",
    "tiles": "Per terrain (`wall`, `floor`, `stairs`): its `glyph`, `color` and `remembered` colour.",
    "key_repeat": "Whether a held key keeps acting in the window.",
    "max_depth": "The deepest level, without stairs down, in a game that keeps its levels (None: no end).",
    "loot": "Loot tables by name (`[loot.floor]`, `[loot.drop]`...): weighted item rows with depth ranges and a "
            "`nothing` weight, rolled `rolls = [min, max]` times; `floor` is rolled on each new level, `drop` "
            "(or a monster kind's `params.drops`) when a monster dies (`GameAPI.loot`).",
    "params": "Plugins' numbers for this preset, one table per plugin (`[params.growth]`), read as "
              "`game.rules.params.get(\"growth\", {})`.",
    "look": "How the window draws the preset: `window`, `tileset`, `checker`, `death`, `death_color`, "
            "`warn_low_hp`, `walls` (see the class doc).",
}


SPEC = of(GameRules, overrides={"monster_kinds": MonsterKinds()})


def validate(rules: GameRules) -> None:
    """Hold a preset built in Python (a plugin's ``GameRules(...)``) to the checks a TOML one gets."""
    data = {f: getattr(rules, f) for f in rules.__dataclass_fields__}
    data["monster_kinds"] = {name: {f: getattr(k, f) for f in k.__dataclass_fields__ if f != "name"}
                             if isinstance(k, MonsterKind) else k for name, k in rules.monster_kinds.items()}
    data["loot"] = {name: dataclasses.asdict(t) if isinstance(t, LootTable) else t for name, t in rules.loot.items()}
    try:
        SPEC.check(data, f"game {rules.name!r}: ")
    except SchemaError as e:
        raise ContentError(str(e)) from None


def load_rules(path: Path | str) -> GameRules:
    """Read a preset from TOML; every key maps onto a field of GameRules, checked as it says. A key
    a previous plugin API had is read with a deprecation line (:mod:`engine.core.kinds.deprecations`).
    While a plugin registers, a bad file is a :class:`~engine.core.kinds.content.Refused` in its place
    (``register`` skips it, with its reason); otherwise it raises ContentError."""
    path = Path(path)
    try:
        data = read_toml(path)
        rules: GameRules = SPEC.check(deprecations.rules_data(data, f"{path}: ") if isinstance(data, dict) else data,
                                      f"{path}: ")
        return rules
    except (ContentError, SchemaError, ValueError) as e:
        if deprecations.lenient():
            return Refused(path.stem, str(e))  # type: ignore[return-value]
        raise ContentError(str(e)) from None
