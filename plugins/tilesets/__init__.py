"""Tilesets: how the window draws a glyph (``register_tilesets``)."""
