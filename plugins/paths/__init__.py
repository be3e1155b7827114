"""Pathfinders (``register_pathfinders``) and their kernel."""
