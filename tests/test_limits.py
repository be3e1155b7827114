"""One number per limit: every copy of a limit the writers and loaders use agrees with
engine/core/limits.py (until each module imports it from there), so nothing is written that the
loader then refuses."""

import pytest

from engine.core import limits, rng, setup
from engine.persist import files, replay, runcheck

COPIES = [
    (rng.MAX_SEED, limits.MAX_SEED),
    (setup.MAX_SIDE, limits.MAX_MAP_SIDE),
    (runcheck.MAX_SIDE, limits.MAX_MAP_SIDE),
    (runcheck.BIG, limits.MAX_STAT),
    (runcheck.MAX_ENTITIES, limits.MAX_ENTITIES),
    (runcheck.MAX_MESSAGES, limits.MAX_MESSAGES),
    (runcheck.MAX_TEXT, limits.MAX_MESSAGE_CHARS),
    (runcheck.MAX_KEYS, limits.MAX_KEYS),
    (replay.MAX_KEYS, limits.MAX_KEYS),
    (files.MAX_BYTES, limits.MAX_FILE_BYTES),
    (files.MAX_DEPTH, limits.MAX_NESTING),
]


@pytest.mark.parametrize(("copy", "limit"), COPIES)
def test_every_copy_of_a_limit_is_the_limit(copy, limit):
    assert copy == limit


def test_the_limits_fit_together():
    import engine

    assert engine.MAX_MAP_BYTES == limits.MAX_MAP_BYTES and engine.MAX_MAP_SIDE == limits.MAX_MAP_SIDE
    assert limits.MAX_MAP_BYTES >= (limits.MAX_MAP_SIDE + 2) * limits.MAX_MAP_SIDE  # the largest map, CR LF
    assert limits.MAX_STAT * 2 + 100 * limits.MAX_DEPTH + 500 < limits.MAX_COUNT  # any honest score fits
