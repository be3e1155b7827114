"""The public API is typed: mypy checks engine/__init__, the test kit, the toolkit, the hookspecs, the
kinds, the game API and the modules behind engine's other names strictly (pyproject.toml's
[tool.mypy]), every public name of ``engine`` has its type hints, the package ships ``py.typed``
(tests/test_packaging.py), and a plugin's own type checker catches a wrong call into the API."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import inspect
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

import engine
from engine.core.turn import api

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("mypy")  # the test extra installs it

def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    """mypy with the project's configuration, its cache kept between runs in the temporary folder (a
    cold check reads the whole engine: about 20 CPU-seconds; a warm one about 1)."""
    cache = Path(tempfile.gettempdir()) / f"undercroft-mypy-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]}"
    env = {**os.environ, "MYPYPATH": str(ROOT)}  # this checkout's engine, not an installed one
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_mypy_finds_no_error_in_the_public_surface():
    r = _mypy()
    assert r.returncode == 0, f"mypy (pyproject.toml's [tool.mypy]) found errors:\n{r.stdout}{r.stderr}"
    assert "Success: no issues found" in r.stdout


def test_a_plugins_type_checker_reads_engines_types(tmp_path):
    """A typed plugin checks cleanly against ``engine``'s hints, and a wrong call into them is caught."""
    plugin = tmp_path / "typed_plugin.py"
    plugin.write_text(textwrap.dedent('''\
        # mypy: disallow-untyped-defs, disallow-any-generics, warn-return-any
        from collections.abc import Callable

        from engine import Action, Fighter, GameAPI, Level, Move, MonsterKind, hookimpl


        def skitter(game: GameAPI, entity: int) -> Action | None:
            here = game.position(entity)
            if here is None or not game.notices(entity):
                return None
            x, y = here
            reveal_type(game.component(entity, Fighter))
            reveal_type(game.behaviour("chase"))
            return Move(1, 0) if game.passable(x + 1, y) else None


        @hookimpl
        def register_behaviours(register: Callable[[str, Callable[[GameAPI, int], Action | None]], None]) -> None:
            register("skitter", skitter)


        @hookimpl
        def register_monsters(register: Callable[[MonsterKind], None]) -> None:
            register(MonsterKind(name="ice-bat", glyph="B", color=(150, 200, 250), hp=3, attack=1))


        @hookimpl
        def on_level_generated(game: GameAPI, level: Level) -> None:
            game.log(level.start)
            game.damage(game.player, "3")
        '''))
    r = _mypy("--follow-imports", "silent", str(plugin))
    errors = [line for line in r.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, r.stdout
    assert "typed_plugin.py:29:" in errors[0] and '"log" of "GameAPI"' in errors[0], r.stdout
    # a member of the API's parts is checked as the API's own (not the Any of a member made at run time)
    assert "typed_plugin.py:30:" in errors[1] and '"damage" of "GameAPI"' in errors[1], r.stdout
    notes = [line.split("Revealed type is ")[1] for line in r.stdout.splitlines() if "Revealed type" in line]
    assert notes == ['"engine.core.model.components.Fighter | None"',
                     '"def (engine.core.turn.api.GameAPI, int) -> engine.core.turn.actions.Action | None"'], \
        r.stdout


def _untyped(qualname: str, fn: object) -> list[str]:
    try:
        sig = inspect.signature(fn)  # type: ignore[arg-type]
    except (TypeError, ValueError):  # a builtin's: nothing to say
        return []
    out = [f"{qualname}: {name}" for name, p in sig.parameters.items()
           if name not in ("self", "cls") and p.annotation is inspect.Parameter.empty]
    if sig.return_annotation is inspect.Signature.empty and getattr(fn, "__name__", "") != "__init__":
        out.append(f"{qualname}: return")
    return out


def test_every_public_name_of_engine_has_its_type_hints():
    """Every function ``engine`` exports, and every public method of a class it exports (and of the
    engine's classes it is made of), says the types of its arguments and its result."""
    missing = []
    for name in engine.__all__:
        value = getattr(engine, name)
        if inspect.isfunction(value):
            missing += _untyped(name, value)
        elif inspect.isclass(value):
            for cls in value.__mro__:
                if not cls.__module__.startswith("engine."):
                    continue
                for member, attr in vars(cls).items():
                    if member.startswith("_") and member not in ("__init__", "__call__"):
                        continue
                    if member == "__init__" and dataclasses.is_dataclass(cls):
                        continue  # made from the fields, which are annotated by definition
                    fn = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
                    if inspect.isfunction(fn):
                        missing += _untyped(f"{name}.{member}", fn)
    assert sorted(set(missing)) == [], "public names without type hints"


def test_the_hookspecs_name_engines_types_for_type_checkers_only():
    """The import contracts let ``engine.hookspecs`` import ``engine`` (pyproject.toml's ignore_imports)
    because it does so under ``if TYPE_CHECKING`` alone: at run time the core imports the hookspecs."""
    for path in sorted((ROOT / "engine" / "hookspecs").glob("*.py")):
        tree = ast.parse(path.read_text())
        guarded = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                   for node in ast.walk(block)}
        for node in ast.walk(tree):
            names = [node.module] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for module in names:
                if module == "engine" or (module or "").startswith(("engine.core", "engine.kit")):
                    assert id(node) in guarded, f"{path.name}:{node.lineno} imports {module} at run time"


# GameAPI's declarations of its parts' members (engine/core/turn/api.py), for type checkers: the parts'
# members are bound and forwarded at run time, where mypy cannot see them, so GameAPI declares them
# under ``if TYPE_CHECKING``, and this test holds the declarations to the parts' own signatures.
BEGIN = "        # -- the parts' members (tests/test_types.py holds them to the parts' own)\n"
END = "        # -- end of the parts' members\n"


def _arg(a: ast.arg, default: ast.expr | None, star: str = "") -> str:
    text = star + a.arg + (f": {ast.unparse(a.annotation)}" if a.annotation else "")
    return text + (f" = {ast.unparse(default)}" if default is not None and a.annotation else
                   f"={ast.unparse(default)}" if default is not None else "")


def _stub(node: ast.FunctionDef) -> list[str]:
    args = node.args
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [_arg(a, d) for a, d in zip(positional, defaults, strict=True)]
    if args.vararg:
        out.append(_arg(args.vararg, None, "*"))
    elif args.kwonlyargs:
        out.append("*")
    out += [_arg(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    if args.kwarg:
        out.append(_arg(args.kwarg, None, "**"))
    ret = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    line = f"        def {node.name}({', '.join(out)}){ret}: ..."
    if len(line) > 120:
        return [f"        def {node.name}(", f"            {', '.join(out)}", f"        ){ret}: ..."]
    return [line]


def parts_stubs() -> str:
    """GameAPI's declarations of its parts' members, as api.py must hold them between BEGIN and END."""
    lines = []
    for _attr, part in api.PARTS:
        tree = ast.parse(Path(inspect.getfile(part)).read_text())
        (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == part.__name__]
        lines.append(f"        # {part.__name__} ({part.__module__})")
        for node in cls.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                lines += ["        @property"] if any(ast.unparse(d) == "property" for d in node.decorator_list) else []
                lines += _stub(node)
    return BEGIN + "\n".join(lines) + "\n" + END


def test_game_apis_declarations_of_its_parts_members_match_the_parts():
    text = (ROOT / "engine" / "core" / "turn" / "api.py").read_text()
    assert BEGIN in text and END in text, f"engine/core/turn/api.py: GameAPI lost its block of {BEGIN.strip()!r}"
    block = text[text.index(BEGIN):text.index(END) + len(END)]
    expected = parts_stubs()
    assert block == expected, f"engine/core/turn/api.py: GameAPI's declarations differ from its parts': " \
                              f"put this block in their place:\n{expected}"
