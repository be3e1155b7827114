"""The errors a player sees as one line (exit status 2), never as a traceback."""

import difflib
import os
import sys
import traceback
from collections.abc import Iterable

# Set to 1 (any value but "", "0"), the errors that are otherwise one line also show the full
# traceback above their line: a plugin's author debugging a failure.
DEBUG_VARIABLE = "UNDERCROFT_DEBUG"


class UsageError(Exception):
    """A mistake in what the player asked for: a flag, a name, a size, a file."""


def valid_names(name: str, names: Iterable[str], empty: str = "none registered") -> str:
    """The parenthesis closing a one-line "unknown name" message: the nearest names first when
    some are near (a misspelling), then every valid one: ``(did you mean 'chase'? valid: chase, flee)``."""
    names = sorted(names)
    near = []
    if isinstance(name, str):  # the same name in other letters' case first (BUNYIP: bunyip), then the near ones
        near = [n for n in names if n.casefold() == name.casefold()]
        near += [n for n in difflib.get_close_matches(name, names, n=3, cutoff=0.6) if n not in near][:3 - len(near)]
    hint = f"did you mean {' or '.join(repr(n) for n in near)}? " if near else ""
    return f"({hint}valid: {', '.join(names) or empty})"


def debugging() -> bool:
    """Whether ``UNDERCROFT_DEBUG`` asks for tracebacks."""
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


def show_traceback(error: BaseException) -> None:
    """With ``UNDERCROFT_DEBUG=1``, print ``error``'s full traceback (its causes included) on
    stderr, before the one line that says it; otherwise nothing."""
    if debugging():
        traceback.print_exception(error, file=sys.stderr)
