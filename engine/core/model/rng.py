"""The run's seeded random streams.

One seed per run. Every consumer asks for its own stream by label ("level:3", "spawn:3",
"combat"), so adding a roll in one place never shifts the dice anywhere else. Streams are
derived with BLAKE2b, never with ``hash()`` (salted per process), so the same seed gives the same
game on every machine and in every process.
"""

from __future__ import annotations

import hashlib
import random

from engine.kit import limits

MAX_SEED = limits.MAX_SEED


def derive(seed: int, label: str) -> int:
    """A 64-bit integer derived from ``seed`` and ``label``; stable across processes."""
    digest = hashlib.blake2b(f"{seed}:{label}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def stream(seed: int, label: str) -> random.Random:
    """A fresh ``random.Random`` for one consumer of the run's randomness."""
    return random.Random(derive(seed, label))


def parse_seed(text: str) -> int:
    """Parse a ``--seed`` value; raise ValueError with a one-line reason when it is not valid."""
    try:
        value = int(text, 10)
    except (TypeError, ValueError):
        raise ValueError(f"--seed: {text!r} is not an integer (expected 0..{MAX_SEED})") from None
    if not 0 <= value <= MAX_SEED:
        raise ValueError(f"--seed: {value} is out of range (expected 0..{MAX_SEED})")
    return value


def fresh_seed() -> int:
    """A new random seed for a run started without ``--seed`` (shown and saved, so replayable)."""
    return random.SystemRandom().randrange(0, 2**31)
