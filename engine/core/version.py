"""The engine's version, in one place (the package metadata reads it too), and the plugin API's.

``PLUGIN_API`` counts the releases that changed what a plugin writes (a hook, a ``register``
argument, a preset or content key, the game API). What API ``N`` moves or renames is still read by
API ``N``, with one deprecation line naming its replacement (:mod:`engine.core.kinds.deprecations`), and
refused from ``N + 1``.
API 1 had the preset flags (``wall_bump_costs_turn``, ``fov_timing``, ``restart``...); API 2 moved
them into rulesets (``register_rulesets``).
"""

VERSION = "0.1.0"
PLUGIN_API = 2
