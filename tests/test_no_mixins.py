"""Objects, not mixins: no class of engine/ or plugins/ is assembled from classes of other modules
that share its ``self`` (a class with several bases, one of them the project's from another
module). A part of a class is an object of its own, with its own data, that the class owns
(``Run.sight``, ``Game.acting``, ``GameAPI``'s parts). Exceptions may combine their kinds."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import engine


def _modules(package) -> list:
    return [importlib.import_module(info.name)
            for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
            if not info.name.endswith(".__main__")]  # running it runs the command line


def _ours(cls: type) -> bool:
    return cls.__module__.split(".")[0] in ("engine", "plugins")


def assembled(modules) -> list[str]:
    """The classes defined in ``modules`` that have several bases, one of them the project's from
    another module: ``module.Class(Base, ...)`` each."""
    found = []
    for module in modules:
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__ or issubclass(cls, BaseException):
                continue
            if len(cls.__bases__) > 1 and any(_ours(b) and b.__module__ != cls.__module__ for b in cls.__bases__):
                found.append(f"{cls.__module__}.{cls.__qualname__}"
                             f"({', '.join(b.__qualname__ for b in cls.__bases__)})")
    return sorted(found)


def test_no_class_is_assembled_from_mixins_of_other_modules():
    modules = _modules(engine)  # the built-in plugins too: engine.plugins (plugins/ in a checkout)
    assert any(m.__name__.startswith("engine.plugins.") for m in modules)
    assert assembled(modules) == []


def test_the_walk_finds_a_class_made_of_another_module_s_mixins(tmp_path, monkeypatch):
    (tmp_path / "engine_mixed.py").write_text(
        "from engine.core.turn.sight import Sight\n"
        "from engine.core.turn.acting import Acting\n"
        "class Both(Sight, Acting):\n    pass\n"
        "class Failed(KeyError, ValueError):\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("engine_mixed")
    assert assembled([module]) == ["engine_mixed.Both(Sight, Acting)"]  # an exception may combine kinds
