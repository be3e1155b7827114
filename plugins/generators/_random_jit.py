"""Python's ``random.Random`` draws, compiled: the Mersenne Twister (MT19937) exactly as CPython
runs it, so a compiled generator draws the very numbers its pure-Python reference draws from the
same ``random.Random`` and builds the same level.

``state(rng)`` copies a ``random.Random``'s state into an int64 array (624 words, then the index);
the kernel draws from it with ``randbelow`` / ``getrandbits32`` (as ``Random._randbelow`` and
``Random.getrandbits`` for k <= 32 do); ``restore(rng, st)`` hands the advanced state back, so the
stream goes on where the kernel left it. CPython: ``Modules/_randommodule.c`` (genrand_uint32,
getrandbits) and ``Lib/random.py`` (``_randbelow_with_getrandbits``, ``randrange``, ``choice``).

Imported by generator kernels (``_*_jit`` modules) when numba is installed; not a plugin.
"""

from __future__ import annotations

import random

import numba
import numpy as np

_N, _M = 624, 397


def state(rng: random.Random) -> np.ndarray:
    """The Mersenne Twister state of ``rng``: 624 words and the index, as int64."""
    version, words, _gauss = rng.getstate()
    if version != 3 or len(words) != _N + 1:
        raise ValueError(f"unknown random.Random state (version {version}, {len(words)} words)")
    return np.array(words, dtype=np.int64)


def restore(rng: random.Random, st: np.ndarray) -> None:
    """Put the advanced state ``st`` back into ``rng`` (its Gaussian cache kept)."""
    version, _words, gauss = rng.getstate()
    rng.setstate((version, tuple(int(v) for v in st), gauss))


@numba.njit
def genrand(st: np.ndarray) -> int:
    """The next 32-bit word (CPython's genrand_uint32)."""
    if st[_N] >= _N:
        for kk in range(_N):  # the twist, in place and in order, as CPython's three loops
            y = (st[kk] & 0x80000000) | (st[(kk + 1) % _N] & 0x7FFFFFFF)
            v = st[(kk + _M) % _N] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            st[kk] = v
        st[_N] = 0
    y = st[st[_N]]
    st[_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & 0xFFFFFFFF


@numba.njit
def getrandbits32(st: np.ndarray, k: int) -> int:
    """``rng.getrandbits(k)`` for 1 <= k <= 32."""
    return genrand(st) >> (32 - k)


@numba.njit
def randbelow(st: np.ndarray, n: int) -> int:
    """``rng._randbelow(n)`` for 0 < n < 2**32: ``randrange(n)``, and ``choice`` of n items."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = getrandbits32(st, k)
    while r >= n:
        r = getrandbits32(st, k)
    return r
