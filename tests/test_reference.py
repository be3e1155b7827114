"""The plugin reference (docs/reference.md) is generated from the code and kept in step with it:
every hook with its exact signature, when it is called and a working example; the ``register``
callback of each register hook as the loader really defines it; every contract of the test kit;
and the game API, from whatever modules or classes are named for it."""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
import textwrap
import types
from pathlib import Path

import pytest

import engine
import engine.hookspecs as hookspecs
from engine import testing
from engine.core.loading import registrars

ROOT = Path(__file__).resolve().parent.parent
HOOKS = [(name, fn) for name, fn in vars(hookspecs).items()
         if inspect.isfunction(fn) and hasattr(fn, "undercroft_spec")]


@pytest.fixture(scope="module")
def maker():
    spec = importlib.util.spec_from_file_location("make_reference", ROOT / "docs" / "make_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference() -> str:
    return (ROOT / "docs" / "reference.md").read_text()


def test_the_committed_reference_is_what_the_code_generates(maker, reference):
    assert maker.render() == reference, "docs/reference.md is stale: run python docs/make_reference.py"


def test_check_mode_says_when_the_reference_is_stale(maker, monkeypatch, tmp_path, capsys):
    stale = tmp_path / "reference.md"
    stale.write_text("# an old reference\n")
    monkeypatch.setattr(maker, "OUT", stale)
    assert maker.main(["--check"]) == 1
    assert "is stale: run python docs/make_reference.py" in capsys.readouterr().err
    assert maker.main([]) == 0 and maker.main(["--check"]) == 0


def test_every_hook_is_documented_with_its_signature_when_it_is_called_and_an_example(maker, reference):
    assert len(HOOKS) >= 15
    for name, fn in HOOKS:
        assert f"### `{name}{maker.signature(fn)}`" in reference, f"{name} is missing from the reference"
        assert "register" in inspect.signature(fn).parameters or "game" in inspect.signature(fn).parameters
        assert all(p.annotation is not inspect.Parameter.empty for p in inspect.signature(fn).parameters.values()), \
            f"hookspec {name}: give each argument its type"
        doc = fn.__doc__ or ""
        assert "Called" in doc and "Example::" in doc, f"hookspec {name}: say when it is called and give an example"


def test_each_register_callback_is_the_loaders_own(maker, reference):
    """The signature shown, with its types, is read from the registrar; one quoted in a hookspec (without
    them) must match it."""
    assert ("The plugin calls `register(name: str, fn: Callable[..., Any], *, summary: str = '', per_run: bool = "
            "False) -> None`") in reference
    for name, fn in HOOKS:
        kind = registrars.REGISTER_HOOKS.get(name)
        if kind is None:
            continue
        register = registrars.make_registrar(kind, {})
        assert f"The plugin calls `register{maker.signature(register)}`" in reference
        actual = f"register{maker.signature(register, types=False)}"
        for quoted in re.findall(r"``(register\(name[^`]*\))``", fn.__doc__ or ""):
            assert quoted.replace('"', "'") == actual, f"hookspec {name} quotes {quoted}, the loader has {actual}"


def test_the_reference_says_where_logging_goes_what_params_are_and_what_q_drinks(reference):
    reference = " ".join(reference.split())
    assert "last-resort handler" in reference and "Never `print`" in reference
    assert "`params=` is a dict of JSON values" in reference and "[generator_params.NAME]" in reference
    # stale once: q drank "the quaffable kind whose name sorts first"; it opens a menu when the pack
    # holds more than one thing to drink (tests/test_testing.py plays it)
    assert "sorts first" not in reference and "stepped on the item" not in reference
    assert ("`q` (drink) or `r` (read) uses one: at once when the pack holds one such stack, else from a menu of "
            "them by pack letter") in reference and "also passes `target=(x, y)`" in reference


def test_every_contract_of_the_kit_is_in_the_reference(reference):
    for name in testing.__all__:
        value = getattr(testing, name)
        if inspect.isfunction(value):
            assert f"#### `{name}(" in reference, f"engine.testing.{name} is missing from the reference"
            assert value.__doc__, f"engine.testing.{name} has no docstring"


def test_the_game_api_section_renders_whatever_it_is_given(maker):
    text = "\n".join(maker.game_api(["engine.kit.path.Pathfinder", "engine.kit.regions",
                                     "engine.core.turn.run.Run.rng"]))
    assert text.startswith("## The game API\n\n<!-- The game API section")
    assert "### `engine.kit.path.Pathfinder`" in text
    assert "#### `dijkstra(cost: np.ndarray, goals: Goals, moves:" in text
    assert "### `engine.kit.regions`" in text and "#### `flood(" in text
    assert "#### `rng(label: str) -> random.Random`\n\nThe run's random stream" in text
    assert text.rstrip().endswith("<!-- end of the game API section -->")
    with pytest.raises(ImportError, match="GAME_API: cannot import 'nowhere.at.all'"):
        maker.game_api(["nowhere.at.all"])


def test_docstrings_become_markdown(maker):
    doc = '''Summary with ``code`` and :func:`~engine.testing.check_fov`.

    Example::

        x = 1
        y = 2
    '''
    assert maker.markdown(doc) == ("Summary with `code` and `engine.testing.check_fov`.\n\nExample:\n\n```python\n"
                                   "x = 1\ny = 2\n```\n")


def _examples() -> str:
    """Every hookspec's example, one after another, as one plugin module's source."""
    blocks = []
    for _, fn in HOOKS:
        doc = inspect.cleandoc(fn.__doc__ or "")
        block = doc.split("Example::", 1)[1]
        blocks.append(textwrap.dedent(block).strip("\n"))
    return "\n\n".join(blocks)


def test_the_hook_examples_work_together_as_a_plugin(monkeypatch):
    """Run as one module, the examples make a plugin that loads cleanly, and what they register
    keeps the kit's contracts. (The pathfinder example leaves its two functions to the reader.)"""
    module = types.ModuleType("examples")
    monkeypatch.setitem(sys.modules, "examples", module)  # (dataclasses look their module up)
    module.__dict__.update({name: getattr(engine, name) for name in engine.__all__})
    heap = testing.load_plugin().pathfinders["heap"]
    module.my_dijkstra, module.my_astar = heap.dijkstra_fn, heap.astar_fn
    exec(compile(_examples(), "hookspec examples", "exec"), module.__dict__)
    registry = testing.load_plugin(module)
    testing.check_plugin(registry, "examples")
    info = registry.plugin("examples")
    assert info.registered == {
        "behaviours": ["skitter"], "components": ["Regen"], "effects": ["mend"], "fov": ["xray"], "games": ["frost"],
        "generators": ["hall"], "items": ["mending-draught"], "monsters": ["ice-bat"], "pathfinders": ["plain"],
        "rulesets": ["hardy"], "systems": ["regenerate"], "tilesets": ["redwalls"], "bots": ["waiter"],
        "statuses": ["blighted"], "verbs": ["rub"], "loot_rows": ["undercroft/floor/mending-draught"],
        "terrain": ["gate", "open-gate"], "commands": ["count"]}
    testing.check_fov(registry.fov["xray"], cases=30)
    testing.check_generator(registry.generators["hall"], seeds=10)
    testing.check_behaviour(registry, "skitter", situations=20)
    testing.check_effect(registry, "mend", cases=10)
    testing.check_tileset(registry.tilesets["redwalls"], registry=registry)
    testing.check_preset(registry.games["frost"], registry, seeds=1, keys=100)


def test_every_game_rules_field_is_in_the_reference_with_type_default_and_meaning(maker, reference, monkeypatch):
    import dataclasses

    from engine.core.kinds import rules

    for f in dataclasses.fields(rules.GameRules):
        row = next((line for line in reference.splitlines() if line.startswith(f"| `{f.name}` |")), None)
        assert row is not None, f"GameRules.{f.name} is missing from the reference's table"
        assert row.count(" | ") == 4 and rules.FIELDS[f.name].split("`")[0][:20].replace("|", "\\|") in row
    assert "| `fov_radius` | `int \\| None` | `8` | " in reference
    monkeypatch.delitem(rules.FIELDS, "seed")
    with pytest.raises(ValueError, match="say what GameRules field.s. seed mean"):
        maker.render()


def test_the_reference_lists_every_glyph_in_use_and_by_whom(reference, registry):
    table = reference.split("## Glyphs in use", 1)[1].split("\n## ", 1)[0]
    for table_name, what in (("monsters", "monster"), ("items", "item")):
        for kind in getattr(registry, table_name).values():
            owner = registry.owners[(table_name, kind.name)]
            glyph = kind.glyph.replace("|", "\\|")  # a pipe is escaped in a Markdown table
            assert (f"| `{glyph}` | {what} `{kind.name}` | `{owner}` |" in table
                    or f"| `{glyph}` | {what} `{kind.name}` (a map names it in a legend line) | `{owner}` |" in table)
    # items of a class share its glyph: the first is what a map reads it as, the others are named
    assert table.index("| `!` | item `potion` |") < table.index("| `!` | item `potion of haste` (a map names it")
    for glyph in "#.<>@":
        assert f"| `{glyph}` | " in table



def test_every_public_member_of_the_game_api_has_a_docstring(reference):
    from engine.core.turn.api import GameAPI

    missing = []
    members = {name: value for cls in reversed(GameAPI.__mro__[:-1]) for name, value in vars(cls).items()}
    for name, value in members.items():  # GameAPI's own and its mixins' (engine/core/api_*.py)
        if name.startswith("_"):
            continue
        fn = value.fget if isinstance(value, property) else value
        if not (getattr(fn, "__doc__", None) or "").strip():
            missing.append(name)
    assert missing == [], f"GameAPI members without a docstring: {missing}"
    assert "_No docstring yet._" not in reference
    api = reference.split("## The game API", 1)[1]
    absent = [name for name in members if not name.startswith("_") and not re.search(rf"^#### `{name}[(`:]", api, re.M)]
    assert absent == [], f"GameAPI members missing from the reference: {absent}"
    assert "before the\n`on_turn_end` hooks" in api or "before the `on_turn_end` hooks" in " ".join(api.split())


def test_the_reference_documents_the_kinds_the_built_in_behaviours_and_the_message_keys(maker, reference, registry,
                                                                                      monkeypatch):
    """What a plugin author once had to read content/monsters.toml's comments for."""
    import dataclasses

    from engine.core.kinds import content, messages

    kinds = reference.split("## Kinds: the fields of", 1)[1].split("\n## ", 1)[0]
    for cls, meanings in ((content.MonsterKind, content.MONSTER_FIELDS), (content.ItemKind, content.ITEM_FIELDS)):
        table = kinds.split(f"### `engine.{cls.__name__}`", 1)[1].split("\n### ", 1)[0]
        for f in dataclasses.fields(cls):
            assert f"| `{f.name}` | " in table and meanings[f.name][:30].replace("|", "\\|") in table, f.name
    assert "| `max_depth` | `int` | `100000` | an integer in 1..100000 | The deepest level the spawn" in kinds
    for table, title in (("behaviours", "Built-in behaviours"), ("effects", "Built-in effects")):
        section = kinds.split(f"### {title}", 1)[1].split("\n### ", 1)[0]
        for name, fn in getattr(registry, table).items():
            assert fn.__doc__, f"built-in {table[:-1]} {name!r} has no docstring to show"
            assert f"#### `{name}` (plugin `{registry.owners[(table, name)]}`)" in section
    hunt = " ".join(kinds.split("#### `hunt`", 1)[1].split("####", 1)[0].split())
    assert "`flee`: below this percent of its HP" in hunt and "`search`: the turns it searches" in hunt
    keys = reference.split("## Message keys", 1)[1].split("\n## ", 1)[0]
    for key in (*messages.DEFAULT_MESSAGES, *messages.HUD_MESSAGES, *messages.HUD_FALLBACK):
        assert f"| `{key}` | " in keys, f"message key {key!r} is missing from the reference"
    assert "| `pickup` | `You pick up the {item} ({letter}).` | `{item}`, `{letter}` |" in keys
    monkeypatch.delitem(content.MONSTER_FIELDS, "max_depth")
    with pytest.raises(ValueError, match="say what MonsterKind field.s. max_depth mean"):
        maker.render()
