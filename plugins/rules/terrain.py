"""The built-in terrain: wall, floor, stairs down and stairs up, registered as a plugin's would be.

A level's table of kinds starts with these four, in this order (``engine.kit.mapgen.BUILTIN_KINDS``),
so a generator's array of the codes 0..3 is a level of them. A preset's ``tiles`` may draw them with
other glyphs and colours; what they are (walls block, the rest is open) is theirs alone.
"""

from engine import TerrainKind, hookimpl

KINDS = (
    TerrainKind(name="wall", glyph="#", color=(150, 140, 130), remembered_color=(60, 56, 52), walkable=False,
                transparent=False, flags=frozenset({"solid"})),
    TerrainKind(name="floor", glyph=".", color=(110, 110, 120), remembered_color=(44, 44, 52)),
    TerrainKind(name="stairs", glyph=">", color=(240, 220, 80), remembered_color=(110, 100, 40),
                flags=frozenset({"stairs"}), description="stairs down"),
    TerrainKind(name="upstairs", glyph="<", color=(150, 230, 255), remembered_color=(60, 95, 110),
                flags=frozenset({"stairs"}), description="stairs up"),
)


@hookimpl
def register_terrain(register):
    for kind in KINDS:
        register(kind)
