"""Game presets: the rules, content and default plugin choices of one game.

A preset is a :class:`GameRules`, registered through ``register_games`` and usually read from a
TOML file in ``content/games/`` with :func:`load_rules`. The engine's turn loop reads every rule it
applies from here; nothing in ``engine/`` names a preset.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.content import ContentError, read_toml

DEFAULT_MESSAGES = {
    "welcome": "Welcome to the Undercroft. Find the stairs down.",
    "player_hit": "You hit the {target} for {damage}.",
    "player_kill": "You kill the {target}!",
    "monster_hit": "The {attacker} hits you for {damage}.",
    "monster_kill": "The {attacker} kills you.",
    "monster_hit_monster": "The {attacker} hits the {target} for {damage}.",
    "die": "You die.",
    "wall": "",
    "on_stairs": "There are stairs down here. Press > to descend.",
    "no_stairs": "There are no stairs here.",
    "descend": "You descend to depth {depth}.",
    "pickup_gold": "You pick up {amount} gold.",
    "pickup": "You pick up the {item}.",
    "drink": "You drink the {item} and feel better.",
    "no_potion": "You have no potions.",
    "new_run": "A new run begins.",
    "exit": "You escape!",
}

DEFAULT_TILES = {
    "wall": {"glyph": "#", "color": (150, 140, 130), "remembered": (60, 56, 52)},
    "floor": {"glyph": ".", "color": (110, 110, 120), "remembered": (44, 44, 52)},
    "stairs": {"glyph": ">", "color": (240, 220, 80), "remembered": (110, 100, 40)},
}


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
    ``ruleset`` names a registered ruleset (``register_rulesets``) for what differs in how a turn
    goes (a wall bump, a touch, death, the restart and quit keys, when the view is recomputed);
    none means the engine's own (``engine.Ruleset``). ``default``: the preset played when none is
    chosen. ``tiles``: per terrain (``wall``, ``floor``, ``stairs``), its ``glyph``, ``color`` and
    ``remembered`` colour, for the window. ``key_repeat``: whether a held key keeps acting.
    """

    name: str
    summary: str = ""
    width: int = 80
    height: int = 43
    cell: int = 16
    hud_rows: int = 7
    generators: tuple[tuple[int, str], ...]
    generator_params: dict[str, dict[str, Any]] = field(default_factory=dict)
    fov: str
    fov_radius: int | None = 8
    player: dict[str, Any] = field(default_factory=lambda: {"hp": 20, "attack": 4, "defense": 0})
    monsters: tuple[str, ...] = ()
    monster_count: tuple[int, int, int, int] = (3, 1, 0, 2)
    monster_free_start_room: bool = True
    item_counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    movement: int = 8
    ruleset: str | None = None
    default: bool = False
    keys: dict[str, str] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    log_size: int = 0
    seed: int | None = None
    monster_table: tuple[tuple[int, int, str], ...] = ()
    monster_kinds: dict[str, Any] = field(default_factory=dict)
    place_in_rooms: bool = False
    start_clearance: int = 4
    tiles: dict[str, dict[str, Any]] = field(default_factory=dict)
    key_repeat: bool = True

    def generator_for(self, depth: int) -> str:
        name = self.generators[0][1]
        for min_depth, gen in self.generators:
            if depth >= min_depth:
                name = gen
        return name

    def tile(self, terrain: str) -> dict[str, Any]:
        """How a terrain looks: glyph, color, remembered colour (the preset's over the defaults)."""
        return {**DEFAULT_TILES[terrain], **self.tiles.get(terrain, {})}

    def message(self, key: str, **values: Any) -> str:
        template = self.messages.get(key, DEFAULT_MESSAGES.get(key, key))
        return template.format(**values)


def _fail(path: Path, key: str, expected: str, value: Any) -> ContentError:
    return ContentError(f"{path}: {key}: expected {expected}, got {value!r}")


def load_rules(path: Path | str) -> GameRules:
    """Read a preset from TOML; every key maps onto a field of GameRules."""
    path = Path(path)
    data = read_toml(path)
    fields = {f.name: f for f in dataclasses.fields(GameRules)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ContentError(f"{path}: {unknown[0]}: unknown key (valid: {', '.join(sorted(fields))})")
    if not isinstance(data.get("name"), str) or not data["name"]:
        raise _fail(path, "name", "a non-empty string", data.get("name"))
    values: dict[str, Any] = {}
    for key, value in data.items():
        values[key] = _convert(path, key, value)
    return GameRules(**values)


def _int_list(value: Any, n: int | None = None) -> bool:
    return (
        isinstance(value, list)
        and (n is None or len(value) == n)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _convert(path: Path, key: str, value: Any) -> Any:
    ints = ("width", "height", "cell", "hud_rows", "movement", "log_size")
    if key in ints:
        if not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            raise _fail(path, key, "a whole number >= 0", value)
        if key == "movement" and value not in (4, 8):
            raise _fail(path, key, "4 or 8", value)
        return value
    if key in ("fov_radius", "seed"):
        if value == -1 or value is False:
            return None
        if not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            raise _fail(path, key, "a whole number >= 0 (or -1 for none)", value)
        return value
    if key == "start_clearance":
        if not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            raise _fail(path, key, "a whole number >= 0", value)
        return value
    if key == "monster_table":
        ok = isinstance(value, list) and value and all(
            isinstance(r, list) and len(r) == 3 and _int_list(r[:2]) and 0 <= r[1] <= 99 and isinstance(r[2], str)
            for r in value
        )
        if not ok:
            raise _fail(path, key, 'a list of [min_depth, min_roll 0..99, "monster"] rows', value)
        return tuple((int(d), int(r), str(k)) for d, r, k in value)
    if key == "monster_kinds":
        if not isinstance(value, dict):
            raise _fail(path, key, "a table of monster tables", value)
        from engine.core.content import MonsterKind, build

        return {name: build(MonsterKind, path, name, row, f"monster_kinds.{name}") for name, row in value.items()}
    if key == "tiles":
        return _tiles(path, value)
    if key in ("name", "summary", "fov", "ruleset"):
        if not isinstance(value, str):
            raise _fail(path, key, "a string", value)
        return value
    if key in ("monster_free_start_room", "place_in_rooms", "key_repeat", "default"):
        if not isinstance(value, bool):
            raise _fail(path, key, "true or false", value)
        return value
    if key == "generators":
        ok = isinstance(value, list) and value and all(
            isinstance(e, list) and len(e) == 2 and isinstance(e[0], int) and isinstance(e[1], str) for e in value
        )
        if not ok:
            raise _fail(path, key, 'a list of [min_depth, "generator"] pairs', value)
        return tuple((int(d), str(n)) for d, n in sorted(value))
    if key == "monster_count":
        if not _int_list(value, 4):
            raise _fail(path, key, "[base, per_depth, extra_min, extra_max]", value)
        return tuple(value)
    if key == "monsters":
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise _fail(path, key, "a list of monster names", value)
        return tuple(value)
    if key == "item_counts":
        if not (isinstance(value, dict) and all(_int_list(v, 2) and 0 <= v[0] <= v[1] for v in value.values())):
            raise _fail(path, key, "a table of item = [min, max]", value)
        return {k: tuple(v) for k, v in value.items()}
    if key in ("keys", "messages"):
        if not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
            raise _fail(path, key, "a table of strings", value)
        return dict(value)
    if key in ("generator_params",):
        if not (isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())):
            raise _fail(path, key, "a table of tables (one per generator)", value)
        return {k: dict(v) for k, v in value.items()}
    if key == "player":
        if not isinstance(value, dict):
            raise _fail(path, key, "a table", value)
        return dict(value)
    raise AssertionError(key)


def _tiles(path: Path, value: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict):
        raise _fail(path, "tiles", "a table of wall/floor/stairs tables", value)
    out = {}
    for terrain, spec in value.items():
        where = f"tiles.{terrain}"
        if terrain not in DEFAULT_TILES:
            raise _fail(path, where, f"one of {', '.join(DEFAULT_TILES)}", terrain)
        if not isinstance(spec, dict) or set(spec) - {"glyph", "color", "remembered"}:
            raise _fail(path, where, "a table of glyph, color, remembered", spec)
        entry: dict[str, Any] = {}
        for k, v in spec.items():
            if k == "glyph":
                if not (isinstance(v, str) and len(v) == 1):
                    raise _fail(path, f"{where}.glyph", "a single character", v)
                entry[k] = v
            else:
                if not (_int_list(v, 3) and all(0 <= c <= 255 for c in v)):
                    raise _fail(path, f"{where}.{k}", "[r, g, b] with each 0..255", v)
                entry[k] = tuple(v)
        out[terrain] = entry
    return out
