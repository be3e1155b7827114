"""Growth: the player gains experience from kills and levels up, choosing what grows.

A monster the player kills gives its kind's ``params.xp`` (else ``hp + 2 * attack``). The
player's ``Experience`` (a component saved with the run) counts it; reaching ``next`` raises the
level, and the player is asked which way to grow (``game.ask("growth.level", ...)``): more HP,
more attack or more defense; the answer comes back through ``on_answer``.

Every number is the preset's, in ``[params.growth]`` (a game without that table has no growth):

- ``first`` (xp for level 2) and ``step``: each level wants ``step`` more than the one before, so
  level L+1 is reached at ``first * L + step * L * (L - 1) / 2`` xp in all;
- ``hp``, ``attack``, ``defense``: what each choice adds (more HP heals that much too);
- ``heal``: HP restored on every level-up;
- ``regen``: the player regains 1 HP every ``regen`` turns (0: never).
"""

from dataclasses import dataclass

from engine import Fighter, LevelledUp, hookimpl
from engine.kit.limits import MAX_STAT

QUESTION = "growth.level"
CHOICES = ("More HP", "More attack", "More defense")  # each option starts so; its amounts follow


@dataclass
class Experience:
    """The player's level, experience and the experience the next level wants (in all)."""

    level: int = 1
    xp: int = 0
    next: int = 0


def _params(game) -> dict | None:
    return game.rules.params.get("growth")


def threshold(params: dict, level: int) -> int:
    """The experience (in all) at which ``level`` is left for the next."""
    first, step = int(params.get("first", 10)), int(params.get("step", 10))
    return first * level + step * level * (level - 1) // 2


def experience(game) -> Experience | None:
    """The player's Experience, made on first use in a game with growth."""
    params = _params(game)
    if params is None:
        return None
    exp = game.component(game.player, Experience)
    if exp is None:
        exp = Experience(1, 0, threshold(params, 1))
        game.add_component(game.player, exp)
    return exp


def gains(params: dict) -> tuple[int, int, int]:
    """What each choice adds: (max HP, attack, defense)."""
    return int(params.get("hp", 6)), int(params.get("attack", 1)), int(params.get("defense", 1))


def options(params: dict) -> list[str]:
    """The level-up question's options, each with what it adds: "More HP: +6 max HP (and 6 HP)"."""
    hp, attack, defense = gains(params)
    return [f"{CHOICES[0]}: +{hp} max HP (and {hp} HP now)", f"{CHOICES[1]}: +{attack} attack",
            f"{CHOICES[2]}: +{defense} defense"]


def xp_of(kind) -> int:
    """What killing a monster of ``kind`` is worth: its ``params.xp``, else hp + 2 * attack."""
    return int(kind.params.get("xp", kind.hp + 2 * kind.attack))


@hookimpl
def on_level_generated(game):
    experience(game)  # shown from the first turn: level 1, 0 xp


@hookimpl
def on_death(game, entity, killer):
    """The player killed a monster: its xp, and a question per level gained (its title says
    the HP the level-up gave back). The level-up line is said after the player's action, after
    every kill it made (a ``level`` line: engine.core.kinds.saying)."""
    if killer is None or not game.is_player(killer) or game.is_player(entity):
        return
    exp = experience(game)
    kind = game.kind_of(entity)
    if exp is None or kind is None:
        return
    params = _params(game)
    exp.xp += xp_of(kind)
    while exp.xp >= exp.next:
        exp.level += 1
        exp.next = threshold(params, exp.level)
        game.announce(LevelledUp(game.player, exp.level))
        healed = game.heal(game.player, int(params.get("heal", 0)))
        game.log(params.get("message", "You feel more experienced: level {level}.").format(level=exp.level),
                 kind="level")
        title = f"Level {exp.level}" + (f": you regain {healed} HP." if healed else ".") + " What grows?"
        game.ask(QUESTION, title, options(params))


@hookimpl
def on_answer(game, question, choice):
    """Grow as the player chose: more max HP (and that much HP), attack or defense."""
    params = _params(game)
    if question != QUESTION or params is None:
        return
    fighter = game.component(game.player, Fighter)
    hp, attack, defense = gains(params)
    if choice == 0:
        fighter.max_hp = grown(fighter.max_hp, hp, least=1)
        game.heal(game.player, hp)
        game.log(f"You feel tougher: +{hp} max HP ({fighter.max_hp} in all).", kind="level")
    elif choice == 1:
        fighter.attack = grown(fighter.attack, attack)
        game.log(f"You feel stronger: +{attack} attack.", kind="level")
    elif choice == 2:
        fighter.defense = grown(fighter.defense, defense)
        game.log(f"You feel nimbler: +{defense} defense.", kind="level")


def grown(stat: int, gain: int, least: int = 0) -> int:
    """A stat after a gain, within ``least``..MAX_STAT (what a run save holds: a long run's growth
    saturates)."""
    return max(least, min(MAX_STAT, stat + gain))


@hookimpl
def on_turn_end(game):
    """The player heals 1 HP every ``regen`` turns, in a game that says so."""
    params = _params(game)
    every = int(params.get("regen", 0)) if params is not None else 0
    if every > 0 and game.turn % every == 0:
        game.heal(game.player, 1)


@hookimpl
def register_components(register):
    register(Experience)
