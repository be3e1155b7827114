"""The shape of a run save: the spec every field is held to (with the names a registry knows), the
saved components' specs, and the migrations that upgrade older schemas. :mod:`engine.persist.runsave`
writes and reads saves by it; the title screen checks a save's summary by it. Every limit is
:mod:`engine.kit.limits`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.kinds.saying import KINDS
from engine.core.kinds.schema import (
    Bool,
    Check,
    Choice,
    Int,
    Json,
    List,
    Map,
    Obj,
    Optional,
    Spec,
    Str,
    Tuple,
    fail,
    is_int,
    of,
)
from engine.core.model.components import (
    SAVED,
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
    Sighted,
    Status,
    Statuses,
)
from engine.core.model.scheduler import TURN_COST
from engine.core.turn.keys import BadKey, check_token
from engine.kit import limits
from engine.persist import leveldata, needs

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry

KIND = "run"
SCHEMA = 5  # 1: before the run state was its own (entities by field, derived maps saved); 2: a pack of counts;
# 3: no items remembered; 4: terrain of the built-in kinds only (no level names ``kinds``)


def _pack_to_items(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 kept the pack as counts by kind on the player's Inventory; 3 keeps each carried
    stack as an item entity with a letter. Letters go to the kinds in name order, as 2's drink key
    took them."""
    entities = data.get("entities")
    if not isinstance(entities, list):
        return data
    ids = [row.get("id") for row in entities if isinstance(row, dict)]
    next_id = max([i for i in ids if isinstance(i, int)] + [0]) + 1
    for row in list(entities):
        inv = row.get("Inventory") if isinstance(row, dict) else None
        pack = inv.pop("pack", None) if isinstance(inv, dict) else None
        if isinstance(pack, dict):
            for letter, (kind, amount) in zip("abcdefghijklmnopqrstuvwxyz", sorted(pack.items()), strict=False):
                entities.append({"id": next_id, "Item": {"kind": kind, "amount": amount},
                                 "Carried": {"letter": letter}})
                next_id += 1
    return data


def _no_items_remembered(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 3 kept no memory of items (the window did): a run of it remembers none, on any level."""
    data["remembered"] = []
    for kept in data.get("kept") or []:
        if isinstance(kept, dict):
            kept["remembered"] = []
    return data


def _builtin_terrain(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 4 knew the built-in terrain alone: its levels are of those kinds, which a level
    without ``kinds`` is (:mod:`engine.persist.leveldata`), so the data stays as it is. The number
    moved on so that an engine of schema 4 keeps a save holding a plugin's terrain aside, by its
    version, rather than calling it corrupt."""
    return data


# schema n -> fn(data) -> data of schema n + 1
MIGRATIONS: dict[int, Any] = {2: _pack_to_items, 3: _no_items_remembered, 4: _builtin_terrain}

W = "a whole number"  # how saves name their integers in messages
COORD = Int(0, limits.MAX_MAP_SIDE - 1, W)
STAT = Int(0, limits.MAX_STAT, W)
COMPONENTS: dict[str, Spec] = {
    "Position": Obj({"x": COORD, "y": COORD}, build=Position),
    "Actor": Obj({"speed": Int(1, limits.MAX_SPEED, W)}, build=Actor),
    "Fighter": Obj({"hp": STAT, "max_hp": Int(1, limits.MAX_STAT, W), "attack": STAT, "defense": STAT}, build=Fighter),
    "Monster": Obj({"kind": Str(100, 1), "behaviour": Str(100, 1), "sight": Int(0, limits.MAX_MAP_SIDE, W),
                    "awake": Bool()}, build=Monster),
    "Player": Obj({}, build=Player),
    "Item": Obj({"kind": Str(100, 1), "amount": Int(1, limits.MAX_STAT, W)}, build=Item),
    "Inventory": Obj({"gold": STAT}, build=Inventory),
    "Carried": Obj({"letter": Str(1, 1, "[a-z]", expected="a letter a..z")}, build=Carried),
    "Equipped": Obj({"slot": Str(40)}, build=Equipped),
    # added without a schema change: a save before charges has no entity with it, and loads as it was
    "Charges": Obj({"left": STAT}, build=Charges),
    # added without a schema change too: a save before it has no item left behind, and explore
    # walks to every item it remembers, as it would have
    "LeftBehind": Obj({"dropped": Bool()}, build=LeftBehind),
    # and this one: a save before it has no monster said to be seen, each said once more when seen
    "Sighted": Obj({}, build=Sighted),
    "Statuses": Obj({"active": Map(Obj({"turns": Optional(Int(1, limits.MAX_STAT, W)), "params": Map(Json())},
                                       build=Status), key=Str(limits.MAX_LABEL_CHARS, 1), most=limits.MAX_STATUSES)},
                    build=Statuses),
}
assert set(COMPONENTS) == set(SAVED), "every saved component has a spec"
# energy: spending saturates at the debt limit, and a grant stops short of a turn plus the speed
ENERGY = Int(-limits.MAX_ENERGY_DEBT, TURN_COST + limits.MAX_SPEED, W)
# the items the player remembers on a level, oldest first (engine.core.model.memory)
REMEMBERED = List(Tuple(COORD, COORD, Str(100, 1), expected='[x, y, "item kind"]'), most=limits.MAX_REMEMBERED)
# counters that only grow in play (turns, runs, entity ids) are held to MAX_COUNT, which none reaches
COUNTER = Int(0, limits.MAX_COUNT, W)
ID = Int(1, limits.MAX_COUNT, W)
ACTOR = Tuple(ID, Int(1, limits.MAX_SPEED, W), ENERGY,
              expected=f"[id, speed, energy] with energy in {ENERGY.lo}..{ENERGY.hi}")


class StreamState(Spec):
    """A ``random.Random`` state as JSON: ``[3, [625 numbers], null]``."""

    expected = "a Mersenne Twister state [3, [625 numbers], null]"

    def check(self, value: Any, where: str) -> tuple:
        ok = (isinstance(value, list) and len(value) == 3 and is_int(value[0]) and value[0] == 3
              and isinstance(value[1], list) and len(value[1]) == 625
              and all(is_int(v) and 0 <= v < 2**32 for v in value[1]) and value[1][-1] <= 624
              and (value[2] is None or isinstance(value[2], float)))
        if not ok:
            raise fail(where, self.expected, value)
        return 3, tuple(value[1]), value[2]


class Token(Spec):
    expected = "a key token"

    def check(self, value: Any, where: str) -> str:
        try:
            return check_token(value) if isinstance(value, str) else check_token("not a token")
        except BadKey:
            raise fail(where, self.expected, value) from None


class Keys(Spec):
    """A run's keys: a list of at most MAX_KEYS tokens. Checked once per distinct token (a run of a
    million keys has a few dozen), and the first bad one is named by its place."""

    expected = f"a list of at most {limits.MAX_KEYS} key tokens"

    def check(self, value: Any, where: str) -> list[str]:
        if not isinstance(value, list) or len(value) > limits.MAX_KEYS:
            raise fail(where, self.expected, value)
        try:
            for token in {v for v in value if isinstance(v, str)}:
                check_token(token)
            if not all(isinstance(v, str) for v in value):
                raise BadKey("not a string")
        except BadKey:
            token = Token()
            for i, v in enumerate(value):
                token.check(v, f"{where}[{i}]")
        return value


class RunEnded(Exception):  # noqa: N818 - a state of the file, not a failure
    """The run file carries its own end (:func:`ended_mark`): its run is over, never to be resumed.
    Not a ValueError: the file is not bad, so it is not moved aside; the caller removes it."""


def ended_mark(cause: str) -> dict[str, Any]:
    """What is written over a run save whose run has ended but which could not be removed: the
    file then says so itself (whatever the profile could or could not record)."""
    return {"ended": True, "cause": str(cause)[:200]}


def check_not_ended(data: dict[str, Any]) -> None:
    """Raise RunEnded when ``data`` (a run file's payload) is an ended mark."""
    if isinstance(data, dict) and data.get("ended") is True:
        raise RunEnded(str(data.get("cause", ""))[:200] or "ended")


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """What a title screen shows about a save: preset, seed, depth, turn, run (checked: a bad save
    raises SchemaError here too; an ended one, RunEnded)."""
    check_not_ended(data)
    spec = Obj({"game": Str(100, 1), "seed": Int(0, limits.MAX_SEED, W), "depth": Int(1, limits.MAX_DEPTH, W),
                "turn": COUNTER, "run": ID}, unknown_ok=True)
    return spec.check(data, "")


def _known(table: dict, what: str) -> Check:
    return Check(Str(100, 1), lambda name: name in table, f"a known {what} ({', '.join(sorted(table)) or 'none'})")


def run_spec(registry: Registry) -> Obj:
    """The shape of a run save, with the names this registry knows."""
    components = {**COMPONENTS, **{name: of(cls) for name, cls in registry.components.items()}}
    entity = Obj({"id": ID, **components}, defaults=dict.fromkeys(components, True))
    thing = Obj({**components, "energy": Optional(ENERGY)}, defaults=dict.fromkeys([*components, "energy"], True))
    kept = Obj({"depth": Int(1, limits.MAX_DEPTH, W), "level": leveldata.LEVEL,
                "seen": List(Str(limits.MAX_MAP_SIDE, 1, "[01]+", expected="a row of 0 and 1"),
                             most=limits.MAX_MAP_SIDE),
                "things": List(thing, most=limits.MAX_ENTITIES), "remembered": REMEMBERED})
    return Obj({
        "game": _known(registry.games, "preset"),
        "size": Tuple(Int(1, limits.MAX_MAP_SIDE, W), Int(1, limits.MAX_MAP_SIDE, W), expected="[width, height]"),
        "choices": Obj({"fov": _known(registry.fov, "FOV"), "generator": _known(registry.generators, "generator"),
                        "path": _known(registry.pathfinders, "pathfinder")},
                       defaults={"fov": True, "generator": True, "path": True}),
        "first_seed": Int(0, limits.MAX_SEED, W), "seed": Int(0, limits.MAX_SEED, W),
        "run": ID, "turn": COUNTER, "depth": Int(1, limits.MAX_DEPTH, W),
        "alive": Check(Bool(), lambda alive: alive, "true (a dead run is never saved)"),
        "level": leveldata.LEVEL, "source_level": Optional(leveldata.LEVEL),
        "seen": List(Str(limits.MAX_MAP_SIDE, 1, "[01]+", expected="a row of 0 and 1"), most=limits.MAX_MAP_SIDE),
        "remembered": REMEMBERED,
        "entities": List(entity, lo=1, most=limits.MAX_ENTITIES),
        "scheduler": Obj({"player": ACTOR, "actors": List(ACTOR, most=limits.MAX_ENTITIES)}),
        "streams": Map(StreamState(), key=Str(limits.MAX_LABEL_CHARS), most=limits.MAX_STREAMS,
                       expected=f"an object of at most {limits.MAX_STREAMS} stream states"),
        "messages": List(Str(limits.MAX_MESSAGE_CHARS), most=limits.MAX_MESSAGES),
        "message_kinds": List(Choice(*KINDS), most=limits.MAX_MESSAGES),  # by message (engine.core.kinds.saying)
        "keys": Keys(),
        "plugin_data": Map(Json(), key=Str(100, 1), most=1000, expected="an object of plugin states"),
        "questions": List(Obj({"name": Str(100), "title": Str(200), "options": List(Str(100), lo=1, most=26)}),
                          most=limits.MAX_QUESTIONS),
        "plugins": needs.PLUGINS,
        "kept": List(kept, most=limits.MAX_KEPT_LEVELS),
        "last_target": Optional(ID),
        "declared": List(Tuple(ID, Str(limits.MAX_DECLARED_CHARS, 1), expected='[id, "a word"]'),
                         most=limits.MAX_ENTITIES),
    }, defaults={"plugin_data": True, "plugins": True, "questions": True, "kept": True, "last_target": True,
                  "message_kinds": True, "declared": True})
