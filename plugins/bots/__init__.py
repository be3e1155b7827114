"""Bots that play the game for ``sim``, tests and balance sweeps (``register_bots``)."""
