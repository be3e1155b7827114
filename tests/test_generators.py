"""Property and golden tests for every registered generator.

``generator_name`` is parametrized by tests/conftest.py over every registered generator, or only
the one chosen with ``pytest --plugin generator=NAME``. ``ascii`` is skipped: it reads a map file.

Golden files (tests/golden/generators/NAME.txt) pin seeds 1-3 at 80x50. After an intended change
to a generator, regenerate them with ``UNDERCROFT_UPDATE_GOLDEN=1 python -m pytest
tests/test_generators.py -k golden`` and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import STAIRS, WALL, GenerationError, generate_level
from engine.kit.regions import flood

NEEDS_INPUT = {"ascii"}  # generators that cannot run without a map of their own
NO_RING = {"scatter"}  # boards whose edge is the map edge, by design
SWEEP_SIZE = {"scatter": (8, 8)}  # its natural board; everything else at SWEEP_DEFAULT
SWEEP_DEFAULT = (60, 40)
SWEEP_SEEDS = 500
GOLDEN = Path(__file__).parent / "golden" / "generators"


@pytest.fixture
def gen(generator_name):
    if generator_name in NEEDS_INPUT:
        pytest.skip(f"{generator_name} needs a map file")
    return generator_name


def problems(level, name: str, size: tuple[int, int]) -> list[str]:
    """Everything wrong with one level, as readable lines (empty when it is fine)."""
    w, h = size
    out = []
    if level.terrain.shape != (h, w) or level.terrain.dtype != np.uint8:
        return [f"terrain is {level.terrain.shape} {level.terrain.dtype}, expected ({h}, {w}) uint8"]
    if not set(np.unique(level.terrain).tolist()) <= {0, 1, 2}:
        out.append("unknown tile codes")
    goal = level.goal
    if goal is None:
        out.append("no stairs and no exit")
    for label, p in (("start", level.start), ("goal", goal)):
        if p is not None and not (0 <= p[0] < w and 0 <= p[1] < h and level.terrain[p[1], p[0]] != WALL):
            out.append(f"{label} {p} is not a floor cell")
    if goal is not None and goal == level.start:
        out.append("start and goal are the same cell")
    if goal is not None and level.terrain[goal[1], goal[0]] != STAIRS:
        out.append(f"goal {goal} is not STAIRS terrain")
    walk = level.walkable
    if (walk & ~flood(walk, level.start)).any():
        out.append("not connected")
    if name not in NO_RING:
        t = level.terrain
        if t[0].any() or t[-1].any() or t[:, 0].any() or t[:, -1].any():
            out.append("outer ring is not all wall")
    for r in level.rooms:
        if r.x < 0 or r.y < 0 or r.x2 >= w or r.y2 >= h:
            out.append(f"room {r} leaves the map")
    return out


def test_500_seeds_are_valid_levels(gen):
    size = SWEEP_SIZE.get(gen, SWEEP_DEFAULT)
    bad = {}
    for seed in range(SWEEP_SEEDS):
        found = problems(generate_level(gen, *size, seed=seed), gen, size)
        if found:
            bad[seed] = found
    assert not bad, f"{gen}: {len(bad)} bad seeds, first: {next(iter(bad.items()))}"


def test_same_seed_same_level(gen):
    for seed in range(40):
        a = generate_level(gen, 80, 50, seed=seed)
        b = generate_level(gen, 80, 50, seed=seed)
        assert np.array_equal(a.terrain, b.terrain)
        assert (a.start, a.stairs, a.exit, a.rooms) == (b.start, b.stairs, b.exit, b.rooms)


def test_seeds_and_depths_differ(gen):
    levels = {generate_level(gen, 80, 50, seed=s).terrain.tobytes() for s in range(10)}
    levels |= {generate_level(gen, 80, 50, seed=1, depth=d).terrain.tobytes() for d in range(2, 6)}
    assert len(levels) >= 12


def test_odd_and_thin_sizes(gen, registry):
    min_w, min_h = registry.generators[gen].min_size
    for w, h in ((min_w, min_h), (min_w + 1, min_h + 3), (min_w + 31, min_h), (min_w, min_h + 40), (101, 77)):
        for seed in range(25):
            found = problems(generate_level(gen, w, h, seed=seed), gen, (w, h))
            assert not found, f"{gen} {w}x{h} seed {seed}: {found}"


def test_unknown_param_names_the_valid_ones(gen, registry):
    with pytest.raises(GenerationError) as e:
        generate_level(gen, 80, 50, bogus_param=1)
    message = str(e.value)
    assert "bogus_param" in message
    for valid in registry.generators[gen].params:
        assert valid in message


def test_too_small_names_the_minimum(gen, registry):
    min_w, min_h = registry.generators[gen].min_size
    with pytest.raises(GenerationError, match=f"minimum {min_w}x{min_h}"):
        generate_level(gen, min_w - 1, min_h)
    with pytest.raises(GenerationError, match=f"minimum {min_w}x{min_h}"):
        generate_level(gen, min_w, min_h - 1)


def _golden_text(name: str) -> str:
    parts = []
    for seed in (1, 2, 3):
        level = generate_level(name, 80, 50, seed=seed)
        goals = f"stairs {level.stairs} exit {level.exit}"
        parts.append(f"seed {seed}: start {level.start} {goals} rooms {len(level.rooms)}")
        parts.extend(level.rows())
    return "\n".join(parts) + "\n"


def test_golden(gen):
    """Seeds 1-3 at 80x50, pinned. Set UNDERCROFT_UPDATE_GOLDEN=1 to rewrite after a deliberate change."""
    path = GOLDEN / f"{gen}.txt"
    text = _golden_text(gen)
    if os.environ.get("UNDERCROFT_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if not path.exists():
        pytest.fail(f"no golden file {path}; create it with UNDERCROFT_UPDATE_GOLDEN=1")
    assert text == path.read_text(), f"{gen} changed its levels; if intended, rerun with UNDERCROFT_UPDATE_GOLDEN=1"


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
        assert not problems(level, name, size)

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

    from engine.core.setup import _default_registry
    from engine.kit import jit
    from engine.kit.mapgen import GenContext

    assert jit.enabled(), "numba is a test dependency: install the test extra"
    module = importlib.import_module(f"engine.plugins.gen_{name}")
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
    assert not problems(level, "rooms", (40, 30)) and level.stairs not in (None, level.start)
    tiny = generate_level("rooms", 40, 30, seed=1, max_rooms=1, room_min_w=1, room_max_w=1, room_min_h=1,
                          room_max_h=1)
    assert not problems(tiny, "rooms", (40, 30)) and tiny.stairs != tiny.start
