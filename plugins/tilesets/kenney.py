"""Kenney's CC0 images that ship inside the window library (``:resources:``): a wall of grey stone,
a dark floor, ladders for stairs, a person, a mouse for the rat, slimes, a zombie and a robot;
gems for potions, cards for scrolls, blades for weapons, crates and locks for armour, coins, a star.

A sprite set (``sprites = True``): a creature or an item is drawn over the picture of the floor
(or the stairs) it stands on. Every monster and item of the built-in games has a picture; a kind it
does not know is looked up by its glyph's class (``!`` a potion, ``?`` a scroll, ``)`` a weapon,
``[`` armour, ``/`` a wand, ``=`` a ring...), and anything else is drawn as its glyph in a magenta
frame (``engine.testing.tileset_gaps`` lists those). Names fall back to their parents
(``wall:deep`` to ``wall``, ``door:open`` to ``door``), so terrain kinds map by their family.

The images are 64-128 px; the set draws them at twice the preset's cell (32 px for 16-px presets),
the smallest size at which a mouse still reads as a mouse. Terrain is dimmed so that monsters and
items stand out on it, and a wall deep in rock is dimmer still."""

from __future__ import annotations

from engine import hookimpl
from engine.kit.tiles import Tile, TileContext

IMAGES = ":resources:/images/"
FLOOR = ("tiles/planetCenter.png", 0.40)
# name -> (image, brightness 0..1[, the picture it stands on]): terrain is darkened so the things
# on it stand out; stairs, a sign and a door are drawn on the floor's picture
LOOKS = {
    "wall": ("tiles/stoneCenter.png", 0.55),
    "wall:deep": ("tiles/stoneCenter.png", 0.22),
    "floor": FLOOR,
    # the way down a ladder into a dark shaft, the way up a bright ladder's top on the floor: the
    # two ladders alone looked alike at a glance
    "stairs": ("tiles/ladderMid.png", 0.8, ("tiles/planetCenter.png", 0.12)),
    "upstairs": ("tiles/ladderTop.png", 1.0, FLOOR),
    "exit": ("tiles/signExit.png", 1.0, FLOOR),
    "door": ("tiles/doorClosed_mid.png", 0.8, FLOOR),
    "open-door": ("tiles/doorClosed_top.png", 0.45, FLOOR),
    # the default game's hidden things look exactly as what they hide in (plugins/depths)
    "secret-door": ("tiles/stoneCenter.png", 0.55),
    **{f"hidden-trap-{trap}": FLOOR for trap in ("dart", "alarm", "trapdoor", "teleport")},
    "trap-dart": ("tiles/spikes.png", 1.0, FLOOR),
    "trap-alarm": ("tiles/switchRed.png", 1.0, FLOOR),
    "trap-trapdoor": ("tiles/leverMid.png", 1.0, FLOOR),
    "trap-teleport": ("tiles/switchGreen.png", 1.0, FLOOR),
    "water": ("tiles/water.png", 0.6),
    # the default game's deeper terrain and set pieces (plugins/depths)
    "deep-water": ("tiles/water.png", 0.6),
    "shallow-water": ("tiles/waterTop_low.png", 0.8, FLOOR),
    "rubble": ("tiles/rock.png", 0.9, FLOOR),
    "grass": ("tiles/bush.png", 1.0, FLOOR),
    "chasm": ("tiles/planetCenter.png", 0.3),
    "vault-door": ("tiles/lockYellow.png", 1.0, FLOOR),
    "altar": ("tiles/stoneHalf_mid.png", 1.0, FLOOR),
    "lava": ("tiles/lava.png", 0.8),
    "player": ("animated_characters/male_adventurer/maleAdventurer_idle.png", 1.0),
    "monster:rat": ("enemies/mouse.png", 1.0),
    "monster:jackal": ("enemies/fly.png", 1.0),
    "monster:goblin": ("enemies/slimeGreen.png", 1.0),
    "monster:kobold": ("enemies/slimeBlue.png", 1.0),
    "monster:goblin archer": ("enemies/bee.png", 1.0),
    "monster:orc": ("animated_characters/zombie/zombie_idle.png", 1.0),
    "monster:ogre": ("enemies/slimeBlock.png", 1.0),
    "monster:troll": ("animated_characters/robot/robot_idle.png", 1.0),
    "monster:enemy": ("enemies/bee.png", 1.0),
    "monster:goblin spearthrower": ("enemies/slimePurple.png", 1.0),
    "monster:eel": ("enemies/fishGreen.png", 1.0),
    "monster:cave spider": ("enemies/ladybug.png", 1.0),
    "monster:cutpurse": ("animated_characters/female_person/femalePerson_idle.png", 1.0),
    "monster:goblin shaman": ("enemies/frog.png", 1.0),
    "monster:shade": ("enemies/fishPink.png", 0.5),
    "monster:ghoul": ("enemies/wormGreen.png", 1.0),
    "monster:Vorgath the Warden": ("animated_characters/female_adventurer/femaleAdventurer_idle.png", 1.0),
    "item:gold": ("items/coinGold.png", 1.0),
    "item:potion": ("items/gemRed.png", 1.0),
    "item:potion of haste": ("items/gemBlue.png", 1.0),
    "item:potion of troll blood": ("items/gemGreen.png", 1.0),
    "item:scroll of lightning": ("cards/cardBack_blue1.png", 1.0),
    "item:scroll of confusion": ("cards/cardBack_green1.png", 1.0),
    "item:scroll of fireball": ("cards/cardBack_red1.png", 1.0),
    "item:scroll of teleport": ("cards/cardBack_blue3.png", 1.0),
    "item:scroll of magic mapping": ("cards/cardBack_green3.png", 1.0),
    "item:dagger": ("space_shooter/laserBlue01.png", 1.0),
    "item:long sword": ("space_shooter/laserRed01.png", 1.0),
    "item:war axe": ("enemies/saw.png", 1.0),
    "item:leather armour": ("tiles/boxCrate_single.png", 1.0),
    "item:chain mail": ("tiles/lockYellow.png", 1.0),
    "item:plate armour": ("tiles/lockRed.png", 1.0),
    "item:Amulet of the Undercroft": ("items/star.png", 1.0),
    "item:vault key": ("items/keyYellow.png", 1.0),
}
# an item's glyph class -> image, for the kinds LOOKS does not name (a plugin's, a new one)
CLASSES = {
    "!": ("items/gemYellow.png", 1.0),
    "?": ("cards/cardJoker.png", 1.0),
    ")": ("space_shooter/laserBlue01.png", 1.0),
    "[": ("tiles/boxCrate_single.png", 1.0),
    "/": ("tiles/torch1.png", 1.0),
    "=": ("items/coinSilver.png", 1.0),
    '"': ("items/star.png", 1.0),
    "$": ("items/coinGold.png", 1.0),
    "%": ("tiles/mushroomRed.png", 1.0),
    "*": ("space_shooter/meteorGrey_med1.png", 1.0),
}


class Kenney:
    sprites = True  # things stand on the terrain's picture; what it lacks is a framed glyph

    def __init__(self, ctx: TileContext) -> None:
        side = max(32, ctx.cell * 2)
        self.size = (side, side)
        self.ctx = ctx
        self._tiles: dict[tuple, Tile] = {}

    def tile(self, name: str, glyph: str) -> Tile | None:
        # by name (the window asks again for a name's parent: "wall:deep", then "wall"); an item
        # it does not name, by its glyph's class
        look = LOOKS.get(name) or (CLASSES.get(glyph) if name.startswith("item:") else None)
        if look is None:
            return None
        if look not in self._tiles:
            self._tiles[look] = Tile(self._load(*look), tinted=False)
        return self._tiles[look]

    def _load(self, resource: str, brightness: float, ground: tuple | None = None):
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
        cell = self._load(*ground) if ground is not None else Image.new("RGBA", (side, side), (0, 0, 0, 0))
        cell.alpha_composite(art, ((side - art.width) // 2, (side - art.height) // 2))
        return cell


@hookimpl
def register_tilesets(register):
    register("kenney", Kenney, summary="Kenney's CC0 sprites shipped with Arcade: stone, ladders, mice, slimes, "
                                       "gems, cards, coins; things drawn on the floor under them")
