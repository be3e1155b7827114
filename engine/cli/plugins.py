"""``python -m engine plugins [--json]``: every plugin, what it registered, broken ones, and the
choices a game starts with."""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine.cli.parser import Parser
from engine.core.errors import UsageError
from engine.core.play.setup import default_game, load


def main(argv: Sequence[str]) -> int:
    p = Parser(prog="undercroft plugins", description="List every plugin, what it registered, and the active "
               "choice per kind.")
    p.add_argument("--json", action="store_true")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR")
    args = p.parse_args(argv)
    registry = load(args.plugins_dir, announce=False)  # the listing says which are broken
    try:
        rules = default_game(registry)
    except UsageError:
        rules = None
    active = {
        "game": rules.name if rules else None,
        "fov": rules.fov if rules else None,
        "generator": rules.generator_for(1) if rules else None,
        # what behaviours walk with: the preset's, else the only (or first by name) registered
        "path": (rules.pathfinder if rules else None) or min(registry.pathfinders, default=None),
    }
    data = {
        "plugins": [
            {"name": p.name, "version": p.version, "source": p.source, "hooks": sorted(p.hooks),
             "registered": p.registered, "broken": p.error, "skipped": [item.line for item in p.skipped]}
            for p in registry.plugins
        ],
        "active": active,
        "warnings": registry.warnings,
        "available": {
            "fov": {n: {"symmetric": a.symmetric, "summary": a.summary} for n, a in sorted(registry.fov.items())},
            "generator": {n: g.summary for n, g in sorted(registry.generators.items())},
            "game": {n: g.summary for n, g in sorted(registry.games.items())},
            "path": {n: p.summary for n, p in sorted(registry.pathfinders.items())},
            "bot": {n: b.summary for n, b in sorted(registry.bots.items())},
            "monsters": sorted(registry.monsters),
            "items": sorted(registry.items),
            "behaviours": sorted(registry.behaviours),
            "effects": sorted(registry.effects),
            # the params a behaviour or an effect declared (register(..., params=)), with their defaults
            "params": {table: dict(sorted(registry.declared.get(table, {}).items()))
                       for table in ("behaviours", "effects")},
        },
    }
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True))
        return 0
    print("Plugins:")
    for info in registry.plugins:
        status = f"BROKEN: {info.error}" if info.error else ", ".join(
            f"{kind}: {' '.join(names)}" for kind, names in sorted(info.registered.items())
        ) or "(registers nothing)"
        version = f" {info.version}" if info.version else ""
        print(f"  {info.name}{version}  [{info.source}]  {status}")
        if info.skipped and not info.error:
            print(f"      PARTLY BROKEN: {len(info.skipped)} skipped, the rest kept")
            for item in info.skipped:
                print(f"      {item.line}")
        declared = _declared(registry, info.name)
        if declared:
            print(f"      params: {declared}")
        if info.hooks:
            print(f"      hooks: {', '.join(sorted(info.hooks))}")
    for warning in registry.warnings:
        print(f"Warning: {warning}")
    print("Available:")
    for kind, also in (("game", ""), ("fov", ""), ("generator", ""), ("path", ""), ("bot", " (sim --bot NAME)")):
        names = data["available"][kind]
        print(f"  {kind:<10} " + (", ".join(names) or "(none)") + also)
    print("Active (defaults of the preset; change with --game / --plugin KIND=NAME):")
    for kind, name in active.items():
        print(f"  {kind:<10} {name}")
    return 0


def _declared(registry, plugin: str) -> str:
    """The params ``plugin``'s behaviours and effects declared, as a kind sets them:
    ``skitter: leap = 2; mend: amount = 5``."""
    said = []
    for table in ("behaviours", "effects"):
        for name, params in sorted(registry.declared.get(table, {}).items()):
            if registry.owners.get((table, name)) == plugin:
                said.append(f"{name}: " + ", ".join(f"{key} = {json.dumps(value)}" for key, value in params.items()))
    return "; ".join(said)
