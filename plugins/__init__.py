"""The built-in plugins: each module is a plugin, registered exactly like a third-party one.

Installed, this folder is the package ``engine.plugins``; the engine imports the modules listed in
``engine.core.loader.DEFAULT_PLUGINS`` by name. Modules starting with ``_`` are compiled
kernels that a plugin imports itself (``engine.kit.jit``), not plugins.
"""
