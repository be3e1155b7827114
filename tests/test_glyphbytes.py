"""engine.frontend.glyphbytes: pyglet's text glyphs converted without its per-pixel loop, byte for byte alike."""

import ctypes
import random

import pytest

pytest.importorskip("arcade")
import arcade  # noqa: E402, F401 - imports pyglet.font, and with it the platform's font renderer

from engine.frontend import glyphbytes  # noqa: E402


def test_the_conversion_makes_pyglets_own_bytes():
    freetype = pytest.importorskip("pyglet.font.freetype")
    method = freetype.FreeTypeGlyphRenderer._expand_to_rgba
    original = getattr(method, "replaced", method)
    rng = random.Random(5)
    for size in (0, 1, 2, 13, 64, 999):
        data = (ctypes.c_ubyte * size)(*[rng.randrange(256) for _ in range(size)])
        assert glyphbytes.coverage_to_bgra(data) == original(None, data, "R", "BGRA")


def test_installed_once_and_other_conversions_are_pyglet_s():
    freetype = pytest.importorskip("pyglet.font.freetype")
    assert glyphbytes.install() and glyphbytes.install()
    method = freetype.FreeTypeGlyphRenderer._expand_to_rgba
    assert method.replaced is not None and getattr(method.replaced, "replaced", None) is None
    data = (ctypes.c_ubyte * 6)(*range(10, 70, 10))
    assert method(None, data, "RG", "BGRA") == method.replaced(None, data, "RG", "BGRA")
    assert method(None, data, "R", "BGRA") == bytes([255, 255, 255, 10, 255, 255, 255, 20, 255, 255, 255, 30,
                                                     255, 255, 255, 40, 255, 255, 255, 50, 255, 255, 255, 60])
