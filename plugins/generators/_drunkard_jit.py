"""The compiled kernel of ``gen_drunkard``, for when numba is installed (``pip install .[fast]``).

The same walk as ``gen_drunkard.generate_python``, one step at a time: each walker's steps come
from the same ``getrandbits(2 * walk_length)`` draw (2 bits a step, lowest first), a walker stops
before its first step onto the outer ring, its first visits to wall cells are carved in walk order
up to the target, and the next walker starts at ``carved[randrange(len(carved))]``, drawn after
every walker, the last one included. The draws come from ``_random_jit`` (CPython's Mersenne
Twister), so the same ``random.Random`` gives the same level; ``tests/test_generators.py`` checks
the two agree.

Imported by ``engine.kit.jit.sibling`` when numba is installed; not a plugin of its own.
"""

from __future__ import annotations

import numba
import numpy as np

from engine.plugins.generators._random_jit import genrand, randbelow

# Seconds of the first compile on an empty numba cache, on the 2-core development machine (numba
# 0.68), for the one-line notice; ``python -m engine bench --only compile`` measures the FOV kernels.
COMPILE_SECONDS = 3


@numba.njit(cache=True, nogil=True)
def carve(st: np.ndarray, terrain: np.ndarray, sx: int, sy: int, target: int, length: int) -> None:
    """Walk and carve ``terrain`` (uint8, (h, w), 0 wall, 1 floor; the start already carved) in
    place until ``target`` cells are open, drawing from the Mersenne Twister state ``st``."""
    h, w = terrain.shape
    flat = terrain.ravel()
    carved = np.empty(target + 1, dtype=np.int64)
    carved[0] = sy * w + sx
    n = 1
    opened = 1
    x, y = sx, sy
    words = (2 * length + 31) // 32
    bits = np.empty(words, dtype=np.int64)
    while opened < target:
        # getrandbits(2 * length): 32-bit words, least significant first; the last one keeps its
        # top bits only when the count is not a multiple of 32.
        left = 2 * length
        for i in range(words):
            r = genrand(st)
            if left < 32:
                r >>= 32 - left
            bits[i] = r
            left -= 32
        for s in range(length):
            step = (bits[s >> 4] >> (2 * (s & 15))) & 3  # steps: +x, -x, +y, -y
            if step == 0:
                x += 1
            elif step == 1:
                x -= 1
            elif step == 2:
                y += 1
            else:
                y -= 1
            if x < 1 or x > w - 2 or y < 1 or y > h - 2:
                break  # the outer ring stays wall: the walker stops before it
            i = y * w + x
            if flat[i] == 0 and opened < target:
                flat[i] = 1
                carved[n] = i
                n += 1
                opened += 1
        i = carved[randbelow(st, n)]
        x, y = i % w, i // w
