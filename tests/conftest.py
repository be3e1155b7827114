"""Shared test set-up.

- Installed third-party plugins are kept out unless a test asks for them
  (``UNDERCROFT_LOAD_PLUGINS`` is set to empty for the session).
- Saves, the profile and replays live in a temporary ``UNDERCROFT_HOME`` for the session.
- ``pytest --plugin KIND=NAME`` selects implementations the way the game does: a test that takes
  a ``fov_name`` (or ``generator_name``) argument runs against the chosen one, or against every
  registered one when none is chosen.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

os.environ.setdefault("UNDERCROFT_LOAD_PLUGINS", "")
# saves, the profile and replays go to a folder of this session's, never the player's own
os.environ["UNDERCROFT_HOME"] = _HOME = tempfile.mkdtemp(prefix="undercroft-tests-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
os.environ.setdefault("ARCADE_HEADLESS", "1")


def pytest_addoption(parser):
    parser.addoption(
        "--plugin",
        action="append",
        default=[],
        metavar="KIND=NAME",
        help="run the tests that compare implementations against this one only (fov=..., generator=...)",
    )


def _chosen(config, kind: str) -> list[str]:
    names = []
    for spec in config.getoption("--plugin"):
        k, sep, v = spec.partition("=")
        if not sep:
            raise pytest.UsageError(f"--plugin {spec!r}: expected KIND=NAME")
        if k == kind:
            names.append(v)
    return names


_REGISTRY = None
NEEDS_INPUT = {"ascii"}


def builtin_registry():
    """The registry of built-in plugins, loaded once per test session."""
    global _REGISTRY
    if _REGISTRY is None:
        from engine import load_registry

        _REGISTRY = load_registry(entry_points=False)
    return _REGISTRY


def pytest_generate_tests(metafunc):
    for arg, kind, table in (("fov_name", "fov", "fov"), ("generator_name", "generator", "generators")):
        if arg in metafunc.fixturenames:
            registered = sorted(getattr(builtin_registry(), table))
            # ascii draws a level from a map file, not from a seed: the scenario and CLI tests cover it
            default = [n for n in registered if n not in NEEDS_INPUT]
            names = _chosen(metafunc.config, kind) or default
            unknown = [n for n in names if n not in registered]
            if unknown:
                raise pytest.UsageError(
                    f"--plugin {kind}={unknown[0]}: no {kind} named {unknown[0]!r} (valid: {', '.join(registered)})"
                )
            metafunc.parametrize(arg, names)


@pytest.fixture(scope="session")
def registry():
    return builtin_registry()
