"""Golden pictures: each scene of ``tests/pictures.py`` (every preset, and the default game's title,
play, the whole level mapped, the play in the Kenney sprites, hover, inventory, targeting, look,
history, help, death and victory, and the level-up question on a small map) rendered headless
and compared with its committed PNG in ``tests/golden/pictures``, so a rendering change shows up
in review. Regenerate them after a
change you mean (then look at every one):

    UNDERCROFT_UPDATE_GOLDEN=1 ARCADE_HEADLESS=1 python -m pytest tests/test_pictures.py

A picture matches when at most :data:`MOST_PIXELS` of its pixels differ by more than
:data:`CHANNEL` in some colour channel (font rasterising may move an edge pixel; a moved line, a
new colour or a missing glyph changes far more). A failure writes the new picture beside the
golden one (``NAME.new.png``, ignored by git) to look at.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

arcade = pytest.importorskip("arcade")
PIL = pytest.importorskip("PIL.Image")

import pictures  # noqa: E402
from test_frontend import screenshot, window_for  # noqa: E402, F401

GOLDEN = Path(__file__).parent / "golden" / "pictures"
CHANNEL = 24  # a pixel differs when some channel moved by more than this (0-255)
MOST_PIXELS = 0.002  # the share of pixels that may differ


def differs(new: np.ndarray, old: np.ndarray) -> float:
    """The share of pixels that differ by more than CHANNEL in some channel (1.0: other sizes)."""
    if new.shape != old.shape:
        return 1.0
    moved = np.abs(new.astype(np.int16) - old.astype(np.int16)).max(axis=2) > CHANNEL
    return float(moved.mean())


def test_differs_sees_a_moved_line_and_forgives_an_edge():
    image = np.zeros((100, 100, 3), np.uint8)
    image[50, 10:90] = 200
    moved = np.zeros_like(image)
    moved[52, 10:90] = 200
    assert differs(moved, image) > MOST_PIXELS  # a line two pixels lower: 160 pixels of 10,000
    edge = image.copy()
    edge[50, 10] = 180  # one pixel a little off
    assert differs(edge, image) == 0.0
    assert differs(image[:50], image) == 1.0


@pytest.mark.parametrize("name", list(pictures.SCENES))
def test_the_picture_matches_its_golden_copy(name, tmp_path, window_for, monkeypatch):  # noqa: F811
    monkeypatch.setenv("UNDERCROFT_HOME", str(tmp_path / "home"))  # no profile: the same words each time
    window = pictures.SCENES[name](tmp_path, window_for)
    image = screenshot(window)
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("UNDERCROFT_UPDATE_GOLDEN"):
        image.save(golden, optimize=True)
    assert golden.exists(), f"no golden picture: make it with UNDERCROFT_UPDATE_GOLDEN=1 pytest {__file__}"
    share = differs(np.asarray(image), np.asarray(PIL.open(golden).convert("RGB")))
    if share > MOST_PIXELS:
        image.save(GOLDEN / f"{name}.new.png")
        pytest.fail(f"{name}: {share:.2%} of the pixels differ from {golden.name} (the new picture is "
                    f"{name}.new.png beside it). If the change is meant, regenerate with "
                    f"UNDERCROFT_UPDATE_GOLDEN=1 ARCADE_HEADLESS=1 python -m pytest {Path(__file__).name}")
