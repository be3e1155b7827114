"""The errors a player sees as one line (exit status 2), never as a traceback."""

import difflib
from collections.abc import Iterable


class UsageError(Exception):
    """A mistake in what the player asked for: a flag, a name, a size, a file."""


def valid_names(name: str, names: Iterable[str], empty: str = "none registered") -> str:
    """The parenthesis closing a one-line "unknown name" message: the nearest names first when
    some are near (a misspelling), then every valid one: ``(did you mean 'chase'? valid: chase, flee)``."""
    names = sorted(names)
    near = difflib.get_close_matches(name, names, n=3, cutoff=0.6) if isinstance(name, str) else []
    hint = f"did you mean {' or '.join(repr(n) for n in near)}? " if near else ""
    return f"({hint}valid: {', '.join(names) or empty})"
