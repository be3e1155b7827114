"""``python -m engine compare fov|generators``: the catalogue side by side."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import UsageError

USAGE = """usage: python -m engine compare {fov,generators} [options]

Compare the registered plugins of one kind side by side (installed plugins included).

  fov         FOV algorithms: symmetry, shadows, corners, speed  (compare fov --help)
  generators  dungeon generators: floor, rooms, dead ends, paths, connectivity, speed
              (compare generators --help)"""


def main(argv: Sequence[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if not argv or argv[0] not in ("fov", "generators"):
        raise UsageError("compare: say what to compare: 'compare fov' or 'compare generators'")
    if argv[0] == "fov":
        from engine.cli.tools.compare import fov as catalog_fov

        return catalog_fov.compare_main(list(argv[1:]))
    from engine.cli.tools.compare import generators as catalog_gen

    return catalog_gen.compare_main(list(argv[1:]))
