"""The engine's version, in one place (the package metadata reads it too), and the plugin API's.

``PLUGIN_API`` counts the releases that changed what a plugin writes (a hook, a ``register``
argument, a preset or content key). A key moved or renamed in API ``N`` is still read through
``N + 1``, with one deprecation line naming its replacement (:mod:`engine.core.deprecations`).
API 1 had the preset flags (``wall_bump_costs_turn``, ``fov_timing``, ``restart``...); API 2 moved
them into rulesets (``register_rulesets``).
"""

VERSION = "0.1.0"
PLUGIN_API = 2
