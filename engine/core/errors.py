"""The errors a player sees as one line (exit status 2), never as a traceback."""


class UsageError(Exception):
    """A mistake in what the player asked for: a flag, a name, a size, a file."""
