"""``python -m engine sim``: a bot plays many seeded runs, locally or on a Dask cluster (:mod:`.command`)."""
