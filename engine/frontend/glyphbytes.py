"""pyglet's text glyphs converted to pixels without its loop over every pixel in Python.

pyglet 2.1 turns each text glyph FreeType renders (a coverage bitmap, one byte a pixel) into
BGRA bytes in a Python loop over its pixels and colour channels
(``FreeTypeGlyphRenderer._expand_to_rgba``): the first frame's sidebar and log text, some fifty
glyphs, spent 10 ms of a window's start there. :func:`install` puts in its place the same
conversion done by slicing: white, with the coverage as alpha, byte for byte what pyglet's loop
makes (a test compares them).

re-check on every pyglet upgrade: replaces a private method (pyglet 2.1
``pyglet.font.freetype.FreeTypeGlyphRenderer._expand_to_rgba``, called with "R" to "BGRA"); any
other conversion is left to pyglet's own, and where pyglet renders text without FreeType
(Windows, macOS) nothing is replaced.
"""

from __future__ import annotations

import sys


def coverage_to_bgra(data: bytes) -> bytes:
    """One byte of coverage a pixel, as white BGRA pixels with that coverage as alpha."""
    alpha = bytes(data)
    out = bytearray(b"\xff") * (len(alpha) * 4)
    out[3::4] = alpha
    return bytes(out)


def install() -> bool:
    """Replace pyglet's conversion (once; after pyglet.font is imported). Returns whether it is
    in place."""
    freetype = sys.modules.get("pyglet.font.freetype")
    renderer = getattr(freetype, "FreeTypeGlyphRenderer", None)
    original = getattr(renderer, "_expand_to_rgba", None)
    if original is None:
        return False
    if getattr(original, "replaced", None) is not None:
        return True

    def expand_to_rgba(self, data, src_format: str, dst_format: str) -> bytes:
        if src_format == "R" and dst_format == "BGRA":
            return coverage_to_bgra(data)
        return original(self, data, src_format, dst_format)

    expand_to_rgba.replaced = original  # type: ignore[attr-defined]
    renderer._expand_to_rgba = expand_to_rgba
    return True
