"""Level generators (``register_generators``); each numba kernel sits beside its plugin."""
