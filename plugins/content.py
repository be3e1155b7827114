"""The default content: monsters, items and game presets, read from ``content/``.

Registered like any third-party plugin; a modder can point ``UNDERCROFT_CONTENT`` at a copy.
"""

from engine import ItemKind, MonsterKind, content_dir, hookimpl, load_kinds, load_rules


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
    for path in sorted((content_dir() / "games").glob("*.toml")):
        register(load_rules(path))
