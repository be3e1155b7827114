"""An installed third-party plugin, without pip: a ``*.dist-info`` folder with an ``undercroft`` entry
point and the plugin's module, in a folder put on ``sys.path`` (or ``PYTHONPATH`` for a subprocess).
importlib.metadata finds it exactly as it finds a package pip installed."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path


def make_dist(site: Path, dist: str, version: str, entry_points: dict[str, str], modules: dict[str, str]) -> Path:
    """Write distribution ``dist`` into ``site``: ``entry_points`` maps entry-point name to module,
    ``modules`` module name to its source. Returns ``site``."""
    site.mkdir(parents=True, exist_ok=True)
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    lines = "".join(f"{name} = {module}\n" for name, module in entry_points.items())
    (info / "entry_points.txt").write_text(f"[undercroft]\n{lines}")
    for module, source in modules.items():
        (site / f"{module}.py").write_text(textwrap.dedent(source))
    return site


def forget_modules(*names: str) -> None:
    """Drop plugin modules a test imported, so the next test's module of the same name is read anew."""
    for name in names:
        sys.modules.pop(name, None)
