"""Colours of light and memory, and how far apart two colours look (CIEDE2000).

A lit cell keeps its content colour on a dark tint of light; a remembered cell is dimmed and
desaturated on a near-black blue; an unknown cell is black. All colours are sRGB (r, g, b), 0..255.

:func:`delta_e` is the CIEDE2000 colour difference (Sharma, Wu and Dalal, 2005) between two sRGB
colours under D65: about 1 is the smallest difference a person notices side by side, 10+ is clearly
another colour. The palette test holds the default game's kinds apart with it.
"""

from __future__ import annotations

import math

RGB = tuple[int, int, int]

UNKNOWN_BG: RGB = (0, 0, 0)
LIGHT_BG: RGB = (38, 32, 22)  # a lit open cell: the warm tint of torchlight
MEMORY_BG: RGB = (9, 10, 17)  # a remembered open cell: near black, a little cold
FRIEND_BG: RGB = (24, 66, 36)  # under a creature on the player's side (a status of a friendly kind): green
WALL_BG_SHARE = 0.30  # a wall cell's background: its own colour at this share, lit or remembered
ROCK_BG_SHARE = 0.12  # a wall deep in rock (no open cell beside it): a darker block, and no glyph
MEMORY_LEVEL = 0.50  # a remembered colour's brightness, relative to the lit one
MEMORY_GREY = 0.55  # how far a remembered colour moves toward its own grey (0 none, 1 all grey)


# The log's colours, by the kind of event a message says (engine.core.kinds.saying.KINDS): each at
# least 20 CIEDE2000 from every other, fresh or older, and read on the black under the log and the
# history's panel (the palette rule: engine.testing.palette_problems).
MESSAGE_COLOURS: dict[str, RGB] = {
    "": (160, 160, 165),  # anything else: a quiet grey
    "hurt": (255, 90, 80),  # damage taken: red
    "hit": (250, 250, 250),  # damage dealt: white
    "kill": (120, 230, 110),  # a kill: green
    "level": (210, 140, 255),  # a level-up: violet
    "item": (100, 195, 255),  # items: sky blue
    "warn": (245, 215, 70),  # what cannot be done: yellow
}
MESSAGE_OLDER = 0.75  # a message from before the last key press: its colour at this brightness
LOG_BG: RGB = (0, 0, 0)  # under the log: the window's own black


def message_colour(kind: str, fresh: bool = True) -> RGB:
    """The colour of a message of ``kind`` in the log and the history; ``fresh``: said since the
    last key press (older ones are dimmer). A kind the palette does not know is drawn as plain."""
    colour = MESSAGE_COLOURS.get(kind, MESSAGE_COLOURS[""])
    return colour if fresh else scale(colour, MESSAGE_OLDER)


def scale(rgb: RGB, share: float) -> RGB:
    r, g, b = rgb
    return (round(r * share), round(g * share), round(b * share))


def remembered(rgb: RGB) -> RGB:
    """A remembered colour: toward its grey by MEMORY_GREY, then dimmed to MEMORY_LEVEL."""
    r, g, b = rgb
    grey = 0.299 * r + 0.587 * g + 0.114 * b
    mixed = [c + (grey - c) * MEMORY_GREY for c in (r, g, b)]
    return tuple(max(0, min(255, round(c * MEMORY_LEVEL))) for c in mixed)  # type: ignore[return-value]


def wall_bg(rgb: RGB) -> RGB:
    """A wall cell's background: its glyph colour darkened, so walls read as solid blocks."""
    return scale(rgb, WALL_BG_SHARE)


def rock_bg(rgb: RGB) -> RGB:
    """A wall deep in rock: its colour darkened further, a block with no glyph on it."""
    return scale(rgb, ROCK_BG_SHARE)


# -- CIEDE2000 ----------------------------------------------------------------------------------
def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb: RGB) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(c1: RGB, c2: RGB) -> float:
    """CIEDE2000 difference between two sRGB colours (kL = kC = kH = 1)."""
    return delta_e_lab(lab(c1), lab(c2))


def delta_e_lab(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 difference between two L*a*b* colours."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    else:
        dhp = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6)) - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp_big / sh) ** 2
                     + rt * (dcp / sc) * (dhp_big / sh))


def remembered_array(rgb):  # numpy (n, 3) uint8 -> (n, 3) uint8; the same rule as remembered()
    """:func:`remembered` for an (n, 3) uint8 array of colours."""
    import numpy as np

    c = rgb.astype(np.float32)
    grey = c @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    mixed = c + (grey[:, None] - c) * MEMORY_GREY
    return np.clip(np.rint(mixed * MEMORY_LEVEL), 0, 255).astype(np.uint8)
