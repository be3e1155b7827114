"""Content kinds and their loading from TOML.

A monster or an item is one row of data. Content files (``content/*.toml``) hold one table per
row, and each key maps one-to-one onto a field of :class:`MonsterKind` or :class:`ItemKind`. Each
field's check sits beside it (``Annotated`` with a spec of :mod:`engine.core.kinds.schema`), and
:func:`load_kinds` validates every row, raising :class:`ContentError` naming the file, the row, the
key and what would be valid: a typo in a content file is one clear line, not a traceback.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from engine.core.kinds import deprecations, kindparams
from engine.core.kinds.deprecations import lenient
from engine.core.kinds.schema import (
    Char,
    Check,
    Choice,
    Color,
    Int,
    Json,
    Map,
    NonEmpty,
    SchemaError,
    Spec,
    Str,
    Tuple,
    of,
    sub,
)
from engine.core.kinds.specs import shown_number
from engine.kit import limits
from engine.kit.textfile import TextFileError, read_text

RGB = tuple[int, int, int]
COUNT = Int(0, 10**6)
# a kind's description: one line (look, the pack and the menus show it on one row)
DESCRIPTION = Str(200, pattern=r"[^\n\r]*", expected="one line of at most 200 characters (no line break)")


class Params(Spec):
    """A kind's params: JSON values, whose numbers are within ``MAX_STAT`` either way. Effects and
    behaviours put them into the run (a status's turns, HP, an amount), and a run save holds no
    number past that: a kind with one is refused when it loads, not the run that meets it."""

    expected = "a table of JSON values"

    def check(self, value: Any, where: str) -> dict[str, Any]:
        table = Map(Json()).check(value, where)
        self._numbers(table, where)
        return table

    def _numbers(self, value: Any, where: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                self._numbers(v, sub(where, k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                self._numbers(v, sub(where, i))
        elif isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > limits.MAX_STAT:
            raise SchemaError(f"{where}: expected a number within -{limits.MAX_STAT}..{limits.MAX_STAT} (what a run "
                              f"save holds), got {shown_number(value)}")


class ContentError(ValueError):
    """A content file is missing, unreadable or malformed."""


class Refused:
    """Stands in for a content file or row that could not be read while a plugin registers
    (see :mod:`engine.core.loading.intake`): ``register`` records it as skipped, with its reason, and
    anything else asked of it raises that reason as a ContentError."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        deprecations.handed_out(self)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise ContentError(self.reason)

    def __repr__(self) -> str:
        return f"Refused({self.name!r}, {self.reason!r})"




@dataclass(frozen=True)
class MonsterKind:
    """A monster, as a row of data. ``speed`` 100 is normal: 200 acts twice per normal turn.

    ``min_depth``, ``max_depth`` and ``weight`` feed the spawn table (the kind is placed on levels
    ``min_depth..max_depth``); ``params`` go to the behaviour; ``description`` is what look says
    of it (one line). ``unseen_beyond``: the player sees a monster of this kind only within that
    many cells (king moves) of them, even in full view (1: only beside them, a shade; 0, the
    default: wherever the player sees). A name that begins with a capital letter is a proper name
    (a unique, "Vorgath the Warden"): messages say it with no "the" or "a" before it.
    """

    name: Annotated[str, NonEmpty()]
    glyph: Annotated[str, Char()]
    color: Annotated[RGB, Color()]
    hp: Annotated[int, Int(1, 10**6)]
    attack: Annotated[int, COUNT]
    defense: Annotated[int, COUNT] = 0
    sight: Annotated[int, Int(1, limits.MAX_MAP_SIDE)] = 8
    speed: Annotated[int, Int(1, limits.MAX_SPEED)] = 100
    behaviour: Annotated[str, NonEmpty()] = "chase"
    min_depth: Annotated[int, Int(1, limits.MAX_DEPTH)] = 1
    weight: Annotated[int, Int(1, 10**6)] = 1
    params: Annotated[dict[str, Any], Params()] = field(default_factory=dict)
    max_depth: Annotated[int, Int(1, limits.MAX_DEPTH)] = limits.MAX_DEPTH
    description: Annotated[str, DESCRIPTION] = ""
    unseen_beyond: Annotated[int, Int(0, limits.MAX_MAP_SIDE)] = 0


EQUIPMENT_USES = ("wear", "wield")  # the verbs that put an item on in its slot (the built-in wear and wield)
# a use: "pickup", "carry", or a registered verb's name (the loader checks that one is registered)
USE = Str(40, 1, pattern=r"[a-z][a-z0-9_-]*", expected="pickup, carry, or a registered verb's name (quaff, "
          "read, wear, zap, ...): a lowercase word")
TARGETS = ("", "nearest", "monster", "cell")
# an item is never of amount 0 (a save holds 1..MAX_STAT of it)
AMOUNT = Check(Tuple(Int(1, 10**6), Int(1, 10**6), expected="[min, max] with 1 <= min <= max <= 1000000"),
               lambda v: v[0] <= v[1], "[min, max] with 1 <= min <= max")


@dataclass(frozen=True)
class ItemKind:
    """An item, as a row of data.

    ``use`` says what the item is for: ``"pickup"``, its effect applies when it is picked up
    (gold); ``"quaff"`` and ``"read"``, it goes into the pack and its effect applies when it is
    drunk or read (``q``, ``r``), using it up; ``"wear"``, equipment worn or wielded in ``slot``
    (``w``, ``T``), adding ``attack`` and ``defense`` while it is (``"wield"`` the same, with ``W``);
    ``"carry"``, it is only carried (a quest item); any other word names a registered verb (the
    built-in ``"zap"``, ``"eat"``, ``"apply"``, ``"throw"``: see ``plugins/rules/verbs.py``, or a
    plugin's own), which says its key and what doing it does. A thrown item hits for its
    ``attack``. Potions and scrolls stack under
    one letter; equipment and wands do not (``stack``: the most one letter holds, 1 never stacks;
    0, the verb's rule). ``charges``: the charges a new one holds (a wand: each use spends one, and
    with none left it does nothing); 0, it has none and is used up instead.

    ``target`` says what a used item aims at: ``""`` nothing (or its user), ``"nearest"`` the nearest
    visible monster, ``"monster"`` a visible monster the player picks, ``"cell"`` a cell the player
    picks within sight; ``radius`` is the area around the target it reaches (0: the target alone).
    An item the player knows by another name (``item_name``: an unknown scroll) is never aimed by
    them: it goes off at once at the nearest visible monster, else on the player's own cell.
    ``amount`` is the (min, max) rolled when it is placed. ``min_depth`` and ``weight`` feed the
    loot tables; ``description`` is what it is or does, in one line: look, the pack and the
    menus show it (beside what a thing to wear adds, compared with what is worn).
    """

    name: Annotated[str, NonEmpty()]
    glyph: Annotated[str, Char()]
    color: Annotated[RGB, Color()]
    effect: Annotated[str, NonEmpty()]
    params: Annotated[dict[str, Any], Params()] = field(default_factory=dict)
    amount: Annotated[tuple[int, int], AMOUNT] = (1, 1)
    use: Annotated[str, USE] = "pickup"
    slot: Annotated[str, Str(40)] = ""
    attack: Annotated[int, Int(-1000, 1000)] = 0
    defense: Annotated[int, Int(-1000, 1000)] = 0
    target: Annotated[str, Choice(*TARGETS)] = ""
    radius: Annotated[int, Int(0, 100)] = 0
    min_depth: Annotated[int, Int(1, limits.MAX_DEPTH)] = 1
    weight: Annotated[int, Int(1, 10**6)] = 1
    description: Annotated[str, DESCRIPTION] = ""
    charges: Annotated[int, Int(0, limits.MAX_STAT)] = 0
    stack: Annotated[int, Int(0, limits.MAX_STAT)] = 0

    @property
    def stacks(self) -> bool:
        """Whether many of it share one letter in the pack, by its ``stack`` and ``charges`` and
        the built-in verbs' rule (potions, scrolls, food and things to throw, not equipment); the pack asks the verb
        registered for its ``use`` (``engine.core.turn.inventory.stack_size``)."""
        if self.stack:
            return self.stack > 1
        return not self.charges and self.use in ("pickup", "quaff", "read", "eat", "throw")

    @property
    def equipment(self) -> bool:
        """Whether it is put on in its ``slot`` (its use is ``wear`` or ``wield``)."""
        return self.use in EQUIPMENT_USES


SPECS = {MonsterKind: of(MonsterKind), ItemKind: of(ItemKind)}

# What each field of the kinds means, one entry per field (docs/make_reference.py renders them as a
# table with each field's type, default and valid values; it refuses a field that has none).
MONSTER_FIELDS: dict[str, str] = {
    "name": "The kind's name: spawn tables, `--map` legends and `game.kind_of(m).name` use it.",
    "glyph": "The one character the window and `--map` files draw it with.",
    "color": "Its colour, lit (the palette rule holds it apart from the others: `engine.testing.check_palette`).",
    "hp": "Its hit points, full.",
    "attack": "The damage of its blow, before the target's defense.",
    "defense": "Taken off every blow it receives.",
    "sight": "How far it notices the player, in cells.",
    "speed": "Energy a tick: 100 is normal, 200 acts twice a normal turn, 50 every other turn.",
    "behaviour": "The registered behaviour it acts by (the built-in ones and their params: Built-in behaviours).",
    "min_depth": "The shallowest level the spawn tables place it on.",
    "weight": "Its share of the spawn table among the kinds that may appear at a depth.",
    "params": "JSON values its behaviour reads (`game.kind_of(m).params`), and other plugins too. The built-in "
              "plugins read these, each checked when a kind of the behaviour named loads (a value its reader cannot "
              "take refuses the kind): " + kindparams.described(kindparams.MONSTERS) + ".",
    "max_depth": "The deepest level the spawn tables place it on (it stops appearing below).",
    "description": "What it is, in one line: look mode says it.",
    "unseen_beyond": "The player sees it only within this many cells (king moves), even in full view: 1, only "
                     "beside them (a shade); 0, wherever they see. The view, the map, the sidebar, look, aiming "
                     "and the bots all keep it (`Sight.veiled`).",
}
ITEM_FIELDS: dict[str, str] = {
    "name": "The kind's name: loot tables, `item_counts`, `--map` legends and `game.kind_of(i).name` use it.",
    "glyph": "The one character the window and `--map` files draw it with.",
    "color": "Its colour, lit (remembered: dimmed and greyed from it).",
    "effect": "The registered effect that using it applies (the built-in ones and their params: Built-in effects).",
    "params": "JSON values its effect reads (`kind.params`): the built-in effects' are listed with them. These "
              "are checked when a kind of the effect named loads (a value its reader cannot take refuses the kind): "
              + kindparams.described(kindparams.ITEMS) + ".",
    "amount": "The (min, max) rolled when it is placed: how many (a stack), or how much (gold).",
    "use": "What it is for: `pickup` (applies when picked up), `carry` (only carried), or the registered verb that "
           "uses it: the built-in `quaff`, `read`, `wear`, `wield`, `zap`, `eat`, `apply`, `throw`, or a plugin's "
           "own (`register_verbs`).",
    "slot": "Where a worn item goes (`weapon`, `armour`...): one item a slot.",
    "attack": "Added to the wearer's attack while worn; a thrown item's damage (before the target's defense).",
    "defense": "Added to the wearer's defense while worn.",
    "target": "What using it aims at: `\"\"` (nothing, or its user), `nearest`, `monster`, `cell`.",
    "radius": "The area around the target it reaches (0: the target alone).",
    "min_depth": "The shallowest level the loot tables place it on.",
    "weight": "Its share of a loot table among the kinds that may appear at a depth.",
    "description": "What it is or does, in one line: look mode, the pack and the menus say it (a thing to wear "
                   "also shows what it adds, against what you wear).",
    "charges": "The charges a new one holds (a wand): each use spends one, none left does nothing; 0: no charges, "
               "a use uses one up.",
    "stack": "The most one pack letter holds (1: never stacks); 0: its verb's rule (potions and scrolls stack, "
             "wands and equipment do not).",
}


def read_toml(path: Path) -> dict[str, Any]:
    """Read a TOML file; a missing, unreadable or malformed one is a ContentError."""
    try:
        return tomllib.loads(read_text(path, limits.MAX_FILE_BYTES))  # a regular file only: a FIFO never blocks
    except OSError as e:
        raise ContentError(f"{path}: cannot read: {e.strerror or e}") from None
    except TextFileError as e:
        raise ContentError(f"{path}: cannot read: {e} (expected a TOML file)") from None
    except RecursionError:  # arrays in arrays thousands deep: the parser recurses
        raise ContentError(f"{path}: not valid TOML: nested too deeply (expected at most a few levels)") from None
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"{path}: not valid TOML: {e}") from None


def build(cls: type, path: Path, row: str, data: Any, label: str | None = None) -> Any:
    """Build a content kind named ``row`` from one table, validating every key. Errors name the
    table as ``label`` (default: ``row``)."""
    where = f"{path}: [{label or row}] "
    if not isinstance(data, dict):
        raise ContentError(f"{where.rstrip()}: expected a table, got {data!r}")
    try:
        return _coherent(SPECS[cls].check({**data, "name": row}, where), where)
    except SchemaError as e:
        raise ContentError(str(e)) from None


def validate(kind: MonsterKind | ItemKind) -> None:
    """Hold a kind built in Python (a plugin's ``MonsterKind(...)``) to the checks a content row gets."""
    where = f"{'monster' if isinstance(kind, MonsterKind) else 'item'} {kind.name!r}: "
    try:
        _coherent(SPECS[type(kind)].check({f: getattr(kind, f) for f in kind.__dataclass_fields__}, where), where)
    except SchemaError as e:
        raise ContentError(str(e)) from None


def _coherent(kind: Any, where: str) -> Any:
    """``kind``, whose fields hold together: a monster's depths (below its max_depth, it was never
    placed), and the params the built-in plugins read on a kind of its behaviour or effect
    (:mod:`engine.core.kinds.kindparams`: refused here, not in the reader's hands in play)."""
    monster = isinstance(kind, MonsterKind)
    if monster and kind.min_depth > kind.max_depth:
        raise ContentError(f"{where}min_depth: expected at most max_depth ({kind.max_depth}), got {kind.min_depth}")
    try:
        kindparams.check(kind.params, kind.behaviour if monster else kind.effect, f"{where}params.",
                         kindparams.MONSTERS if monster else kindparams.ITEMS)
    except SchemaError as e:
        raise ContentError(str(e)) from None
    return kind


def load_kinds(path: Path | str, cls: type) -> list[Any]:
    """Load every row of a content file as ``cls`` (MonsterKind or ItemKind), in file order. While
    a plugin registers, a bad row (or an unreadable file) is a :class:`Refused` in its place."""
    path = Path(path)
    try:
        data = read_toml(path)
    except ContentError as e:
        if lenient():
            return [Refused(path.name, str(e))]
        raise
    kinds = []
    for row, table in data.items():
        try:
            if cls is MonsterKind:
                table = deprecations.kind_row(table, f"{path}: [{row}] ")
            kinds.append(build(cls, path, row, table))
        except ValueError as e:  # a ContentError, or a moved key's bad value
            if not lenient():
                raise ContentError(str(e)) from None
            kinds.append(Refused(row, str(e)))
    return kinds
