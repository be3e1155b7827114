"""The rules of the default game (``undercroft``) where they differ from the classic games the
presets reproduce:

* stepping on an item picks up gold alone; the rest waits for ``g`` (the classic games, and the
  presets' rulesets, pick everything up by walking);
* levels are kept when left and found as they were, with stairs up on each;
* the Amulet of the Undercroft lies on the deepest level (the preset's ``max_depth``), guarded by
  the toughest monsters that level's table allows, and by the preset's boss when it names one
  (``[params.monsters] boss``: the default game's Vorgath the Warden, plugins/depths/monsters.py),
  placed beside it once; carrying it up the stairs of the first level wins the run. Climbing out
  without it is refused.
"""

from engine import ActionResult, ItemKind, Ruleset, Won, hookimpl

AMULET = "Amulet of the Undercroft"
GUARDS = 3  # monsters placed around the Amulet


class Undercroft(Ruleset):
    name = "undercroft"

    def picks_up(self, game, kind):
        return kind.use == "pickup"

    def keeps_levels(self, game):
        return True

    def climb_out(self, game):
        if any(game.kind_of(e).name == AMULET for e in game.pack()):
            return ActionResult.success(request=Won(game.rules.message("won")))
        game.log(game.rules.message("cannot_leave"))
        return ActionResult.not_done()


def _is_undercroft(game) -> bool:
    return game.rules.ruleset == Undercroft.name


@hookimpl
def on_level_generated(game, level):
    """On the deepest level: the Amulet on the floor cell farthest from the arrival, and its guards
    beside it: the preset's boss first when it names one (``[params.monsters] boss``), then the
    strongest kinds of the game's table that reach this depth, by hit points (GUARDS in all)."""
    if not _is_undercroft(game) or game.depth != game.rules.max_depth:
        return
    distances = game.distance_map([level.start])
    reachable = distances < float("inf")
    reachable[level.start[1], level.start[0]] = False
    if not reachable.any():
        return
    far = max(zip(*reachable.nonzero(), strict=True), key=lambda yx: (distances[yx], -yx[0], -yx[1]))
    x, y = int(far[1]), int(far[0])
    for e in set(game.entities_at(x, y)) & set(game.items()):  # the Amulet lies alone (a creature may stand on it)
        game.remove(e)
    game.spawn(AMULET, x, y)
    kinds = game.monster_kinds()
    kinds.sort(key=lambda k: (-k.hp, k.name))
    cells = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))]
    boss = game.rules.params.get("monsters", {}).get("boss")
    placed = 0
    if boss:
        for cx, cy in cells:
            try:
                spawned = game.spawn(boss, cx, cy)
            except KeyError:  # its plugin is switched off: the guards alone
                break
            if spawned is not None:
                placed = 1
                break
    guards = 0
    for cx, cy in cells:
        if placed == GUARDS or not kinds:
            break
        if game.spawn(kinds[guards % len(kinds)].name, cx, cy) is not None:
            placed, guards = placed + 1, guards + 1


@hookimpl
def register_items(register):
    register(ItemKind(name=AMULET, glyph='"', color=(255, 215, 90), effect="inert", use="carry",
                      min_depth=100_000, weight=1,
                      description="The Amulet of the Undercroft. Carry it up the stairs of the first level."))


def inert(game, entity, kind, amount, **target):
    """Nothing: the effect of an item that is only carried (the Amulet). No params."""
    return None


@hookimpl
def register_effects(register):
    register("inert", inert)


@hookimpl
def register_rulesets(register):
    register(Undercroft())
