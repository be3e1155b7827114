"""Validation of a run save before anything in it is used: types, ranges and references.

A save is input, and input may be hostile. :func:`check_run` raises ValueError with one line naming
the first field that does not hold up: a wrong type, a number out of range (negative HP, a position
off the map or inside a wall), an unknown monster or item kind, a scheduler entry naming nobody, a
random-stream state of the wrong shape. Only then does :func:`engine.persist.runsave.restore` build anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.rng import MAX_SEED
from engine.kit.mapgen import TILE_CHARS

if TYPE_CHECKING:
    from engine.core.registry import Registry

BIG = 10**9  # no honest stat, turn or amount comes near this
MAX_SIDE = 1000  # cells
MAX_ENTITIES = 100_000
MAX_MESSAGES = 10_000
MAX_KEYS = 2_000_000
MAX_TEXT = 2_000  # characters in one message


def is_int(v: Any, lo: int = 0, hi: int = BIG) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def need(ok: bool, where: str, v: Any, expected: str) -> None:
    if not ok:
        shown = repr(v)
        raise ValueError(f"{where}: expected {expected}, got {shown[:60]}{'...' if len(shown) > 60 else ''}")


def need_int(d: dict, key: str, lo: int = 0, hi: int = BIG, where: str = "") -> int:
    v = d.get(key)
    need(is_int(v, lo, hi), f"{where}{key}", v, f"a whole number in {lo}..{hi}")
    return v


def need_list(v: Any, where: str, n: int | None = None, most: int = BIG) -> list:
    need(isinstance(v, list) and (n is None or len(v) == n) and len(v) <= most, where, v,
         f"a list of {n}" if n is not None else f"a list (at most {most})")
    return v


def need_str(v: Any, where: str, most: int = 100) -> str:
    need(isinstance(v, str) and len(v) <= most, where, v, f"a string of at most {most} characters")
    return v


def check_level(d: Any, where: str, kinds: set[str] | None = None) -> tuple[int, int, set[tuple[int, int]]]:
    """Check a saved level (its fixed placements against ``kinds`` when given); return its width,
    height and the set of wall cells."""
    need(isinstance(d, dict), where, d, "an object")
    rows = need_list(d.get("rows"), f"{where}.rows", most=MAX_SIDE)
    need(bool(rows) and all(isinstance(r, str) for r in rows), f"{where}.rows", rows, "rows of text")
    w, h = len(rows[0]), len(rows)
    need(0 < w <= MAX_SIDE and all(len(r) == w for r in rows), f"{where}.rows", w, "rows of one width")
    allowed = set(TILE_CHARS.values())
    need(all(set(r) <= allowed for r in rows), f"{where}.rows", rows[0], f"only {''.join(sorted(allowed))}")
    walls = {(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == "#"}
    for key in ("start", "stairs", "exit"):
        cell = d.get(key)
        if cell is None and key != "start":
            continue
        check_cell(cell, f"{where}.{key}", w, h, walls)
    for i, room in enumerate(need_list(d.get("rooms"), f"{where}.rooms", most=10_000)):
        need(isinstance(room, list) and len(room) == 4 and all(is_int(v, 0, MAX_SIDE) for v in room),
             f"{where}.rooms[{i}]", room, "[x, y, w, h] on the map")
    need_str(d.get("generator"), f"{where}.generator")
    need(isinstance(d.get("populate"), bool), f"{where}.populate", d.get("populate"), "true or false")
    for i, spawn in enumerate(need_list(d.get("spawns"), f"{where}.spawns", most=MAX_ENTITIES)):
        need(isinstance(spawn, list) and len(spawn) == 3 and isinstance(spawn[0], str)
             and (kinds is None or spawn[0] in kinds), f"{where}.spawns[{i}]", spawn, "[known kind, x, y]")
        check_cell(spawn[1:], f"{where}.spawns[{i}]", w, h, walls)
    return w, h, walls


def check_cell(cell: Any, where: str, w: int, h: int, walls: set[tuple[int, int]]) -> tuple[int, int]:
    need(isinstance(cell, list) and len(cell) == 2 and is_int(cell[0], 0, w - 1) and is_int(cell[1], 0, h - 1),
         where, cell, f"[x, y] on the {w}x{h} map")
    need((cell[0], cell[1]) not in walls, where, cell, "a cell that is not wall")
    return cell[0], cell[1]


def check_rng(state: Any, where: str) -> None:
    ok = (isinstance(state, list) and len(state) == 3 and state[0] == 3 and isinstance(state[1], list)
          and len(state[1]) == 625 and all(is_int(v, 0, 2**32 - 1) for v in state[1])
          and state[1][-1] <= 624 and (state[2] is None or isinstance(state[2], float)))
    need(ok, where, state, "a Mersenne Twister state [3, [625 numbers], null]")


def check_entity(row: Any, where: str, registry: Registry, monsters: set[str], w: int, h: int, walls: set) -> None:
    need(isinstance(row, dict), where, row, "an object")
    need_int(row, "id", 1, BIG, f"{where}.")
    check_cell([row.get("x"), row.get("y")], f"{where}.x,y", w, h, walls)
    if "fighter" in row:
        f = row["fighter"]
        need(isinstance(f, list) and len(f) == 4 and all(is_int(v, 0, BIG) for v in f) and 0 < f[1]
             and f[0] <= f[1], f"{where}.fighter", f, "[hp, max_hp, attack, defense] with 0 <= hp <= max_hp")
    if "speed" in row:
        need_int(row, "speed", 1, 10_000, f"{where}.")
    if "monster" in row:
        m = row["monster"]
        need(isinstance(m, dict), f"{where}.monster", m, "an object")
        need(m.get("kind") in monsters, f"{where}.monster.kind", m.get("kind"), "a known monster kind")
        need(m.get("behaviour") in registry.behaviours, f"{where}.monster.behaviour", m.get("behaviour"),
             "a known behaviour")
        need_int(m, "sight", 0, MAX_SIDE, f"{where}.monster.")
        need(isinstance(m.get("awake"), bool), f"{where}.monster.awake", m.get("awake"), "true or false")
        need("fighter" in row and "speed" in row, f"{where}", sorted(row), "a monster with fighter and speed")
    if "item" in row:
        it = row["item"]
        need(isinstance(it, dict) and it.get("kind") in registry.items, f"{where}.item", it, "a known item kind")
        need_int(it, "amount", 1, BIG, f"{where}.item.")
    if "inventory" in row:
        inv = row["inventory"]
        need(isinstance(inv, dict), f"{where}.inventory", inv, "an object")
        need_int(inv, "gold", 0, BIG, f"{where}.inventory.")
        pack = inv.get("pack")
        need(isinstance(pack, dict) and all(k in registry.items and is_int(n, 1) for k, n in pack.items()),
             f"{where}.inventory.pack", pack, "known item kinds with counts")
    need(("monster" in row) + ("item" in row) + ("inventory" in row) == 1, where, sorted(row),
         "exactly one of monster, item, inventory")


def check_run(d: dict[str, Any], registry: Registry) -> None:
    """Raise ValueError naming the first thing wrong with a run save; return quietly when it is sound."""
    game = d.get("game")
    need(game in registry.games, "game", game, f"a known preset ({', '.join(sorted(registry.games))})")
    choices = d.get("choices")
    need(isinstance(choices, dict) and set(choices) <= {"fov", "generator"}, "choices", choices,
         "{fov, generator}")
    need(choices.get("fov") is None or choices["fov"] in registry.fov, "choices.fov", choices.get("fov"),
         "a known FOV")
    need(choices.get("generator") is None or choices["generator"] in registry.generators, "choices.generator",
         choices.get("generator"), "a known generator")
    for key in ("first_seed", "seed"):
        need_int(d, key, 0, MAX_SEED)
    need_int(d, "run", 1)
    need_int(d, "epoch", 0)
    monsters = {*registry.monsters, *registry.games[game].monster_kinds}
    need_int(d, "turn", 0)
    need_int(d, "depth", 1, 100_000)
    need(d.get("alive") is True, "alive", d.get("alive"), "true (a dead run is never saved)")
    kinds = {*monsters, *registry.items}
    w, h, walls = check_level(d.get("level"), "level", kinds)
    if d.get("source_level") is not None:
        check_level(d["source_level"], "source_level", kinds)
    seen = need_list(d.get("seen"), "seen", n=h)
    need(all(isinstance(r, str) and len(r) == w and set(r) <= {"0", "1"} for r in seen), "seen", seen[:1],
         f"{h} rows of {w} 0/1 characters")
    rows = need_list(d.get("entities"), "entities", most=MAX_ENTITIES)
    for i, row in enumerate(rows):
        check_entity(row, f"entities[{i}]", registry, monsters, w, h, walls)
    ids = [row["id"] for row in rows]
    need(len(set(ids)) == len(ids), "entities", ids[:10], "distinct ids")
    by_id = {row["id"]: row for row in rows}
    player = d.get("player")
    need(player in by_id and {"inventory", "fighter", "speed"} <= set(by_id[player]), "player", player,
         "the id of an entity with an inventory, fighter and speed")
    need(by_id[player]["fighter"][0] > 0, "player.hp", by_id[player]["fighter"][0], "more than 0")
    blockers = need_list(d.get("blockers"), "blockers", most=MAX_ENTITIES)
    cells: set[tuple[int, int]] = set()
    for i, b in enumerate(blockers):
        need(isinstance(b, list) and len(b) == 3 and b[2] in by_id and "fighter" in by_id[b[2]]
             and [by_id[b[2]]["x"], by_id[b[2]]["y"]] == b[:2] and (b[0], b[1]) not in cells,
             f"blockers[{i}]", b, "[x, y, id] of a fighter standing there, one per cell")
        cells.add((b[0], b[1]))
    need(len(blockers) == sum("fighter" in r for r in rows), "blockers", len(blockers), "every fighter")
    placed = 0
    for i, entry in enumerate(need_list(d.get("items_at"), "items_at", most=MAX_ENTITIES)):
        need(isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], list) and entry[2]
             and all(e in by_id and "item" in by_id[e] and [by_id[e]["x"], by_id[e]["y"]] == entry[:2]
                     for e in entry[2]), f"items_at[{i}]", entry, "[x, y, [ids of items lying there]]")
        placed += len(entry[2])
    need(placed == sum("item" in r for r in rows), "items_at", placed, "every item once")
    check_scheduler(d.get("scheduler"), by_id, player)
    streams = d.get("streams")
    need(isinstance(streams, dict) and len(streams) <= 10_000, "streams", streams, "an object of stream states")
    for label, state in streams.items():
        need_str(label, "streams label")
        check_rng(state, f"streams[{label!r}]")
    messages = need_list(d.get("messages"), "messages", most=MAX_MESSAGES)
    need(all(isinstance(m, str) and len(m) <= MAX_TEXT for m in messages), "messages", messages[:1], "strings")
    keys = need_list(d.get("keys"), "keys", most=MAX_KEYS)
    need(all(isinstance(k, str) and 0 < len(k) <= 10 for k in keys), "keys", keys[:5], "key tokens")


def check_scheduler(s: Any, by_id: dict[int, dict], player: int) -> None:
    need(isinstance(s, dict), "scheduler", s, "an object")
    order = need_list(s.get("order"), "scheduler.order", most=MAX_ENTITIES)
    need(s.get("player") in (None, player), "scheduler.player", s.get("player"), "the player's id or null")
    actors = [*order, *([s["player"]] if s.get("player") is not None else [])]
    need(len(set(actors)) == len(actors) and all(e in by_id and "monster" in by_id[e] for e in order),
         "scheduler.order", order[:10], "distinct monster ids")
    for key, lo in (("speed", 1), ("energy", -BIG)):
        pairs = need_list(s.get(key), f"scheduler.{key}", most=MAX_ENTITIES)
        need(all(isinstance(p, list) and len(p) == 2 and is_int(p[1], lo, BIG) for p in pairs)
             and sorted(p[0] for p in pairs) == sorted(actors), f"scheduler.{key}", pairs[:5],
             "[id, number] for every scheduled actor")
