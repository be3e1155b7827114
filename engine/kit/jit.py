"""Optional compiled kernels: numba, when it is installed (``pip install .[fast]``).

A plugin keeps its pure-Python code as the reference and the fallback, and puts a numba version of
its hot loop in a sibling module (named with a leading ``_``: it is not a plugin of its own).
``sibling(__name__, "_name", check)`` imports that module on first use, compiles it by running
``check(module)`` on a tiny input, and returns it; or ``None`` when numba is not installed, when
``UNDERCROFT_JIT=0`` asks for pure Python, or when loading or compiling fails (said once on
stderr, in one line). numba is imported only then: a game that never calls a compiled algorithm
never pays numba's start-up time (about 0.4 s). The first time a kernel is compiled on a machine
takes seconds (numba caches the compiled code on disk after that): it is announced first, in one
line on stderr when that is a terminal, with the kernel module's own ``COMPILE_SECONDS`` (a
measured figure).

Kernels are imported normally, by their module name: numba's disk cache re-imports a module by the
name it had when the cache was written, and a normal import always gives it the same one.

A play session defers numba (:func:`deferred`): a call that names the size of its work
(``sibling(..., cells=n)``: its map's cells, or an FOV's light's square) runs pure Python when it is
at most ``SMALL`` cells (any call on every preset's map), and a vectorised fallback
(``vectorised=True``: numpy region labelling) runs on any map; numba is imported only when a call
with bigger work needs a kernel. numba's import and its kernels' loading
(0.5-0.8 s of CPU, with SciPy installed more) is more than a short run costs in all, and at 80x43
pure Python costs a turn about 0.03 ms more: the import would take some 20,000 turns to pay back.
The kernels and their references agree cell for cell (tested), so which runs changes no result.
Tools, tests and the bench do not defer: they load a kernel on its first call, as before.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Callable, Iterator

_kernels: dict[str, types.ModuleType | None] = {}  # by stem, once tried: the module, or None

SMALL = 10_000  # cells: while deferred, a call on a map this size or smaller runs pure Python
_deferring: list[int] = []  # non-empty while a deferred() block runs: its limit in cells


@contextlib.contextmanager
def deferred(small: int = SMALL) -> Iterator[None]:
    """Within the block, numba is not imported for a call on a map of at most ``small`` cells
    (one that says its ``cells`` to :func:`sibling`): it runs pure Python. A bigger map loads the
    kernel (and numba) as usual; once numba is imported, every kernel loads on its first call."""
    _deferring.append(small)
    try:
        yield
    finally:
        _deferring.pop()


def _defer(cells: int | None, vectorised: bool = False) -> bool:
    """Run pure Python for this call: deferring, a small map (or a vectorised fallback, quick on
    any), numba not imported yet."""
    return bool(_deferring) and (vectorised or (cells is not None and cells <= _deferring[-1])) \
        and not _numba_imported()


def _numba_imported() -> bool:
    return "numba" in sys.modules


@contextlib.contextmanager
def disabled() -> Iterator[None]:
    """Run pure Python within the block, as without numba (for the bench's pure-Python figures):
    ``UNDERCROFT_JIT=0`` and no kernel remembered; both put back after."""
    global _kernels
    saved, before = _kernels, os.environ.get("UNDERCROFT_JIT")
    _kernels = {}
    os.environ["UNDERCROFT_JIT"] = "0"
    try:
        yield
    finally:
        _kernels = saved
        if before is None:
            del os.environ["UNDERCROFT_JIT"]
        else:
            os.environ["UNDERCROFT_JIT"] = before


def enabled() -> bool:
    """numba is installed and not switched off with ``UNDERCROFT_JIT=0``."""
    return os.environ.get("UNDERCROFT_JIT", "1") != "0" and importlib.util.find_spec("numba") is not None


def failed() -> list[str]:
    """The kernels that were tried and could not be compiled (their plugins run pure Python)."""
    if not enabled():
        return []  # switched off is not failed
    return sorted(stem for stem, module in _kernels.items() if module is None)


def uncached(module: types.ModuleType) -> list[str]:
    """The disk-cached (``cache=True``) kernels of ``module`` that numba has not compiled on this
    machine for its current source: they compile on first call. Asked the way numba itself looks a
    kernel up (its index file, by source stamp, signature, CPU and code hash), through numba's
    internals: when they cannot be read, nothing is said to be uncached (no false notice)."""
    missing = []
    for name, obj in vars(module).items():
        cache = getattr(obj, "_cache", None)
        if cache is None or not hasattr(obj, "targetctx"):
            continue
        try:
            index = cache._cache_file._load_index()  # {} when absent or stale
            codegen = obj.targetctx.codegen()
            if not any(cache._index_key(key[0], codegen) == key for key in index):
                missing.append(name)
        except Exception:  # noqa: BLE001 - numba's internals moved: say nothing rather than guess
            continue
    return missing


def _to_a_person() -> bool:
    """stderr is a terminal: someone is waiting, and a notice tells them why. (Tools and tests read
    stderr for the lines they expect; a notice there would be noise.)"""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def _announce(module: types.ModuleType) -> None:
    if _to_a_person() and uncached(module):
        seconds = getattr(module, "COMPILE_SECONDS", None)
        about = f", about {seconds} s" if seconds else ""
        name = module.__name__.rpartition(".")[2].strip("_").removesuffix("_jit")
        print(f"undercroft: compiling the {name} kernel once{about} (numba keeps it on disk for later runs)",
              file=sys.stderr, flush=True)


def _load(name: str, check: Callable[[types.ModuleType], object]) -> types.ModuleType | None:
    try:
        module = importlib.import_module(name)
        _announce(module)
        check(module)  # numba compiles on the first call: a failure to compile shows here
        return module
    except Exception as exc:  # noqa: BLE001 - a broken optional accelerator must not stop the game
        print(f"undercroft: cannot compile {name} with numba ({type(exc).__name__}: {exc}); "
              "using pure Python (UNDERCROFT_JIT=0 stops trying)", file=sys.stderr)
        return None


def sibling(plugin: str, stem: str, check: Callable[[types.ModuleType], object],
            cells: int | None = None, vectorised: bool = False) -> types.ModuleType | None:
    """The compiled kernel module ``stem`` beside the module named ``plugin`` (its ``__name__``), or
    ``None`` to use pure Python.
    Decided on the first call, then remembered; except that within :func:`deferred`, a call whose
    work has at most ``SMALL`` ``cells`` (its map's cells, or the cells it can reach: an FOV's
    light, when its pure-Python version can do it), or whose fallback is ``vectorised`` (numpy,
    within a few times the kernel on any map: region labelling), gets ``None`` without deciding,
    while numba is not imported."""
    try:
        return _kernels[stem]
    except KeyError:
        pass
    if _defer(cells, vectorised):
        return None
    package = plugin.rpartition(".")[0]
    module = _load(f"{package}.{stem}" if package else stem, check) if enabled() else None
    _kernels[stem] = module
    return module
