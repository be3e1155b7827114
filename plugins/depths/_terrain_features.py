"""Where :mod:`engine.plugins.depths.terrain` puts its features on a new level: lakes of deep water
ringed with shallow water (with a bridge where a lake would cut the level), rubble patches,
meadows of tall grass and chasms. A generated level only: one drawn with ``--map`` is played as
drawn (``Level.populate`` False), as the doors and traps leave it.

Every feature is painted on floor cells only: never on the start, the stairs or the exit, never
where a creature stands or an item lies. A feature keeps the level's regions as they were over what
the player walks without swimming or falling (floor, shallow water, rubble, grass; not deep water
and not a chasm): a lake that would cut the level gets a bridge of floor across it (through its
middle, along the row, the column, or both), and a lake or a chasm that still would is taken away
again. The regions are the kit's 4-connected ones, the stricter kind: a level connected so is
connected for 8-way walkers too.

The numbers come from the preset's ``[params.terrain]`` (chances per depth, counts and sizes: see
``content/games/undercroft.toml``), the rolls from the level's own stream (:func:`level_stream`).
"""

from __future__ import annotations

import hashlib
import random

import numpy as np

from engine.kit import regions

DEEP, SHALLOW, RUBBLE, GRASS, CHASM, FLOOR = "deep-water", "shallow-water", "rubble", "grass", "chasm", "floor"
OPEN = 15  # a feature's middle has at least this many free cells of the 5x5 square around it
TRIES = 40  # cells tried for a feature's middle before it is left out

# The defaults of [params.terrain]: chances as [[from depth, percent], ...] (the last row whose
# depth is reached applies), counts and sizes as [least, most].
DEFAULTS = {
    "lakes": [[1, 35], [4, 60]], "lake_count": [1, 2], "lake_size": [3, 6],
    "rubble": [[1, 50]], "rubble_count": [1, 3], "rubble_size": [1, 3],
    "grass": [[1, 50]], "grass_count": [1, 2], "grass_size": [2, 4],
    "chasm": [[3, 35]], "chasm_size": [1, 3],
    "eel": [[3, 60], [10, 0]],
}


def chance(params: dict, key: str, depth: int) -> int:
    """The percent chance ``params[key]`` gives at ``depth`` (0 above its first row's depth)."""
    rows = params.get(key, DEFAULTS[key])
    if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 2 for r in rows):
        raise ValueError(f"params.terrain.{key}: expected [[from depth, percent], ...], got {rows!r}")
    percent = 0
    for start, value in sorted((int(a), int(b)) for a, b in rows):
        if depth >= start:
            percent = value
    return percent


def span(params: dict, key: str) -> tuple[int, int]:
    """``params[key]`` as (least, most), a pair of whole numbers with least <= most."""
    pair = params.get(key, DEFAULTS[key])
    if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, int) for v in pair) and pair[0] <= pair[1]):
        raise ValueError(f"params.terrain.{key}: expected [least, most], two whole numbers, got {pair!r}")
    return pair[0], pair[1]


def distinct(ordered: np.ndarray) -> int:
    """How many different values a sorted array holds (np.unique would import numpy.ma, 15-30 ms
    of a short run's start)."""
    return int(ordered.size and 1 + np.count_nonzero(ordered[1:] != ordered[:-1]))


class Painter:
    """The features of one new level: the cells still free for them, and the regions they keep."""

    def __init__(self, game, level, rng) -> None:
        self.game, self.level, self.rng = game, level, rng
        self.free = level.terrain == level.code(FLOOR)
        things = [game.player, *game.monsters(), *game.items()]
        for cell in [game.position(e) for e in things]:
            if cell is not None:
                self.free[cell[1], cell[0]] = False
        for cell in (level.start, level.stairs, level.exit, level.upstairs):  # and a step off them on floor
            if cell is not None:
                self.free[max(0, cell[1] - 1):cell[1] + 2, max(0, cell[0] - 1):cell[0] + 2] = False
        self.regions, self.count = regions.label_regions(self.walked())

    def walked(self) -> np.ndarray:
        """What the player walks without swimming or falling (a chasm is no creature's ground)."""
        walk = ~self.game.walls()
        if DEEP in self.level.kinds:
            walk &= self.level.terrain != self.level.kinds.index(DEEP)
        return walk

    def keeps_regions(self) -> bool:
        """Whether the regions are still those the level had: as many, each old one still one."""
        labels, count = regions.label_regions(self.walked())
        if count != self.count:
            return False
        both = labels > 0
        pairs = np.sort(self.regions[both].astype(np.int64) * (count + 1) + labels[both])
        return distinct(pairs) == count and distinct(pairs // (count + 1)) == count

    def paint(self, cells: list[tuple[int, int]], name: str) -> None:
        for x, y in cells:
            self.game.set_terrain(x, y, name)
            self.free[y, x] = False

    def unpaint(self, cells: list[tuple[int, int]]) -> None:
        for x, y in cells:
            self.game.set_terrain(x, y, FLOOR)
            self.free[y, x] = True

    def middle(self) -> tuple[int, int] | None:
        """A free cell in the open (a room, a cave), not in a corridor; None when none is found."""
        ys, xs = self.free.nonzero()
        if not len(xs):
            return None
        h, w = self.free.shape
        for _ in range(TRIES):
            i = self.rng.randrange(len(xs))
            x, y = int(xs[i]), int(ys[i])
            if self.free[max(0, y - 2):min(h, y + 3), max(0, x - 2):min(w, x + 3)].sum() >= OPEN:
                return x, y
        return None

    def blob(self, size: tuple[int, int], *, wide: bool = True) -> tuple[tuple[int, int], list[tuple[float, int, int]]]:
        """A ragged oval of free cells around a middle: ``(middle, [(how far out 0..1, x, y)])``."""
        centre = self.middle()
        if centre is None:
            return (0, 0), []
        cx, cy = centre
        rx = self.rng.randint(*size) + 0.5
        ry = max(1.5, rx * (0.6 if wide else 1.0))
        h, w = self.free.shape
        inside = {}
        for y in range(max(0, int(cy - ry)), min(h, int(cy + ry) + 1)):
            for x in range(max(0, int(cx - rx)), min(w, int(cx + rx) + 1)):
                far = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 + self.rng.uniform(-0.2, 0.2)
                if far <= 1 and self.free[y, x]:
                    inside[x, y] = far
        # only what joins the middle without crossing a wall: a lake fills its room, not the next one
        out, todo = [], [centre] if centre in inside else []
        while todo:
            x, y = todo.pop()
            if (x, y) in inside:
                out.append((inside.pop((x, y)), x, y))
                todo += [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        return centre, sorted(out, key=lambda c: (c[2], c[1]))

    # -- the features ------------------------------------------------------------------------
    def lake(self, size: tuple[int, int]) -> list[tuple[int, int]]:
        """A lake: deep water in the middle, shallow around; bridged where it cuts the level, left
        out where even a bridge does not mend it. Returns its deep cells (empty: no lake)."""
        (cx, cy), cells = self.blob(size)
        deep = [(x, y) for far, x, y in cells if far <= 0.5]
        shallow = [(x, y) for far, x, y in cells if far > 0.5]
        if len(deep) < 3:
            return []
        self.paint(shallow, SHALLOW)
        self.paint(deep, DEEP)
        if self.keeps_regions():
            return deep
        rows = [(x, y) for x, y in deep if y == cy]
        columns = [(x, y) for x, y in deep if x == cx]
        for bridge in (rows, columns, rows + columns):
            self.paint(bridge, FLOOR)
            if self.keeps_regions():
                return [cell for cell in deep if cell not in bridge]
            self.paint(bridge, DEEP)
        self.unpaint(shallow + deep)
        return []

    def chasm(self, size: tuple[int, int]) -> bool:
        """A chasm, round; left out where it would cut the level (up to a few places tried)."""
        for _ in range(4):
            _, cells = self.blob(size, wide=False)
            hole = [(x, y) for far, x, y in cells if far <= 0.8]
            if len(hole) < 2:
                continue
            self.paint(hole, CHASM)
            if self.keeps_regions():
                return True
            self.unpaint(hole)
        return False

    def patch(self, size: tuple[int, int], name: str, density: float, hidden: np.ndarray | None = None) -> None:
        """A patch of a walkable kind (rubble, grass): ``density`` of the blob's cells, none on
        ``hidden`` cells (grass: none in the player's view, whose memory would keep what it hides)."""
        _, cells = self.blob(size)
        self.paint([(x, y) for _, x, y in cells
                    if self.rng.random() < density and (hidden is None or not hidden[y, x])], name)


def level_stream(level) -> random.Random:
    """The level's own stream for its features, seeded by its terrain as its generator made it (from
    the run's stream ``level:<depth>``): a depth gets the same features whether or not the ones
    above were made, and a save keeps no stream per depth for them."""
    digest = hashlib.sha256(b"depths:terrain" + level.terrain.tobytes() + str(level.terrain.shape).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def furnish(game, level, params: dict, eel: str) -> None:
    """Put the features the preset's numbers give for this depth on ``level`` (see the module doc),
    and an ``eel`` in some of the lakes."""
    rng, depth = level_stream(level), game.depth
    painter = Painter(game, level, rng)
    deepest = game.rules.max_depth
    if rng.randrange(100) < chance(params, "lakes", depth):
        for _ in range(rng.randint(*span(params, "lake_count"))):
            deep = painter.lake(span(params, "lake_size"))
            if deep and len(deep) >= 4 and rng.randrange(100) < chance(params, "eel", depth):
                x, y = deep[rng.randrange(len(deep))]
                game.spawn(eel, x, y)
    if (deepest is None or depth < deepest) and rng.randrange(100) < chance(params, "chasm", depth):
        painter.chasm(span(params, "chasm_size"))
    if rng.randrange(100) < chance(params, "rubble", depth):
        for _ in range(rng.randint(*span(params, "rubble_count"))):
            painter.patch(span(params, "rubble_size"), RUBBLE, 0.55)
    if rng.randrange(100) < chance(params, "grass", depth):
        in_view = game.visible()
        for _ in range(rng.randint(*span(params, "grass_count"))):
            painter.patch(span(params, "grass_size"), GRASS, 0.85, hidden=in_view)
