"""Loading plugins into a registry: the built-ins, entry points and ``--plugins-dir`` (``loader``),
one plugin's intake of registrations, the register callbacks, and previous-release presets.
"""
