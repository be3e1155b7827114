"""The turn: a Run over its state (``run``, ``entities``, ``sight``, ``inventory``), actions and how they
are performed (``actions``, ``item_actions``, ``acting``), the systems, statuses, rulesets, levels
and placement, the keymap (``keys``), the public game API (``api`` and its parts) and the ``Game``
that owns the turn (``game``).
"""
