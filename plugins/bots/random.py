"""The ``random`` bot: a key of the preset's at random, every key (a baseline for ``sim``, and a
cheap fuzzer of every preset's rules).

It presses only keys that play (moves, waiting, the stairs, drinking): never quit, restart or
help, so a run ends the way the game ends it (or at the sim's turn limit). Its dice are the run's
own stream ``bot:random``, so a seed plays the same run every time.
"""

from engine import hookimpl

PLAYING = ("move", "wait", "descend", "drink")  # commands that spend a turn when they can


def random_bot(game):
    """One of the preset's playing commands, each as likely as the others (not weighted by how
    many keys give it), pressed with the first key that gives it."""
    first: dict[str, str] = {}
    for token, spec in game.keys().items():
        if spec.partition(" ")[0] in PLAYING:
            first.setdefault(spec, token)
    if not first:
        return None  # a preset without a key to play: nothing to do
    return first[game.rng("bot:random").choice(sorted(first))]


@hookimpl
def register_bots(register):
    register("random", random_bot, summary="presses the preset's playing keys at random")
