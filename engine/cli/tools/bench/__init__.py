"""``python -m engine bench``: the figures, measured side by side (:mod:`.command` is the subcommand)."""
