"""Every Python example in docs/reference.md runs: the hooks' examples make one plugin (``my_plugin``,
as the test kit's example names it), and each other example is run with it, against ``engine.testing``.
An example this file does not know how to run fails the test, so a new one gets run too."""

from __future__ import annotations

import dataclasses
import re
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import testing

ROOT = Path(__file__).resolve().parent.parent


def _blocks() -> list[tuple[str, str]]:
    """(section, code) of every ```python block of the reference, in order."""
    out, section = [], ""
    for part in re.split(r"(^## [^\n]*$|^```python\n.*?^```$)", (ROOT / "docs" / "reference.md").read_text(),
                         flags=re.M | re.S):
        if part.startswith("## "):
            section = part[3:]
        elif part.startswith("```python\n"):
            out.append((section, part[len("```python\n"):-len("```")]))
    return out


BLOCKS = _blocks()
HOOK_EXAMPLES = [code for section, code in BLOCKS if section == "Hooks"]
OTHERS = [code for section, code in BLOCKS if section != "Hooks"]


@pytest.fixture
def my_plugin(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """The hooks' examples, run as one module: a plugin that loads cleanly. (The pathfinder example
    leaves its two functions to the reader: the built-in heap pathfinder's stand in.)"""
    module = types.ModuleType("my_plugin")
    monkeypatch.setitem(sys.modules, "my_plugin", module)  # imported by name; dataclasses look it up
    module.__dict__.update({name: getattr(engine, name) for name in engine.__all__})
    heap = testing.load_plugin().pathfinders["heap"]
    module.__dict__.update(my_dijkstra=heap.dijkstra_fn, my_astar=heap.astar_fn)
    exec(compile("\n\n".join(HOOK_EXAMPLES), "the reference's hook examples", "exec"), module.__dict__)
    return module


def _run(code: str, **names: Any) -> dict[str, Any]:
    scope: dict[str, Any] = {"testing": testing, **names}
    exec(compile(code, "a reference example", "exec"), scope)
    return scope


def _kit_example(code: str, plugin: types.ModuleType) -> None:
    _run(code)  # imports my_plugin, loads it and runs the checks it names


def _scene_example(code: str, plugin: types.ModuleType) -> None:
    scope = _run(code)
    (test,) = [fn for name, fn in scope.items() if name.startswith("test_")]
    test(testing.load_plugin(plugin))


def _colour_example(code: str, plugin: types.ModuleType) -> None:
    _run(code)


def _data_example(code: str, plugin: types.ModuleType) -> None:
    game = testing.game_from_map(testing.load_plugin(plugin), "#@.r#")
    on_death = _run(code)["on_death"]
    rat = game.api.monsters()[0]
    on_death(game.api, rat)
    on_death(game.api, rat)
    assert game.api.data("frost") == {"count": 2}


def _bot_example(code: str, plugin: types.ModuleType) -> None:
    game = testing.game_from_map(testing.load_plugin(plugin), """
        #######
        #@...>#
        #######
    """)
    play = _run(code)["start"]()
    for _ in range(5):
        key = play(game.api)
        assert isinstance(key, str)
        testing.press(game, key)


def _flee_example(code: str, plugin: types.ModuleType) -> None:
    game = testing.game_from_map(testing.load_plugin(plugin), """
        #######
        #@r...#
        #######
    """)
    rat = game.api.monsters()[0]
    assert _run(code, engine=engine)["flee"](game.api, rat) == engine.Move(1, 0)


def _query_example(code: str, plugin: types.ModuleType) -> None:
    @dataclasses.dataclass
    class Regenerates:
        amount: int

    game = testing.game_from_map(testing.load_plugin(plugin), "#@.r#")
    rat = game.api.monsters()[0]
    game.api.damage(rat, 1)
    game.api.add_component(rat, Regenerates(1))
    hurt = game.api.hp(rat)[0]
    _run(code, game=game.api, Regenerates=Regenerates)
    assert game.api.hp(rat)[0] == hurt + 1


# Each example outside the hooks, by a line of its own, and how it is run.
RUNNERS: dict[str, Callable[[str, types.ModuleType], None]] = {
    "registry = testing.load_plugin(my_plugin)          #": _kit_example,
    "def test_the_draught_mends(registry)": _scene_example,
    "testing.colour_distance(": _colour_example,
    'kills = game.data("frost")': _data_example,
    'def start():  # register("careful", start, per_run=True)': _bot_example,
    "step = game.step_away(me, [there])": _flee_example,
    "for entity, regen in game.query(Regenerates):": _query_example,
}


def test_the_hook_examples_are_all_in_the_reference():
    import engine.hookspecs as hookspecs

    assert len(HOOK_EXAMPLES) == len(hookspecs.__all__)


# Examples known to be wrong, with what is wrong: each fails until its docstring is fixed (then take it out).
WRONG: dict[str, str] = {}


def _params() -> list[Any]:
    out = []
    for code in OTHERS:
        wrong = [why for line, why in WRONG.items() if line in code]
        marks = [pytest.mark.xfail(reason=wrong[0], strict=True, raises=TypeError)] if wrong else []
        out.append(pytest.param(code, id=code.splitlines()[0][:40], marks=marks))
    return out


@pytest.mark.parametrize("code", _params())
def test_every_other_example_of_the_reference_runs(code, my_plugin):
    runners = [run for line, run in RUNNERS.items() if line in code]
    assert len(runners) == 1, f"tests/test_reference_examples.py: say how to run this example:\n{code}"
    runners[0](code, my_plugin)


def test_every_runner_has_its_example():
    missing = [line for line in RUNNERS if not any(line in code for code in OTHERS)]
    assert missing == [], f"examples no longer in the reference: {missing}"
    fixed = [line for line in WRONG if not any(line in code for code in OTHERS)]
    assert fixed == [], f"fixed in the reference: take them out of WRONG: {fixed}"
