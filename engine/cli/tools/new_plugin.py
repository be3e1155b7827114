"""``python -m engine new-plugin NAME [--dir DIR]``: write a plugin package that installs and passes
its own tests at once.

It writes ``DIR/undercroft-NAME/``: a pyproject with the ``undercroft`` entry point ``NAME``, the
module ``undercroft_NAME`` with one example of each register hook (everything it registers is
named ``NAME-...``, and the game it adds is ``NAME``), tests that hold each part to the test kit's
contracts (``engine.testing``), and a README. The templates are the files of
``engine/cli/tools/templates/plugin/``, filled in with :class:`string.Template` (``$name``, ``$module``,
``$dist``, ``$Name``, ``$engine_version``).
"""

from __future__ import annotations

import importlib.metadata
import re
import string
from collections.abc import Sequence
from pathlib import Path

from engine.cli.parser import Parser
from engine.core.errors import UsageError
from engine.core.plugin.registry import PROJECT
from engine.core.version import VERSION
from engine.kit.limits import MAX_PLUGIN_NAME

TEMPLATES = Path(__file__).resolve().parent / "templates" / "plugin"
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
# template -> where it goes in the package folder ($module is the import name)
FILES = {"pyproject.toml.tmpl": "pyproject.toml", "README.md.tmpl": "README.md",
         "plugin.py.tmpl": "$module/__init__.py", "test_plugin.py.tmpl": "tests/test_$module.py",
         "conftest.py.tmpl": "tests/conftest.py"}


def names(name: str) -> dict[str, str]:
    """What the templates are filled with, for plugin ``name``."""
    module = "undercroft_" + name.replace("-", "_")
    return {"name": name, "module": module, "dist": f"undercroft-{name}",
            "Name": "".join(part.capitalize() for part in name.split("-")), "engine_version": VERSION}


def check_name(name: str) -> None:
    """A name a package, a module and every registered name can be made from; one that no built-in
    plugin's names would collide with (the game the package adds is called ``name``)."""
    if not NAME.fullmatch(name) or len(name) > MAX_PLUGIN_NAME:
        raise UsageError(f"new-plugin: {name!r} is not a plugin name: expected lowercase letters, digits and single "
                         f"hyphens, starting with a letter, at most {MAX_PLUGIN_NAME} characters (e.g. frost-caves)")
    from engine.core.loading.loader import load_registry

    registry = load_registry(entry_points=False)
    for table in ("games", "fov", "generators", "pathfinders", "monsters", "items", "effects", "behaviours",
                  "statuses", "verbs"):
        taken = [n for n in getattr(registry, table) if n == name or n.startswith(f"{name}-")]
        if taken:
            raise UsageError(f"new-plugin: {name!r} would register names the built-in plugin "
                             f"{registry.owners[(table, taken[0])]!r} has ({taken[0]!r}): choose another name")
    values = names(name)
    dist, module = values["dist"], values["module"]
    try:  # an installed package of that name: installing the new one would replace it
        installed = importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        installed = None
    points = [ep for ep in importlib.metadata.entry_points(group=PROJECT) if ep.name == name]
    if installed is not None or points:
        what = f"package {dist!r}" if installed is not None else f"entry point {name!r} ({points[0].value})"
        raise UsageError(f"new-plugin: {name!r}: the installed {what} has that name, and installing the new "
                         f"{module} would replace it: choose another name")


def write(name: str, folder: Path) -> Path:
    """Write the package for ``name`` into ``folder``; returns the package's folder."""
    check_name(name)
    values = names(name)
    target = folder / values["dist"]
    if target.exists():
        raise UsageError(f"new-plugin: {target} exists: choose another name or folder (--dir)")
    if not folder.is_dir():
        raise UsageError(f"new-plugin: --dir {folder} is not a folder")
    try:
        for template, where in FILES.items():
            path = target / string.Template(where).substitute(values)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(string.Template((TEMPLATES / template).read_text()).substitute(values))
    except OSError as e:
        raise UsageError(f"new-plugin: cannot write {target}: {e.strerror or e}") from None
    return target


def main(argv: Sequence[str]) -> int:
    p = Parser(prog="undercroft new-plugin", description="Write a new plugin package: the entry point, one "
               "example of each register hook, its tests (engine.testing) and a README.")
    p.add_argument("name", help="the plugin's name: lowercase letters, digits and hyphens (e.g. frost)")
    p.add_argument("--dir", default=".", help="the folder to write undercroft-NAME/ into (default: here)")
    args = p.parse_args(argv)
    target = write(args.name, Path(args.dir))
    print(f"wrote {target}: now `pip install -e \"{target}[test]\"` and `python -m pytest {target}`")
    return 0
