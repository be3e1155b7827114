"""English for messages, one rule each: the engine's lines and a plugin's own say "a rat", "an orc"
and "an amber potion" the same way."""

from __future__ import annotations


def takes_an(word: str) -> bool:
    """Whether ``word`` takes "an" rather than "a": it begins with a vowel (``an orc``)."""
    return word[:1].lower() in "aeiou"


def article(word: str) -> str:
    """The indefinite article before ``word``: "an" before a vowel ("an amber potion"), else "a"."""
    return "an" if takes_an(word) else "a"
