"""The ``delver`` bot's concerns with items and prompts (``bot_delver``'s helper, not a plugin).

A key that opens a prompt is pressed with the intent written down in :class:`Memory`: the letter
to choose in the menu it may open (``want``), the cell to choose in the targeting cursor
(``aim``). :func:`answer` comes first of all the concerns: while the game shows a prompt, the next
key is its answer. A prompt it did not mean to open (look mode, the history, a menu without its
letter) is closed with Escape; a plugin's question (the level-up choice) is answered by
:func:`choose`. Prompts never pass time, so a bot that misread one would loop: after
:data:`PROMPT_KEYS` keys in a row it presses Escape.
"""

from __future__ import annotations

from engine.kit import limits
from engine.plugins.bots._delver_look import DelverView
from engine.plugins.bots._delver_pack import Carried, aims, escapes, is_heal, quest, unknown, worth

PROMPT_KEYS = 40  # keys in a row into prompts before it gives up with Escape
PICKUP_TRIES = 3  # pickups tried on one cell before it leaves what lies there (a full pack)
READ_SHARE = 3  # an aimed scroll is read at a fight that would cost at least 1/READ_SHARE of its HP
UNKNOWN_BLAST = 2  # an unknown scroll is read only with the nearest monster farther than this (a blast's reach)

# Words in a level-up question's options, for the stat each raises.
STAT_WORDS = {"hp": ("hp", "health", "life", "vitality", "hit point", "toughness", "constitution"),
              "attack": ("attack", "strength", "power", "damage", "might"),
              "defense": ("defense", "defence", "armour", "armor", "agility", "protection")}
LEVEL_UP_ORDER = ("hp", "attack", "hp", "defense")  # what it takes at each level-up, in turn


# -- prompts ------------------------------------------------------------------------------------
def answer(look: DelverView) -> str | None:
    """The answer to the prompt the game shows, or None when none is open."""
    prompt, memory = look.prompt, look.memory
    if prompt is None:
        memory.prompt_keys = 0
        return None
    memory.prompt_keys += 1
    if prompt["kind"] == "question":
        return choose(look, prompt)  # it cannot be put off: a letter, whatever the count
    if memory.prompt_keys > PROMPT_KEYS:
        return "esc"
    if prompt["kind"] == "menu":
        letters = [o["letter"] for o in prompt.get("options", [])]
        want, memory.want = memory.want, None
        return want if want in letters else "esc"
    if prompt["kind"] == "target" and memory.aim is not None:
        return cursor_key(look, tuple(prompt["cursor"]), memory.aim)
    return "esc"


def choose(look: DelverView, prompt: dict) -> str:
    """A plugin's question. A level-up (options naming HP, attack, defense): HP, attack, HP,
    defense in turn, so it lasts longer and hits harder alike; any other question: its first
    option."""
    options = prompt.get("options", [])
    stat = LEVEL_UP_ORDER[look.memory.levels % len(LEVEL_UP_ORDER)]
    for option in options:
        if any(word in option["label"].lower() for word in STAT_WORDS[stat]):
            look.memory.levels += 1
            return option["letter"]
    return options[0]["letter"] if options else "esc"


def cursor_key(look: DelverView, at: tuple[int, int], aim: tuple[int, int]) -> str:
    """The key that moves a targeting cursor from ``at`` one cell toward ``aim``, or Enter there."""
    if at == aim:
        look.memory.aim = None
        return "enter"
    dx, dy = (aim[0] > at[0]) - (aim[0] < at[0]), (aim[1] > at[1]) - (aim[1] < at[1])
    if look.moves.movement == 4 and dx and dy:
        dy = 0
    key = look.step_key((look.here[0] + dx, look.here[1] + dy))
    return key or "esc"


def use(look: DelverView, command: str, letter: str, aim: tuple[int, int] | None = None) -> str | None:
    """Press the key of ``command`` (quaff, read, wear, pickup), meaning ``letter`` in the menu it
    opens when there is more than one to choose from, and ``aim`` in its cursor."""
    key = look.key(command)
    if key is not None:
        look.memory.want, look.memory.aim = letter, aim
    return key


# -- drinking, reading, wearing, picking up ------------------------------------------------------
def healing(carried: list[Carried]) -> list[Carried]:
    return [c for c in carried if is_heal(c.kind)]


def aimed(carried: list[Carried]) -> list[Carried]:
    return [c for c in carried if aims(c.kind)]


def drink(look: DelverView) -> str | None:
    """A healing drink when hurt by at least what it heals and nothing is next to it, or in a
    fight when the next blows could kill (unless its own blow ends the fight)."""
    potions = look.of_pack(healing)
    if not potions and not (look.potions and look.key("drink")):
        return None
    hurt = look.max_hp - look.hp
    threats = look.threats
    if not threats:
        # unhurt, with drinks that heal none or more (never less): not due, its heal not asked
        due = False if hurt <= 0 and look.least_heal >= 0 else look.heal and hurt >= look.heal
    else:
        # what each strikes for a turn: look.foe's (flee and fight weigh the same monsters)
        incoming = sum(look.foe(m)[1] for m in threats)
        # its own blow ends the fight: one blow fells it (hp <= the damage of a blow)
        finishing = len(threats) == 1 and look.foe(threats[0])[0] <= 1
        due = look.hp <= 2 * incoming and not finishing and hurt > 0
    if not due:
        return None
    if look.key("drink"):  # the classic presets: one key drinks the first potion
        return look.key("drink")
    weakest = min(potions, key=lambda c: (int(c.kind.params.get("amount", 0)), c.letter))
    return use(look, "quaff", weakest.letter)


def worth_a_shot(look: DelverView) -> int | None:
    """The monster in view that would cost it the most to fight, when that fight is a third of its
    HP or more (or the fights in view more than it has): what a scroll is read or a wand zapped at."""
    costly = max(look.engaged, key=lambda m: (look.fight_cost([m]), -m))
    if look.fight_cost([costly]) * READ_SHARE < look.hp and look.fight_cost(look.engaged) < look.hp:
        return None
    return costly


def read(look: DelverView) -> str | None:
    """An aimed scroll at the monster in view that would cost it the most to fight, when that
    fight would cost at least a third of its HP (or more than it has): a blast centred on it must
    not reach the bot itself. Else an unknown scroll, to learn it, while a monster is in view
    farther than UNKNOWN_BLAST: one that aims goes off at the nearest monster (a blast there
    does not reach the bot), and the others are as safe read there as anywhere; with no monster
    in view, an unknown fireball would burst on the bot itself."""
    return read_aimed(look) or read_unknown(look)


def read_unknown(look: DelverView) -> str | None:
    todo = untried(look, "read")  # first: mostly none, and then the nearest monster is not asked
    if not todo:
        return None
    nearest = look.nearest
    if nearest is None or look.game.distance(look.me, nearest) <= UNKNOWN_BLAST:
        return None
    return try_unknown(look, "read", todo)


def untried(look: DelverView, how: str) -> list[Carried]:
    """The unknown kinds it carries of that use (``how``: quaff, read) it has not tried."""
    unknown_here = look.of_pack(unknowns)
    if not unknown_here:
        return unknown_here
    return [c for c in unknown_here if c.kind.use == how and c.kind.name not in look.memory.tried]


def try_unknown(look: DelverView, how: str, todo: list[Carried] | None = None) -> str | None:
    """The key that uses (``how``: quaff, read) the first unknown kind of that use it has not tried,
    once: used, it goes by its own name (a plugin's disguise may outlast a use). ``todo``: those
    kinds (:func:`untried`), when the caller has them."""
    if todo is None:
        todo = untried(look, how)
    if not todo:
        return None
    look.memory.tried.add(todo[0].kind.name)
    return use(look, how, todo[0].letter)


def read_aimed(look: DelverView) -> str | None:
    if not look.engaged:
        return None
    scrolls = look.of_pack(aimed)  # known ones (an unknown scroll is aimed by no one: read_unknown)
    if not scrolls:
        return None
    game = look.game
    costly = worth_a_shot(look)
    if costly is None:
        return None
    target = game.position(costly)
    for c in sorted(scrolls, key=lambda c: (-int(c.kind.params.get("damage", 0)), c.letter)):
        kind = c.kind
        if kind.target == "nearest" and look.nearest != costly:
            continue
        if kind.radius and look.distance_to(target) <= kind.radius:
            continue  # it would be caught in its own blast
        return use(look, "read", c.letter, target)
    return None


def escape(look: DelverView) -> str | None:
    """A known scroll that takes it away at once (teleport), read while a blow can reach it: what
    it had carried to its death, run after run, while it fled on foot from monsters that kept up."""
    scrolls = look.of_pack(escaping)
    return use(look, "read", scrolls[0].letter) if scrolls and look.threats else None


def escaping(carried: list[Carried]) -> list[Carried]:
    return [c for c in carried if not unknown(c.kind) and escapes(c.kind)]


def unknowns(carried: list[Carried]) -> list[Carried]:
    """The unknown potions and scrolls carried, by letter."""
    return [c for c in carried if unknown(c.kind) and c.kind.use in ("quaff", "read")]


def identifies(carried: list[Carried]) -> list[Carried]:
    """The known scrolls that identify."""
    return [c for c in carried if c.kind.use == "read" and c.kind.effect == "identify"]


def learn(look: DelverView) -> str | None:
    """Learn what it carries, as a player does, only when safe (full HP, no monster in view):
    read a scroll of identify while something is unknown, else drink an unknown potion to see what
    it was (an unknown scroll is read with a monster in view: :func:`read`), each kind once
    (:func:`try_unknown`)."""
    if look.monsters or look.hp < look.max_hp:
        return None
    scrolls = look.of_pack(identifies)
    if scrolls and any(unknown(c.kind) for c in look.carried):
        return use(look, "read", scrolls[0].letter)
    return try_unknown(look, "quaff")


def pick_up(look: DelverView) -> str | None:
    """Pick up what lies where it stands (walking picks up only some things in some games), a
    few tries a cell (a full pack says so and leaves it there). Equipment no better than what it
    has for that slot is left lying: a pack full of spare armour has no room for the Amulet."""
    game = look.game
    here = look.lying.get(look.here)
    spot = (game.depth, *look.here)
    if not here or look.key("pickup") is None or look.memory.tries.get(spot, 0) >= PICKUP_TRIES \
            or not any(wanted(look, item) for item in here):
        return None
    look.memory.tries[spot] = look.memory.tries.get(spot, 0) + 1
    look.memory.collecting = 0
    return use(look, "pickup", "a")


def wanted(look: DelverView, item: int) -> bool:
    """Whether an item lying there is worth a letter of the pack: anything but equipment no
    better than the best it has for that slot (equipment is known on sight, as for a player)."""
    known = look.of_pack(wanted_lying)  # an item's kind stays its own: asked once per item and pack
    if item not in known:
        kind = look.game.kind_of(item)
        known[item] = (kind is None or getattr(kind, "use", None) != "wear"
                       or worth(kind) > look.of_pack(best_by_slot).get(kind.slot, -1))
    return known[item]


def wanted_lying(carried: list[Carried]) -> dict[int, bool]:
    """What :func:`wanted` answered for each item with this pack (filled as it is asked)."""
    return {}


def best_by_slot(carried: list[Carried]) -> dict[str, int]:
    """The worth of the best piece it carries (worn or not) for each slot."""
    best: dict[str, int] = {}
    for c in carried:
        if c.kind.use == "wear":
            best[c.kind.slot] = max(best.get(c.kind.slot, -1), worth(c.kind))
    return best


def quest_lies(look: DelverView, cell: tuple[int, int]) -> bool:
    """Whether the Amulet (a quest item) lies on ``cell``."""
    return any(quest(kind) for kind in map(look.game.kind_of, look.lying.get(cell, ())) if kind is not None)


def make_room(look: DelverView) -> str | None:
    """The Amulet lies where it stands and the pack is full: drop what it needs least (equipment
    it does not wear, the worst first; else the first letter that is neither worn, healing nor a
    key) to take it."""
    if len(look.carried) < limits.MAX_PACK or look.key("drop") is None or not quest_lies(look, look.here):
        return None
    spare = [c for c in look.carried if not c.worn and not quest(c.kind) and "opens" not in c.kind.params]
    if not spare:
        return None
    worst = min(spare, key=lambda c: (c.kind.use != "wear", is_heal(c.kind), worth(c.kind), c.letter))
    look.memory.tries.pop((look.game.depth, *look.here), None)  # room made: pick up again
    return use(look, "drop", worst.letter)


def wear(look: DelverView) -> str | None:
    """Wear what is better than what it wears in that slot (attack and defense alike)."""
    best = look.of_pack(best_to_wear)
    return use(look, "wear", best.letter) if best is not None else None


def best_to_wear(carried: list[Carried]) -> Carried | None:
    """The best of what is better than what it wears in that slot, or None."""
    worn = {c.kind.slot: worth(c.kind) for c in carried if c.worn}
    better = [c for c in carried if c.kind.use == "wear" and not c.worn and worth(c.kind) > worn.get(c.kind.slot, 0)]
    return max(better, key=lambda c: (worth(c.kind), c.letter)) if better else None


def carrying_quest(look: DelverView) -> bool:
    """Whether it carries what wins the game when carried out (the Amulet)."""
    return look.of_pack(quests)


def quests(carried: list[Carried]) -> bool:
    return any(quest(c.kind) for c in carried)
