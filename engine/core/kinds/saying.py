"""What kind of event a message says: the log's colours come from where a message is logged.

A message in the log is a :class:`Message`: its text (a ``str``, so everything that reads the log
reads text) and its ``kind``, one of :data:`KINDS`. The window colours a line by its kind (the log
below the map and the history alike), so damage taken, damage dealt, kills, level-ups, items and
warnings read apart at a glance.

The kind travels with the message from where it is made: a preset's message template
(``GameRules.message``) carries the kind of its key (:data:`KEY_KINDS`), and a plugin says its
own with ``game.log(text, kind="kill")``. A ``level`` line is said once the player's action is
over (the log holds it meanwhile, :meth:`engine.core.model.state.MessageLog.hold`), so the kills that
earned a level are always said before it, whatever order the hooks ran in.
"""

from __future__ import annotations

from typing import Any

# Each kind and what it says, in the order the window's palette lists them.
KINDS: dict[str, str] = {
    "": "anything else: arrivals, the stairs, what others do",
    "hurt": "damage the player takes, and the player's death",
    "hit": "damage the player deals",
    "kill": "a creature the player kills",
    "level": "a level-up and what grows (said after the action that earned it)",
    "item": "items picked up, dropped, worn, drunk or read",
    "warn": "what cannot be done, and why; a plugin switched off",
}
LATER = frozenset({"level"})  # kinds said after the player's action is over (see the module doc)

# The kind of each of the engine's message templates (engine.core.kinds.messages.DEFAULT_MESSAGES); a
# key not here (a preset's own) says kind "".
KEY_KINDS: dict[str, str] = {
    **dict.fromkeys(("monster_hit", "monster_shoot", "monster_kill", "die"), "hurt"),
    **dict.fromkeys(("player_hit", "player_shoot", "throw_hit"), "hit"),
    **dict.fromkeys(("player_kill", "throw_kill"), "kill"),
    **dict.fromkeys(("pickup_gold", "pickup", "drink", "eat", "drop", "wear", "take_off", "see_here", "throw_land",
                     "throw_break"),
                    "item"),
    **dict.fromkeys(("wall", "no_upstairs", "no_upstairs_known", "cannot_leave", "no_stairs", "no_potion",
                     "travel_blocked", "no_way", "no_stairs_known", "not_in_view", "pack_full", "nothing_here",
                     "pack_empty", "no_drop_here", "cannot_wear", "already_worn", "nothing_to", "no_target",
                     "target_unseen", "target_no_monster", "target_self", "no_charges", "throw_nowhere", "rest_full",
                     "rest_in_vain", "rest_hurt", "in_view"), "warn"),
}


class Message(str):
    """A message's text, with the ``kind`` of event it says (one of :data:`KINDS`)."""

    kind: str

    def __new__(cls, text: str, kind: str = "") -> Message:
        message = super().__new__(cls, text)
        message.kind = kind
        return message

    def __reduce__(self) -> tuple[Any, ...]:  # a copy (a sim worker's pickle) keeps its kind
        return Message, (str(self), self.kind)


def kind_of(message: Any) -> str:
    """The kind of a logged message ("" for plain text)."""
    return getattr(message, "kind", "")


def check_kind(kind: Any, where: str = "log") -> str:
    """``kind`` when it is one of :data:`KINDS`; else a ValueError naming the valid ones."""
    if isinstance(kind, str) and kind in KINDS:
        return kind
    valid = ", ".join(repr(k) for k in KINDS)
    raise ValueError(f"{where}: kind {kind!r} is not a kind of message (valid: {valid})")
