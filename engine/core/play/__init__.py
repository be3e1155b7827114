"""Play: a session of a player's keys on a game (``session``), the prompts and commands keys open,
aiming and travel, the HUD's text and the ``--dump json`` snapshot, and setting up a game from a
player's choices (``setup``). The top room of the core.
"""
