"""Item verbs: what the player does with a carried item (drink, read, wear, zap...), registered by a
plugin like a status or a monster.

An item kind names its verb in its ``use`` (``use = "zap"``); the verb, registered with
``register_verbs``, says how the player does it: the key that opens its pack menu, the menu's title,
the word the log uses ("You have nothing to zap."), whether it aims, whether items of it stack, and
what doing it does. Two uses are no verb: ``pickup`` (the item applies when picked up, as gold does)
and ``carry`` (it is only carried).

Only the verbs of the items a preset may place have their keys (see
:mod:`engine.core.turn.verbkeys`): a verb no item of the game uses leaves its key as it was, and a key
the preset's keymap binds already keeps its meaning there.

What doing it does (``act``), in order:

- ``offer(game, item)``, when given, says whether the pack menu offers a carried item of this verb
  (wear offers what is not worn yet);
- when the verb aims, the player picks the target as the item's kind says (its ``target``, or a cell
  within sight when the kind names none);
- ``act(game, entity, item, target)`` does it through the game API (``engine.GameAPI``) and returns
  False when nothing was done (no time passes), an ``engine.Action`` for the engine to perform
  instead, or None (done: the turn is spent). Without ``act``, the engine's own use: one charge is
  spent when the item has charges (none left: "nothing happens", no time passes), else one of its
  stack is used up, and the kind's ``effect`` applies, aimed at ``target``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.kinds.fieldchecks import hook_problems

# act(game, entity, item, target) -> None | False | Action; offer(game, item) -> bool
VerbAct = Callable[[Any, int, int, "tuple[int, int] | None"], Any]
VerbOffer = Callable[[Any, int], bool]
NOT_VERBS = ("pickup", "carry")  # an item kind's uses that name no verb


@dataclass(frozen=True)
class Verb:
    """A verb: ``name`` (what an item kind's ``use`` names), ``key`` (the key token that opens its
    pack menu), ``title`` (that menu's title, "Zap what?"), ``word`` (the log's word for it, "zap" in
    "You have nothing to zap."; the name when empty), ``aims`` (whether it takes a target even when
    the item's kind names none: a cell within sight then), ``stacks`` (whether items of it share a
    letter in the pack: potions do, wands and equipment do not; an item kind's ``stack`` overrides
    it), ``act`` and ``offer`` (see the module doc) and ``summary`` (a line for the help and
    ``plugins``)."""

    name: str
    key: str
    title: str
    word: str = ""
    aims: bool = False
    stacks: bool = False
    act: VerbAct | None = None
    offer: VerbOffer | None = None
    summary: str = ""

    @property
    def said(self) -> str:
        """The word the log uses for it."""
        return self.word or self.name


def problems(verb: Verb) -> list[str]:
    """What is wrong with a verb built by a plugin, each in a few words (empty: nothing); whether
    its key is a key token is the registrar's to check (the keys live in the turn's room)."""
    found = []
    if not isinstance(verb.name, str) or not verb.name.strip() or " " in verb.name:
        found.append(f"name must be a non-empty word, got {verb.name!r}")
    elif verb.name in NOT_VERBS:
        found.append(f"name {verb.name!r} is an item use that names no verb ({', '.join(NOT_VERBS)})")
    if not isinstance(verb.key, str) or not verb.key:  # the registrar checks it is a key token
        found.append(f"key must be a key token (a printable character or a named key such as 'tab'), got {verb.key!r}")
    for what in ("title", "word", "summary"):
        value = getattr(verb, what)
        if not isinstance(value, str) or "\n" in value or len(value) > 100:
            found.append(f"{what} must be one line of at most 100 characters, got {value!r}")
    if not verb.title:
        found.append("title must not be empty (the pack menu's heading, such as 'Zap what?')")
    return found + hook_problems(verb, ("act", "offer"))
