"""Bats for Undercroft: a third-party plugin, found through the ``undercroft`` entry-point group.

A bat is weak and fast (speed 200: two moves per player turn). Its behaviour, ``flutter``,
spends half its turns on a random legal step and the other half chasing like everybody else.

It shows one of each kind a plugin registers for play, small:

* a status, ``dazed``: a dazed bat flutters at random and never chases;
* a verb, ``blow`` (key ``B``, "Blow what?"), and the item that uses it, the ``bat whistle``:
  blowing it dazes every bat in sight; it is not used up, and with no bat in sight nothing is done
  (no time passes);
* a loot row: whistles lie on the floors of the ``belfry``, the bats' own game (``belfry.toml``).
  The row goes to the belfry, not to the default game, so that installing the example changes the
  default game by its bats alone; a plugin meant to change the default game's floors writes
  ``register("undercroft", "floor", LootRow(...))``;
* a terrain with an ``on_enter``: not yet (terrain kinds are still to come), see the marked place
  below.
"""

from pathlib import Path

from engine import ItemKind, LootRow, MonsterKind, Move, StatusKind, Verb, hookimpl, load_rules

__version__ = "0.1.0"

STEPS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


def flutter(game, entity):
    if not game.notices(entity):
        return None
    rng = game.rng("ai")
    if game.has_status(entity, "dazed") or rng.random() < 0.5:
        x, y = game.position(entity)
        legal = [(dx, dy) for dx, dy in STEPS if game.passable(x + dx, y + dy)]
        return Move(*rng.choice(legal)) if legal else None
    return game.behaviour("chase")(game, entity)


@hookimpl
def register_monsters(register):
    register(MonsterKind(name="bat", glyph="b", color=(150, 100, 50), hp=3, attack=1, sight=8,
                         speed=200, behaviour="flutter", min_depth=1, weight=30,
                         description="A cave bat: fast, erratic, and it bites."))


@hookimpl
def register_behaviours(register):
    register("flutter", flutter)


# --- a status: dazed ---------------------------------------------------------------------------------


@hookimpl
def register_statuses(register):
    # what it does is flutter's to say (above); a second whistle keeps the longer of the two
    register(StatusKind(name="dazed", label="Dazed", color=(200, 170, 255), stacking="max"))


# --- a verb, and the item that uses it: the bat whistle ----------------------------------------------


def bats_in_sight(game):
    return [m for m in game.visible_monsters() if game.name_of(m) == "bat"]


def daze(game, entity, kind, amount):
    """Every bat the player sees is ``dazed`` for ``params.turns`` turns (default 5). The whistle's
    effect: what blowing it does."""
    bats = bats_in_sight(game)
    for bat in bats:
        game.add_status(bat, "dazed", int(kind.params.get("turns", 5)))
    if not bats:
        return f"You blow the {kind.name}. Nothing answers."
    return f"You blow the {kind.name}: {'the bat reels' if len(bats) == 1 else f'{len(bats)} bats reel'}."


def blow(game, entity, item, target):
    """The verb ``blow``: with a bat in sight, the item's effect (it is not used up); with none,
    nothing is done and no time passes (False)."""
    if not bats_in_sight(game):
        game.log("No bat is in sight to hear it.", kind="warn")
        return False
    kind = game.kind_of(item)
    game.log(daze(game, entity, kind, 1), kind="item")
    return None


@hookimpl
def register_effects(register):
    register("daze", daze)


@hookimpl
def register_items(register):
    register(ItemKind(name="bat whistle", glyph="(", color=(220, 220, 120), effect="daze", params={"turns": 5},
                      use="blow", description="A thin whistle pitched for bats: they reel and lose their way."))


@hookimpl
def register_verbs(register):
    register(Verb(name="blow", key="B", title="Blow what?", act=blow,
                  summary="blow a whistle: every bat in sight is dazed"))


# --- a loot row, and the game it goes to -------------------------------------------------------------


@hookimpl
def register_games(register):
    register(load_rules(Path(__file__).with_name("belfry.toml")))


@hookimpl
def register_loot(register):
    register("belfry", "floor", LootRow(item="bat whistle", weight=6, min_depth=1))


# --- a terrain with an on_enter ----------------------------------------------------------------------
# To come (#24 item 1: terrain kinds are not in Undercroft yet): guano, a floor terrain whose
# on_enter says "Your feet slip in the guano." Its register hook goes here, and the belfry's caves
# get it through belfry.toml.
