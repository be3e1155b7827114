"""Every hook an Undercroft plugin can implement.

A plugin is a module (or any object) with functions marked ``@engine.hookimpl`` and named after
these hooks, with the hook's arguments (or fewer). The game finds it in three ways, in this order:
the built-in plugins (``engine/plugins``, registered exactly like the others), the ``undercroft``
entry-point group of installed packages (``[project.entry-points.undercroft]`` in a pyproject,
``NAME = "my_module"``; ``UNDERCROFT_LOAD_PLUGINS=a,b`` limits which load, empty loads none), and
every ``*.py`` of each ``--plugins-dir DIR``. ``python -m engine new-plugin NAME`` writes a package
with one example of each register hook and its tests; ``python -m engine plugins`` lists what loaded.

Registration hooks are called once per plugin when the registry is loaded, each with a
``register`` callback. The unit of failure is the registration: a ``register(...)`` that is refused
skips that one thing, a registration hook that raises loses what that hook registered, and the
plugin keeps the rest (listed as partly broken, one line per skipped thing); a plugin that fails to
import, or keeps nothing, is broken. A key a previous plugin API had is read for one more API, with
one line naming what to write instead (the README's "Plugin API version and deprecations").
Event hooks are called during play, for every plugin, the one registered last first (pluggy's
order): the built-ins load first, then installed plugins, then ``--plugins-dir`` files, so a
third-party plugin hears an event, and answers a hook that asks (``on_action``, ``item_name``),
before the built-ins do. Rules at load, each
said in one line naming the plugin (``python -m engine plugins`` shows it; play says it on stderr
once at start, and goes on without that plugin unless it was asked for with ``--plugin``):

- a function named like no hook (``register_monster``, ``on_turn_ended``) breaks the plugin,
  and so does a hook function taking an argument the hook does not pass, or one of another hook
  than ``on_action`` and ``after_action`` marked ``@engine.hears`` or ``@engine.player_only`` (or an
  ``after_action`` marked ``@engine.hears(steps=...)``);
- a name already registered stays with the plugin that registered it first: the built-ins load
  first, so a built-in always keeps its names (the newcomer's is skipped, asked to rename);
- a monster naming a behaviour, or an item an effect, that no plugin registers is skipped;
- monster and item kinds sharing a glyph are warned (``--map`` reads the glyph as the kind
  registered last; items of one class share theirs, ``!`` potions, unwarned); kinds of terrain
  may share a glyph on purpose (a hidden trap drawn as floor, four traps as ``^``), unwarned:
  ``--map`` reads a shared one as the kind registered first;
- an FOV or a generator whose result has the wrong type, shape, dtype or tile codes is refused
  when it returns, in one line naming the plugin (``engine.core.plugin.registry.BadResult``).

Randomness: use the streams the game gives (``game.rng("ai")``, ``ctx.rng``), never the global
``random``: the same seed and keys must give the same game. Logging: ``game.log(text)`` writes to
the player's message log (shown in the window, saved with the run, in ``--dump json``);
``game.log(text, kind="kill")`` says what kind of event it is, which the window colours. The engine
configures no Python logging: a plugin's ``logging.getLogger(__name__).warning(...)`` reaches
stderr through logging's last-resort handler, and INFO and DEBUG are dropped unless the plugin or
the player configures logging. Never ``print``: stdout carries ``--dump json``.

Errors: a plugin's mistake is said in one line naming the plugin (at load, in play, at the command
line). To see the full traceback behind such a line, set ``UNDERCROFT_DEBUG=1``
(``UNDERCROFT_DEBUG=1 python -m engine --game mine``): the traceback is printed on stderr above
the line.

The reference (``docs/reference.md``) is generated from these docstrings and the test kit's
(``python docs/make_reference.py``); a test fails when the two disagree.
"""

from __future__ import annotations

# The hooks live in three modules, by what they are for: algorithms (picked by name), game (what a game
# is made of), events (what a plugin hears during play). The loader adds this package's hooks to
# pluggy (loader.load_registry), so a hook belongs here as well as in its module.
from engine.hookspecs.algorithms import (
    register_bots,
    register_fov_algorithms,
    register_generators,
    register_pathfinders,
    register_tilesets,
)
from engine.hookspecs.events import (
    after_action,
    item_color,
    item_description,
    item_name,
    on_action,
    on_answer,
    on_death,
    on_level_generated,
    on_turn_end,
)
from engine.hookspecs.game import (
    register_behaviours,
    register_commands,
    register_components,
    register_effects,
    register_games,
    register_items,
    register_loot,
    register_monsters,
    register_rulesets,
    register_statuses,
    register_systems,
    register_terrain,
    register_verbs,
)

# Every hook, in the order the reference gives them: the algorithms picked by name, what a game is
# made of, then the events of play (docs/make_reference.py reads this order).
__all__ = [
    "register_fov_algorithms",
    "register_pathfinders",
    "register_generators",
    "register_tilesets",
    "register_bots",
    "register_monsters",
    "register_items",
    "register_effects",
    "register_behaviours",
    "register_games",
    "register_rulesets",
    "register_systems",
    "register_components",
    "register_statuses",
    "register_verbs",
    "register_commands",
    "register_loot",
    "register_terrain",
    "on_level_generated",
    "on_action",
    "after_action",
    "on_turn_end",
    "on_death",
    "on_answer",
    "item_name",
    "item_description",
    "item_color",
]
