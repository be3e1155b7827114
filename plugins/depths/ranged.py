"""Ranged play (#25 item 6): wands zapped at a target, darts and javelins thrown and picked up
again, and a monster that throws javelins, all through the public hooks.

* Wands (``z``, the scrolls' targeting cursor): a wand of slowing (the first creature on the line
  is ``slowed``: it acts half as often for a while, "Slowed" on the sidebar), a wand of lightning
  (a bolt through every creature on the line, up to the first wall) and a wand of digging (the
  walls on the line become floor, never the level's border). Each kind holds its own charges
  (the pack says "wand of digging (3 charges)"); an empty one says so and takes no time (the
  engine's ``zap`` verb). Their effects: ``plugins/depths/_wands.py``.
* Darts and javelins (``t``, the engine's ``throw`` verb): they stack, fly to the first creature
  on the line, hit for their ``attack`` and land, to be picked up again with ``g``.
* The goblin spearthrower (``thrower``, ``plugins/depths/_throwers.py``) throws its two
  javelins from afar, then fights; they land by the player, who may take them.

The items join the default game's loot tables (``register_loot``: wands rarer and deeper); the
monster joins every preset that does not list its monsters (the default game), and throws only
where the preset gives ``[params.ranged]`` (``slow``: the percent of its speed a slowed creature
keeps, default 50).
"""

from engine import ItemKind, LootRow, MonsterKind, StatusKind, hookimpl
from engine.plugins.depths._throwers import Quiver, thrower
from engine.plugins.depths._wands import SlowedFrom, dig_bolt, lightning_bolt, slow_bolt, slow_end, slow_start

GAME = "undercroft"
SIDEBAR = (120, 200, 235)  # the statuses' colour in the sidebar, as the conditions plugin's


@hookimpl
def register_effects(register):
    register("slow_bolt", slow_bolt)
    register("lightning_bolt", lightning_bolt)
    register("dig_bolt", dig_bolt)


@hookimpl
def register_items(register):
    register(ItemKind(name="wand of slowing", glyph="/", color=(150, 120, 255), effect="slow_bolt",
                      params={"turns": 12, "reach": 8}, use="zap", target="monster", charges=5,
                      description="Zapped at a monster, the first one in the way acts half as often for 12 turns."))
    register(ItemKind(name="wand of lightning", glyph="/", color=(235, 235, 255), effect="lightning_bolt",
                      params={"damage": 9, "reach": 8}, use="zap", target="cell", charges=4,
                      description="A bolt of 9 damage through every creature in a line, up to the first wall."))
    register(ItemKind(name="wand of digging", glyph="/", color=(160, 110, 60), effect="dig_bolt",
                      params={"reach": 6}, use="zap", target="cell", charges=4,
                      description="Turns the rock in a line up to 6 cells long into floor."))
    register(ItemKind(name="dart", glyph=")", color=(90, 210, 170), effect="inert", use="throw", attack=2,
                      amount=(2, 4), params={"breaks": 20},
                      description="A small weighted dart: thrown with t, it hits for 2 (and breaks one time in five)."))
    register(ItemKind(name="javelin", glyph=")", color=(200, 200, 100), effect="inert", use="throw", attack=4,
                      amount=(1, 2), params={"breaks": 35},
                      description="A light spear: thrown with t, it hits for 4 (and breaks one time in three)."))


@hookimpl
def register_loot(register):
    rows = (
        ("floor", LootRow(item="dart", weight=4, max_depth=6)),
        ("floor", LootRow(item="javelin", weight=2, min_depth=4)),
        ("floor", LootRow(item="wand of slowing", weight=2, min_depth=2)),
        ("floor", LootRow(item="wand of digging", weight=2, min_depth=2)),
        ("floor", LootRow(item="wand of lightning", weight=2, min_depth=3)),
        ("drop", LootRow(item="dart", weight=2)),
        ("rich", LootRow(item="wand of lightning", weight=5)),
    )
    for table, row in rows:
        register(GAME, table, row)


@hookimpl
def register_monsters(register):
    register(MonsterKind(name="goblin spearthrower", glyph="p", color=(246, 198, 186), hp=9, attack=3, sight=9,
                         behaviour="thrower", min_depth=2, max_depth=8, weight=8,
                         params={"xp": 8, "range": 5, "missile": "javelin", "missiles": 2},
                         description="A goblin with a bundle of javelins: it throws them from afar, then fights."))


@hookimpl
def register_behaviours(register):
    register("thrower", thrower)


@hookimpl
def register_statuses(register):
    register(StatusKind(name="slowed", label="Slowed", color=SIDEBAR, on_start=slow_start, on_end=slow_end))


@hookimpl
def register_components(register):
    register(SlowedFrom)
    register(Quiver)
