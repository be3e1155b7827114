"""Property and golden tests for every registered generator, through the test kit (``engine.testing``).

``generator_name`` is parametrized by tests/conftest.py over every registered generator, or only
the one chosen with ``pytest --plugin generator=NAME``. A generator that reads map files (``ascii``)
is left out: it needs a map.

Golden files (tests/golden/generators/NAME.txt) pin the built-ins' seeds 1-3 at 80x50. After an
intended change to a generator, regenerate them with ``UNDERCROFT_UPDATE_GOLDEN=1 python -m pytest
tests/test_generators.py -k golden`` and review the diff. (A third-party generator pins its own in
its own package, with ``engine.testing.golden_text``.)
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import WALL, GenerationError, generate_level, testing
from engine.kit import limits

SWEEP_SIZE = {"scatter": (8, 8)}  # its natural board; everything else at the kit's default (60x40)
SWEEP_SEEDS = 500
GOLDEN = Path(__file__).parent / "golden" / "generators"


@pytest.fixture
def gen(registry, generator_name):
    return registry.generators[generator_name]


def test_500_seeds_are_valid_levels(gen):
    testing.check_generator_seeds(gen, SWEEP_SIZE.get(gen.name), SWEEP_SEEDS)


def test_same_seed_same_level(gen):
    testing.check_generator_determinism(gen, seeds=40)


def test_seeds_and_depths_differ(gen):
    testing.check_generator_variety(gen)


def test_odd_and_thin_sizes(gen):
    testing.check_generator_sizes(gen, seeds=25)


def test_the_largest_legal_map_is_a_level(gen):
    # rooms_and_mazes once listed 13,338 rooms at 1000x1000, over what a level may list: the game
    # refused a size it offers. One seed through the engine's checks.
    testing.check_generator_seeds(gen, size=(limits.MAX_MAP_SIDE, limits.MAX_MAP_SIDE), seeds=1)


def test_unknown_params_and_small_sizes_are_one_clear_line(gen):
    testing.check_generator_errors(gen)


@pytest.mark.pins_builtins  # pin yours in your package with engine.testing.golden_text
def test_golden(gen, registry):
    """Seeds 1-3 at 80x50, pinned. Set UNDERCROFT_UPDATE_GOLDEN=1 to rewrite after a deliberate change."""
    path = GOLDEN / f"{gen.name}.txt"
    text = testing.golden_text(gen)
    if os.environ.get("UNDERCROFT_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if not path.exists():
        pytest.fail(f"no golden file {path}; create it with UNDERCROFT_UPDATE_GOLDEN=1")
    assert text == path.read_text(), f"{gen.name} changed its levels; if intended, rerun with " \
        "UNDERCROFT_UPDATE_GOLDEN=1"


def test_the_golden_text_is_the_engines_level(registry):
    """The kit builds a built-in's level exactly as engine.generate_level does."""
    level = generate_level("caves", 80, 50, seed=2, depth=3)
    again = testing.make_level(registry.generators["caves"], 80, 50, seed=2, depth=3)
    assert level.rows() == again.rows() and level.start == again.start


# --- Params: whatever a preset asks for, the answer is a valid level or a one-line GenerationError.

PARAM_CASES = {
    "rooms": st.fixed_dictionaries(
        {
            "max_rooms": st.integers(1, 80),
            "room_min_w": st.integers(1, 6),
            "room_max_w": st.integers(6, 14),
            "room_min_h": st.integers(1, 4),
            "room_max_h": st.integers(4, 9),
            "edge": st.integers(1, 3),
            "margin": st.integers(0, 2),
            "center": st.sampled_from(["high", "low"]),
        }
    ),
    "bsp": st.fixed_dictionaries(
        {"min_area": st.integers(4, 16), "max_cuts": st.integers(0, 8), "room_min_w": st.integers(1, 6)}
    ),
    "caves": st.fixed_dictionaries(
        {"fill": st.floats(0.0, 0.7), "passes": st.integers(0, 7), "wall_at": st.integers(3, 7)}
    ),
    "drunkard": st.fixed_dictionaries({"floor": st.floats(0.05, 0.9), "walk_length": st.integers(10, 500)}),
    "scatter": st.fixed_dictionaries(
        {
            "walls": st.integers(0, 62),
            "path": st.sampled_from(["x_then_y", "y_then_x"]),
            "pockets": st.sampled_from(["wall", "open"]),
        }
    ),
    "rooms_and_mazes": st.fixed_dictionaries(
        {
            "room_tries": st.integers(0, 200),
            "room_extra_size": st.integers(0, 4),
            "winding": st.integers(0, 100),
            "extra_connector_chance": st.integers(1, 50),
            "remove_dead_ends": st.booleans(),
        }
    ),
}


@pytest.mark.parametrize("name", sorted(PARAM_CASES))
def test_params_give_a_level_or_a_clear_error(name, registry):
    if name not in registry.generators:
        pytest.skip(f"{name} is not registered")
    size = SWEEP_SIZE.get(name, (40, 30))

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(params=PARAM_CASES[name], seed=st.integers(0, 10_000))
    def check(params, seed):
        try:
            level = generate_level(name, *size, seed=seed, **params)
        except GenerationError as e:
            assert "\n" not in str(e) and name in str(e)
            return
        assert not testing.level_problems(level, size, outer_wall=registry.generators[name].outer_wall)

    check()


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("caves", {"fill": 1.5}, "fill"),
        ("scatter", {"walls": 63}, "walls"),
        ("scatter", {"path": "diagonal"}, "path"),
        ("rooms", {"center": "middle"}, "center"),
        ("bsp", {"min_area": 3}, "min_area"),
    ],
)
def test_bad_param_values_are_explained(name, params, message):
    with pytest.raises(GenerationError, match=message):
        generate_level(name, 8 if name == "scatter" else 80, 8 if name == "scatter" else 50, **params)


# --- The presets the defaults reproduce.


def test_rooms_bunyip_spec():
    """40 tries of 4-11 by 3-7 rooms at x 1..48, y 1..24 on a 60x32 map, one cell of slack."""
    for seed in range(200):
        level = generate_level("rooms", 60, 32, seed=seed)
        for i, r in enumerate(level.rooms):
            assert 4 <= r.w <= 11 and 3 <= r.h <= 7 and 1 <= r.x <= 48 and 1 <= r.y <= 24
            assert r.x + r.w < 59 and r.y + r.h < 31  # Go: rejected when x+w >= mapW-1
            assert not any(r.intersects(o, 1) for o in level.rooms[:i])
        first = level.rooms[0]
        assert level.start == (first.x + first.w // 2, first.y + first.h // 2)
        last = level.rooms[-1]
        assert level.stairs == (last.x + last.w // 2, last.y + last.h // 2)


def test_bsp_rogue_sdl_spec():
    for seed in range(200):
        level = generate_level("bsp", 80, 50, seed=seed)
        assert 2 <= len(level.rooms) <= 2**6
        for r in level.rooms:
            assert r.w >= 4 and r.h >= 3
        centres = [(r.x + r.w // 2, r.y + r.h // 2) for r in level.rooms]
        assert level.start in centres
        far = max(abs(c[0] - level.start[0]) + abs(c[1] - level.start[1]) for c in centres)
        assert abs(level.stairs[0] - level.start[0]) + abs(level.stairs[1] - level.start[1]) == far


def test_scatter_godot_board():
    """8x8, start bottom-left, exit top-right, the x-then-y path always open, no outer ring."""
    for seed in range(300):
        level = generate_level("scatter", 8, 8, seed=seed)
        assert level.start == (0, 7) and level.exit == (7, 0) and level.stairs is None
        assert (level.terrain[7, :] != WALL).all() and (level.terrain[:, 7] != WALL).all()
    # with pockets opened rather than filled, at most the 12 scattered walls remain
    walls = [(generate_level("scatter", 8, 8, seed=s, pockets="open").terrain == WALL).sum() for s in range(100)]
    assert max(walls) <= 12 and max(walls) >= 9


def test_caves_stairs_are_far_from_start():
    from engine.kit.regions import distances

    for seed in range(50):
        level = generate_level("caves", 80, 50, seed=seed)
        steps = distances(level.walkable, level.start)
        # the stairs end a longest path: nothing is much farther from the start than they are
        assert steps[level.stairs[1], level.stairs[0]] >= max(60, 0.9 * steps.max())


def test_drunkard_reaches_its_floor_target():
    for floor in (0.2, 0.4, 0.6):
        level = generate_level("drunkard", 80, 50, seed=3, floor=floor)
        assert (level.terrain != WALL).sum() == max(2, int(floor * 78 * 48))


def test_rooms_and_mazes_has_no_dead_ends_when_pruned():
    from engine.kit.regions import dead_ends

    for seed in range(30):
        level = generate_level("rooms_and_mazes", 81, 51, seed=seed)
        assert not dead_ends(level.walkable).any()
        assert len(level.rooms) >= 2


@pytest.mark.parametrize("name", ["drunkard", "rooms_and_mazes"])
def test_compiled_generators_build_what_their_python_reference_builds(name):
    """The numba kernels draw from the same random.Random as the reference (CPython's Mersenne
    Twister, run compiled): the same level, and the stream left in the same state, for random
    sizes and params."""
    import importlib

    from engine.core.play.setup import _default_registry
    from engine.kit import jit
    from engine.kit.mapgen import GenContext

    assert jit.enabled(), "numba is a test dependency: install the test extra"
    module = importlib.import_module(f"engine.plugins.generators.{name}")
    info = _default_registry().generators[name]
    dice = random.Random(f"compiled {name}")
    for case in range(40):
        w, h = dice.randint(info.min_size[0], 90), dice.randint(info.min_size[1], 70)
        params = dict(info.params)
        if name == "drunkard":
            params.update(floor=dice.choice([0.1, 0.4]), walk_length=dice.choice([3, 16, 33, 400]))
        else:
            params.update(winding=dice.choice([0, 30, 100]), room_extra_size=dice.choice([0, 2]),
                          extra_connector_chance=dice.choice([1, 20]), remove_dead_ends=dice.random() < 0.8)
        built = []
        for fn in (module.generate, module.generate_python):
            rng = random.Random(case)
            level = fn(GenContext(w, h, 1, rng, params))
            built.append((level.terrain.tobytes(), level.start, level.stairs, level.rooms, rng.random()))
        assert built[0] == built[1], f"{name} {w}x{h} {params}: compiled and Python differ"
    assert jit.failed() == []


def test_a_single_small_room_still_gets_its_stairs():
    """Found by the params sweep: one room whose far corner is the start (and a room of one cell)
    left the level without stairs, though the generator promises them."""
    level = generate_level("rooms", 40, 30, seed=539, max_rooms=1, room_min_w=2, room_max_w=14, room_min_h=1,
                           room_max_h=5, edge=3, margin=1, center="high")
    assert not testing.level_problems(level, (40, 30)) and level.stairs not in (None, level.start)
    tiny = generate_level("rooms", 40, 30, seed=1, max_rooms=1, room_min_w=1, room_max_w=1, room_min_h=1,
                          room_max_h=1)
    assert not testing.level_problems(tiny, (40, 30)) and tiny.stairs != tiny.start
