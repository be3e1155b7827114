"""A tiny PNG writer (stdlib zlib and struct only) for thumbnails that need no window.

Writes 8-bit RGB, no interlace, every row with filter 0; enough for map thumbnails in
``python -m engine compare generators --shot DIR``.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np


def _chunk(kind: bytes, data: bytes) -> bytes:
    # length, type, data, then a CRC over type and data: the PNG chunk layout
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(rgb: np.ndarray) -> bytes:
    """The PNG bytes of a (height, width, 3) uint8 image."""
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError(f"encode_png: expected a (height, width, 3) array, got shape {rgb.shape}")
    h, w, _ = rgb.shape
    rows = np.zeros((h, 1 + 3 * w), dtype=np.uint8)  # a leading 0 per row: filter "none"
    rows[:, 1:] = np.ascontiguousarray(rgb, dtype=np.uint8).reshape(h, 3 * w)
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit depth, colour type 2 = RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
        + _chunk(b"IEND", b"")
    )


def write_png(path: str | Path, rgb: np.ndarray) -> None:
    """Write a (height, width, 3) uint8 image to ``path`` as a PNG."""
    Path(path).write_bytes(encode_png(rgb))
