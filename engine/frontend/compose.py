"""What each cell of the viewport shows: arrays built with numpy from the game, the viewport only.

:func:`compose` returns a :class:`Cells`: per cell a code point (the glyph), a name id (what stands
there, for tilesets: ``wall``, ``monster:rat``...), a foreground colour, a background colour and
a state (0 unknown, 1 remembered, 2 in view), and under a thing the terrain it stands on (a
sprite tileset draws the thing over the terrain's picture). Walls are drawn by a rule
(:mod:`engine.frontend.walls`: joined into lines, deep rock dark). Only the viewport's slice of the
map is read (and one cell around it, for the walls), so a frame costs the same on an 80x43 map
and a 1000x1000 one.

Two window styles (:class:`WindowStyle`, how the window draws a preset): the *classic* one is the
window before the light-and-memory work, cell for cell (glyph colours, the preset's ``remembered``
colours, black behind everything); the presets that recreate another game use it. The *lit* one
adds a background per cell (a warm tint where the player sees, near black where they remember),
memory colours dimmed and desaturated from the lit ones, walls drawn wherever they bound a
remembered open cell (caves whose walls the light never touched included), and the items the player
remembers where they last saw them (the run's memory, :mod:`engine.core.model.memory`: a walk, a
level left and a save remember them too).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from engine.core.model.components import Item, Monster, Position, Renderable
from engine.core.turn import naming
from engine.core.turn.statuses import friendly
from engine.frontend import palette
from engine.frontend.walls import DEEP, WallView, margin
from engine.kit.mapgen import FLOOR, STAIRS, UPSTAIRS, WALL
from engine.kit.regions import grown

if TYPE_CHECKING:
    from engine.core.kinds.content import ItemKind
    from engine.core.kinds.rules import GameRules
    from engine.core.turn.game import Game

TILE_CODES = {"wall": WALL, "floor": FLOOR, "stairs": STAIRS, "upstairs": UPSTAIRS}
BLANK = ord(" ")
UNKNOWN, REMEMBERED, SEEN = 0, 1, 2


@dataclass(frozen=True)
class WindowStyle:
    """How the window draws a preset. The last six are the preset's own ``look`` (see
    :class:`engine.core.kinds.rules.GameRules`), for the presets that recreate another game's screen."""

    lit: bool  # backgrounds, computed memory colours, wall completion, remembered items
    sidebar: bool  # the sidebar and the log below the map, instead of the preset's status line
    window: tuple[int, int] | None = None  # the window's size at zoom 1 (px), the map centred in it
    tileset: str | None = None  # the tileset the window opens with
    checker: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None  # backgrounds, (x + y) even / odd
    death: str = "band"  # "band": the map dimmed under a band of words; "dim": the window dimmed, one line
    death_color: tuple[int, int, int] = (220, 50, 40)  # the death title's colour
    warn_low_hp: bool = True  # the status line turns red at low HP
    walls: str | None = None  # the wall rule (engine.frontend.walls.RULES); None: the tileset's


CLASSIC = WindowStyle(lit=False, sidebar=False, walls="plain")
LIT = WindowStyle(lit=True, sidebar=True)


def look_for(rules: GameRules) -> WindowStyle:
    """A preset that writes its own status line (a ``status`` template in its ``messages``) keeps
    it, and the classic look with it: those presets recreate another game's screen. Every other
    preset gets the sidebar and the lit look. Either way the preset's ``look`` table applies."""
    return replace(CLASSIC if "status" in rules.messages else LIT, **rules.look)


class Names:
    """Small ids for what stands in a cell: 0 is nothing; terrain names have fixed ids."""

    def __init__(self) -> None:
        self.names: list[str] = ["", *TILE_CODES, "exit", "player"]
        self.ids = {name: i for i, name in enumerate(self.names)}

    def id(self, name: str) -> int:
        found = self.ids.get(name)
        if found is None:
            found = self.ids[name] = len(self.names)
            self.names.append(name)
        return found


# Tables' rows by terrain code, a row each for the built-in kinds and each plugin kind a level holds
ROWS = ("glyph", "name", "color", "memory", "bg_lit", "bg_memory", "bg_rock", "own_memory", "forget", "wall")
SOLID = "solid"  # the flag of a kind drawn as part of the wall (the built-in wall's; a secret door's)


class Tables:
    """Lookups by terrain code: glyph, lit colour, remembered colour, background lit/remembered,
    and a wall's deep in rock (:mod:`engine.frontend.walls`). The built-in kinds' rows come from
    the preset's ``tiles``; :meth:`fit` adds a row for each kind of a plugin's that a level holds,
    from its registered ``TerrainKind`` (a tileset is asked for it by the kind's name)."""

    def __init__(self, rules: GameRules, look: WindowStyle, names: Names) -> None:
        self.look, self.names = look, names
        self.extra: tuple[str, ...] = ()
        size = max(TILE_CODES.values()) + 1
        self.own_memory = np.zeros(size, dtype=bool)  # a kind's remembered colour drawn as it is (lit look)
        self.forget = np.zeros(size, dtype=bool)  # kinds the player's memory does not keep
        self.glyph = np.full(size, ord("?"), dtype=np.int32)
        self.name = np.zeros(size, dtype=np.int32)
        self.color = np.full((size, 3), 255, dtype=np.uint8)
        self.memory = np.full((size, 3), 128, dtype=np.uint8)
        self.bg_lit = np.zeros((size, 3), dtype=np.uint8)
        self.bg_memory = np.zeros((size, 3), dtype=np.uint8)
        self.bg_rock = np.zeros((size, 3), dtype=np.uint8)
        self.wall = np.zeros(size, dtype=bool)  # drawn as the wall: joined, known beside a floor, deep in rock
        self.wall[WALL] = True
        for terrain, code in TILE_CODES.items():
            tile = rules.tile(terrain)
            self.glyph[code] = ord(tile["glyph"])
            self.name[code] = names.id(terrain)
            self.color[code] = tile["color"]
            self.memory[code] = palette.remembered(tile["color"]) if look.lit else tile["remembered"]
            if look.lit:
                wall = code == WALL
                self.bg_lit[code] = palette.wall_bg(tile["color"]) if wall else palette.LIGHT_BG
                self.bg_memory[code] = palette.wall_bg(self.memory[code]) if wall else palette.MEMORY_BG
                self.bg_rock[code] = palette.rock_bg(tile["color"]) if wall else palette.MEMORY_BG

    def fit(self, kinds: list[str], registered: dict) -> None:
        """Rows for the plugins' kinds a level names after the built-in four (``kinds``: its table;
        ``registered``: the registry's terrain kinds, by name). A kind no plugin registers is drawn
        as ``?``."""
        extra = tuple(kinds[len(TILE_CODES):])
        if extra == self.extra:
            return
        base = len(TILE_CODES)
        for attr in ROWS:
            setattr(self, attr, getattr(self, attr)[:base])
        rows: dict[str, list] = {attr: [] for attr in ROWS}
        for name in extra:
            kind = registered.get(name)
            color = tuple(kind.color) if kind is not None else (255, 0, 255)
            own = kind is not None and kind.remembered_color is not None
            memory = tuple(kind.remembered_color) if own else palette.remembered(color)
            blocks = kind is not None and not kind.walkable and not kind.transparent  # a wall's background
            rows["glyph"].append(ord(kind.glyph) if kind is not None else ord("?"))
            rows["name"].append(self.names.id(name))
            rows["color"].append(color)
            rows["memory"].append(memory)
            rows["own_memory"].append(own)
            rows["forget"].append(kind is not None and not kind.remembered)
            rows["wall"].append(kind is not None and SOLID in kind.flags)  # a secret door: part of the wall
            lit = self.look.lit
            rows["bg_lit"].append(palette.wall_bg(color) if lit and blocks else palette.LIGHT_BG if lit else (0, 0, 0))
            rows["bg_memory"].append(palette.wall_bg(memory) if lit and blocks else palette.MEMORY_BG if lit
                                     else (0, 0, 0))
            rows["bg_rock"].append(palette.rock_bg(color) if lit and blocks else palette.MEMORY_BG if lit
                                   else (0, 0, 0))
        for attr, values in rows.items():
            old = getattr(self, attr)
            setattr(self, attr, np.concatenate([old, np.array(values, dtype=old.dtype).reshape(-1, *old.shape[1:])]))
        self.extra = extra


@dataclass
class Cells:
    code: np.ndarray  # (rows, cols) int32 code points
    name: np.ndarray  # (rows, cols) int32 ids into Names
    fg: np.ndarray  # (rows, cols, 3) uint8
    bg: np.ndarray  # (rows, cols, 3) uint8
    state: np.ndarray  # (rows, cols) int8: UNKNOWN, REMEMBERED, SEEN
    under: np.ndarray | None = None  # (rows, cols) int32: the terrain's name id under a thing (0: none)
    under_code: np.ndarray | None = None  # (rows, cols) int32: that terrain's code point
    friend: np.ndarray | None = None  # (rows, cols) bool: a creature on the player's side stands there


def known_cells(terrain: np.ndarray, seen: np.ndarray, ys: slice, xs: slice, wall: np.ndarray) -> np.ndarray:
    """``seen`` in the window, plus every wall next to (8 ways) a seen open cell: a wall that
    bounds a remembered floor is drawn even if the light never fell on it. ``wall``: by terrain
    code, whether a kind is drawn as the wall (``Tables.wall``: a secret door is, so that no gap
    in the outline gives it away)."""
    height, width = terrain.shape
    y0, y1 = max(0, ys.start - 1), min(height, ys.stop + 1)
    x0, x1 = max(0, xs.start - 1), min(width, xs.stop + 1)
    walls = wall[terrain[y0:y1, x0:x1]]
    near = grown(seen[y0:y1, x0:x1] & ~walls)
    known = seen[y0:y1, x0:x1] | (near & walls)
    return known[ys.start - y0:ys.start - y0 + (ys.stop - ys.start), xs.start - x0:xs.start - x0 + (xs.stop - xs.start)]


def compose(game: Game, ys: slice, xs: slice, tables: Tables, look: WindowStyle, names: Names,
            walls: WallView | None = None) -> Cells:
    """The viewport's cells (map rows ``ys``, columns ``xs``) as the player sees them now, the
    walls drawn by ``walls`` (:mod:`engine.frontend.walls`; None: each its glyph)."""
    whole = game.level.terrain
    terrain = whole[ys, xs]
    visible = game.floor.visible[ys, xs]
    if len(game.level.kinds) > len(TILE_CODES) or tables.extra:
        tables.fit(game.level.kinds, game.registry.terrain)

    def knows(ys: slice, xs: slice) -> np.ndarray:
        return known_cells(whole, game.floor.seen, ys, xs, tables.wall) if look.lit else game.floor.seen[ys, xs]

    shaped = walls is not None and walls.rule != "plain"
    if shaped:  # the window and a cell around it: its walls' neighbours
        outer, inner = margin(whole.shape, ys, xs)
        around = knows(*outer)
        known = around[inner]
    else:
        known = knows(ys, xs)
    if tables.extra:  # a plugin's kind the player's memory does not keep is unknown out of view
        known = known & ~tables.forget[terrain]
    state = np.where(visible, SEEN, np.where(known, REMEMBERED, UNKNOWN)).astype(np.int8)
    code = tables.glyph[terrain]
    name = tables.name[terrain]
    fg = tables.color[terrain]
    bg = np.where(visible[..., None], tables.bg_lit[terrain], tables.bg_memory[terrain])
    if shaped:
        joined, facing, deep = walls.shape(tables.wall[whole[outer]], around, inner)
        if joined is not None:
            code[facing] = joined[facing]
        code[deep] = BLANK
        name[deep] = names.id(DEEP)
        bg[deep] = fg[deep] = tables.bg_rock[terrain[deep]]
    if look.checker is not None:  # a board: its squares alternate under whatever stands on them
        rows, cols = terrain.shape
        even = (np.add.outer(np.arange(ys.start, ys.start + rows), np.arange(xs.start, xs.start + cols)) % 2 == 0)
        even = even[..., None]
        bg = np.where(even, np.array(look.checker[0], np.uint8), np.array(look.checker[1], np.uint8))
    exit_ = game.level.exit
    if exit_ is not None and ys.start <= exit_[1] < ys.stop and xs.start <= exit_[0] < xs.stop:
        name[exit_[1] - ys.start, exit_[0] - xs.start] = names.id("exit")
    ground, ground_code = name.copy(), code.copy()  # the terrain, under whatever stands on it
    if look.lit:  # the items the player remembers (the run's memory) where they are out of view
        kinds = game.registry.items
        for (x, y), kind in game.floor.items.items():
            if ys.start <= y < ys.stop and xs.start <= x < xs.stop and kind in kinds \
                    and not visible[y - ys.start, x - xs.start]:
                item = kinds[kind]  # as the player knows it (an unknown potion: as its disguise)
                name[y - ys.start, x - xs.start] = names.id(f"item:{naming.shown_kind(game, item)}")
                code[y - ys.start, x - xs.start] = ord(item.glyph[:1] or " ")
                fg[y - ys.start, x - xs.start] = naming.item_color(game, item)
    remembered = state == REMEMBERED
    if look.lit:
        fg[remembered] = palette.remembered_array(fg[remembered])
        if tables.extra:  # a plugin's kind with a remembered colour of its own, where no item lies
            own = remembered & tables.own_memory[terrain] & (name == ground)
            fg[own] = tables.memory[terrain[own]]
    else:
        fg[remembered] = tables.memory[terrain[remembered]]
    # Lower layers first, so the player stands on an item and a monster hides the gold it stands on.
    drawn = []
    veiled = game.sight.veiled  # a creature seen only near the player (a shade) is not drawn farther off
    for entity, (r, p) in game.world.query(Renderable, Position):
        if ys.start <= p.y < ys.stop and xs.start <= p.x < xs.stop and visible[p.y - ys.start, p.x - xs.start] \
                and not veiled(entity):
            drawn.append((r.layer, entity, p.x - xs.start, p.y - ys.start, r))
    drawn.sort(key=lambda t: (t[0], t[1]))  # a pile shows its newest item, as memory keeps it
    items = game.registry.items
    friend = np.zeros(terrain.shape, dtype=bool)
    for _layer, entity, x, y, r in drawn:
        code[y, x] = ord(r.glyph[:1] or " ")
        if friendly(game, entity):  # an ally, a captive: told apart from a foe of its kind at a glance
            bg[y, x] = palette.FRIEND_BG  # glyphs stand on the ground's colour; a sprite set tints its picture
            friend[y, x] = True
        item = game.world.try_get(entity, Item)
        kind = items.get(item.kind) if item is not None else None
        fg[y, x] = r.color[:3] if kind is None else naming.item_color(game, kind)  # as the player knows it
        name[y, x] = names.id(entity_name(game, entity, kind))
    unknown = state == UNKNOWN
    code[unknown] = BLANK
    name[unknown] = 0
    fg[unknown] = 0
    bg[unknown] = palette.UNKNOWN_BG
    bare = (name == ground) | unknown
    ground[bare] = 0
    ground_code[bare] = 0
    return Cells(code, name, fg, bg, state, ground, ground_code, friend)


def entity_name(game: Game, entity: int, kind: ItemKind | None = None) -> str:
    """What a tileset is asked for: ``player``, ``monster:KIND``, ``item:KIND`` (the kind as the player
    knows it: an unknown potion's disguise), else ``thing``. ``kind``: the entity's registered item
    kind when the caller has read it already (compose, which colours the item by it too)."""
    if entity == game.player:
        return "player"
    monster = game.world.try_get(entity, Monster)
    if monster is not None:
        return f"monster:{monster.kind}"
    if kind is None:
        item = game.world.try_get(entity, Item)
        if item is None:
            return "thing"
        kind = game.registry.items.get(item.kind)
        if kind is None:
            return f"item:{item.kind}"
    return f"item:{naming.shown_kind(game, kind)}"
