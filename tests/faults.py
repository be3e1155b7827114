"""Fault injection for the file layer, in the spirit of SQLite's I/O error tests.

The file layer (:mod:`engine.persist.files`) makes every OS call that changes the disk through one
module's ``os`` name, :mod:`engine.persist.disk`'s: ``os.mkdir``, ``os.open``, ``os.write``,
``os.fsync``, ``os.replace``, ``os.unlink`` (:func:`~engine.persist.files.remove`: permadeath's
delete). This helper swaps that name for a :class:`FaultyOS` that counts those calls and makes the
Nth call of one kind fail (``OSError``, EIO by default), or makes the Nth ``write`` write only half
of its bytes (``"short_write"``: the writer must carry on from there). Everything else goes to the
real ``os``.

:func:`sweep` runs an operation once to count its calls, then once more for every kind and every
N, failing that call, and hands each outcome to the test to judge::

    def judge(case):                      # case.op, case.n, case.error, case.result, case.err
        assert read_back() in (old, new)  # the old or the new version, never a mix
        ...

    cases = faults.sweep(lambda: profile.run_started("undercroft"), judge, before=restore_old_files)

``before`` puts the files back as they were before each run (and should call
:func:`fresh_process`, so that what the layer learnt in one run, such as "saving is off", does not
leak into the next). Pass ``modules=(disk, other_module)`` to fault the calls of another module
that uses ``os`` the same way (the run save, once it writes through its own calls).
"""

from __future__ import annotations

import errno
import io
import os
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from engine.persist import datadir, disk, files

OPS = ("mkdir", "open", "write", "fsync", "replace", "unlink", "short_write")


class FaultyOS:
    """Stands in for ``os`` inside a module: counts the calls that change the disk, fails one (and
    the ``also`` ones: ``((op, n), ...)``, for a disk that fails twice)."""

    def __init__(self, op: str | None = None, n: int = 0, error: int = errno.EIO,
                 also: tuple[tuple[str, int], ...] = ()) -> None:
        self.op, self.n, self.error = op, n, error
        self.also = set(also)
        self.calls: Counter[str] = Counter()
        self.fired = False
        self.also_fired: set[tuple[str, int]] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def _hit(self, op: str) -> bool:
        self.calls[op] += 1
        if op == self.op and self.calls[op] == self.n:
            self.fired = True
            return True
        if (op, self.calls[op]) in self.also:
            self.also_fired.add((op, self.calls[op]))
            return True
        return False

    def _fail(self, op: str, target: Any) -> None:
        if self._hit(op):
            raise OSError(self.error, f"{os.strerror(self.error)} (injected: {op} #{self.calls[op]})", str(target))

    def mkdir(self, path: Any, *args: Any, **kwargs: Any) -> None:
        self._fail("mkdir", path)
        os.mkdir(path, *args, **kwargs)

    def open(self, path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        self._fail("open", path)
        return os.open(path, flags, *args, **kwargs)

    def write(self, fd: int, data: Any) -> int:
        self._fail("write", fd)
        short = self._hit("short_write")  # counts every write too: the Nth is cut short when asked
        data = memoryview(data)
        return os.write(fd, data[: max(1, len(data) // 2)] if short else data)

    def fsync(self, fd: int) -> None:
        self._fail("fsync", fd)
        os.fsync(fd)

    def replace(self, src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        self._fail("replace", dst)
        os.replace(src, dst, *args, **kwargs)

    def unlink(self, path: Any, *args: Any, **kwargs: Any) -> None:
        self._fail("unlink", path)
        os.unlink(path, *args, **kwargs)


@contextmanager
def injected(op: str | None = None, n: int = 0, error: int = errno.EIO,
             modules: tuple[ModuleType, ...] = (disk,), also: tuple[tuple[str, int], ...] = ()) -> Iterator[FaultyOS]:
    """While inside, ``modules`` see a :class:`FaultyOS` (failing the ``n``th ``op``, and the
    ``also`` ones) as ``os``."""
    fake = FaultyOS(op, n, error, also)
    saved = [m.os for m in modules]
    for m in modules:
        m.os = fake
    try:
        yield fake
    finally:
        for m, real in zip(modules, saved, strict=True):
            m.os = real


def fresh_process() -> None:
    """Forget what the file layer learnt in this process (checked folders, saving off, lines said),
    as a new start of the game would."""
    datadir._checked.clear()
    datadir._unusable.clear()
    datadir._said.clear()


@dataclass
class Case:
    """One run of the operation with one call failing."""

    op: str
    n: int
    error: OSError | None = None  # what the operation raised (it may also have caught it)
    result: Any = None
    err: str = ""  # what it said on stderr
    calls: Counter[str] = field(default_factory=Counter)


def count(action: Callable[[], Any], before: Callable[[], None] | None = None,
          modules: tuple[ModuleType, ...] = (disk,)) -> Counter[str]:
    """How many calls of each kind ``action`` makes when nothing fails."""
    if before is not None:
        before()
    with injected(modules=modules) as fake, redirect_stderr(io.StringIO()):
        action()
    return Counter(fake.calls)


def sweep(action: Callable[[], Any], judge: Callable[[Case], None], *, before: Callable[[], None] | None = None,
          ops: tuple[str, ...] = OPS, error: int = errno.EIO,
          modules: tuple[ModuleType, ...] = (disk,), also: tuple[tuple[str, int], ...] = ()) -> list[Case]:
    """Fail the Nth call of each kind in ``ops``, for every N the operation reaches, and let
    ``judge`` check each outcome; returns the cases run (at least one per kind the action uses).
    ``also``: calls that fail in every case too (the first fault of a disk that fails twice: the
    sweep is then of the second)."""
    if also:  # counted with the first fault in place: the calls the action makes then
        if before is not None:
            before()
        with injected(modules=modules, also=also) as counting, redirect_stderr(io.StringIO()):
            try:
                action()
            except OSError:
                pass
        counts = Counter(counting.calls)
    else:
        counts = count(action, before, modules)
    cases = []
    for op in ops:
        for n in range(1, counts[op] + 1):
            if (op, n) in also:
                continue
            if before is not None:
                before()
            case = Case(op, n)
            buffer = io.StringIO()
            with injected(op, n, error, modules, also) as fake, redirect_stderr(buffer):
                try:
                    case.result = action()
                except OSError as e:
                    case.error = e
            assert fake.fired, f"{op} #{n} was never reached (the operation is not deterministic)"
            case.err, case.calls = buffer.getvalue(), fake.calls
            judge(case)
            cases.append(case)
    return cases


def temporary_files(folder: os.PathLike[str] | str) -> list[str]:
    """Names of the file layer's temporary files left in ``folder``."""
    return sorted(n for n in os.listdir(folder) if files.TMP_TAG in n)


def lines(text: str) -> int:
    return text.count("\n")


class Refusing:
    """The file layer's ``os`` (:mod:`engine.persist.disk`'s), in a folder the user may read but not
    write: EACCES for creating, renaming and making folders."""

    def __getattr__(self, name):
        return getattr(os, name)

    @staticmethod
    def open(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return os.open(path, flags, *args, **kwargs)

    @staticmethod
    def mkdir(path, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    @staticmethod
    def replace(src, dst, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(dst))
