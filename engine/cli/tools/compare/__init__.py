"""``python -m engine compare``: FOV algorithms and generators side by side (:mod:`.command`)."""
