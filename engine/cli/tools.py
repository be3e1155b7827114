"""The subcommands: ``plugins``, ``compare``, ``bench``, ``replay``, ``catalog``, ``scores``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from engine.core.setup import DEFAULT_GAME, UsageError, load


def _parser(prog: str, description: str) -> argparse.ArgumentParser:
    from engine.cli.main import Parser

    return Parser(prog=f"undercroft {prog}", description=description)


def plugins_main(argv: Sequence[str]) -> int:
    p = _parser("plugins", "List every plugin, what it registered, and the active choice per kind.")
    p.add_argument("--json", action="store_true")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR")
    args = p.parse_args(argv)
    registry = load(args.plugins_dir)
    rules = registry.games.get(DEFAULT_GAME)
    active = {
        "game": DEFAULT_GAME if rules else None,
        "fov": rules.fov if rules else None,
        "generator": rules.generator_for(1) if rules else None,
    }
    data = {
        "plugins": [
            {"name": p.name, "version": p.version, "source": p.source, "hooks": sorted(p.hooks),
             "registered": p.registered, "broken": p.error}
            for p in registry.plugins
        ],
        "active": active,
        "available": {
            "fov": {n: {"symmetric": a.symmetric, "summary": a.summary} for n, a in sorted(registry.fov.items())},
            "generator": {n: g.summary for n, g in sorted(registry.generators.items())},
            "game": {n: g.summary for n, g in sorted(registry.games.items())},
            "monsters": sorted(registry.monsters),
            "items": sorted(registry.items),
            "behaviours": sorted(registry.behaviours),
            "effects": sorted(registry.effects),
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
        if info.hooks:
            print(f"      hooks: {', '.join(sorted(info.hooks))}")
    print("Available:")
    for kind in ("game", "fov", "generator"):
        names = data["available"][kind]
        print(f"  {kind:<10} " + ", ".join(names))
    print("Active (defaults of the preset; change with --game / --plugin KIND=NAME):")
    for kind, name in active.items():
        print(f"  {kind:<10} {name}")
    return 0


def compare_main(argv: Sequence[str]) -> int:
    if not argv or argv[0] not in ("fov", "generators"):
        raise UsageError("compare: say what to compare: 'compare fov' or 'compare generators'")
    if argv[0] == "fov":
        from engine.cli import compare_fov as catalog_fov

        return catalog_fov.compare_main(list(argv[1:]))
    from engine.cli import compare_gen as catalog_gen

    return catalog_gen.compare_main(list(argv[1:]))


def run(name: str, argv: Sequence[str]) -> int:
    if name == "plugins":
        return plugins_main(argv)
    if name == "compare":
        return compare_main(argv)
    if name == "bench":
        from engine.cli import bench

        return bench.main(argv)
    if name == "replay":
        from engine.persist import replay

        return replay.replay_main(list(argv))
    if name == "catalog":
        from engine.cli import catalog

        return catalog.main(list(argv))
    if name == "scores":
        from engine.cli import scores

        return scores.main(argv)
    raise UsageError(f"unknown subcommand {name!r}")
