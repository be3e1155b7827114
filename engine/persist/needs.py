"""The third-party plugins a file was made with, and those of them that are not here.

A run save names the plugins its run depends on, and a replay the plugins its run was played with,
each with its version and where it came from (``{name: {"version", "source"}}``: :data:`PLUGINS`,
:func:`described`). Read back where one is missing (:func:`missing`), the save is kept to resume
once it is back (:class:`NeedsPlugin`) and a replay says which it lacks, both naming every one at
once and how to bring it back (:meth:`NeedsPlugin.remedy`: install an entry point's package; pass
the folder a ``--plugins-dir`` file came from).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.kinds.schema import Map, Obj, Str

if TYPE_CHECKING:
    from engine.core.plugin.registry import Registry

MOST = 1000  # plugins a file names
PLUGINS = Map(Obj({"version": Str(100), "source": Str(300)}), key=Str(100, 1), most=MOST,
              expected="an object of plugins")


def described(registry: Registry, names: Iterable[str]) -> dict[str, dict[str, str]]:
    """The third-party plugins among ``names`` that are loaded, by name, with their version and
    source cut to what a file holds (they only say where to find a missing plugin); at most
    :data:`MOST`, the first by name."""
    infos = {info.name: info for info in registry.plugins if not info.builtin}
    chosen = sorted(name for name in set(names) if name in infos)[:MOST]
    return {name: {"version": str(infos[name].version)[:100], "source": str(infos[name].source)[:300]}
            for name in chosen}


def missing(wanted: Any, registry: Registry) -> list[tuple[str, str, str]]:
    """``(name, source, version)`` of each plugin ``wanted`` (a file's plugins, as
    :func:`described` made them) that is not here or is broken, by name."""
    wanted = wanted if isinstance(wanted, dict) else {}
    have = {info.name for info in registry.plugins if not info.error}
    out = []
    for name, info in sorted(wanted.items()):
        if name not in have:
            info = info if isinstance(info, dict) else {}
            out.append((str(name)[:100], str(info.get("source", ""))[:300], str(info.get("version", ""))[:100]))
    return out


def named(missing: list[tuple[str, str, str]], most: int = 5) -> str:
    """``plugins 'a' (its source), 'b' (...)``: the first ``most`` of them, the rest counted."""
    shown = [f"{name!r}" + (f" ({' '.join(filter(None, (source, version)))[:100]})" if source or version else "")
             for name, source, version in missing[:most]]
    more = f" and {len(missing) - most} more" if len(missing) > most else ""
    return f"plugin{'s' if len(missing) > 1 else ''} {', '.join(shown)}{more}"


def remedy(missing: list[tuple[str, str, str]]) -> str:
    """How to bring them back: install an entry point's package; pass the folder of a file's."""
    folders = sorted({str(Path(source).parent) for _, source, _ in missing
                      if source and not source.startswith("entry point") and source != "given"})
    installed = any(source.startswith("entry point") for _, source, _ in missing)
    ways = ([f"install {'them' if len(missing) > 1 else 'it'}"] if installed or not folders else []) + \
        [f"pass --plugins-dir {shlex.quote(folder[:200])}" for folder in folders[:2]]
    return " and ".join(ways)


class NeedsPlugin(Exception):
    """A run save names plugins that are not here (or broken): the save is kept as it is, to
    resume once they are back. Not a ValueError: the file is sound, so it is not moved aside.
    ``missing``: each plugin's name, source and version when the run was saved (:func:`missing`),
    every one of them, so one try names them all."""

    def __init__(self, missing: list[tuple[str, str, str]]) -> None:
        self.missing = missing
        super().__init__(f"this run needs {named(missing)}")

    def remedy(self) -> str:
        return remedy(self.missing)
