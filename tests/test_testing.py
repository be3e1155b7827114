"""The test kit (``engine.testing``) itself: every check fails, in one line naming the plugin and
the contract, on a plugin that breaks it, and passes the built-ins (the other test files run it on
every one of them)."""

from __future__ import annotations

import dataclasses
import random
import textwrap
import types

import numpy as np
import pytest

from engine import Action, GameRules, ItemKind, Level, MonsterKind, Move, hookimpl, load_registry, testing
from engine.core.errors import UsageError
from engine.core.turn.generate import check_level
from engine.kit.fov import FovAlgorithm, radius_mask
from engine.kit.mapgen import FLOOR, STAIRS, WALL, GenerationError, GeneratorInfo, Rect
from engine.kit.path import Pathfinder
from engine.kit.tiles import Tile, TilesetInfo
from engine.plugins.depths import identify
from engine.testing import ContractError


def fails(check, *args, match: str, **kwargs) -> str:
    with pytest.raises(ContractError, match=match) as e:
        check(*args, **kwargs)
    return str(e.value)


# --- FOV ---------------------------------------------------------------------------------------------


def fov(name, fn, **claims) -> FovAlgorithm:
    return FovAlgorithm(name, fn, **claims)


def square(t, origin, radius):  # a light that reaches the corners of its square
    v = np.ones(t.shape, dtype=bool)
    if radius is not None:
        ox, oy = origin
        ys, xs = np.ogrid[: t.shape[0], : t.shape[1]]
        v = (abs(xs - ox) <= radius) & (abs(ys - oy) <= radius)
    return v


def dark_diagonal(t, origin, radius):
    v = radius_mask(t.shape, origin, radius)
    x, y = origin[0] + 1, origin[1] + 1
    if y < t.shape[0] and x < t.shape[1]:
        v[y, x] = False
    return v


def test_fov_checks_fail_on_the_bugs_the_issue_found(registry):
    xray = registry.fov["everything"].fn
    assert "fov 'square': the light is round" in fails(testing.check_fov, fov("square", square), match="round")
    fails(testing.check_fov, fov("dim", dark_diagonal, through_walls=True), match="fov 'dim': the neighbours")
    fails(testing.check_fov, fov("flipped", lambda t, o, r: np.ones(t.shape[::-1], bool)), match="bool array")
    fails(testing.check_fov, fov("bytes", lambda t, o, r: np.ones(t.shape, np.uint8)), match="bool array")
    fails(testing.check_fov, fov("blind", lambda t, o, r: np.zeros(t.shape, bool)), match="origin is visible")

    def scribbles(t, origin, radius):
        t[...] = True
        return np.ones(t.shape, bool)

    fails(testing.check_fov, fov("scribbles", scribbles), match="unchanged")
    fails(testing.check_fov, fov("peeker", xray), match="fov 'peeker': a wall hides")
    fails(testing.check_fov, fov("cloudy", registry.fov["symmetric"].fn, through_walls=True),
          match="claims to see through walls")
    liar = fov("liar", registry.fov["raycast"].fn, symmetric=True)
    fails(testing.check_fov_symmetry_claim, liar, match="fov 'liar': it claims symmetry: .* sees .*, not back")
    wrong_python = fov("fast", registry.fov["symmetric"].fn, python=registry.fov["shadowcast"].fn)
    fails(testing.check_fov_reference, wrong_python, match="fov 'fast': the compiled fn and its python reference")


def test_fov_checks_judge_claims_not_names(registry):
    """The built-in algorithms pass under any name; what they claim is what is checked."""
    for name, alg in registry.fov.items():
        testing.check_fov(dataclasses.replace(alg, name=f"renamed-{name}"), cases=20)
    testing.check_fov(fov("everything-else", registry.fov["everything"].fn, through_walls=True, symmetric=True),
                      cases=20)


@pytest.mark.parametrize("light", ["diamond", "square"])
def test_an_fov_is_held_to_the_light_shape_it_declares(registry, light):
    """A diamond (or square) light passes when it says so, and fails as round; a round light
    claiming another shape fails."""
    symmetric = registry.fov["symmetric"].fn

    def shaped(t, origin, radius):
        return symmetric(t, origin, None) & radius_mask(t.shape, origin, radius, light)

    testing.check_fov(fov(f"{light}-light", shaped, symmetric=True, shape=light), cases=40)
    fails(testing.check_fov, fov("undeclared", shaped, symmetric=True), match=r"round .*dx\*dx \+ dy\*dy")
    said = fails(testing.check_fov_open_room, fov("undeclared", shaped), match="round light")
    assert "on open ground it sees exactly its round light (dx*dx + dy*dy <= radius*radius): (" in said
    assert f"it lights a {light} shape: declare it, register(..., shape={light!r})" in said  # the fix, named
    fails(testing.check_fov_open_room, fov("claims", symmetric, shape=light), match=f"its {light} light")


def test_an_unknown_light_shape_breaks_the_plugin_at_load(tmp_path):
    (tmp_path / "oval.py").write_text(
        "from engine import hookimpl, radius_mask\n\n\n@hookimpl\ndef register_fov_algorithms(register):\n"
        "    register('oval', lambda t, o, r: radius_mask(t.shape, o, r), shape='oval')\n")
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    assert registry.broken["oval"] == ("register_fov_algorithms: 'oval': shape 'oval': expected one of round, "
                                       "diamond, square")


def test_turns_and_corners_can_fail(registry):
    t = np.ones((5, 7), bool)

    def lopsided(t, origin, radius):
        v = radius_mask(t.shape, origin, radius)
        v[:, : origin[0]] &= radius is None  # nothing to the west, unless unlimited
        v[origin[1], origin[0]] = True
        return v

    fails(testing.check_fov_turns_case, fov("lop", lopsided), t, (3, 2), 2, match="turns with the map")
    corner = fov("corner", lambda t, o, r: np.broadcast_to(np.arange(t.shape[0])[:, None] <= o[1] + 1, t.shape).copy())
    fails(testing.check_fov_walls, corner, match="no blind corners")


# --- generators --------------------------------------------------------------------------------------


def hall(ctx, *, stairs_on_start=False, no_stairs_code=False, ring=True, pillars=True, rng=None, one_room=False):
    t = np.full((ctx.height, ctx.width), WALL, np.uint8)
    t[1:-1, 1:-1] = FLOOR
    if not ring:
        t[:, :] = FLOOR
    r = rng or ctx.rng
    if pillars:
        for x in range(2, ctx.width - 2, 2):
            for y in range(2, ctx.height - 2, 2):
                if r.random() < 0.5:
                    t[y, x] = WALL
    start, goal = (1, 1), (ctx.width - 2, ctx.height - 2)
    if stairs_on_start:
        goal = start
    if not no_stairs_code:
        t[goal[1], goal[0]] = STAIRS
    return Level(t, start, goal, rooms=[Rect(1, 1, ctx.width - 2, ctx.height - 2)] if one_room else [])


def gen(name, fn, **kw) -> GeneratorInfo:
    return GeneratorInfo(name, fn, **{"min_size": (5, 5), **kw})


def test_a_good_generator_passes():
    testing.check_generator(gen("hall", hall), seeds=10)


def test_generator_checks_fail_on_what_they_check():
    fails(testing.check_generator, gen("tiny", hall, min_size=(3, 3)),
          match="generator 'tiny': makes valid levels: .*min_size 3x3")
    fails(testing.check_generator, gen("same", lambda c: hall(c, stairs_on_start=True)), match="start and goal are")
    fails(testing.check_generator, gen("flat", lambda c: hall(c, no_stairs_code=True)), match="not STAIRS terrain")
    fails(testing.check_generator, gen("open", lambda c: hall(c, ring=False)), match="outer ring is not all wall")
    fails(testing.check_generator, gen("one-room", lambda c: hall(c, one_room=True)),
          match=r"generator 'one-room': the start's room Rect\(x=1, y=1, w=58, h=38\) leaves floor for monsters: it "
                r"holds every floor cell, and no monster is placed in the start's room")
    testing.check_generator(gen("board", lambda c: hall(c, ring=False), outer_wall=False), seeds=5)
    fails(testing.check_generator, gen("fixed", lambda c: hall(c, pillars=False)),
          match="seeds and depths make different levels")
    global_random = random.Random()
    fails(testing.check_generator_determinism, gen("loose", lambda c: hall(c, rng=global_random)),
          match="the same seed gives the same level")
    with pytest.raises(ContractError, match="reads map files"):
        testing.check_generator(gen("reader", hall, reads_maps=True))


def test_connected_means_four_way_and_the_failure_names_a_cell():
    """Two floors that touch only at a corner are not connected, even for a game that moves 8 ways."""
    rows = ["#####", "#.###", "##.>#", "#####"]
    codes = {"#": WALL, ".": FLOOR, ">": STAIRS}
    level = Level(np.array([[codes[c] for c in row] for row in rows], np.uint8), (1, 1), (3, 2))
    assert testing.level_problems(level, (5, 4)) == [
        "not connected: (2, 2) cannot be reached from the start (1, 1) by 4-way steps (nor 1 more cell)"]
    with pytest.raises(GenerationError, match=r"generator 'demo' made a level that is not connected: \(2, 2\) "):
        check_level(level, "demo")


# --- pathfinders -------------------------------------------------------------------------------------


def test_pathfinder_checks_fail_on_wrong_answers(registry):
    heap = registry.pathfinders["heap"]
    testing.check_pathfinder(heap, maps=3)

    def off_by_one(cost, seeds, moves, limit):
        d = heap.dijkstra_fn(cost, seeds, moves, limit)
        return np.where(np.isfinite(d) & (d > 0), d + 1, d)

    def detour(cost, start, goal, moves):
        path = heap.astar_fn(cost, start, goal, moves)
        return None if path is None or len(path) < 3 else path[:1] + path  # steps back onto itself

    fails(testing.path.check_bellman, Pathfinder("off", off_by_one, heap.astar_fn), match="pathfinder 'off': a dist")
    fails(testing.path.check_astar, Pathfinder("detour", heap.dijkstra_fn, detour), match="pathfinder 'detour': A")
    ref = Pathfinder("ref", heap.dijkstra_fn, heap.astar_fn, python_dijkstra=off_by_one)
    fails(testing.check_pathfinder_reference, ref, match="pathfinder 'ref': the compiled Dijkstra agrees with its")


# --- behaviours, effects, presets --------------------------------------------------------------------


def plugin(**hooks) -> types.ModuleType:
    module = types.ModuleType("throwaway")
    for name, fn in hooks.items():
        setattr(module, name, hookimpl(fn))
    return module


def with_behaviour(fn):
    def register_behaviours(register):
        register("quirk", fn)
    return testing.load_plugin(plugin(register_behaviours=register_behaviours))


@dataclasses.dataclass(frozen=True)
class Explode(Action):
    def perform(self, game, entity):
        raise RuntimeError("boom")


def test_behaviour_checks_fail_on_garbage_errors_and_loose_randomness():
    fails(testing.check_behaviour, with_behaviour(lambda game, e: "north"), "quirk",
          match="behaviour 'quirk': returns an engine.Action or None, got 'north'")
    fails(testing.check_behaviour, with_behaviour(lambda game, e: 1 / 0), "quirk",
          match="never raises: ZeroDivisionError")
    fails(testing.check_behaviour, with_behaviour(lambda game, e: Explode()), "quirk",
          match="returns an action that can be performed: Explode\\(\\) raised RuntimeError: boom")
    loose = random.Random()
    fails(testing.check_behaviour, with_behaviour(lambda game, e: Move(loose.choice((-1, 1)), 0)), "quirk",
          match="the same situation gives the same actions")
    testing.check_behaviour(with_behaviour(lambda game, e: Move(game.rng("ai").choice((-1, 1)), 0)), "quirk")


def test_a_behaviour_is_checked_with_legal_values_of_the_params_it_declares():
    # leap = 0 loads (a number, as declared), and this one divides by it: play would switch it off
    def with_declared(fn):
        def register_behaviours(register):
            register("quirk", fn, params={"leap": 2, "cry": "squeak"})

        def register_monsters(register):
            register(MonsterKind(name="hopper", glyph="h", color=(9, 9, 9), hp=3, attack=1, behaviour="quirk"))
        return testing.load_plugin(plugin(register_behaviours=register_behaviours,
                                          register_monsters=register_monsters))

    def rash(game, me):
        leap = game.kind_of(me).params.get("leap", 2)
        return Move(leap // abs(leap), 0)

    fails(testing.check_behaviour, with_declared(rash), "quirk", situations=20,
          match=r"behaviour 'quirk': never raises: ZeroDivisionError.*situation \d+, params cry='.*', leap=0,")

    def careful(game, me):
        leap = int(game.kind_of(me).params.get("leap", 2))
        return Move(1 if leap >= 0 else -1, 0)

    testing.check_behaviour(with_declared(careful), "quirk", situations=20)
    # without the declaration, the kind's own params only: the rash one passes (nothing says leap may be 0)
    testing.check_behaviour(with_behaviour(rash), "quirk", situations=20)


def test_an_effect_is_checked_with_legal_values_of_the_params_it_declares():
    def with_declared(fn):
        def register_effects(register):
            register("zap", fn, params={"bolts": [1, 2]})
        return testing.load_plugin(plugin(register_effects=register_effects))

    fails(testing.check_effect, with_declared(lambda game, e, kind, amount: f"{kind.params.get('bolts', [1])[0]}"),
          "zap", cases=10, match=r"effect 'zap': never raises: IndexError.*params bolts=\[\]")
    testing.check_effect(with_declared(lambda game, e, kind, amount: f"{len(kind.params.get('bolts', []))}"),
                         "zap", cases=10)


def test_a_behaviour_is_checked_with_the_kinds_that_use_it(registry):
    kind = MonsterKind(name="crab", glyph="c", color=(1, 2, 3), hp=3, attack=1, behaviour="axis",
                       params={"attack": "none", "tie": "x"})
    testing.check_behaviour(registry, "axis", kind=kind, situations=10)


def test_effect_checks_fail_on_what_they_check():
    def with_effect(fn):
        def register_effects(register):
            register("zap", fn)
        return testing.load_plugin(plugin(register_effects=register_effects))

    fails(testing.check_effect, with_effect(lambda game, e, kind, amount: 7), "zap",
          match="effect 'zap': returns a message .* got 7")
    fails(testing.check_effect, with_effect(lambda game, e, kind, amount: {}["x"]), "zap", match="never raises")

    def overheal(game, entity, kind, amount):
        from engine import Fighter

        game.component(entity, Fighter).hp += 100
        return "Too much."

    fails(testing.check_effect, with_effect(overheal), "zap", match="0 <= hp <= max_hp")


def test_preset_checks_fail_on_what_they_check(registry):
    bad = GameRules(name="nowhere", generators=((1, "tunnels"),), fov="symmetric")
    fails(testing.check_preset, bad, registry, match="game 'nowhere': names what is registered, and it fits: game "
          "nowhere: generators: no generator named 'tunnels'")
    thirsty = GameRules(name="thirsty", generators=((1, "rooms"),), fov="symmetric", item_counts={"wine": (1, 1)})
    fails(testing.check_preset, thirsty, registry, match="item_counts: no item named 'wine'")
    testing.check_preset(registry.games["lesson28"], registry, seeds=1, keys=50)


# --- tilesets and whole plugins ----------------------------------------------------------------------


class Flat:
    def __init__(self, size, image_size=None, tinted=False):
        from PIL import Image

        self.size = size
        self.image = Image.new("RGBA", image_size or size, (9, 9, 9, 255))
        self.tinted = tinted

    def tile(self, name, glyph):
        return Tile(self.image, self.tinted) if name == "wall" else None


def test_tileset_checks_fail_on_what_they_check(registry):
    testing.check_tileset(TilesetInfo("flat", lambda ctx: Flat((ctx.cell, ctx.cell))), registry=registry)
    fails(testing.check_tileset, TilesetInfo("odd", lambda ctx: Flat((ctx.cell, ctx.cell), (3, 3))),
          match="tileset 'odd': a tile is an RGBA image of the set's size")
    fails(testing.check_tileset, TilesetInfo("maybe", lambda ctx: Flat((8, 8), tinted="yes")), match="tinted")
    fails(testing.check_tileset, TilesetInfo("sheet", lambda ctx: Flat((8, 8)), needs_file=True), match="needs a file")


def test_check_plugin_fails_on_broken_and_warned_plugins():
    ok = plugin(register_behaviours=lambda register: register("calm", lambda game, entity: None))
    ok.__name__ = "calm"
    testing.check_plugin(testing.load_plugin(ok), "calm")
    typo = plugin(register_monster=lambda register: None)
    typo.__name__ = "typo"
    fails(testing.check_plugin, testing.load_plugin(typo), "typo", match="plugin 'typo': loads without error: hook")
    fails(testing.check_plugin, testing.load_plugin(ok), "absent", match="plugin 'absent': is loaded")

    def register_monsters(register):
        register(MonsterKind(name="goblet", glyph="g", color=(1, 2, 3), hp=1, attack=1))

    shared = plugin(register_monsters=register_monsters)
    shared.__name__ = "goblets"
    fails(testing.check_plugin, testing.load_plugin(shared), "goblets", match="loads without warnings: glyph 'g'")


def test_checks_raise_only_contract_errors_naming_the_plugin(tmp_path):
    """A result the engine refuses (BadResult) or a chosen plugin's failure in a played game
    (PluginFailure) reaches a test as a ContractError with the same one line."""
    (tmp_path / "refused.py").write_text(textwrap.dedent("""
        import numpy as np
        from engine import FLOOR, STAIRS, WALL, GameRules, Level, hookimpl

        def sevens(ctx):
            t = np.full((ctx.height, ctx.width), WALL, dtype=np.uint8)
            t[1:-1, 1:-1] = FLOOR
            t[1, 3], t[2, 2] = STAIRS, 7
            return Level(t, start=(1, 1), stairs=(3, 1))

        @hookimpl
        def register_fov_algorithms(register):
            register("flipped", lambda t, o, r: np.ones(t.shape[::-1], bool))

        @hookimpl
        def register_generators(register):
            register("sevens", sevens)

        @hookimpl
        def register_games(register):
            register(GameRules(name="sevens", generators=((1, "sevens"),), fov="symmetric", width=20, height=10))
    """))
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    with pytest.raises(ContractError, match=r"^fov 'flipped' \(plugin refused\) returned a bool array of shape"):
        testing.check_fov(registry.fov["flipped"])
    with pytest.raises(ContractError, match=r"^plugin 'refused': fails in generator 'sevens': BadLevel: generator "
                                            r"'sevens' \(plugin refused\) returned tile code 7 at \(2, 2\)"):
        testing.check_preset(registry.games["sevens"], registry)


def test_a_checked_plugin_function_that_raises_is_a_contract_error_naming_it_and_the_case(tmp_path):
    """The FOV, pathfinder or generator a check is given raising (its own bug) reaches the test as
    a ContractError naming it, the function and what it was called with, not as the bare error."""
    (tmp_path / "raisers.py").write_text(textwrap.dedent("""
        from engine import hookimpl

        def no_ways(cost, seeds, moves, limit):
            return moves.ways  # no such field: the plugin's bug

        @hookimpl
        def register_pathfinders(register):
            register("noways", dijkstra=no_ways, astar=lambda cost, start, goal, moves: None)

        @hookimpl
        def register_fov_algorithms(register):
            register("keyed", lambda t, o, r: {}["light"])

        @hookimpl
        def register_generators(register):
            register("indexed", lambda ctx: [][ctx.depth])
    """))
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    with pytest.raises(ContractError, match=r"^pathfinder 'noways': its dijkstra raises no exception, but raised "
                                            r"AttributeError: .*'ways' \(called with a \d+x\d+ map"):
        testing.check_pathfinder(registry.pathfinders["noways"])
    with pytest.raises(ContractError, match=r"^fov 'keyed': its fn raises no exception, but raised KeyError: "
                                            r"'light' \(called with a \d+x\d+ map, \(\d+, \d+\), "):
        testing.check_fov_case(registry.fov["keyed"], np.ones((3, 4), bool), (1, 1), 2)
    with pytest.raises(ContractError, match=r"^generator 'indexed': its fn raises no exception, but raised "
                                            r"IndexError: .* \(called with a 60x40 level at depth 1\)$") as raised:
        testing.check_generator(registry.generators["indexed"])
    assert isinstance(raised.value.__cause__, IndexError)


def test_a_test_draws_a_map_and_presses_keys(registry):
    game = testing.game_from_map(registry, """
        ########
        #@!...r#
        ########
    """, seed=3)
    state = testing.press(game, "l g")
    assert (state["player"]["x"], state["player"]["y"]) == (2, 1) and state["turn"] == 2
    assert state["messages"][-1] == "You pick up the potion (a)."
    assert [m["kind"] for m in state["monsters"]] == ["rat"]
    assert testing.press(game, "") == state  # no key, no change
    with pytest.raises(UsageError, match="--game chess: no game named 'chess'"):
        testing.game_from_map(registry, "#@#", game="chess")


def test_q_with_two_kinds_to_drink_opens_a_menu():
    """What the reference says q does (it once said: the kind whose name sorts first)."""
    elixir = types.SimpleNamespace(register_items=hookimpl(lambda register: register(ItemKind(
        name="elixir", glyph="~", color=(120, 200, 255), effect="heal", use="quaff"))))
    registry = testing.load_plugin(elixir)
    game = testing.game_from_map(registry, """
        #######
        #@!~..#
        #######
    """)
    identify.learn_all(game.api)  # the default game's potions are known by name here
    state = testing.press(game, "l g l g q")
    assert state["prompt"]["title"] == "Drink what?"
    assert [o["label"] for o in state["prompt"]["options"]] == ["potion", "elixir"]
