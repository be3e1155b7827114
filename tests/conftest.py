"""Shared test set-up.

- Installed third-party plugins are kept out unless a test asks for them
  (``UNDERCROFT_LOAD_PLUGINS`` is set to empty for the session).
- Saves, the profile and replays live in a temporary ``UNDERCROFT_HOME`` for the session; a test
  that takes ``home`` gets a folder of its own, met as a new start of the game meets it.
- ``pytest --plugin KIND=NAME`` (``fov``, ``generator``, ``game``, ``path``) selects implementations
  the way the game does: a test that takes a ``fov_name`` (``generator_name``, ``game_name``,
  ``path_name``) argument runs against the chosen ones, or against every registered one when none
  is chosen. A name that is not built in is looked for among the installed entry points (within
  ``UNDERCROFT_LOAD_PLUGINS`` when you set it), and the plugin that registers it, alone of the
  installed ones, joins the built-ins in the ``registry`` fixture. ``--plugins-dir DIR`` adds a
  folder of plugin files, as in the game.
- With ``--plugin`` (or ``--plugins-dir``) the suite is a plugin's contract suite: only the tests
  that take the chosen kinds' arguments are collected (``--plugin fov=NAME``: the ``fov_name``
  tests; ``--plugins-dir`` alone: every kind's), and of those, not the ones marked
  ``pins_builtins`` (golden files, Jice's FOV figures: what the built-ins do) for a name that is not
  a built-in's. The rest (content, saves, the window...) pins the built-in game and is deselected.
  The suite needs no particular working directory: ``pytest /path/to/undercroft/tests --plugin
  fov=NAME`` runs from a plugin's own folder.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

_USER_FILTER = os.environ.get("UNDERCROFT_LOAD_PLUGINS")  # None: the player's default, every entry point
os.environ.setdefault("UNDERCROFT_LOAD_PLUGINS", "")
# saves, the profile and replays go to a folder of this session's, never the player's own
os.environ["UNDERCROFT_HOME"] = _HOME = tempfile.mkdtemp(prefix="undercroft-tests-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
os.environ.setdefault("ARCADE_HEADLESS", "1")

# the argument a test takes -> the --plugin kind that chooses it
CHOICE_ARGS = {"fov_name": "fov", "generator_name": "generator", "game_name": "game", "path_name": "path"}


def pytest_addoption(parser):
    parser.addoption(
        "--plugin",
        action="append",
        default=[],
        metavar="KIND=NAME",
        help="run the tests that compare implementations against this one only (fov=..., generator=..., "
             "game=..., path=...); a name that is not built in is loaded from the installed plugins",
    )
    parser.addoption("--plugins-dir", action="append", default=[], metavar="DIR",
                     help="load every *.py in DIR as a plugin, as the game's --plugins-dir does")


def pytest_configure(config):
    config.addinivalue_line("markers", "pins_builtins(table): pins what the built-in plugins of a table do "
                                       "(golden files, figures); not collected for another plugin's name")
    if config.getoption("--plugin") or config.getoption("--plugins-dir"):
        session_registry(config)  # a name nobody registers is a usage error now, before collection


def _choices(config) -> list[tuple[str, str]]:
    from engine.core.plugin.registry import CHOICE_KINDS

    out = []
    for spec in config.getoption("--plugin"):
        kind, sep, name = spec.partition("=")
        if not sep or not name:
            raise pytest.UsageError(f"--plugin {spec!r}: expected KIND=NAME")
        if kind not in CHOICE_KINDS:
            raise pytest.UsageError(f"--plugin {spec}: unknown kind {kind!r} (valid kinds: {', '.join(CHOICE_KINDS)})")
        out.append((kind, name))
    return out


_REGISTRY = None


def _load(config, entry_points: str | None):
    """The built-ins, the --plugins-dir folders, and the entry points ``entry_points`` allows
    (a comma list; None: every one)."""
    from engine import load_registry
    from engine.core.plugin.registry import PluginError

    before = os.environ.get("UNDERCROFT_LOAD_PLUGINS")
    if entry_points is None:
        os.environ.pop("UNDERCROFT_LOAD_PLUGINS", None)
    else:
        os.environ["UNDERCROFT_LOAD_PLUGINS"] = entry_points
    try:
        return load_registry(plugins_dirs=config.getoption("--plugins-dir"), entry_points=bool(entry_points)
                             or entry_points is None)
    except PluginError as e:
        raise pytest.UsageError(str(e)) from None
    finally:
        os.environ["UNDERCROFT_LOAD_PLUGINS"] = before if before is not None else ""


def session_registry(config):
    """The registry of the session, loaded once: the built-ins, and the plugins that provide the
    names ``--plugin`` chose that are not built in."""
    global _REGISTRY
    if _REGISTRY is None:
        from engine.core.plugin.registry import CHOICE_KINDS, PluginError

        registry = _load(config, "")
        missing = [(k, n) for k, n in _choices(config) if n not in getattr(registry, CHOICE_KINDS[k])]
        if missing:
            everything = _load(config, _USER_FILTER)
            owners = []
            for kind, name in missing:
                try:
                    everything.choose(kind, name)
                except PluginError as e:
                    raise pytest.UsageError(f"{e} (among the built-ins and the installed plugins)") from None
                owners.append(everything.owners[(CHOICE_KINDS[kind], name)])
            registry = _load(config, ",".join(sorted(set(owners))))
        _REGISTRY = registry
    return _REGISTRY


def pytest_generate_tests(metafunc):
    from engine.core.plugin.registry import CHOICE_KINDS

    for arg, kind in CHOICE_ARGS.items():
        if arg in metafunc.fixturenames:
            registry = session_registry(metafunc.config)
            table = getattr(registry, CHOICE_KINDS[kind])
            chosen = [n for k, n in _choices(metafunc.config) if k == kind]
            # a generator that reads map files draws a level from a file, not from a seed: the
            # scenario and CLI tests cover it
            # (and an installed plugin's joins only when chosen: it is here for a name of another kind)
            default = [n for n, info in sorted(table.items()) if not getattr(info, "reads_maps", False)
                       and not _installed(registry.owner(CHOICE_KINDS[kind], n))]
            metafunc.parametrize(arg, chosen or default)


def _installed(owner) -> bool:
    return owner is not None and owner.source.startswith("entry point")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A data folder of the test's own (``UNDERCROFT_HOME``; not made yet), met as a new start of the
    game meets it: the file layer forgets what it learnt, before and after, and a run slot left
    claimed is let go."""
    from faults import fresh_process

    from engine.persist import keeper

    folder = tmp_path / "home"
    monkeypatch.setenv("UNDERCROFT_HOME", str(folder))
    fresh_process()
    yield folder
    keeper.close()
    fresh_process()


@pytest.fixture(scope="session")
def registry(request):
    return session_registry(request.config)


def pytest_collection_modifyitems(config, items):
    """With ``--plugin`` or ``--plugins-dir``: keep the contract tests of the chosen kinds only
    (selection, not skips; see the module doc), and say how many were deselected."""
    from engine.core.plugin.registry import CHOICE_KINDS

    choices = _choices(config)
    if not choices and not config.getoption("--plugins-dir"):
        return
    kinds = {kind for kind, _ in choices} or set(CHOICE_ARGS.values())
    args = {arg: kind for arg, kind in CHOICE_ARGS.items() if kind in kinds}
    registry = session_registry(config)
    keep, drop = [], []
    for item in items:
        taken = [arg for arg in getattr(item, "fixturenames", ()) if arg in args]
        ok = bool(taken)
        if ok and item.get_closest_marker("pins_builtins") is not None:
            params = getattr(getattr(item, "callspec", None), "params", {})
            for arg in taken:
                owner = registry.owner(CHOICE_KINDS[args[arg]], params.get(arg, ""))
                ok = ok and (owner is None or owner.builtin)
        (keep if ok else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
