"""Kenney's CC0 images that ship inside the window library (``:resources:``): a wall of grey stone,
a dark floor, a ladder down, a person, a mouse for the rat, slimes and zombies, coins and gems.
Anything not mapped here (another preset's monster, a plugin's item) is drawn as its glyph.

The images are 64-128 px; the set draws them at twice the preset's cell (32 px for 16-px presets),
the smallest size at which a mouse still reads as a mouse. Terrain is dimmed so that monsters and
items stand out on it."""

from __future__ import annotations

from engine import hookimpl
from engine.kit.tiles import Tile, TileContext

IMAGES = ":resources:/images/"
# name -> (image, brightness 0..1): terrain is darkened so the things on it stand out
LOOKS = {
    "wall": ("tiles/stoneCenter.png", 0.55),
    "floor": ("tiles/planetCenter.png", 0.40),
    "stairs": ("tiles/ladderMid.png", 1.0),
    "exit": ("tiles/signExit.png", 1.0),
    "player": ("animated_characters/male_adventurer/maleAdventurer_idle.png", 1.0),
    "monster:rat": ("enemies/mouse.png", 1.0),
    "monster:goblin": ("enemies/slimeGreen.png", 1.0),
    "monster:orc": ("animated_characters/zombie/zombie_idle.png", 1.0),
    "monster:enemy": ("enemies/bee.png", 1.0),
    "item:gold": ("items/coinGold.png", 1.0),
    "item:potion": ("items/gemRed.png", 1.0),
}


class Kenney:
    def __init__(self, ctx: TileContext) -> None:
        side = max(32, ctx.cell * 2)
        self.size = (side, side)
        self.ctx = ctx
        self._tiles: dict[str, Tile | None] = {}

    def tile(self, name: str, glyph: str) -> Tile | None:
        if name not in self._tiles:
            look = LOOKS.get(name)
            self._tiles[name] = None if look is None else Tile(self._load(*look), tinted=False)
        return self._tiles[name]

    def _load(self, resource: str, brightness: float):
        from PIL import Image, ImageEnhance

        side = self.size[0]
        with Image.open(self.ctx.resource(IMAGES + resource)) as source:
            art = source.convert("RGBA")
        # keep the picture's proportions (characters are 96x128), centred in the square cell
        art.thumbnail((side, side), Image.Resampling.LANCZOS)
        if brightness != 1.0:
            alpha = art.getchannel("A")
            art = ImageEnhance.Brightness(art).enhance(brightness)
            art.putalpha(alpha)
        cell = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        cell.paste(art, ((side - art.width) // 2, (side - art.height) // 2), art)
        return cell


@hookimpl
def register_tilesets(register):
    register("kenney", Kenney, summary="Kenney's CC0 sprites shipped with Arcade: stone, ladders, mice, slimes, coins")
