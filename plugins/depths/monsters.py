"""More monsters for the default game, and the guardian of the Amulet (issue #25, item 7).

The kinds are registered here, beside the behaviours that make them what they are (a third party
would ship them together); the plain kinds of the first release stay in ``content/monsters.toml``.
Colours chosen with tests/test_palette.py (every monster at least 20 CIEDE2000 apart, lit).

============  ==  ======  =======  ======  =====  ==  ===========================================
kind          hp  attack  defense  depths  wght   xp  what it does (behaviour)
============  ==  ======  =======  ======  =====  ==  ===========================================
cave spider    5     1       0      2-6     25     5  ``venomous``: its bite envenoms (1 HP a turn)
cutpurse       7     1       0      2-7     15     8  ``thief``: snatches an item and runs
goblin shaman 10     2       0      4-9     12    16  ``summoner``: calls goblins to its side
shade         14     6       0      5-10    12    24  ``hunt``, seen only beside you
ghoul         24     8       1      6-10    12    30  ``hunt``
Vorgath the   60    11       2      (10)     -   120  ``warden``: the Amulet's guardian (below)
Warden
============  ==  ======  =======  ======  =====  ==  ===========================================

- ``venomous``: ``hunt``; its blow also puts ``envenomed`` on what it hits for ``params.venom``
  turns (default 3): 1 HP a turn, the cause named "<kind> venom".
- ``thief``: ``hunt``; beside the player, instead of a blow it snatches one item from the pack
  (one of a stack; never one in use nor an item only carried, the Amulet) and from then on runs
  along the safety map, declared ``"fleeing"``, striking only when cornered; out of the player's
  sight it lies low (sleeps). Killed, it drops what it took (the :class:`Loot` it carries, saved
  with the run). With nothing to take, it strikes.
- ``summoner``: ``hunt``, a coward below half HP; while it notices the player it calls
  ``params.count`` (default [1, 2]) monsters of ``params.calls`` (default ["goblin"]) onto free
  cells beside it, awake, every ``params.every`` turns (default 6), at most ``params.most`` calls in
  its life (default 3), and never while ``params.summons`` called monsters (default 3) live on
  the level.
- ``warden``: stays asleep by the Amulet until it notices the player; then it announces itself and
  hunts. The first time it falls to half HP or below it roars and calls ``params.guards`` (default
  two orcs) beside it. When it has lost the player and searched, it goes back to its post (where
  it was placed) and sleeps there again. It is placed once, by the preset's ruleset beside the
  Amulet (plugins/presets/undercroft.py, from ``[params.monsters] boss``); its ``min_depth`` is out
  of reach, so the spawn tables never place it. Its name is a proper name (a capital letter):
  "Vorgath the Warden hits you for 9." Its death is said in the log ("You kill Vorgath the
  Warden!", then its own line).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Action, ActionResult, Attack, Charges, Equipped, Item, MonsterKind, Move, StatusKind, hookimpl
from engine.kit import limits
from engine.plugins.rules.monster_ai import Hunting, hunt

BOSS = "Vorgath the Warden"
VENOM = 3  # turns of venom a bite gives, by default
SUMMONS = 3  # called monsters alive on a level, at most, by default
EVERY = 6  # turns between a summoner's calls, by default
CALLS = 3  # calls in a summoner's life, by default
STATUS_COLOR = (120, 200, 235)  # the sidebar's status colour (plugins/rules/conditions.py's)


# -- what the monsters carry and remember (components, saved with the run) --------------------
@dataclass
class Loot:
    """What a thief took from the pack: the item kind, how many, and its charges (None: none)."""

    kind: str
    amount: int = 1
    charges: int | None = None


@dataclass
class Summoned:
    """A monster a summoner called: they count against ``params.summons``."""

    by: str = ""


@dataclass
class Calling:
    """A summoner's calls: those it has left, and the turns until it may call again."""

    left: int
    wait: int = 0


@dataclass
class Post:
    """The warden's post (where it was placed), whether it has shown itself, and has called its guards."""

    x: int
    y: int
    roused: bool = False
    called: bool = False


# -- actions ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bite(Attack):
    """A blow that also envenoms what it hits for ``turns`` turns."""

    turns: int = VENOM
    by: str = "venom"

    def perform(self, game, entity):
        result = Attack(self.target).perform(game, entity)
        if game.hp(self.target)[0] > 0:
            game.add_status(self.target, "envenomed", self.turns, by=self.by)
        return result


def stealable(game) -> list[int]:
    """The pack's items a thief may take: not one in use, not one only carried (the Amulet)."""
    out = []
    for item in game.pack():
        kind = game.kind_of(item)
        if kind is not None and kind.use != "carry" and game.component(item, Equipped) is None:
            out.append(item)
    return out


@dataclass(frozen=True)
class Steal(Action):
    """Snatch one item from the player's pack (one of a stack), chosen from the run's stream
    ``depths:thief``; with nothing to take, a blow instead."""

    target: int

    def perform(self, game, entity):
        items = stealable(game) if game.is_player(self.target) else []
        if not items:
            return Attack(self.target).perform(game, entity)
        item = game.rng("depths:thief").choice(items)
        kind, stack, charges = game.kind_of(item), game.component(item, Item), game.component(item, Charges)
        name = game.name_of(item)  # as the player knows it: an unknown potion stays unknown
        if stack.amount > 1:
            stack.amount -= 1
        else:
            game.remove(item)
        game.add_component(entity, Loot(kind.name, 1, None if charges is None else charges.left))
        game.log(f"{_the(game, entity)} snatches your {name} and runs!", kind="warn")
        return ActionResult.success()


@dataclass(frozen=True)
class Call(Action):
    """Call ``count`` monsters of ``kinds`` (chosen from the run's stream ``depths:summon``) onto
    free cells beside the caller, awake; ``said``: the line said when the player sees it."""

    kinds: tuple[str, ...]
    count: int
    said: str = "{monster} calls for help!"

    def perform(self, game, entity):
        x, y = game.position(entity)
        rng = game.rng("depths:summon")
        cells = [(x + dx, y + dy) for dx, dy in game.moves.steps if game.passable(x + dx, y + dy)]
        rng.shuffle(cells)
        called = 0
        for cell in cells[: self.count]:
            monster = game.spawn(rng.choice(self.kinds), *cell)
            if monster is not None:
                game.add_component(monster, Summoned(game.name_of(entity)))
                game.wake(monster)
                called += 1
        if called and entity in game.visible_monsters():
            game.log(self.said.format(monster=_the(game, entity)), kind="warn")
        return ActionResult.success()


def _the(game, entity: int) -> str:
    """A monster's name to begin a line: "The cutpurse", or a proper name as it is."""
    name = game.name_of(entity)
    return name if name[:1].isupper() else f"The {name}"


# -- behaviours ------------------------------------------------------------------------------
def venomous(game, me):
    """``hunt``; beside the player its blow envenoms (see the module doc). Params: ``venom``
    (turns, default 3), and ``hunt``'s."""
    action = hunt(game, me)
    if isinstance(action, Attack) and not action.ranged:
        kind = game.kind_of(me)
        return Bite(action.target, turns=int(kind.params.get("venom", VENOM)), by=f"{kind.name} venom")
    return action


def thief(game, me):
    """Snatches an item and runs (see the module doc). Params: ``hunt``'s."""
    player = game.player
    if game.component(me, Loot) is None:
        if game.notices(me) and game.adjacent(me, player) and stealable(game):
            return Steal(player)
        return hunt(game, me)
    if not game.notices(me):
        game.sleep(me)  # lies low with what it took, until it notices the player again
        return None
    game.declare(me, "fleeing")
    step = game.step_away(me, [game.position(player)])
    if step is not None:
        return Move(*step)
    return Attack(player) if game.adjacent(me, player) else None


def summons_alive(game) -> int:
    return len(game.query(Summoned))


def summoner(game, me):
    """Calls monsters to its side while it notices the player, bounded (see the module doc).
    Params: ``calls``, ``count``, ``every``, ``most``, ``summons``, and ``hunt``'s (``flee``
    50 by default)."""
    if not game.notices(me):
        return hunt(game, me)
    params = game.kind_of(me).params
    calling = game.component(me, Calling)
    if calling is None:
        calling = Calling(int(params.get("most", CALLS)))
        game.add_component(me, calling)
    if calling.wait > 0:
        calling.wait -= 1
    elif calling.left > 0 and summons_alive(game) < int(params.get("summons", SUMMONS)):
        calling.left -= 1
        calling.wait = int(params.get("every", EVERY))
        low, high = params.get("count", [1, 2])
        count = game.rng("depths:summon").randint(int(low), int(high))
        return Call(tuple(params.get("calls", ["goblin"])), count)
    return hunt(game, me, flee=50)


def warden(game, me):
    """The Amulet's guardian (see the module doc). Params: ``guards`` (kinds it calls at half HP),
    and ``hunt``'s."""
    post = game.component(me, Post)
    if post is None:
        post = Post(*game.position(me))
        game.add_component(me, post)
    if game.notices(me):
        if not post.roused:
            post.roused = True
            game.log(f"{game.name_of(me)} rises from beside the Amulet!", kind="warn")
        hp, max_hp = game.hp(me)
        if not post.called and hp * 2 <= max_hp:
            post.called = True
            guards = tuple(game.kind_of(me).params.get("guards", ["orc", "orc"]))
            return Call(guards, len(guards), said="{monster} roars, and its guards come!")
        return hunt(game, me)
    memory = game.component(me, Hunting)
    if memory is not None and memory.search > 0:
        return hunt(game, me)  # where it last saw the player, searching
    if game.position(me) != (post.x, post.y):
        step = game.step_toward(me, (post.x, post.y))
        if step is not None:
            return Move(*step)
    game.sleep(me)  # at its post (or no way back there): asleep until it notices the player
    return None


# -- hooks -----------------------------------------------------------------------------------
def envenomed_tick(game, entity, status):
    game.damage(entity, 1, by=str(status.params.get("by", "venom")))


@hookimpl
def on_death(game, entity):
    """A thief drops what it took; the warden's fall is said."""
    loot = game.component(entity, Loot)
    where = game.position(entity)
    if where is None:
        return
    if loot is not None:
        item = game.spawn(loot.kind, *where, loot.amount)
        charges = game.component(item, Charges) if item is not None else None
        if charges is not None and loot.charges is not None:
            charges.left = loot.charges
        if item is not None and game.sees(*where):
            game.log(f"{_the(game, entity)} drops your {game.name_of(item)}.")
    if game.component(entity, Post) is not None or game.name_of(entity) == BOSS:
        game.log(f"{game.name_of(entity)} falls, and the Amulet lies unguarded.", kind="kill")


@hookimpl
def register_statuses(register):
    register(StatusKind(name="envenomed", label="Envenomed", color=STATUS_COLOR, on_tick=envenomed_tick))


@hookimpl
def register_components(register):
    for cls in (Loot, Summoned, Calling, Post):
        register(cls)


@hookimpl
def register_behaviours(register):
    register("venomous", venomous)
    register("thief", thief)
    register("summoner", summoner)
    register("warden", warden)


KINDS = [
    MonsterKind(name="cave spider", glyph="s", color=(152, 0, 208), hp=5, attack=1, sight=6,
                behaviour="venomous", min_depth=2, max_depth=6, weight=25,
                params={"xp": 5, "venom": VENOM, "animal": True},
                description="A pale spider as big as a hand: its bite envenoms."),
    MonsterKind(name="cutpurse", glyph="t", color=(0, 252, 198), hp=7, attack=1, sight=8,
                behaviour="thief", min_depth=2, max_depth=7, weight=15, params={"xp": 8},
                description="A quick-fingered rogue: it snatches from your pack and runs. Kill it to get it back."),
    MonsterKind(name="goblin shaman", glyph="G", color=(144, 112, 152), hp=10, attack=2, sight=8,
                behaviour="summoner", min_depth=4, max_depth=9, weight=12,
                params={"xp": 16, "calls": ["goblin"], "count": [1, 2], "every": EVERY, "most": CALLS,
                        "summons": SUMMONS, "flee": 50},
                description="A goblin hung with bones: it calls other goblins to its side."),
    MonsterKind(name="shade", glyph="S", color=(0, 0, 104), hp=14, attack=10, sight=8,
                behaviour="hunt", min_depth=5, weight=12, params={"xp": 24}, unseen_beyond=1,
                description="A shape of darkness: you see it only when it is beside you."),
    MonsterKind(name="ghoul", glyph="z", color=(208, 168, 248), hp=30, attack=13, defense=1, sight=8,
                behaviour="hunt", min_depth=6, weight=14, params={"xp": 30},
                description="A grey eater of the dead, strong and patient."),
    MonsterKind(name=BOSS, glyph="W", color=(200, 0, 112), hp=100, attack=16, defense=2, sight=9,
                behaviour="warden", min_depth=limits.MAX_DEPTH, weight=1,
                params={"xp": 120, "drops": "rich", "guards": ["orc", "orc"]},
                description="The Warden of the Undercroft, set to guard the Amulet: it calls its guards when hurt."),
]


@hookimpl
def register_monsters(register):
    for kind in KINDS:
        register(kind)
