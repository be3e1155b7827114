"""Field-of-view algorithms (``register_fov_algorithms``); each numba kernel sits beside its plugin."""
