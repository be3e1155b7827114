"""The Arcade window: glyph atlas, sprite grid, HUD, key input, on-demand loop.

Importing this package imports nothing from arcade; its modules do, so the headless game path
(``--headless`` without ``--shot``) never loads a graphics library.
"""
