"""Reading a small file warily: regular files only, and never more than a limit.

``st_size`` cannot be trusted for this: ``/dev/zero`` and ``/dev/urandom`` report 0 bytes and never
end, and opening a FIFO for reading blocks until someone writes to it. So the file is opened with
``O_NONBLOCK`` (a FIFO opens at once; the flag means nothing to a regular file), checked with
``fstat`` on the opened descriptor (not on the name, which may have been swapped meanwhile), and
read in chunks up to ``limit + 1`` bytes: one byte past the limit proves the file too big without
reading the rest. Every file the game reads goes through here: the run save, the profile and
replays (:mod:`engine.persist.files`), content and preset TOML, tilesheets, the ``ascii``
generator's ``--map`` files; a file another library reads (a plugin's ``.py``) is checked with
:func:`check_regular` first.
"""

from __future__ import annotations

import os
import stat

CHUNK = 1 << 20  # bytes per read call


class TextFileError(ValueError):
    """A file we will not read; ``str()`` is the one-line reason, without the file's name."""


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, when not a regular file: "a named pipe (FIFO)", ..."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _open_regular(path: str | os.PathLike[str]) -> tuple[int, os.stat_result]:
    """An open descriptor of the regular file at ``path`` and its stat (the caller closes it)."""
    flags = os.O_RDONLY
    for name in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY"):  # those this platform has
        flags |= getattr(os, name, 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:  # Windows refuses to open a folder at all
        raise TextFileError("a folder, not a file") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise TextFileError(f"{kind_of(info.st_mode)}, not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def check_regular(path: str | os.PathLike[str]) -> None:
    """Raise :class:`TextFileError` unless ``path`` is a regular file (a FIFO, a device, a folder:
    "a named pipe (FIFO), not a regular file"), and OSError when it cannot be opened. For a file
    another library reads (a plugin's source, an image): checked first, it cannot block the game."""
    fd, _ = _open_regular(path)
    os.close(fd)


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises :class:`TextFileError` when ``path`` is not a regular file ("a named pipe (FIFO)", "a
    character device", "a folder", ...) or holds more than ``limit`` bytes ("too big (...)"), and
    OSError as ``os.open`` does when it cannot be opened at all (missing, no permission)."""
    fd, info = _open_regular(path)
    try:
        if info.st_size > limit:
            raise TextFileError(f"too big ({info.st_size} bytes; the limit is {limit})")
        chunks: list[bytes] = []
        total = 0
        while total <= limit:  # the file may have grown since fstat: read at most one byte too many
            chunk = os.read(fd, min(CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise TextFileError(f"too big (over {limit} bytes; the limit is {limit})")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int) -> str:
    """The UTF-8 text of the regular file at ``path`` (at most ``limit`` bytes), without the byte
    order mark an editor may write first (Windows Notepad's: it read as a map's unknown character,
    and as TOML's "Invalid statement (at line 1, column 1)"); raises like :func:`read_bytes`, and
    :class:`TextFileError` "not UTF-8 text (byte N)" when it does not decode."""
    raw = read_bytes(path, limit)
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise TextFileError(f"not UTF-8 text (byte {e.start})") from None

