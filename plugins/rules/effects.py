"""The item effects: healing and gold (every game's), and the default game's potions and scrolls.

An effect is ``fn(game, entity, kind, amount)`` (``target=(x, y)`` too when its kind aims), given
the game API (``engine.GameAPI``); it returns the message to log, or None. Its numbers are the
kind's ``params`` (``content/items.toml``): an effect names no item.

Statuses they put on creatures (``hasted``, ``confused``) are the conditions plugin's to act on
(``plugins/rules/conditions.py``).
"""


from engine import Blast, Bolt, GoldFound, Inventory, hookimpl
from engine.kit.limits import MAX_STAT
from engine.kit.regions import grown

LIGHTNING = (190, 220, 255)  # the bolt's cells, lit for a moment in the window
FIRE = (255, 140, 40)  # the blast's cells


def healing_share(game) -> int:
    """The preset's ``[params.healing] share``: the percent of max HP a healing item gives back at
    least (0: none, the item's own amount only)."""
    return int((game.rules.params.get("healing") or {}).get("share", 0))


def healed(game, entity, least: int) -> int:
    """HP a healing item whose own amount is ``least`` gives back to ``entity``: that, or the
    preset's share of the drinker's max HP when that is more (a potion that heals 8 of 20 HP on
    depth 1 still matters at 80 HP on depth 10)."""
    share = healing_share(game)
    return max(least, game.hp(entity)[1] * share // 100) if share > 0 else least


def heal_amount(game, entity, kind, default: int = 8) -> int:
    """HP one ``kind`` gives back to ``entity``: its ``params.amount`` (``default``), scaled as
    :func:`healed` says."""
    return healed(game, entity, int(kind.params.get("amount", default)))


@hookimpl(trylast=True)  # after the plugins that name an item the player does not know (identify)
def item_description(game, item, kind):
    """A healing kind's description says what it gives back now, where the preset scales healing
    to max HP and that is more than the kind's own amount (its description names that amount)."""
    share = healing_share(game)
    if kind.effect not in ("heal", "heal_dazed") or share <= 0:
        return None
    least = int(kind.params.get("amount", 15 if kind.effect == "heal_dazed" else 8))
    now = healed(game, game.player, least)
    return f"{kind.description} Now {now} HP: {share}% of your max HP." if now > least else None


def heal(game, entity, kind, amount):
    """Heal ``params.amount`` HP per item (default 8; more where ``[params.healing]`` scales it to
    max HP: :func:`heal_amount`), never above max; said as drinking it, or as eating it for a kind
    eaten (``use = "eat"``: food)."""
    game.heal(entity, heal_amount(game, entity, kind) * amount)
    return game.rules.message("eat" if kind.use == "eat" else "drink", item=game.item_name(None, kind))


def gold(game, entity, kind, amount):
    """The amount rolled (the kind's ``amount``) joins the picker's gold (at most ``MAX_STAT``:
    what a run save holds). No params."""
    purse = game.component(entity, Inventory)
    purse.gold = min(MAX_STAT, purse.gold + amount)
    game.announce(GoldFound(amount))
    return game.rules.message("pickup_gold", amount=amount)


def _the(game, entity):
    return "you" if game.is_player(entity) else f"the {game.name_of(entity)}"


def haste(game, entity, kind, amount):
    """The drinker is ``hasted`` for ``params.turns`` turns per item (default 20): it acts twice as
    often. ``params.message``: what is said (default "You feel yourself speed up.")."""
    game.add_status(entity, "hasted", min(MAX_STAT, int(kind.params.get("turns", 20)) * amount))
    return kind.params.get("message", "You feel yourself speed up.")


def heal_dazed(game, entity, kind, amount):
    """Heal ``params.amount`` HP per item (default 15; scaled as :func:`heal_amount` says), at the
    price of being ``confused`` for ``params.turns`` turns (default 8). ``params.message``: what is said."""
    game.heal(entity, heal_amount(game, entity, kind, 15) * amount)
    game.add_status(entity, "confused", int(kind.params.get("turns", 8)))
    return kind.params.get("message", "You feel much better, and the room spins.")


def _monster_at(game, cell):
    return next((e for e in game.entities_at(*cell) if e in game.monsters()), None)


def _said_killed(game, killer, victims):
    """Each creature of ``victims`` (entity, name, damage) that died, said as a kill (the
    preset's ``player_kill``, or ``monster_kill_monster`` for another killer), in order. A
    level-up a kill earns is said after (the log holds it until the action is over)."""
    for victim, name, dealt in victims:
        if game.hp(victim)[0] == 0 and not game.is_player(victim):
            names = {"attacker": game.name_of(killer), "target": name, "damage": dealt}
            game.log(game.rules.message("player_kill" if game.is_player(killer) else "monster_kill_monster",
                                        **names))


def lightning(game, entity, kind, amount, target=None):
    """A bolt of ``params.damage`` (default 12) at the monster on ``target`` (the nearest one in
    view, for a kind with ``target = "nearest"``); a kill is said after the strike."""
    monster = _monster_at(game, target) if target is not None else None
    if monster is None:
        return game.rules.message("no_target")
    name = game.name_of(monster)
    start = game.position(entity)
    if start is not None:
        game.announce(Bolt(start, target, color=LIGHTNING))
    dealt = game.damage(monster, int(kind.params.get("damage", 12)), by=entity)
    game.log(f"Lightning strikes the {name} for {dealt}!", kind="hit")
    _said_killed(game, entity, [(monster, name, dealt)])
    return None


def confuse(game, entity, kind, amount, target=None):
    """The monster on ``target`` is ``confused`` for ``params.turns`` turns (default 10): it
    stumbles at random."""
    monster = _monster_at(game, target) if target is not None else None
    if monster is None:
        return game.rules.message("no_target")
    game.add_status(monster, "confused", int(kind.params.get("turns", 10)))
    return f"The {game.name_of(monster)} looks about, bewildered."


def fireball(game, entity, kind, amount, target=None):
    """``params.damage`` (default 10) to every creature in the blast (``kind.radius`` around
    ``target``), the reader too when it stands there."""
    if target is None:
        return game.rules.message("no_target")
    damage = int(kind.params.get("damage", 10))
    cells = game.area(target, kind.radius)
    game.announce(Blast(tuple(cells), color=FIRE))
    hurt = [e for cell in cells for e in game.entities_at(*cell)
            if game.hp(e)[1] > 0]
    said, burnt = [], []
    for creature in hurt:
        name = _the(game, creature)
        # the reader's own blast is named as the cause (the morgue's "killed by your own scroll
        # of fireball"), not the reader
        dealt = game.damage(creature, damage, by=f"your own {kind.name}" if creature == entity else entity)
        said.append(f"{name} ({dealt})")
        burnt.append((creature, game.name_of(creature), dealt))
    # the reader burnt is damage taken (it reads as a warning); else damage dealt
    game.log("The fireball bursts" + (": it burns " + ", ".join(said) + "." if said else "."),
             kind="hurt" if entity in hurt else "hit")
    _said_killed(game, entity, burnt)
    return None


def teleport(game, entity, kind, amount):
    """The reader lands on a random free floor cell of the level. ``params.message``: what is said."""
    game.teleport(entity, "effects:teleport")
    return kind.params.get("message", "The world blurs: you are elsewhere.")


def magic_mapping(game, entity, kind, amount):
    """The level's floor, and the walls beside it, join what the reader remembers.
    ``params.message``: what is said."""
    game.reveal(grown(~game.walls()))  # floor cells and their 8 neighbours
    return kind.params.get("message", "A map of the level forms in your mind.")


@hookimpl
def register_effects(register):
    register("heal", heal)
    register("gold", gold)
    register("haste", haste)
    register("heal_dazed", heal_dazed)
    register("lightning", lightning)
    register("confuse", confuse)
    register("fireball", fireball)
    register("teleport", teleport)
    register("magic_mapping", magic_mapping)
