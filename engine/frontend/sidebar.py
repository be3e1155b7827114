"""The sidebar's rows (Brogue's is the model): what the sidebar right of the map shows, as plain data.

A section is a function from the game to rows: :class:`Line` (text, optionally after a coloured
glyph) or :class:`Bar` (a label over a bar filled ``value / maximum``). :data:`SECTIONS` lists them
in order, with a blank row between two sections that have rows: the player (depth, health,
experience when the game has it, attack and defense, gold), statuses, what lies underfoot, the
monsters in view (nearest first, each with a health bar), and the pack by letter. Rows past the
sidebar's height are dropped from the end: the pack goes first, then the far monsters.

The bottom rows can hold a description (what the mouse points at, ``footer`` of :func:`rows_for`),
which takes its rows from the end of the list. :mod:`engine.frontend.sidebarview` draws the rows.

The sidebar reads the game only through its public parts (``world.query``, ``floor.visible``,
``position``, ``level``, ``api.statuses``), the pack's functions and the HUD values of
:mod:`engine.core.play.status` (read with ``.get``: a game without levels has no ``level``). This
module imports no graphics library.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.model.components import Equipped, Fighter, Item, Monster, Position, Renderable, Status
from engine.core.play import status as words
from engine.core.turn import inventory, naming

if TYPE_CHECKING:
    from engine.core.turn.game import Game

RGB = tuple[int, int, int]
BRIGHT: RGB = (235, 235, 235)
DIM: RGB = (150, 155, 170)
HEALTH: RGB = (170, 40, 40)
HEALTH_LOW: RGB = (235, 60, 50)
XP: RGB = (60, 90, 170)
STATUS: RGB = (120, 200, 235)
WORN: RGB = (200, 190, 120)


@dataclass(frozen=True)
class Line:
    text: str
    color: RGB = BRIGHT
    glyph: str = ""
    glyph_color: RGB = BRIGHT
    entity: int | None = None  # the monster a row is about: hovering the row highlights it on the map


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    maximum: int
    color: RGB = HEALTH
    glyph: str = ""
    glyph_color: RGB = BRIGHT
    entity: int | None = None


Row = Line | Bar
Section = Callable[["Game"], list[Row]]


def stats(game: Game) -> list[Row]:
    """Depth and turn, the health bar, level and experience (when the game has them), attack and
    defense, gold."""
    v = words.values(game)
    hp, top = int(v["hp"]), int(v["max_hp"])
    rows: list[Row] = [
        Line(f"Depth {v['depth']}   Turn {v['turn']}"),
        Bar(f"Health {hp}/{top}", hp, top, HEALTH_LOW if words.hp_low(game) else HEALTH),
    ]
    level, xp, need = experience(game, v)
    if level is not None:
        if need:
            rows.append(Bar(f"Level {level}   XP {xp}/{need}", int(xp), int(need), XP))
        else:
            rows.append(Line(f"Level {level}   XP {xp}"))
    attack, defense = inventory.attack_of(game, game.player), inventory.defense_of(game, game.player)
    rows.append(Line(f"Attack {attack}   Defense {defense}", DIM))
    rows.append(Line(f"Gold {v['gold']}", DIM))  # potions and the rest: the pack, listed below
    return rows


def experience(game: Game, v: dict | None = None) -> tuple[int | None, int, int]:
    """The player's (level, xp, xp the next level wants in all; 0: unknown), or (None, 0, 0) in a
    game without growth. Read defensively: the HUD values' ``level``/``xp``/``xp_next`` when the
    game gives them, else a component of the player's with whole-number ``level`` and ``xp`` (and
    ``next``) fields, as a growth plugin's ``Experience`` has."""
    v = words.values(game) if v is None else v
    level, xp, need = v.get("level"), v.get("xp"), v.get("xp_next", 0)
    if not (isinstance(level, int) and isinstance(xp, int)):
        for component in game.world.components(game.player):
            level, xp = getattr(component, "level", None), getattr(component, "xp", None)
            if isinstance(level, int) and isinstance(xp, int):
                need = getattr(component, "next", 0)
                break
        else:
            return None, 0, 0
    need = need if isinstance(need, int) else 0
    if not need and level <= 1 and xp == 0:
        return None, 0, 0  # the values' stand-in of a game without growth: nothing to show
    return level, xp, need


def statuses(game: Game) -> list[Row]:
    """The player's statuses, each in its kind's label and colour, with the turns it has left."""
    rows: list[Row] = []
    kinds = game.registry.statuses
    for name, status in sorted(game.api.statuses(game.player).items()):
        kind = kinds.get(name)  # a save's status whose plugin has gone: its name, in the default colour
        label, color = (kind.shown, kind.color) if kind is not None else (name.capitalize(), STATUS)
        rows.append(Line(f"{label}{_left(status)}", color))
    return rows


def _left(status: Status) -> str:
    """The turns a status has left, as the sidebar says them after its word: " (4)"; none when it
    lasts until removed."""
    return f" ({status.turns})" if status.turns is not None else ""


def visible_monsters(game: Game) -> list[tuple[int, str, Fighter, Renderable, int]]:
    """(entity, kind, fighter, look, distance) of each monster in view, nearest first (king moves,
    ties by row then column, so the order never flickers)."""
    px, py = game.position(game.player)
    visible, veiled = game.floor.visible, game.sight.veiled
    found = []
    for entity, (monster, fighter, look, pos) in game.world.query(Monster, Fighter, Renderable, Position):
        if visible[pos.y, pos.x] and not veiled(entity):
            found.append((max(abs(pos.x - px), abs(pos.y - py)), pos.y, pos.x, entity, monster.kind, fighter, look))
    found.sort(key=lambda t: t[:3])
    return [(e, kind, f, look, d) for d, _, _, e, kind, f, look in found]


def monsters(game: Game) -> list[Row]:
    """Each monster in view: its glyph, its name, its HP in numbers and its state (asleep, what its
    behaviour declared: fleeing..., and each status on it in its kind's word: confused, hasted...),
    over its health bar."""
    rows: list[Row] = []
    for entity, kind, fighter, look, _ in visible_monsters(game):
        rgb = tuple(look.color[:3])
        label = " ".join([kind, f"{fighter.hp}/{fighter.max_hp}", ", ".join(states(game, entity))]).rstrip()
        rows.append(Bar(label, fighter.hp, fighter.max_hp, _bar_color(rgb), look.glyph, rgb, entity))  # type: ignore[arg-type]
    return rows


def states(game: Game, entity: int) -> list[str]:
    """What a monster is doing that a player wants to know at a glance: asleep (it has not noticed
    the player), what its behaviour declared (``game.declare(me, "fleeing")``), then its
    statuses, each in its kind's word, lower case, with the turns it has left as the player's own
    say theirs ("slowed (4)": a player fighting a slowed ogre learnt the slow had ended from its
    next blow)."""
    words_for = game.registry.statuses
    said = [] if game.world.get(entity, Monster).awake else ["asleep"]
    doing = game.api.declared(entity)
    if doing is not None:
        said.append(doing.lower())
    for name, status in sorted(game.api.statuses(entity).items()):
        kind = words_for.get(name)
        said.append((kind.shown if kind is not None else name).lower() + _left(status))
    return said


def underfoot(game: Game) -> list[Row]:
    """What lies at the player's feet: items, stairs, the exit, a plugin's kind of terrain."""
    here = game.position(game.player)
    rows: list[Row] = []
    for entity, (item, pos, look) in game.world.query(Item, Position, Renderable):
        if (pos.x, pos.y) == here:
            amount = f"{item.amount} " if item.amount > 1 else ""
            kind = game.registry.items.get(item.kind)  # its colour as the player knows it
            color = naming.item_color(game, kind) if kind is not None else tuple(look.color[:3])
            rows.append(Line(f"Here: {amount}{naming.of_entity(game, entity)}", DIM, look.glyph, color))  # type: ignore[arg-type]
    if game.level.stairs == here:
        stairs = game.rules.tile("stairs")
        rows.append(Line("Here: stairs down", DIM, stairs["glyph"], tuple(stairs["color"])))
    if game.level.exit == here:
        rows.append(Line("Here: the way out", DIM))
    kind = game.api.terrain(*here)
    if kind is not None and kind.name not in game.level.kinds[:4]:  # the built-in four are said above or plain
        rows.append(Line(f"Here: {kind.shown}", DIM, kind.glyph, tuple(kind.color)))
    return rows


def pack(game: Game) -> list[Row]:
    """The pack by letter (worn items in their own colour), when there is room for it."""
    rows: list[Row] = []
    for item in inventory.pack(game):
        amount = inventory.count(game, item)
        name = naming.of_entity(game, item)
        worn = game.world.has(item, Equipped)
        text = f"{inventory.letter_of(game, item)} {name}" + (f" x{amount}" if amount > 1 else "") \
            + (" (in use)" if worn else "")
        rows.append(Line(text, WORN if worn else DIM))
    return rows


SECTIONS: list[Section] = [stats, statuses, underfoot, monsters, pack]


def _bar_color(rgb: RGB) -> RGB:
    # a monster's bar in a darker shade of its own colour, so the white label reads over it
    return (rgb[0] * 11 // 20, rgb[1] * 11 // 20, rgb[2] * 11 // 20)


def rows_for(game: Game, sections: list[Section], limit: int, footer: list[Row] = ()) -> list[Row | None]:
    """The sidebar's rows (None: a blank separator), at most ``limit``, ending with ``footer``
    (after a blank row) when it is given. Rows past the limit are counted on the last that fits
    ("+7 more"): a long pack in a short window lost its last rows without a word."""
    rows: list[Row | None] = []
    for section in sections:
        part = section(game)
        if part:
            if rows:
                rows.append(None)
            rows.extend(part)
    if not footer:
        return _fit(rows, limit)
    tail = [None, *footer][-limit:]
    return _fit(rows, max(0, limit - len(tail))) + tail


def _fit(rows: list[Row | None], limit: int) -> list[Row | None]:
    """``rows``, at most ``limit`` of them: the last one that fits says how many are not shown."""
    if len(rows) <= limit:
        return rows
    if limit < 2:
        return rows[:limit]
    hidden = sum(1 for row in rows[limit - 1:] if row is not None)
    return [*rows[:limit - 1], Line(f"+{hidden} more", DIM)]
