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
* a rule, the ruleset ``belfry`` (which ``belfry.toml`` names): there a wall bump takes the turn;
* a system, the roost: in the belfry, every 20 turns a bat flies in out of the player's sight;
* a bot, ``bat-hunter`` (``python -m engine sim --bot bat-hunter --game belfry``): it blows the
  whistle at bats in sight, and otherwise lets the built-in ``delver`` play;
* a terrain with an ``on_enter``, ``guano``: "Your feet slip in the guano." The belfry's levels
  get patches of it as they are made (``on_level_generated``).

The system and the guano keep to the belfry (its ruleset says which game is played), so the
default game is the same with the example installed, its bats aside. Everything goes through
``engine``'s public names and the game API, as a third-party plugin's must.
"""

from pathlib import Path

from engine import (
    ActionResult,
    ItemKind,
    LootRow,
    Monster,
    MonsterKind,
    Move,
    Phase,
    Ruleset,
    StatusKind,
    System,
    TerrainKind,
    Verb,
    hookimpl,
    load_rules,
)

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


# --- a rule of the belfry's own: a ruleset -----------------------------------------------------------


class Belfry(Ruleset):
    """The belfry's rules where they differ from the engine's: in its dark caves, feeling your way
    into the rock takes the turn (the bats move on), where elsewhere a wall bump costs nothing."""

    name = "belfry"

    def bump_wall(self, game, player):
        game.log("You grope at the cold rock.")
        return ActionResult.success()


@hookimpl
def register_rulesets(register):
    register(Belfry())  # belfry.toml names it: ruleset = "belfry"


def in_belfry(game):
    """Whether this run plays the belfry: the system and the guano below keep to it, so that the
    default game is the same with the example installed or not (its bats aside)."""
    return game.rules.ruleset == Belfry.name


# --- a system: the roost -------------------------------------------------------------------------


class Roost(System):
    """Every ``EVERY`` turns a bat flies in from the roost, on a floor cell out of the player's
    sight, while the level holds fewer than ``MOST`` bats. Stateless, as a system is: the turn says
    when, the world how many."""

    name = "bats:roost"
    phases = (Phase.END_OF_TURN,)
    EVERY = 20
    MOST = 8
    TRIES = 50  # random cells tried for a free one out of sight

    def run(self, game):
        if not in_belfry(game) or game.turn % self.EVERY:
            return
        if sum(1 for _, monster in game.query(Monster) if monster.kind == "bat") >= self.MOST:
            return
        rng = game.rng("bats:roost")
        width, height = game.size
        for _ in range(self.TRIES):
            x, y = rng.randrange(width), rng.randrange(height)
            if game.passable(x, y) and not game.sees(x, y) and game.spawn("bat", x, y) is not None:
                return


@hookimpl
def register_systems(register):
    register(Roost())


# --- a bot: the bat hunter ---------------------------------------------------------------------------


HUSH = 5  # turns between two blows of the bat hunter: the whistle's daze lasts 5


def hunter():
    """A bot for the belfry (``sim --bot bat-hunter --game belfry``): with a bat in sight and a
    whistle in the pack, it blows the whistle (``HUSH`` turns apart, while the bats reel; with two
    whistles, the menu it opens is answered with the first); otherwise the built-in ``delver``
    plays. It looks only at what the player knows, as every bot must, and keeps its memory here,
    in the run's own closure."""
    delver, blown, asked = None, -HUSH, False

    def play(game):
        nonlocal delver, blown, asked
        delver = delver or game.bot("delver")
        prompt, was_asked, asked = game.prompt(), asked, False
        if was_asked and prompt is not None and prompt["kind"] == "menu":
            return prompt["options"][0]["letter"]  # "Blow what?": the first whistle
        key = next((token for token, command in game.keys().items() if command == "blow"), None)
        has_whistle = any(game.name_of(item) == "bat whistle" for item in game.pack())
        if prompt is None and key and has_whistle and bats_in_sight(game) and game.turn - blown >= HUSH:
            blown, asked = game.turn, True
            return key
        return delver(game)

    return play


@hookimpl
def register_bots(register):
    register("bat-hunter", hunter, per_run=True, summary="blows the bat whistle at bats in sight, else delves")


# --- a terrain with an on_enter: guano -------------------------------------------------------------


def slip(game, entity, x, y):
    if game.is_player(entity):
        game.log("Your feet slip in the guano.")


@hookimpl
def register_terrain(register):
    register(TerrainKind(name="guano", glyph=",", color=(170, 160, 110), on_enter=slip,
                         description="Bat droppings: soft, and slippery underfoot."))



SPARSITY = 40  # floor cells per patch of guano


@hookimpl
def on_level_generated(game, level):
    """The belfry's floors get patches of guano under the roosts: one floor cell in ``SPARSITY``
    and the floor around each. Guano is walkable, so the level stays as connected as it was."""
    if not in_belfry(game):
        return
    rng = game.rng("bats:guano")
    floor = [(x, y) for y in range(game.size[1]) for x in range(game.size[0]) if game.terrain(x, y).name == "floor"]
    for cx, cy in rng.sample(floor, len(floor) // SPARSITY):
        for x, y in game.area((cx, cy), 1):
            if game.terrain(x, y).name == "floor":
                game.set_terrain(x, y, "guano")
