"""One plugin face: every plugin callable (a behaviour, an effect, a plugin's action, a system, a bot,
a status kind's hooks, the event and action hooks, every ruleset method) is given the same game API,
and the built-in plugins need nothing else: they import only the public surface and play every
preset without reaching past the API."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

from engine import GameAPI, Ruleset, load_registry
from engine.cli.tools.sim.runs import RunSpec, play_one, registry_for
from engine.core.kinds import deprecations
from engine.core.play.session import Session
from engine.testing import game_from_map

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = ("engine.kit", "engine.plugins")  # what plugins/ may import besides engine, and their modules

PROBE = '''
from dataclasses import dataclass

from engine import (Action, ActionResult, GameRules, ItemKind, MonsterKind, Phase, Ruleset, StatusKind,
                    System, hookimpl)

SEEN = {}  # what each callable was given as game: "ruleset touch" -> the type's name


def saw(what, game):
    SEEN.setdefault(what, set()).add(type(game).__name__)


@dataclass(frozen=True)
class Poke(Action):
    def perform(self, game, entity):
        saw("action perform", game)
        return ActionResult.success()


def poke(game, entity):
    saw("behaviour", game)
    return Poke()


def tonic(game, entity, kind, amount, **target):
    saw("effect", game)
    game.add_status(entity, "probed", 1)
    return None


class Probe(Ruleset):
    name = "probe"


for _method in ("bump_wall", "touch", "player_died", "restart", "reached_exit", "picks_up", "keeps_levels",
                "climb_out", "escape", "spawn_cell"):
    def _probed(self, game, *args, _method=_method):
        saw(f"ruleset {_method}", game)
        return getattr(Ruleset, _method)(self, game, *args)
    setattr(Probe, _method, _probed)


class Watch(System):
    name = "watch"
    phases = (Phase.AFTER_PLAYER, Phase.END_OF_TURN)

    def run(self, game):
        saw("system run", game)


@hookimpl
def register_rulesets(register):
    register(Probe())


@hookimpl
def register_systems(register):
    register(Watch())


@hookimpl
def register_games(register):
    register(GameRules(name="probe", generators=((1, "bsp"),), fov="symmetric", ruleset="probe",
                       monsters=("prober",), monster_count=(2, 2, 0, 0)))


@hookimpl
def register_monsters(register):
    register(MonsterKind(name="prober", glyph="p", color=(1, 2, 3), hp=50, attack=0, behaviour="poke"))


@hookimpl
def register_behaviours(register):
    register("poke", poke)


@hookimpl
def register_items(register):
    register(ItemKind(name="tonic", glyph="!", color=(4, 5, 6), effect="tonic", use="quaff",
                      min_depth=100_000))


@hookimpl
def register_effects(register):
    register("tonic", tonic)


@hookimpl
def register_statuses(register):
    register(StatusKind(name="probed", label="Probed", color=(7, 8, 9),
                        on_start=lambda game, entity, status: saw("status on_start", game),
                        on_tick=lambda game, entity, status: saw("status on_tick", game),
                        on_end=lambda game, entity, status: saw("status on_end", game)))


@hookimpl
def register_bots(register):
    def bot(game):
        saw("bot", game)
        return None
    register("probe", bot)


@hookimpl
def on_level_generated(game, level):
    saw("hook on_level_generated", game)


@hookimpl
def on_turn_end(game):
    saw("hook on_turn_end", game)


@hookimpl
def on_death(game, entity, killer, cause):
    saw("hook on_death", game)


@hookimpl
def on_answer(game, question, choice):
    saw("hook on_answer", game)


@hookimpl
def on_action(game, entity, action):
    saw("hook on_action", game)


@hookimpl
def after_action(game, entity, action, result):
    saw("hook after_action", game)
'''

CALLABLES = {"behaviour", "action perform", "effect", "system run", "bot", "status on_start", "status on_tick",
             "status on_end", *(f"hook {h}" for h in ("on_level_generated", "on_turn_end", "on_death", "on_answer",
                                                        "on_action", "after_action")),
             *(f"ruleset {name}" for name, fn in vars(Ruleset).items() if inspect.isfunction(fn))}


@pytest.fixture
def probe(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "probe.py").write_text(PROBE)
    return folder


def test_every_plugin_callable_is_given_the_game_api(probe):
    registry = load_registry(plugins_dirs=[probe], entry_points=False)
    assert "probe" not in registry.broken, registry.broken
    seen = registry.manager.get_plugin("probe").SEEN
    game = game_from_map(registry, """
        #######
        #@....#
        #.....#
        #######
    """, game="probe")
    api, session = game.api, Session.of(game)
    api.spawn("prober", 3, 2)
    api.spawn("tonic", 2, 1)
    api.give("tonic")
    for key in ["h", "l", "q", "a", ".", ".", "j", "l"]:  # a bump, a pickup, a drink, waits, the prober met
        session.press(key)
    api.ask("probe.q", "Well?", ["yes", "no"])
    session.press(".")  # the question opens
    session.press("a")
    game.level.upstairs = game.position(game.player)
    session.press("<")  # out of the first level: refused by default
    game.level.stairs = game.position(game.player)
    session.press(">")  # a generated level: its monsters and items placed, one cell at a time
    x, y = game.position(game.player)
    game.level.exit = next((x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                           if api.passable(x + dx, y + dy))
    session.press({(1, 0): "l", (-1, 0): "h", (0, 1): "j", (0, -1): "k"}[(game.level.exit[0] - x,
                                                                          game.level.exit[1] - y)])
    api.damage(game.player, 10**6)
    game.apply_death()
    session.press("R")  # the restart key after death
    session.press("esc")
    assert game.quit_requested
    game.close()
    result = play_one(RunSpec(seed=1, game="probe", bot="probe", max_turns=5, plugins_dirs=(str(probe),)))
    assert result["outcome"] == "stopped", result
    seen.update({k: v for k, v in registry_for((str(probe),)).manager.get_plugin("probe").SEEN.items()
                 if k == "bot"})
    assert set(seen) == CALLABLES, f"never called: {sorted(CALLABLES - set(seen))}"
    assert {what: names for what, names in seen.items() if names != {"GameAPI"}} == {}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def internal_imports(folder: Path) -> list[str]:
    """Each import of an engine module other than the public surface, as ``path:line: module``."""
    return [f"{path.relative_to(folder.parent)}:{line}: {module}" for path in sorted(folder.rglob("*.py"))
            for line, module in _imports(path)
            if module.startswith("engine.") and not any(module == p or module.startswith(p + ".") for p in PUBLIC)]


def test_no_built_in_plugin_imports_an_engine_internal():
    assert internal_imports(ROOT / "plugins") == []


def test_the_walk_finds_an_internal_import(tmp_path):
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "sneaky.py").write_text(textwrap.dedent("""
        import engine
        from engine.kit.mapgen import WALL
        from engine.core.turn.entities import kill
    """))
    assert internal_imports(tmp_path / "plugins") == ["plugins/sneaky.py:4: engine.core.turn.entities"]


@pytest.mark.parametrize("preset", ["undercroft", "lesson28", "rogue-sdl", "bunyip"])
def test_the_built_in_plugins_play_every_preset_through_the_api_alone(preset, monkeypatch):
    """What an old plugin reads of the run past the API is still given, with a deprecation line
    (GameAPI.__getattr__): the built-ins never need one."""
    said = []
    monkeypatch.setattr(deprecations, "say_once", said.append)
    for seed in (1, 2):
        result = play_one(RunSpec(seed=seed, game=preset, bot="delver", max_turns=300))
        assert result["outcome"] != "crashed", result
    assert said == []


def test_an_old_plugin_s_read_of_the_run_is_given_with_one_line_per_name(probe, capsys, monkeypatch):
    monkeypatch.setattr(deprecations, "_said", set())  # said once per process: this test hears it anew
    registry = load_registry(plugins_dirs=[probe], entry_points=False)
    game = game_from_map(registry, "#####\n#@..#\n#####", game="probe")
    api = game.api
    with pytest.warns(DeprecationWarning, match=r"game\.state: the engine's run is no longer given"):
        assert api.state is game.state and api.state.turn == game.turn
    with pytest.warns(DeprecationWarning, match=r"game\.api: "):
        assert api.api is api  # an old ruleset's game.api.kind_of(...) still reaches the API
    with pytest.warns(DeprecationWarning, match=r"game\.world: "):
        assert api.world is game.world
    said = [line for line in capsys.readouterr().err.splitlines() if "deprecated" in line]
    assert len(said) == 3 and all(line.startswith("undercroft: deprecated: game.") for line in said)
    assert "write game.query(*types)" in said[2]
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        api.nothing_here  # noqa: B018
    with pytest.raises(AttributeError):
        api._run_secret  # noqa: B018
    assert isinstance(api, GameAPI)
