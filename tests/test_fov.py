"""Field of view: every registered algorithm against the contract, and each against what it claims.

Maps are ASCII pictures: ``#`` is opaque, anything else transparent, ``@`` the viewer. Expected
pictures mark visible cells with their glyph and hidden ones with a space.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import compare_fov as catalog_fov

# Built-ins that are not symmetric but are still unchanged by rotating or mirroring the map
# (raycast draws its lines in one octant and mirrors them; Bergström's octants mirror each other).
ISOTROPIC = {"raycast", "shadowcast"}
# What each built-in does on Jice's test maps: checked both ways, so a change is noticed.
EXPANSIVE_WALLS = {"diamond", "everything", "permissive", "shadowcast", "symmetric"}
WIDENING_PILLAR_SHADOWS = {"diamond", "raycast", "shadowcast", "symmetric"}


def parse(picture: str) -> tuple[np.ndarray, tuple[int, int]]:
    rows = [row for row in picture.strip("\n").split("\n")]
    transparent = np.array([[c != "#" for c in row] for row in rows], dtype=bool)
    origin = next((x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "@")
    return transparent, origin


def draw(picture: str, visible: np.ndarray) -> str:
    rows = picture.strip("\n").split("\n")
    return "\n".join("".join(c if visible[y, x] else " " for x, c in enumerate(row)).rstrip()
                     for y, row in enumerate(rows))


maps = st.integers(1, 14).flatmap(lambda h: st.integers(1, 14).flatmap(lambda w: st.tuples(
    st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h),
    st.integers(0, w - 1), st.integers(0, h - 1), st.none() | st.integers(0, 12))))


def _case(data) -> tuple[np.ndarray, tuple[int, int], int | None]:
    cells, x, y, radius = data
    return np.array(cells, dtype=bool), (x, y), radius


# --- The contract, for every algorithm -------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps)
def test_contract_on_random_maps(registry, fov_name, data):
    transparent, (ox, oy), radius = _case(data)
    before = transparent.copy()
    visible = registry.fov[fov_name](transparent, (ox, oy), radius)
    assert visible.shape == transparent.shape and visible.dtype == bool
    assert (transparent == before).all(), "the algorithm changed the map it was given"
    assert visible[oy, ox], "the origin is always visible"
    if radius is not None:
        ys, xs = np.nonzero(visible)
        assert ((xs - ox) ** 2 + (ys - oy) ** 2 <= radius * radius).all(), "a cell beyond the radius is lit"
    if radius is None or radius >= 2:
        h, w = transparent.shape
        for y in range(max(0, oy - 1), min(h, oy + 2)):
            for x in range(max(0, ox - 1), min(w, ox + 2)):
                assert visible[y, x], f"neighbour {(x, y)} of {(ox, oy)} is not visible"


@pytest.mark.parametrize("radius", [None, 0, 1, 5])
def test_open_room_and_map_edges(registry, fov_name, radius):
    transparent = np.ones((7, 9), dtype=bool)
    for origin in [(0, 0), (8, 6), (4, 3), (8, 0)]:
        visible = registry.fov[fov_name](transparent, origin, radius)
        assert visible.shape == (7, 9)
        expected = catalog_fov.np.ones((7, 9), dtype=bool) if radius is None else \
            (np.arange(9)[None, :] - origin[0]) ** 2 + (np.arange(7)[:, None] - origin[1]) ** 2 <= radius ** 2
        assert (visible == expected).all(), f"an open room from {origin} with radius {radius}"


def test_a_one_cell_map(registry, fov_name):
    assert registry.fov[fov_name](np.zeros((1, 1), dtype=bool), (0, 0), None).tolist() == [[True]]


# --- What each algorithm claims --------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps)
def test_symmetric_between_floors(registry, fov_name, data):
    alg = registry.fov[fov_name]
    transparent, (ox, oy), radius = _case(data)
    if not alg.symmetric or not transparent[oy, ox]:
        return  # nothing claimed here: an origin in a wall has no floor-to-floor pairs
    seen = alg(transparent, (ox, oy), radius) & transparent
    for y, x in zip(*np.nonzero(seen), strict=True):
        assert alg(transparent, (int(x), int(y)), radius)[oy, ox], f"{(ox, oy)} sees {(x, y)}, not back"


def test_non_symmetric_claims_are_honest(registry, fov_name):
    """An algorithm that does not claim symmetry really is asymmetric somewhere in the comparison;
    one that claims it has no errors there."""
    alg = registry.fov[fov_name]
    t = catalog_fov.make_map("random25", catalog_fov.random.Random(1))
    origins = catalog_fov.floor_origins(t, catalog_fov.random.Random(2), 12)
    failures, pairs = catalog_fov.symmetry_errors(alg.fn, t, origins, 10, catalog_fov.random.Random(3))
    assert pairs > 100
    if alg.symmetric:
        assert failures == 0
    elif fov_name in ("raycast", "shadowcast"):
        assert failures > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps)
def test_rotating_or_mirroring_the_map_turns_the_view(registry, fov_name, data):
    alg = registry.fov[fov_name]
    if not (alg.symmetric or fov_name in ISOTROPIC):
        return
    transparent, (ox, oy), radius = _case(data)
    visible = alg(transparent, (ox, oy), radius)
    marker = np.zeros(transparent.shape, dtype=bool)
    marker[oy, ox] = True
    for turns in range(4):
        for flip in (False, True):
            def turn(a, turns=turns, flip=flip):
                a = np.rot90(a, turns)
                return a[:, ::-1] if flip else a
            (y,), (x,) = np.nonzero(turn(marker))
            turned = alg(np.ascontiguousarray(turn(transparent)), (int(x), int(y)), radius)
            assert (turned == turn(visible)).all(), f"{turns} quarter turns, mirrored={flip}"


# --- Jice's properties, each algorithm checked both ways -------------------------------------------


def test_expansive_walls(registry, fov_name):
    assert catalog_fov.expansive_walls(registry.fov[fov_name].fn) == (fov_name in EXPANSIVE_WALLS)


def test_pillar_shadows_widen(registry, fov_name):
    widths = catalog_fov.pillar_shadow_widths(registry.fov[fov_name].fn)
    assert catalog_fov.pillar_shadows_widen(registry.fov[fov_name].fn) == (fov_name in WIDENING_PILLAR_SHADOWS)
    if fov_name == "permissive":
        assert set(widths) == {1}, "a unit viewer behind a unit pillar casts a unit-wide umbra"


def test_no_blind_corners(registry, fov_name):
    picture = """
##########
#.....@.##
#######.##
#######.##
#######.##
"""
    transparent, origin = parse(picture)
    visible = registry.fov[fov_name](transparent, origin, None)
    assert visible[2, 7] and visible[3, 7], "the cells around the corner are hidden"
    assert catalog_fov.no_blind_corners(registry.fov[fov_name].fn)


def test_walls_of_a_corridor_are_lit(registry, fov_name):
    picture = """
#########
#...@...#
#########
"""
    transparent, origin = parse(picture)
    visible = registry.fov[fov_name](transparent, origin, None)
    assert visible[1].all()
    # Raycasting's line to a far wall runs along the wall itself, so only the near walls are lit.
    assert visible.all() == (fov_name in EXPANSIVE_WALLS)


def test_a_closed_door_hides_the_next_room(registry, fov_name):
    picture = """
#######
#.@.#.#
#...#.#
#######
"""
    transparent, origin = parse(picture)
    visible = registry.fov[fov_name](transparent, origin, None)
    if fov_name == "everything":
        assert visible.all()
    else:
        assert not visible[1:3, 5].any() and visible[1:3, 4].all()


# --- Symmetric shadowcasting against Albert Ford's published Python, verbatim in spirit ------------
# (https://www.albertford.com/shadowcasting/: Quadrant, Row, round_ties_up/down, is_symmetric.)


def ford_compute_fov(origin, is_blocking, mark_visible):
    from fractions import Fraction
    from math import ceil, floor

    def tiles(row):  # row = [depth, start_slope, end_slope]
        return [(row[0], col) for col in range(floor(row[0] * row[1] + Fraction(1, 2)),
                                               ceil(row[0] * row[2] - Fraction(1, 2)) + 1)]

    def slope(tile):
        return Fraction(2 * tile[1] - 1, 2 * tile[0])

    def is_symmetric(row, tile):
        return row[0] * row[1] <= tile[1] <= row[0] * row[2]

    mark_visible(*origin)
    ox, oy = origin
    for transform in (lambda r, c: (ox + c, oy - r), lambda r, c: (ox + r, oy + c),
                      lambda r, c: (ox + c, oy + r), lambda r, c: (ox - r, oy + c)):
        def is_wall(tile, transform=transform):
            return tile is not None and is_blocking(*transform(*tile))

        def is_floor(tile, transform=transform):
            return tile is not None and not is_blocking(*transform(*tile))

        def scan(row, transform=transform, is_wall=is_wall, is_floor=is_floor):
            prev_tile = None
            for tile in tiles(row):
                if is_wall(tile) or is_symmetric(row, tile):
                    mark_visible(*transform(*tile))
                if is_wall(prev_tile) and is_floor(tile):
                    row[1] = slope(tile)
                if is_floor(prev_tile) and is_wall(tile):
                    scan([row[0] + 1, row[1], slope(tile)])
                prev_tile = tile
            if is_floor(prev_tile):
                scan([row[0] + 1, row[1], row[2]])

        scan([1, Fraction(-1), Fraction(1)])


def ford_reference(transparent: np.ndarray, origin: tuple[int, int], radius: int | None) -> np.ndarray:
    """The reference on our contract: off-map tiles block and are not shown; clipped to the radius."""
    h, w = transparent.shape
    visible = np.zeros((h, w), dtype=bool)

    def is_blocking(x, y):
        return not (0 <= x < w and 0 <= y < h) or not transparent[y, x]

    def mark_visible(x, y):
        if 0 <= x < w and 0 <= y < h:
            visible[y, x] = True

    ford_compute_fov(origin, is_blocking, mark_visible)
    in_range = catalog_fov.np.ones((h, w), dtype=bool) if radius is None else \
        (np.arange(w)[None, :] - origin[0]) ** 2 + (np.arange(h)[:, None] - origin[1]) ** 2 <= radius ** 2
    return visible & in_range


FORD_EXAMPLE = """
###########
#.........#
#...#.....#
#.........#
#.@....##.#
#.....#...#
#.........#
###########
"""
FORD_EXAMPLE_SEEN = """
###### ####
#.... ....#
#...#.....#
#.........#
#.@....#
#.....#   #
#.......
##########
"""


def test_symmetric_on_a_worked_example(registry):
    transparent, origin = parse(FORD_EXAMPLE)
    visible = registry.fov["symmetric"](transparent, origin, None)
    assert draw(FORD_EXAMPLE, visible) == FORD_EXAMPLE_SEEN.strip("\n")
    assert draw(FORD_EXAMPLE, ford_reference(transparent, origin, None)) == FORD_EXAMPLE_SEEN.strip("\n")


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 24).flatmap(lambda h: st.integers(1, 24).flatmap(lambda w: st.tuples(
    st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h),
    st.integers(0, w - 1), st.integers(0, h - 1), st.none() | st.integers(0, 20)))))
def test_symmetric_matches_albert_fords_reference(registry, data):
    transparent, origin, radius = _case(data)
    expected = ford_reference(transparent, origin, radius)
    assert (registry.fov["symmetric"](transparent, origin, radius) == expected).all()


def test_symmetric_matches_the_reference_on_the_comparison_maps(registry):
    for name in catalog_fov.MAP_NAMES:
        t = catalog_fov.make_map(name, catalog_fov.random.Random(name))
        for origin in catalog_fov.floor_origins(t, catalog_fov.random.Random(7), 6):
            for radius in (8, 20, None):
                assert (registry.fov["symmetric"](t, origin, radius) == ford_reference(t, origin, radius)).all()
