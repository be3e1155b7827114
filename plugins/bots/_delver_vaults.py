"""The delver's dealings with the default game's set pieces (``plugins/depths``): a vault it has
the key of, and captives to free. Like the rest of it, it goes by what a player knows: the vault
door it has seen, the key in its pack, the monsters the sidebar calls captive or "your ally".

The vault's treasures need nothing of their own: once the door is open they are items it has
seen, which ``collect`` walks to and ``pick_up`` takes (the first taken seals the others).
"""

from __future__ import annotations

from engine.plugins.bots._delver_look import DelverView

VAULT_DOOR, KEY = "vault-door", "vault key"


def _toward(look: DelverView, cell: tuple[int, int]) -> str | None:
    """A step toward a known floor cell beside ``cell`` that it can reach over the floor it
    knows (a map read from a scroll shows cells it cannot reach yet: a vault's inside)."""
    h, w = look.floor.shape
    x, y = cell
    near = [(x + dx, y + dy) for dx, dy in look.moves.steps
            if 0 <= x + dx < w and 0 <= y + dy < h and look.floor[y + dy, x + dx]]
    if not near:
        return None
    goals = [c for c in near if look.reaches(c)]
    return look.walk(goals) if goals else None


def unlock(look: DelverView) -> str | None:
    """Carrying a vault key and knowing a vault door on this level: to the door, and into it
    (once a door: a key that does not fit is not tried again)."""
    game = look.game
    if KEY not in look.pack:  # the pack by the names the player knows (game.item_name, as name_of says)
        return None
    for feature in game.features():
        if not feature.startswith("vault "):
            continue
        x, y = (int(v) for v in feature.split()[1].split(","))
        if (x, y) in look.memory.ignored or not look.seen[y, x]:  # the cheap tests first
            continue
        kind = game.terrain(x, y)
        if kind is None or kind.name != VAULT_DOOR:
            continue
        hx, hy = look.here
        if max(abs(x - hx), abs(y - hy)) == 1 and (x - hx, y - hy) in look.moves.steps:
            look.memory.ignored.add((x, y))
            return look.step_key((x, y))
        step = _toward(look, (x, y))
        if step is not None:
            return step
    return None


FREE_KEYS = 100  # keys a level it walks to captives before it lets them be


def free(look: DelverView) -> str | None:
    """A captive in view: to it, and into it until it is free. Out of view again on the way (a
    corner), it goes on to where it saw it; FREE_KEYS keys a level at most (it turned back at a
    corner where the captive left its view, and came again, for ever)."""
    game, memory = look.game, look.memory
    captives = [m for m in look.in_view if game.has_status(m, "captive")]
    if captives:
        target = min(captives, key=lambda m: (game.distance(look.me, m), m))
        memory.captive = game.position(target)
        if game.adjacent(look.me, target):
            return look.step_key(memory.captive)
    if memory.captive is None or memory.freeing >= FREE_KEYS:
        return None
    hx, hy = look.here
    cx, cy = memory.captive
    if not captives and max(abs(cx - hx), abs(cy - hy)) <= 1:
        memory.captive = None  # it is not where it was seen: let it be
        return None
    memory.freeing += 1
    return _toward(look, memory.captive)
