"""Every hook an Undercroft plugin can implement.

Registration hooks are called once per plugin when the registry is loaded, each with a
``register`` callback; what a plugin registers is kept only if all its registration hooks succeed.
Event hooks are called during play, for every plugin, in registration order.
The README's "Writing a plugin" section lists each of these with its exact signature; a test keeps
the two in step.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("undercroft")


@hookspec
def register_fov_algorithms(register):
    """Register field-of-view algorithms.

    Call ``register(name, fn, *, symmetric=False, summary="", python=None, max_reach=None,
    tcod=None)``. ``fn(transparent, origin, radius)`` takes a (height, width) bool array, an
    ``(x, y)`` origin and an int radius or None, and returns a bool array of the cells it sees.
    ``symmetric=True`` claims that between floor cells, A sees B exactly when B sees A; the test
    suite holds the algorithm to that claim. ``python`` is the pure-Python reference of an ``fn``
    that runs a compiled kernel (tested to agree, timed beside it). ``max_reach`` is the farthest
    it can light (None: any). ``tcod`` names libtcod's counterpart, a ``tcod.constants`` name such
    as ``"FOV_SHADOW"``, which ``bench`` times beside it (None: no counterpart).
    """


@hookspec
def register_generators(register):
    """Register dungeon generators.

    Call ``register(name, fn, *, summary="", params=None, min_size=(3, 3), natural_size=None)``.
    ``fn(ctx)`` returns an ``engine.Level``; ``ctx`` has ``width``, ``height``, ``depth``, ``rng``
    and ``params`` (the preset's settings merged over the ``params`` defaults given here; any other
    key is rejected before ``fn`` is called). ``natural_size=(w, h)`` is for a generator meant for
    one size that is not a dungeon's (a small board): ``compare generators`` compares it there.
    """


@hookspec
def register_monsters(register):
    """Register monster kinds: call ``register(MonsterKind(...))`` once per kind."""


@hookspec
def register_items(register):
    """Register item kinds: call ``register(ItemKind(...))`` once per kind."""


@hookspec
def register_effects(register):
    """Register item effects: call ``register(name, fn)``.

    ``fn(game, entity, kind, amount)`` applies the item to ``entity`` (the one who picked it up
    or used it) and returns the message to log, or None.
    """


@hookspec
def register_behaviours(register):
    """Register monster behaviours: call ``register(name, fn)``.

    ``fn(game, entity)`` is called on the monster's turn and returns the ``engine.Action`` it
    takes (or None to wait). Use ``game.rng("ai")`` for any randomness.
    """


@hookspec
def register_games(register):
    """Register game presets: call ``register(GameRules(...))``."""


@hookspec
def on_level_generated(game, level):
    """Called after a level is generated and populated, before the player's first turn on it."""


@hookspec
def on_turn_end(game):
    """Called after every monster has acted and the player is about to act again."""


@hookspec
def on_death(game, entity):
    """Called when an entity dies (the player included), before it is removed."""
