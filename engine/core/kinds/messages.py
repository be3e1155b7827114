"""A preset's message templates: the engine's defaults, the HUD's, the fields each may use, and the
spec that checks a preset's ``[messages]`` table against them.

``GameRules.message`` (engine.core.kinds.rules) fills a template, the preset's over :data:`DEFAULT_MESSAGES`;
the HUD's templates are filled by engine.core.play.status.
"""

from __future__ import annotations

import re
import string
from typing import Any

from engine.core.kinds.schema import Map, Spec, Str, fail
from engine.kit import limits
from engine.kit.words import article, takes_an

DEFAULT_MESSAGES = {
    "welcome": "Welcome to the Undercroft. Find the stairs down.",
    "player_hit": "You hit the {target} for {damage}.",
    "player_kill": "You kill the {target}!",
    "monster_hit": "The {attacker} hits you for {damage}.",
    "monster_kill": "The {attacker} kills you.",
    "monster_hit_monster": "The {attacker} hits the {target} for {damage}.",
    "monster_kill_monster": "The {attacker} kills the {target}.",
    "player_shoot": "You shoot the {target} for {damage}.",
    "monster_shoot": "The {attacker} shoots you for {damage}.",
    "monster_shoot_monster": "The {attacker} shoots the {target} for {damage}.",
    "die": "You die.",
    "wall": "",
    "on_stairs": "There are stairs down here. Press > to descend.",
    "on_upstairs": "There are stairs up here. Press < to climb.",
    "ascend": "You climb to depth {depth}.",
    "no_upstairs": "There are no stairs up here.",
    "no_upstairs_known": "You do not know the way up.",
    "cannot_leave": "You cannot leave the dungeon yet.",
    "won": "You have won!",
    "no_stairs": "There are no stairs here.",
    "descend": "You descend to depth {depth}.",
    "pickup_gold": "You pick up {amount} gold.",
    "pickup": "You pick up the {item} ({letter}).",
    "drink": "You drink the {item} and feel better.",
    "no_potion": "You have no potions.",
    "new_run": "A new run begins.",
    "exit": "You escape!",
    "status_end": "{who} no longer {status}.",
    "explored": "Explored all you can reach.",
    "rest_full": "You are already at full health.",
    "rested": "You are fully healed.",
    "rest_in_vain": "You rest, but feel no better.",
    "rest_hurt": "You cannot rest while losing health.",
    "no_way": "You know no way there.",
    "travel_blocked": "Something is in the way.",
    "no_stairs_known": "You have not found the stairs down.",
    "not_in_view": "Not with the {monster} in view.",
    "in_view": "",
    "pack_full": "Your pack is full: no room for the {item}.",
    "see_here": "You see here: {items}.",
    "nothing_here": "There is nothing here to pick up.",
    "pack_empty": "Your pack is empty.",
    "drop": "You drop the {item}.",
    "no_drop_here": "Not on the stairs: drop it somewhere else.",
    "wear": "You are now using the {item}.",
    "take_off": "You take off the {item}.",
    "cannot_wear": "You cannot wear or wield the {item}.",
    "already_worn": "You are already using the {item}.",
    "nothing_to": "You have nothing to {verb}.",
    "no_charges": "Nothing happens: the {item} has no charges left.",
    "throw_hit": "The {item} hits the {target} for {damage}.",
    "throw_kill": "The {item} kills the {target}!",
    "throw_land": "The {item} lands.",
    "throw_break": "The {item} breaks.",
    "throw_nowhere": "Aim the {item} away from you.",
    "eat": "You eat the {item} and feel better.",
    "no_target": "No target in view.",
    "target_unseen": "You cannot see there.",
    "target_no_monster": "No monster there: Tab moves to the next one.",
    "target_self": "That would reach you too: Enter again to do it anyway, or move the cursor.",
    "look_unknown": "You have not seen this place.",
    "look_remembered": "You remember {what}.",
    "look_remembered_item": "You remember {item} here.",
    "look_you": "you",
    "look_monster": "a {monster} ({hp}/{max_hp} HP, {state})",
}

# The HUD's templates (the window's status line, keys line and death words), filled from
# engine.core.play.status.values with the fields of HUD_FIELDS.
HUD_MESSAGES = {
    "status": "HP {hp}/{max_hp}   Gold {gold}   Potions {potions}   Depth {depth}   Turn {turn}",
    "keys": "arrows/hjklyubn move   . wait   > descend   {verbs}   ? help   Esc quit",  # {verbs}: "q quaff  P pray"
    "death_title": "You die.",
    "death_hint": "R: new run   Esc: quit",
}
HUD_FALLBACK = {"keys_dead": "keys"}  # the keys line after death: the keys line unless the preset says
# ``verbs``: the keys of the item verbs the preset's items use, "q quaff  r read  w wear" (a keys line
# built from what the game's items need: engine.core.turn.verbkeys)
HUD_FIELDS = ("hp", "max_hp", "gold", "potions", "depth", "turn", "run", "seed", "monsters", "game", "level", "xp",
              "xp_next", "verbs")

# The fields each message template may use (a template naming another would fail at that moment
# of play: it is refused when the preset is read). Messages a plugin adds may use any field.
MESSAGE_FIELDS = {
    **dict.fromkeys(("player_hit", "player_kill", "monster_hit", "monster_kill", "monster_hit_monster",
                     "monster_kill_monster", "player_shoot", "monster_shoot", "monster_shoot_monster"),
                    {"attacker", "target", "damage"}),
    "descend": {"depth"}, "ascend": {"depth"}, "pickup_gold": {"amount"}, "pickup": {"item", "letter"},
    "drink": {"item"}, "eat": {"item"},
    **dict.fromkeys(("throw_hit", "throw_kill"), {"item", "target", "damage"}),
    **dict.fromkeys(("throw_land", "throw_break", "throw_nowhere"), {"item"}),
    **dict.fromkeys(("pack_full", "drop", "wear", "take_off", "cannot_wear", "already_worn", "no_charges"),
                    {"item"}),
    "see_here": {"items"}, "nothing_to": {"verb"}, "look_remembered": {"what"},
    "look_remembered_item": {"item", "what"},
    "look_monster": {"monster", "hp", "max_hp", "state"},
    "not_in_view": {"monster"}, "in_view": {"monsters"},
    "status_end": {"who", "status"},
    **{key: set(HUD_FIELDS) for key in (*HUD_MESSAGES, *HUD_FALLBACK)},
}


# The fields filled with text (a name, a letter, a list); every other field is a whole number. A
# template is filled once with each sample when the preset is read, so that a format spec the
# values cannot take ("{depth:s}", "{hp:c}" with a negative HP) is refused then, not in play.
TEXT_FIELDS = frozenset({"attacker", "target", "item", "letter", "items", "verb", "what", "monster", "state",
                         "who", "status", "game", "verbs", "monsters"})
SAMPLE_NUMBERS = (0, -limits.MAX_STAT, limits.MAX_STAT)
SAMPLE_TEXT = "thing"


NAME_FIELDS = ("attacker", "target", "monster")  # the fields a creature's name fills
_ARTICLE = {field: re.compile(r"\b(?:[Tt]he|[Aa]n?) (?=\{" + field + r"[}:!])") for field in NAME_FIELDS}
_INDEFINITE = {field: re.compile(r"\b([Aa])n? (?=\{" + field + r"[}:!])") for field in NAME_FIELDS}


def is_proper(name: str) -> bool:
    """A proper name (a unique monster's, "Vorgath the Warden"): it begins with a capital letter.
    Kind names are lower case ("goblin archer"), and say "the" or "a" before them."""
    return name[:1].isupper()


def with_article(name: str) -> str:
    """``a rat``, ``an orc``, and a proper name as it is (``Vorgath the Warden``)."""
    if is_proper(name):
        return name
    return f"{article(name)} {name}"


def listed(names: list[str], most: int = 3) -> str:
    """Names as a sentence lists them: "a rat", "a rat and an orc", "a rat, an orc and a goblin";
    past ``most``, the rest counted ("a rat, an orc, a goblin and 2 more")."""
    if len(names) > most:
        names = [*names[:most], f"{len(names) - most} more"]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def proper_names(template: str, values: dict[str, Any]) -> str:
    """``template`` with the article before a field a creature's name fills made to fit it: none
    before a proper name ("The {attacker} hits you" says "Vorgath the Warden hits you"), and "an"
    before a name that begins with a vowel ("a {monster}" says "an orc", not "a orc")."""
    for field in NAME_FIELDS:
        value = values.get(field)
        if not isinstance(value, str):
            continue
        if is_proper(value):
            template = _ARTICLE[field].sub("", template)
        else:
            fitted = r"\1n " if takes_an(value) else r"\1 "
            template = _INDEFINITE[field].sub(fitted, template)
    return template


class Template(Spec):
    """A message template: ``str.format`` text whose ``{fields}`` are the ones its message has,
    with format specs its values can take and widths of at most MAX_MESSAGE_CHARS."""

    def __init__(self, fields: set[str] | None) -> None:
        self.fields = fields

    def check(self, value: Any, where: str) -> str:
        text = Str(limits.MAX_MESSAGE_CHARS).check(value, where)
        try:
            parts = [(name, spec or "") for _, name, spec, _ in string.Formatter().parse(text) if name is not None]
        except ValueError as e:
            raise fail(where, f"a message template ({e})", value) from None
        names = {name for name, _ in parts}
        unknown = sorted(n for n in names if self.fields is not None and n not in self.fields)
        if unknown or any(not n.isidentifier() for n in names):
            fields = ", ".join(f"{{{f}}}" for f in sorted(self.fields or ()))
            raise fail(where, f"a message using only {fields}" if fields else "a message with no {fields}", value)
        for name, spec in parts:
            if "{" in spec or any(int(n) > limits.MAX_MESSAGE_CHARS for n in re.findall(r"\d+", spec)):
                raise fail(where, f"a message whose format specs have no {{fields}} and widths of at most "
                                  f"{limits.MAX_MESSAGE_CHARS} ({{{name}:{spec}}} has not)", value)
        if self.fields is not None:  # a plugin's own message: its fields' values are the plugin's to know
            for number in SAMPLE_NUMBERS:
                try:
                    text.format(**{f: SAMPLE_TEXT if f in TEXT_FIELDS else number for f in names})
                except (ValueError, TypeError, OverflowError, KeyError, IndexError) as e:
                    reason = " ".join(str(e).split())[:80] or type(e).__name__
                    raise fail(where, f"a message its values can fill ({reason})",
                               value) from None
        return text


class Messages(Spec):
    """A preset's ``[messages]`` table: each template may use only its message's fields."""

    expected = "a table of message templates"

    def check(self, value: Any, where: str) -> dict[str, str]:
        table = Map(Str(limits.MAX_MESSAGE_CHARS)).check(value, where)
        # an engine message without fields is filled with none: a {field} in it would fail in play
        return {k: Template(MESSAGE_FIELDS.get(k, set() if k in DEFAULT_MESSAGES else None)).check(v, f"{where}.{k}")
                for k, v in table.items()}

