"""The built-in plugins: each module is a plugin, registered exactly like a third-party one.

This folder is the package ``engine.plugins`` (``engine/plugins`` is a link to it, which wheels and
sdists carry as a copy). Plugins are grouped by kind: ``fov/``, ``generators/``, ``paths/``,
``presets/``, ``tilesets/``, ``bots/`` and ``rules/`` (content, behaviours, effects, statuses,
growth, loot). ``engine.core.loading.loader.DEFAULT_PLUGINS`` maps each plugin's name (``fov_symmetric``,
``preset_undercroft``: the names players and the morgue see) to its module. Modules starting with
``_`` are compiled kernels that the plugin beside them imports itself (``engine.kit.jit``), or a
plugin's private parts, not plugins.
"""
