"""What things are, as checked data: content kinds (monsters, items), status kinds, presets (``rules``:
GameRules, their messages and field specs), weighted tables, and the one validation mechanism they
pass (``schema`` with its value ``specs``; ``deprecations``: keys a previous plugin API had). The
lowest room of the core: it imports nothing of the others.
"""
