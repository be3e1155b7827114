"""The default content: monsters, items and game presets, read from ``content/``.

Registered like any third-party plugin; a modder can point ``UNDERCROFT_CONTENT`` at a copy.
"""

import os
from pathlib import Path

from engine import ContentError, ItemKind, MonsterKind, hookimpl, load_kinds, load_rules


def content_dir() -> Path:
    """The content folder: ``UNDERCROFT_CONTENT`` when set, else the one beside this plugin
    (``content/`` in a checkout, ``engine/content/`` installed: two folders up from this file)."""
    override = os.environ.get("UNDERCROFT_CONTENT")
    if not override:
        return Path(__file__).resolve().parents[2] / "content"
    if not Path(override).is_dir():  # said of the setting, not of the first file missing from it
        raise ContentError(f"UNDERCROFT_CONTENT={override}: not a folder (expected a copy of the content folder: "
                           "monsters.toml, items.toml and games/)")
    return Path(override)


@hookimpl
def register_monsters(register):
    for kind in load_kinds(content_dir() / "monsters.toml", MonsterKind):
        register(kind)


@hookimpl
def register_items(register):
    for kind in load_kinds(content_dir() / "items.toml", ItemKind):
        register(kind)


@hookimpl
def register_games(register):
    named = {}  # preset name -> the file that named it first
    for path in sorted((content_dir() / "games").glob("*.toml")):
        rules = load_rules(path)
        if rules.name in named:  # said of the two files, not as a registration made twice
            raise ContentError(f"{path}: name {rules.name!r} is the preset of {named[rules.name].name} already "
                               "(each preset file names a preset of its own)")
        named[rules.name] = path
        register(rules)
