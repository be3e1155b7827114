"""The tileset contract: how a plugin tells the window what a map cell looks like.

A tileset is registered through ``register_tilesets(register)``:
``register(name, fn, *, summary="", needs_file=False)``. ``fn(ctx)`` is called when the window
uses the set (at start, or when the player switches sets with F2) and returns a :class:`Tileset`;
``ctx`` is a :class:`TileContext`. ``needs_file=True`` says the set is made from a file the player
names (``--tileset FILE.png``); such a set is offered only when a file was given.

A cell is asked for by ``name`` and ``glyph``: ``name`` is what stands there (``"wall"``,
``"floor"``, ``"stairs"``, ``"player"``, ``"monster:rat"``, ``"item:gold"``) and ``glyph`` is the
character the game gives it. ``Tileset.tile`` returns a :class:`Tile` (an RGBA image of the set's
cell size) or None, which means "draw the glyph": a set need not map everything.

Names are keys with parents: ``"monster:rat"``'s parent is ``"monster"``, ``"wall:deep"``'s (a wall
deep in rock) is ``"wall"``. When a set gives None for a name the window asks again for its
parent, so a set maps what it knows (``"wall"``, ``"door"``) and a new kind (``"door:open"``)
falls back to it; :func:`pick` does the same inside a set, and then tries the glyph, so a set can
map glyph classes (``"!"`` potions, ``"?"`` scrolls) for kinds it has never heard of.

Two optional attributes of a set say how the window uses it. ``sprites = True``: its pictures are
art that things stand on, so a creature or an item is drawn over the picture of the terrain under
it (not on a black square), and a thing it has no picture for is drawn as its glyph in its colour
inside a magenta frame, visibly missing (``engine.testing.tileset_gaps`` lists them).
``walls``: how it draws walls, one of ``engine.frontend.walls.RULES`` (``"lines"``: joined with
box drawing; ``"facing"``, the default: walls beside a floor drawn, walls deep in rock dark).

Nothing here imports the window library: plugins stay free of it. Images are Pillow images (a
dependency of the window library, so present wherever a window is).

:func:`load_sheet` reads a CP437 tilesheet (the Dwarf Fortress and libtcod convention: 16 rows of
16 glyphs in code-page-437 order, the cell size read from the image), and rejects a hostile file
with one line (:class:`TilesetError`).
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.kit import limits
from engine.kit.textfile import TextFileError, read_bytes

if TYPE_CHECKING:
    from PIL import Image

MAX_SHEET_SIDE = limits.MAX_SHEET_SIDE
MAX_SHEET_BYTES = limits.MAX_FILE_BYTES  # a sheet's file (a 4096-px sheet, compressed, is far less)
MIN_CELL = 4  # px: a smaller cell cannot show a glyph
# code page 437's pictures for the control codes 0..31 and 127 (Python's cp437 codec maps those
# bytes to control characters); 32..126 are ASCII and 128..255 come from the codec
_LOW = "\u0000☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼"
CP437 = "".join(_LOW[i] if i < 32 else ("⌂" if i == 127 else bytes([i]).decode("cp437")) for i in range(256))
CP437_INDEX = {ch: i for i, ch in enumerate(CP437)} | {" ": 32, "·": 250}


class TilesetError(ValueError):
    """A tileset that cannot be used: one line naming the file and what would be valid."""


@dataclass(frozen=True)
class Tile:
    """One cell's picture: ``image`` is RGBA at the set's cell size. ``tinted``: the window
    multiplies it by the cell's colour (white glyphs); otherwise it is drawn in its own colours
    (coloured art), only darkened where the cell is remembered rather than seen."""

    image: Image.Image
    tinted: bool = False


class Tileset(Protocol):
    """What ``fn(ctx)`` returns: the cell size (width, height) in pixels, and the tiles. It may
    also have ``sprites`` (bool) and ``walls`` (a wall rule): see the module doc."""

    size: tuple[int, int]

    def tile(self, name: str, glyph: str) -> Tile | None:
        """The picture for a cell showing ``name`` drawn as ``glyph``; None: the glyph atlas's."""


def attribute_problems(tileset: object) -> list[str]:
    """What is wrong with a set's optional attributes (``sprites``, ``walls``), one phrase each."""
    from engine.kit.walls import RULES

    found = []
    sprites = getattr(tileset, "sprites", False)
    if not isinstance(sprites, bool):
        found.append(f"sprites is True or False, got {sprites!r}")
    walls = getattr(tileset, "walls", None)
    if walls is not None and not (isinstance(walls, str) and walls in RULES):
        found.append(f"walls is one of {', '.join(RULES)}, got {walls!r}")
    return found


def parents(name: str) -> list[str]:
    """``name`` and the keys it falls back to, most particular first: ``"monster:rat"`` ->
    ``["monster:rat", "monster"]``."""
    found = [name]
    while ":" in name:
        name = name.rsplit(":", 1)[0]
        found.append(name)
    return found


def pick(name: str, glyph: str, by_name: dict[str, Any], by_glyph: dict[str, Any] | None = None) -> Any:
    """What a set maps for a cell: the entry of ``by_name`` for ``name`` or, failing that, for one
    of its :func:`parents`; else the entry of ``by_glyph`` for ``glyph``; else None."""
    for key in parents(name):
        if key in by_name:
            return by_name[key]
    return (by_glyph or {}).get(glyph)


@dataclass(frozen=True)
class TileContext:
    """What a tileset's ``fn`` may use. ``cell``: the preset's cell size (px). ``file``: the
    ``--tileset FILE`` path (None unless the set ``needs_file``). ``glyph(ch)``: the glyph atlas's
    picture of a character (white on transparent, ``cell`` px square). ``resource(name)``: the path
    of a file shipped with the window library (``":resources:/images/tiles/stoneCenter.png"``)."""

    cell: int
    file: Path | None = None
    glyph: Callable[[str], Image.Image] = field(default=lambda ch: None)  # type: ignore[assignment]
    resource: Callable[[str], Path] = field(default=Path)


@dataclass(frozen=True)
class TilesetInfo:
    name: str
    fn: Callable[[TileContext], Any]
    summary: str = ""
    needs_file: bool = False


def png_size(head: bytes) -> tuple[int, int] | None:
    """A PNG's declared (width, height) from the first 24 bytes of its file, or None when it is
    not a PNG. Read by hand because Pillow refuses some sizes (0x0, decompression bombs) without
    saying which."""
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _open(path: Path, what: str, valid: str) -> Image.Image:
    from PIL import Image, UnidentifiedImageError

    if not path.exists():
        raise TilesetError(f"{what} {path}: no such file (expected {valid})")
    if path.is_dir():
        raise TilesetError(f"{what} {path}: is a folder, not an image (expected {valid})")
    try:
        raw = read_bytes(path, MAX_SHEET_BYTES)  # a regular file only (a FIFO never blocks), and bounded
    except TextFileError as e:
        raise TilesetError(f"{what} {path}: {e} (expected {valid})") from None
    except OSError as e:
        raise TilesetError(f"{what} {path}: cannot read it ({e.strerror or e})") from None
    declared = png_size(raw[:24])
    if declared is not None:
        _check_size(path, what, valid, *declared)
    try:
        image = Image.open(io.BytesIO(raw))  # reads the header only: the size is checked before decoding
    except Image.DecompressionBombError:
        raise TilesetError(f"{what} {path}: the image is too large (expected {valid})") from None
    except Exception as e:  # noqa: BLE001 - UnidentifiedImageError, OSError, ...: a decoder may raise anything
        reason = "no image format recognised" if isinstance(e, UnidentifiedImageError) else type(e).__name__
        raise TilesetError(f"{what} {path}: not an image ({reason}); expected {valid}") from None
    return image


def _check_size(path: Path, what: str, valid: str, width: int, height: int) -> None:
    if width == 0 or height == 0:
        raise TilesetError(f"{what} {path}: the image is {width}x{height} px, empty (expected {valid})")
    if width > MAX_SHEET_SIDE or height > MAX_SHEET_SIDE:
        raise TilesetError(f"{what} {path}: the image is {width}x{height} px, too large (expected {valid})")
    if width % 16 or height % 16:
        raise TilesetError(f"{what} {path}: the image is {width}x{height} px, not divisible into 16x16 cells "
                           f"(expected {valid})")
    if width // 16 < MIN_CELL or height // 16 < MIN_CELL:
        raise TilesetError(f"{what} {path}: cells of {width // 16}x{height // 16} px are too small "
                           f"(expected {valid})")


def load_sheet(path: Path | str, what: str = "--tileset") -> tuple[list[Image.Image], tuple[int, int]]:
    """A CP437 sheet's 256 glyph images (RGBA) in code-page order, and the cell size (w, h) px.

    Raises :class:`TilesetError` (one line) for a missing file, a folder, a file that is not an
    image, an empty or huge image, or one whose sides do not divide into 16 cells.
    """
    path = Path(path)
    valid = f"a PNG of 16x16 glyphs, each side a multiple of 16 from {16 * MIN_CELL} to {MAX_SHEET_SIDE} px"
    with warnings.catch_warnings():  # Pillow's warnings on a damaged file: the one line below says it
        warnings.simplefilter("ignore")
        image = _open(path, what, valid)
        width, height = image.size
        _check_size(path, what, valid, width, height)  # again: the file may be another format than PNG
        cw, ch = width // 16, height // 16
        try:
            rgba = image.convert("RGBA")
        except Exception as e:  # noqa: BLE001 - a header that lied about its data: a decoder may raise anything
            reason = " ".join(str(e).split())[:80] or type(e).__name__
            raise TilesetError(f"{what} {path}: the image cannot be read ({reason})") from None
    rgba = _transparent(rgba)
    cells = [rgba.crop((x * cw, y * ch, (x + 1) * cw, (y + 1) * ch)) for y in range(16) for x in range(16)]
    return cells, (cw, ch)


def _transparent(image: Image.Image) -> Image.Image:
    """Sheets without real alpha draw a glyph on black or on magenta (255, 0, 255): key magenta out,
    and a grey sheet becomes white with its brightness as alpha (libtcod's rule), so it tints."""
    import numpy as np
    from PIL import Image

    px = np.asarray(image).copy()
    if (px[..., 3] == 255).all():
        magenta = (px[..., 0] == 255) & (px[..., 1] == 0) & (px[..., 2] == 255)
        px[magenta] = 0
        rgb = px[..., :3].astype(np.int16)
        grey = (np.abs(rgb[..., 0] - rgb[..., 1]) <= 8) & (np.abs(rgb[..., 1] - rgb[..., 2]) <= 8)
        if grey[~magenta].all():
            px[..., 3] = np.where(magenta, 0, px[..., :3].max(axis=2))
            px[..., :3] = 255
    return Image.fromarray(px)  # (h, w, 4) uint8: RGBA


def is_grey(image: Image.Image) -> bool:
    """True when every visible pixel of an RGBA image is white-ish grey: a glyph to tint."""
    import numpy as np

    px = np.asarray(image.convert("RGBA")).astype(np.int16)
    seen = px[..., 3] > 0
    rgb = px[..., :3][seen]
    return bool(rgb.size == 0 or (rgb.max(axis=1) - rgb.min(axis=1) <= 8).all())
