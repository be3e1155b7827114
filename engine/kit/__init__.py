"""The public toolkit for plugins: FOV and map-generation helpers, regions and connectivity,
pathfinding (Dijkstra maps, A*, safety maps: ``engine.kit.path``), and optional compiled kernels
(numba)."""
