"""Unit tests of the shared generator helpers (engine/mapgen.py, engine/regions.py), against plain reference code."""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest

from engine import FLOOR, STAIRS, WALL, GenerationError, Level, Rect
from engine.core.turn.generate import check_level
from engine.kit.mapgen import carve_line, carve_rect, farthest_room, random_unit
from engine.kit.regions import (
    dead_ends,
    distances,
    ensure_connected,
    farthest,
    flood,
    grown,
    label_regions,
    largest_region,
)


def grid(*rows: str) -> np.ndarray:
    """A terrain from a picture: ``#`` wall, ``.`` floor, ``>`` stairs."""
    codes = {"#": WALL, ".": FLOOR, ">": STAIRS}
    return np.array([[codes[c] for c in row] for row in rows], dtype=np.uint8)


def reference_bfs(walkable: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    h, w = walkable.shape
    dist = np.full((h, w), -1)
    if not walkable[start[1], start[0]]:
        return dist
    dist[start[1], start[0]] = 0
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and walkable[ny, nx] and dist[ny, nx] < 0:
                dist[ny, nx] = dist[y, x] + 1
                queue.append((nx, ny))
    return dist


def reference_labels(walkable: np.ndarray) -> tuple[np.ndarray, int]:
    labels, n = np.zeros(walkable.shape, dtype=int), 0
    for y, x in zip(*np.nonzero(walkable), strict=True):
        if not labels[y, x]:
            n += 1
            labels[reference_bfs(walkable, (int(x), int(y))) >= 0] = n
    return labels, n


def noise(seed: int, h: int, w: int, p: float) -> np.ndarray:
    return np.random.default_rng(seed).random((h, w)) < p


def test_label_regions_matches_a_plain_flood_fill():
    for seed in range(300):
        rng = np.random.default_rng(seed)
        h, w = (int(v) for v in rng.integers(1, 30, 2))
        walkable = noise(seed, h, w, float(rng.random()))
        labels, n = label_regions(walkable)
        ref, ref_n = reference_labels(walkable)
        assert n == ref_n and np.array_equal(labels, ref), seed


def test_label_regions_edge_cases():
    assert label_regions(np.zeros((3, 4), bool))[1] == 0
    assert label_regions(np.ones((1, 1), bool))[1] == 1
    # a spiral is one region however the runs are numbered
    spiral = grid("#######", "#.....#", "#.###.#", "#.#.#.#", "#.#...#", "#.#####", "#######") != WALL
    assert label_regions(spiral)[1] == 1
    assert flood(spiral, (1, 1)).sum() == spiral.sum()


def test_regions_are_numbered_in_scan_order():
    walk = grid("#.#.", "##..", ".###") != WALL
    labels, n = label_regions(walk)
    assert n == 3
    assert labels.tolist() == [[0, 1, 0, 2], [0, 0, 2, 2], [3, 0, 0, 0]]


def test_flood():
    t = grid(
        "#####",
        "#..##",
        "##.##",
        "#####",
        "#..>#",
        "#####",
    )
    walk = t != WALL
    assert flood(walk, (1, 1)).sum() == 3
    assert flood(walk, (3, 4)).sum() == 3
    assert not flood(walk, (0, 0)).any()  # from a wall nothing is reached


def test_distances_match_a_plain_bfs():
    for seed in range(100):
        walkable = noise(seed, 25, 35, 0.65)
        ys, xs = np.nonzero(walkable)
        start = (int(xs[0]), int(ys[0]))
        assert np.array_equal(distances(walkable, start), reference_bfs(walkable, start)), seed


def test_farthest_and_largest_region():
    walk = grid("#######", "#.....#", "#######", "#..#..#", "#######") != WALL
    assert farthest(walk, (1, 1)) == (5, 1)
    assert largest_region(walk).sum() == 5
    assert not largest_region(np.zeros((3, 3), bool)).any()


def test_dead_ends():
    walk = grid("#####", "#...#", "#.#.#", "#.###", "#####") != WALL
    assert sorted(zip(*np.nonzero(dead_ends(walk)), strict=True)) == [(2, 3), (3, 1)]


def test_carve_line_goes_round_the_chosen_corner_and_keeps_stairs():
    t = np.zeros((6, 6), np.uint8)
    t[4, 1] = STAIRS
    carve_line(t, (1, 1), (4, 4), horizontal_first=False)
    assert t[4, 1] == STAIRS and t[1, 4] == WALL and t[3, 1] == FLOOR and t[4, 4] == FLOOR
    t = np.zeros((6, 6), np.uint8)
    carve_line(t, (1, 1), (4, 4), horizontal_first=True)
    assert t[1, 4] == FLOOR and t[4, 1] == WALL and (t != WALL).sum() == 7


def test_carve_rect():
    t = np.zeros((6, 6), np.uint8)
    carve_rect(t, Rect(1, 2, 3, 2))
    assert (t != WALL).sum() == 6 and t[2, 1] == FLOOR and t[3, 3] == FLOOR and t[4, 3] == WALL


def test_farthest_room_takes_the_rooms_centres_as_a_function_or_an_array():
    """The array form (rooms_and_mazes' thousands of rooms) picks what the function form picks:
    the first farthest centre on a tie, and a lone room's far corner when its centre is the start."""
    rng = random.Random(7)
    for case in range(200):
        rooms = [Rect(rng.randrange(12), rng.randrange(12), rng.randint(1, 5), rng.randint(1, 5))
                 for _ in range(rng.randint(1, 9))]  # small: many ties
        start = rooms[rng.randrange(len(rooms))].center
        centres = np.array([[r.x, r.y, r.w, r.h] for r in rooms])
        centres = centres[:, :2] + (centres[:, 2:] - 1) // 2
        assert farthest_room(rooms, start, centres) == farthest_room(rooms, start, lambda r: r.center), case
    apart = [Rect(4, 0, 1, 1), Rect(0, 4, 1, 1)]  # centres (4, 0) and (0, 4)
    assert farthest_room(apart, (2, 0), np.array([[4, 0], [0, 4]])) == (0, 4)
    assert farthest_room(apart, (2, 2), np.array([[4, 0], [0, 4]])) == (4, 0)  # both 4 away: the first
    lone = [Rect(2, 3, 3, 3)]
    assert farthest_room(lone, (3, 4), np.array([[3, 4]])) == (4, 5) == farthest_room(lone, (3, 4), lambda r: r.center)


@pytest.mark.parametrize("seed", range(120))
def test_ensure_connected_joins_everything_and_only_adds_floor(seed):
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(4, 40, 2))
    t = noise(seed, h, w, float(rng.uniform(0.1, 0.7))).astype(np.uint8)
    t[0], t[-1], t[:, 0], t[:, -1] = WALL, WALL, WALL, WALL
    t[1, 1] = FLOOR
    before = t.copy()
    ensure_connected(t, (1, 1), random.Random(seed))
    walk = t != WALL
    assert np.array_equal(flood(walk, (1, 1)), walk)
    assert (t[before != WALL] == before[before != WALL]).all()  # nothing filled in
    assert not (t[0].any() or t[-1].any() or t[:, 0].any() or t[:, -1].any())  # the ring stays wall


def test_ensure_connected_corridor_is_short():
    t = grid("##########", "#..####..#", "#..####..#", "##########")
    ensure_connected(t, (1, 1), random.Random(0))
    assert (t != WALL).sum() == 8 + 4  # the four cells of the gap, nothing more


def test_ensure_connected_is_deterministic():
    a = noise(5, 60, 80, 0.45).astype(np.uint8)
    a[0], a[-1], a[:, 0], a[:, -1] = WALL, WALL, WALL, WALL
    a[1, 1] = FLOOR
    b = a.copy()
    ensure_connected(a, (1, 1), random.Random(9))
    ensure_connected(b, (1, 1), random.Random(9))
    assert np.array_equal(a, b)


def test_ensure_connected_joins_every_region_of_a_noisy_500x500():
    # thousands of regions; how fast this is belongs to the bench (every generator at 500x500)
    t = noise(1, 500, 500, 0.5).astype(np.uint8)
    t[0], t[-1], t[:, 0], t[:, -1] = WALL, WALL, WALL, WALL
    t[250, 250] = FLOOR
    ensure_connected(t, (250, 250), random.Random(1))
    assert np.array_equal(flood(t != WALL, (250, 250)), t != WALL)


def test_check_level():
    t = grid("#####", "#..>#", "#####", "#.#.#", "#####")
    with pytest.raises(GenerationError, match="not connected"):
        check_level(Level(t, (1, 1), (3, 1)), "demo")
    with pytest.raises(GenerationError, match="stairs"):
        check_level(Level(t, (1, 1), (0, 0)), "demo")
    with pytest.raises(GenerationError, match="start"):
        check_level(Level(t, (9, 9), (3, 1)), "demo")
    t[3] = WALL
    check_level(Level(t, (1, 1), (3, 1)), "demo")


def test_random_unit_is_deterministic_and_in_range():
    a = random_unit(random.Random(3), (50, 40))
    b = random_unit(random.Random(3), (50, 40))
    assert np.array_equal(a, b) and a.shape == (50, 40)
    assert 0.0 <= a.min() and a.max() < 1.0 and 0.45 < a.mean() < 0.55


def test_the_numpy_references_agree_with_the_compiled_helpers():
    """label_regions and distances run compiled with numba (the tests above check those): the numpy
    versions, which run without it, give the same."""
    from engine.kit import jit
    from engine.kit.regions import distances_numpy, label_regions_numpy

    assert jit.enabled(), "numba is a test dependency: install the test extra"
    for seed in range(150):
        rng = np.random.default_rng(seed)
        h, w = (int(v) for v in rng.integers(1, 40, 2))
        walkable = noise(seed, h, w, float(rng.random()))
        labels, n = label_regions(walkable)
        ref, ref_n = label_regions_numpy(walkable)
        assert n == ref_n and np.array_equal(labels, ref), seed
        start = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        assert np.array_equal(distances(walkable, start), distances_numpy(walkable, start)), seed


def test_grown_adds_the_eight_neighbours_of_every_cell():
    rng = np.random.default_rng(5)
    for shape in [(1, 1), (1, 7), (6, 1), (9, 13), (30, 20)]:
        for density in (0.02, 0.2, 0.6):
            mask = rng.random(shape) < density
            padded = np.pad(mask, 1)
            h, w = shape
            expected = np.zeros_like(mask)
            for dy in (0, 1, 2):
                for dx in (0, 1, 2):
                    expected |= padded[dy:dy + h, dx:dx + w]
            assert (grown(mask) == expected).all(), (shape, density)
