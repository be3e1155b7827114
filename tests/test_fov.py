"""Field of view: every registered algorithm against the contract (``engine.testing``), and each
against what it claims. The built-ins' figures on Jice's test maps are pinned here too, both ways,
so a change is noticed; they are figures, not claims, so they skip a third-party algorithm.

Maps are ASCII pictures: ``#`` is opaque, anything else transparent, ``@`` the viewer. Expected
pictures mark visible cells with their glyph and hidden ones with a space.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import testing
from engine.cli.tools.compare import fov as catalog_fov
from engine.testing import fov_map as parse
from engine.testing import fov_picture as draw

# Built-ins that are not symmetric but are still unchanged by rotating or mirroring the map
# (raycast draws its lines in one octant and mirrors them; Bergström's octants mirror each other).
ISOTROPIC = {"raycast", "shadowcast"}
# What each built-in does on Jice's test maps: checked both ways, so a change is noticed.
EXPANSIVE_WALLS = {"diamond", "everything", "permissive", "shadowcast", "symmetric"}
WIDENING_PILLAR_SHADOWS = {"diamond", "raycast", "shadowcast", "symmetric"}


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
    testing.check_fov_case(registry.fov[fov_name], *_case(data))


@pytest.mark.parametrize("radius", [None, 0, 1, 5])
def test_open_room_and_map_edges(registry, fov_name, radius):
    testing.check_fov_open_room(registry.fov[fov_name], radii=[radius])


def test_a_one_cell_map(registry, fov_name):
    testing.check_fov_one_cell(registry.fov[fov_name])


def test_walls_corners_and_doors(registry, fov_name):
    testing.check_fov_walls(registry.fov[fov_name])


def test_the_kit_passes_it_whole(registry, fov_name):
    """``engine.testing.check_fov``, as a plugin's own test calls it."""
    testing.check_fov(registry.fov[fov_name], cases=40, seed="whole")


# --- What each algorithm claims --------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps)
def test_symmetric_between_floors(registry, fov_name, data):
    testing.check_fov_symmetry_case(registry.fov[fov_name], *_case(data))


def test_non_symmetric_claims_are_honest(registry, fov_name):
    """An algorithm that claims symmetry has no errors in the comparison (the kit's check); the
    built-ins that do not claim it really are asymmetric somewhere there."""
    alg = registry.fov[fov_name]
    testing.check_fov_symmetry_claim(alg, seed=1)
    if fov_name in ISOTROPIC and registry.owner("fov", fov_name).builtin:
        t = catalog_fov.make_map("random25", catalog_fov.random.Random(1))
        origins = catalog_fov.floor_origins(t, catalog_fov.random.Random(2), 12)
        failures, pairs = catalog_fov.symmetry_errors(alg.fn, t, origins, 10, catalog_fov.random.Random(3))
        assert pairs > 100 and failures > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps)
def test_rotating_or_mirroring_the_map_turns_the_view(registry, fov_name, data):
    alg = registry.fov[fov_name]
    if alg.symmetric or (fov_name in ISOTROPIC and registry.owner("fov", fov_name).builtin):
        testing.check_fov_turns_case(alg, *_case(data))


# --- Jice's properties, each built-in checked both ways --------------------------------------------


@pytest.mark.pins_builtins  # Jice's figures, pinned for the built-ins: compare fov gives yours
def test_expansive_walls(registry, fov_name):
    assert catalog_fov.expansive_walls(registry.fov[fov_name].fn) == (fov_name in EXPANSIVE_WALLS)


@pytest.mark.pins_builtins  # Jice's figures, pinned for the built-ins: compare fov gives yours
def test_pillar_shadows_widen(registry, fov_name):
    widths = catalog_fov.pillar_shadow_widths(registry.fov[fov_name].fn)
    assert catalog_fov.pillar_shadows_widen(registry.fov[fov_name].fn) == (fov_name in WIDENING_PILLAR_SHADOWS)
    if fov_name == "permissive":
        assert set(widths) == {1}, "a unit viewer behind a unit pillar casts a unit-wide umbra"


def test_compare_fovs_no_blind_corners_agrees_with_the_contract(registry, fov_name):
    """compare fov's column and the kit's contract are the same L corridor: both hold."""
    alg = registry.fov[fov_name]
    visible = alg(*testing.fov_map(testing.fov.CORNER), None)
    assert visible[2, 7] and visible[3, 7], "the cells around the corner are hidden"
    assert catalog_fov.no_blind_corners(alg.fn)


@pytest.mark.pins_builtins  # Jice's figures, pinned for the built-ins: compare fov gives yours
def test_the_far_walls_of_a_corridor(registry, fov_name):
    transparent, origin = parse(testing.fov.CORRIDOR)
    # Raycasting's line to a far wall runs along the wall itself, so only the near walls are lit.
    assert registry.fov[fov_name](transparent, origin, None).all() == (fov_name in EXPANSIVE_WALLS)


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
