"""The built-in plugins: each module is a plugin, registered exactly like a third-party one.

This folder is the package ``engine.plugins`` (``engine/plugins`` is a link to it, which wheels and
sdists carry as a copy); the engine imports the modules listed in
``engine.core.loader.DEFAULT_PLUGINS`` by name. Modules starting with ``_`` are compiled
kernels that a plugin imports itself (``engine.kit.jit``), not plugins.
"""
