"""The FOV contract, as checks on a registered :class:`engine.kit.fov.FovAlgorithm`.

``fn(transparent, origin, radius) -> visible``: ``transparent`` a (height, width) bool array
indexed ``[y, x]``, ``origin`` an ``(x, y)`` cell on the map, ``radius`` an int or None.
Maps in pictures: ``#`` opaque, anything else transparent, ``@`` the viewer.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import numpy as np

from engine.kit.fov import LIGHT_SHAPES, FovAlgorithm, ReachError, radius_mask
from engine.testing.errors import fail

Case = tuple[np.ndarray, tuple[int, int], "int | None"]


def fov_map(picture: str) -> tuple[np.ndarray, tuple[int, int]]:
    """A picture as ``(transparent, origin)``: ``#`` opaque, anything else transparent, ``@`` the viewer."""
    rows = picture.strip("\n").split("\n")
    transparent = np.array([[c != "#" for c in row] for row in rows], dtype=bool)
    origin = next((x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "@")
    return transparent, origin


def fov_picture(picture: str, visible: np.ndarray) -> str:
    """The picture with the cells ``visible`` hides blanked out (trailing blanks dropped)."""
    rows = picture.strip("\n").split("\n")
    return "\n".join("".join(c if visible[y, x] else " " for x, c in enumerate(row)).rstrip()
                     for y, row in enumerate(rows))


def fov_cases(seed: int | str = 0, n: int = 100, max_side: int = 14, max_radius: int = 12) -> list[Case]:
    """``n`` random maps of 1..``max_side`` a side (each cell a coin toss), an origin anywhere on
    the map (walls included) and a radius of None or 0..``max_radius``."""
    rng = random.Random(f"fov cases {seed}")
    cases = []
    for _ in range(n):
        h, w = rng.randint(1, max_side), rng.randint(1, max_side)
        t = np.array([[rng.random() < 0.5 for _ in range(w)] for _ in range(h)], dtype=bool)
        radius = None if rng.random() < 0.2 else rng.randint(0, max_radius)
        cases.append((t, (rng.randrange(w), rng.randrange(h)), radius))
    return cases


def _subject(alg: FovAlgorithm) -> str:
    return f"fov {alg.name!r}"


def _where(t: np.ndarray, origin: tuple[int, int], radius: int | None) -> str:
    return f"map {t.shape[1]}x{t.shape[0]}, origin {origin}, radius {radius}"


def check_fov_case(alg: FovAlgorithm, transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> None:
    """Every FOV, on any map: the result is a bool array of the map's shape; the map it was given
    is unchanged; the origin is visible; the light has the shape it declares (``shape=``, round by
    default: no cell beyond ``dx*dx + dy*dy <= radius*radius`` is lit; ``"diamond"``:
    ``|dx| + |dy| <= radius``; ``"square"``: ``max(|dx|, |dy|) <= radius``), within its ``reach``
    when it declares one (whatever the radius asked, None included); the eight neighbours of the
    origin are visible (walls included) when the light reaches them (None or 2 and more)."""
    before = transparent.copy()
    where = _where(transparent, origin, radius)
    visible = alg(transparent, origin, radius)
    asked, radius = radius, alg.radius_for(radius)  # the light it lights: its reach when nearer
    if not isinstance(visible, np.ndarray) or visible.shape != transparent.shape or visible.dtype != bool:
        raise fail(_subject(alg), "returns a bool array of the map's shape", where)
    if not (transparent == before).all():
        raise fail(_subject(alg), "leaves the map it is given unchanged", where)
    ox, oy = origin
    if not visible[oy, ox]:
        raise fail(_subject(alg), "the origin is visible", where)
    if radius is not None:
        outside = visible & ~radius_mask(visible.shape, origin, radius, alg.shape)
        if outside.any():
            y, x = (int(v) for v in np.argwhere(outside)[0])
            beyond = "the radius" if radius == asked else f"its reach ({alg.reach})"
            raise fail(_subject(alg), f"the light is {alg.shape} ({LIGHT_SHAPES[alg.shape]}): ({x}, {y}) is lit "
                       f"beyond {beyond}", where)
    if radius is None or radius >= 2:
        h, w = transparent.shape
        for y in range(max(0, oy - 1), min(h, oy + 2)):
            for x in range(max(0, ox - 1), min(w, ox + 2)):
                if not visible[y, x]:
                    raise fail(_subject(alg), f"the neighbours are visible: ({x}, {y}) is not", where)


def check_fov_symmetry_case(alg: FovAlgorithm, transparent: np.ndarray, origin: tuple[int, int],
                            radius: int | None) -> None:
    """An FOV registered with ``symmetric=True``: from a floor cell A, every floor cell B that A
    sees sees A. (Nothing is checked for one that does not claim it, or from a wall.)"""
    ox, oy = origin
    if not alg.symmetric or not transparent[oy, ox]:
        return
    seen = alg(transparent, origin, radius) & transparent
    for y, x in zip(*np.nonzero(seen), strict=True):
        if not alg(transparent, (int(x), int(y)), radius)[oy, ox]:
            raise fail(_subject(alg), f"it claims symmetry: {origin} sees {(int(x), int(y))}, not back",
                       _where(transparent, origin, radius))


def _turn(a: np.ndarray, turns: int, flip: bool) -> np.ndarray:
    a = np.rot90(a, turns)
    return a[:, ::-1] if flip else a


def check_fov_turns_case(alg: FovAlgorithm, transparent: np.ndarray, origin: tuple[int, int],
                         radius: int | None) -> None:
    """Turning or mirroring the map turns the view the same way (for the eight symmetries of the
    square). :func:`check_fov` holds every FOV that claims symmetry to it: a symmetric light that
    depends on the map's orientation is almost surely a mistake."""
    visible = alg(transparent, origin, radius)
    marker = np.zeros(transparent.shape, dtype=bool)
    marker[origin[1], origin[0]] = True
    for turns in range(4):
        for flip in (False, True):
            (y,), (x,) = np.nonzero(_turn(marker, turns, flip))
            turned = alg(np.ascontiguousarray(_turn(transparent, turns, flip)), (int(x), int(y)), radius)
            if not (turned == _turn(visible, turns, flip)).all():
                raise fail(_subject(alg), f"the view turns with the map: {turns} quarter turns, mirrored={flip}",
                           _where(transparent, origin, radius))


def check_fov_open_room(alg: FovAlgorithm, radii: Iterable[int | None] = (None, 0, 1, 5)) -> None:
    """On a 9x7 map with no walls, from its corners, its middle and an edge, the FOV sees exactly
    the light of the shape it declares (round by default: every cell with
    ``dx*dx + dy*dy <= radius*radius``; every cell for None), as far as its ``reach`` when it
    declares one."""
    transparent = np.ones((7, 9), dtype=bool)
    for radius in radii:
        for origin in [(0, 0), (8, 6), (4, 3), (8, 0)]:
            visible = alg(transparent, origin, radius)
            want = radius_mask((7, 9), origin, alg.radius_for(radius), alg.shape)
            if not (visible == want).all():
                y, x = (int(v) for v in np.argwhere(visible != want)[0])
                other = [shape for shape in LIGHT_SHAPES
                         if (alg(transparent, origin, radius) == radius_mask((7, 9), origin, radius, shape)).all()]
                hint = f"; it lights a {other[0]} shape: declare it, register(..., shape={other[0]!r})" if other else ""
                near = [r for r in range(12) if (radius is None or r < radius)
                        and (visible == radius_mask((7, 9), origin, r, alg.shape)).all()]
                if near and not other:  # a light that stops short by itself: a cap it should declare
                    hint = f"; it lights at most {near[0]} away: declare it, register(..., reach={near[0]})"
                raise fail(_subject(alg), f"on open ground it sees exactly its {alg.shape} light "
                           f"({LIGHT_SHAPES[alg.shape]}): ({x}, {y}) is {'lit' if visible[y, x] else 'dark'}{hint}",
                           _where(transparent, origin, radius))


def check_fov_one_cell(alg: FovAlgorithm) -> None:
    """A 1x1 map, transparent or not: the viewer sees its own cell."""
    for value in (False, True):
        if alg(np.full((1, 1), value), (0, 0), None).tolist() != [[True]]:
            raise fail(_subject(alg), "on a one-cell map it sees that cell", f"transparent={value}")


CORNER = """
##########
#.....@.##
#######.##
#######.##
#######.##
"""
CORRIDOR = """
#########
#...@...#
#########
"""
DOOR = """
#######
#.@.#.#
#...#.#
#######
"""


def check_fov_walls(alg: FovAlgorithm) -> None:
    """Walls, on small maps (radius None):

    - no blind corners: one step before the bend of a one-wide L corridor, the viewer sees the
      diagonal cell round the corner and the next one down the new corridor;
    - from the middle of a straight corridor, the whole corridor is visible;
    - the walls of a room are lit: from the middle of a 15x9 room, every cell of it, its walls
      included, is visible;
    - a wall hides what is behind it: the room behind a closed door is dark while the wall is
      lit; an FOV registered with ``through_walls=True`` is held to the opposite, it sees all.

    An FOV with a ``reach`` is held to each of these within its reach.
    """
    subject = _subject(alg)

    def in_reach(t: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
        return radius_mask(t.shape, origin, alg.reach, alg.shape)

    t, origin = fov_map(CORNER)
    seen = alg(t, origin, None)
    if not (seen[2, 7] and seen[3, 7]):
        raise fail(subject, "no blind corners: the cells round the bend of a corridor are visible",
                   "\n" + fov_picture(CORNER, seen))
    t, origin = fov_map(CORRIDOR)
    seen = alg(t, origin, None) | ~in_reach(t, origin)
    if not seen[1].all():
        raise fail(subject, "from the middle of a straight corridor, all of it is visible")
    room = np.zeros((11, 17), dtype=bool)
    room[1:-1, 1:-1] = True
    if not (alg(room, (8, 5), None) | ~in_reach(room, (8, 5))).all():
        raise fail(subject, "the walls of a room are lit from its middle", "a 15x9 room, origin (8, 5)")
    t, origin = fov_map(DOOR)
    seen = alg(t, origin, None)
    if alg.through_walls:
        if not (seen | ~in_reach(t, origin)).all():
            raise fail(subject, "it claims to see through walls, yet the room behind a closed door is dark")
    elif seen[1:3, 5].any() or not seen[1:3, 4].all():
        raise fail(subject, "a wall hides what is behind it and is lit itself", "\n" + fov_picture(DOOR, seen))


def random_walls(rng: random.Random, w: int = 80, h: int = 50, density: float = 0.25) -> np.ndarray:
    """A walled ``w`` x ``h`` room with ``density`` of its inside opaque: True where transparent."""
    t = np.zeros((h, w), dtype=bool)
    t[1:-1, 1:-1] = np.array([[rng.random() >= density for _ in range(w - 2)] for _ in range(h - 2)])
    return t


def check_fov_symmetry_claim(alg: FovAlgorithm, seed: int | str = 0, origins: int = 12, radius: int = 10) -> None:
    """An FOV registered with ``symmetric=True`` has no symmetry error between floors on an 80x50
    map with 25% walls, from ``origins`` floor cells and up to 30 floors each sees."""
    if not alg.symmetric:
        return
    rng = random.Random(f"fov symmetry {seed}")
    t = random_walls(rng)
    ys, xs = np.nonzero(t)
    for i in sorted(rng.sample(range(len(xs)), min(origins, len(xs)))):
        a = (int(xs[i]), int(ys[i]))
        seen = alg(t, a, radius) & t
        seen[a[1], a[0]] = False
        bys, bxs = np.nonzero(seen)
        for j in sorted(rng.sample(range(len(bxs)), min(30, len(bxs)))):
            b = (int(bxs[j]), int(bys[j]))
            if not alg(t, b, radius)[a[1], a[0]]:
                raise fail(_subject(alg), f"it claims symmetry: {a} sees {b}, not back",
                           f"an 80x50 map with 25% walls, seed {seed!r}, radius {radius}")


def check_fov_reference(alg: FovAlgorithm, maps: int = 20, seed: int | str = 0,
                        radii: Iterable[int | None] = (None, 0, 1, 2, 5, 8, 20)) -> int:
    """An FOV registered with a ``python`` reference (its ``fn`` runs a compiled kernel) agrees
    with it cell for cell: on ``maps`` random maps from 1x1 to 45x45 (empty to mostly wall), from
    the corners and six random origins, at every radius of ``radii``. Returns the cases compared."""
    if alg.python is None:
        return 0
    rng = random.Random(f"fov reference {seed}")
    tables = [np.ones((1, 1), bool), np.ones((1, 7), bool), np.zeros((5, 1), bool), np.ones((3, 3), bool)]
    for _ in range(maps):
        density = rng.choice((0.0, 0.1, 0.25, 0.4, 0.6))
        w, h = rng.randint(1, 45), rng.randint(1, 45)
        tables.append(np.array([[rng.random() >= density for _ in range(w)] for _ in range(h)]))
    return compare_reference(alg, tables, rng, radii)


def compare_reference(alg: FovAlgorithm, maps: Iterable[np.ndarray], rng: random.Random,
                      radii: Iterable[int | None]) -> int:
    """:func:`check_fov_reference` on the given maps; returns the cases compared. A case beyond
    how far the reference can light (it raises ``engine.kit.fov.ReachError``) is not compared."""
    reference = alg.python
    if reference is None:  # a pure-Python algorithm is its own reference
        return 0
    cases = 0
    placed = []
    for t in maps:
        h, w = t.shape
        corners = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]
        placed.append((t, corners + [(rng.randrange(w), rng.randrange(h)) for _ in range(6)]))
    for radius in radii:  # outermost: a reference's tables are cached per window size and radius
        for t, origins in placed:
            for origin in origins:
                try:
                    slow = reference(t, origin, radius)
                except ReachError:
                    continue
                fast = alg.fn(t, origin, radius)
                if not np.array_equal(fast, slow):
                    diff = np.argwhere(fast != slow)[:5].tolist()
                    raise fail(_subject(alg), f"the compiled fn and its python reference agree: they differ at "
                               f"[y, x] {diff}", _where(t, origin, radius))
                cases += 1
    return cases


def check_fov(alg: FovAlgorithm, *, cases: int = 100, seed: int | str = 0, turns: bool | None = None) -> None:
    """Every FOV contract at once: :func:`check_fov_case` on ``cases`` random maps;
    :func:`check_fov_open_room`, :func:`check_fov_one_cell` and :func:`check_fov_walls`; and what
    it claims: ``symmetric=True`` (:func:`check_fov_symmetry_case` on half the maps,
    :func:`check_fov_symmetry_claim`, and :func:`check_fov_turns_case` on a quarter: ``turns``
    True or False says otherwise), a ``python`` reference (:func:`check_fov_reference`)."""
    maps = fov_cases(seed, cases)
    for case in maps:
        check_fov_case(alg, *case)
    check_fov_open_room(alg)
    check_fov_one_cell(alg)
    check_fov_walls(alg)
    if alg.symmetric:
        for case in maps[: cases // 2]:
            check_fov_symmetry_case(alg, *case)
        check_fov_symmetry_claim(alg, seed)
    if alg.symmetric if turns is None else turns:
        for case in maps[: cases // 4]:
            check_fov_turns_case(alg, *case)
    check_fov_reference(alg, maps=5, seed=seed)
