"""Python's garbage collector held while the program starts, until its first frame (or a headless
run's first key).

A start makes some hundred thousand objects that live as long as the program: modules, classes,
kinds, the registry, the first level, the window's sprites and texts. CPython's collector runs
every few hundred allocations and walks the objects of its generations again and again as they
grow: 40-50 ms of CPU in a window's start of 0.6 s, for almost no garbage. :func:`hold` turns it
off; :func:`release` moves what the start made into the permanent generation (``gc.freeze``:
collections never walk it again, and no collection of all of it falls just after the first frame)
and turns the collector on. Reference counting frees objects as ever meanwhile; only a cycle made
during the start that becomes garbage later stays. Only the program itself holds
(``engine.cli.main`` called with no arguments), never a test's or a tool's ``main(argv)``.
"""

from __future__ import annotations

import gc

_held = [False]


def hold() -> None:
    """Turn the collector off (when it is on) until :func:`release`."""
    if gc.isenabled():
        gc.disable()
        _held[0] = True


def release() -> None:
    """End the hold (nothing when none is in force): freeze what exists, collect again."""
    if _held[0]:
        _held[0] = False
        gc.freeze()
        gc.enable()
