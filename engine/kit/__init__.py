"""The public toolkit for plugins: FOV and map-generation helpers, regions and connectivity, and
optional compiled kernels (numba)."""
