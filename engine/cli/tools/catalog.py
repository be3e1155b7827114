"""The seed catalog: for each seed and depth, the generator, the start, the stairs or exit, the set
pieces plugins noted (``GameAPI.note_feature``: a vault, an ambush room), and every monster and item
with its position, as plain text. It starts with the rows plugins added to the
preset's loot tables (``register_loot``), each with the plugin that added it; a game no plugin adds
rows to starts with its first level.

Levels are made exactly as in play: a level's terrain comes from the stream ``level:<depth>`` and its
placements from ``spawn:<depth>``, both derived from the seed alone, so depth 3 is the same whether
or not depths 1 and 2 were generated first. A golden copy for the default preset is kept in
``tests/golden/``; when generation changes on purpose, regenerate it with
``UNDERCROFT_UPDATE_GOLDEN=1 python -m pytest tests/test_catalog.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.core.errors import UsageError
from engine.core.model.components import Item, Monster, Position
from engine.core.play.setup import Setup, default_game, load, new_game
from engine.core.plugin.registry import Registry
from engine.kit import limits


def parse_range(text: str, flag: str, lo: int, hi: int) -> range:
    """``"1-20"`` or ``"7"`` as a range; UsageError (one line) when it is not one."""
    first, _, last = text.partition("-")
    try:
        a, b = int(first), int(last or first)
    except ValueError:
        raise UsageError(f"{flag} {text!r}: expected N or N-M, e.g. 1-20") from None
    if not (lo <= a <= b <= hi):
        raise UsageError(f"{flag} {text!r}: expected {lo} <= N <= M <= {hi}")
    return range(a, b + 1)


def _cell(cell: tuple[int, int] | None) -> str:
    return f"{cell[0]},{cell[1]}" if cell is not None else "-"


def added_rows(registry: Registry, game: str) -> Iterator[str]:
    """The rows plugins added to ``game``'s loot tables, one line each, in the order they joined:
    ``loot floor + wand-of-sparks weight 4 per_depth 0 depths 2-1000 (plugin zapper)``."""
    for name, added in registry.loot_rows.items():
        if added.game == game:
            row, owner = added.row, registry.owners.get(("loot_rows", name), "?")
            depths = f"{row.min_depth}-{row.max_depth}" if row.max_depth < limits.MAX_DEPTH else f"{row.min_depth}+"
            yield (f"loot {added.table} + {row.item} weight {row.weight} per_depth {row.per_depth} depths {depths} "
                   f"(plugin {owner})")


def entries(seeds: Sequence[int], depths: Sequence[int], game: str | None = None,
            plugins_dirs: Sequence[str] = (), registry: Registry | None = None) -> Iterator[str]:
    """The catalog's lines: the rows plugins added to the preset's loot tables, then seed by seed
    and depth by depth. ``registry``: the one to use (default: loaded, with ``plugins_dirs``)."""
    registry = registry if registry is not None else load(plugins_dirs)
    if registry.loot_rows:
        yield from added_rows(registry, game if game is not None else default_game(registry).name)
    for seed in seeds:
        g = new_game(Setup(game=game, seed=seed), registry)
        try:
            for depth in depths:
                if depth != g.depth:
                    g.enter_level(depth)
                level = g.level
                yield (f"seed {seed} depth {depth}: generator {level.generator or '-'}  start {_cell(level.start)}  "
                       f"stairs {_cell(level.stairs)}  exit {_cell(level.exit)}")
                for feature in level.features:  # the set pieces plugins built in (GameAPI.note_feature)
                    yield f"  feature {feature}"
                things = [(p.y, p.x, "monster", m.kind, "") for _, (m, p) in g.world.query(Monster, Position)]
                things += [(p.y, p.x, "item", i.kind, f" x{i.amount}") for _, (i, p) in g.world.query(Item, Position)]
                for y, x, what, kind, extra in sorted(things):
                    yield f"  {what:<7} {kind:<12} {x},{y}{extra}"
        finally:
            g.close()


def main(argv: list[str]) -> int:
    from engine.cli.parser import Parser

    p = Parser(prog="undercroft catalog", description="Print what each seed generates at each depth: the "
               "generator, start, stairs, and every monster and item with its position.")
    p.add_argument("--seeds", default="1-20", help="seeds, N or N-M (default 1-20)")
    p.add_argument("--depths", default="1-3", help="depths, N or N-M (default 1-3)")
    p.add_argument("--game", help="the preset (default: the default game)")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR")
    args = p.parse_args(argv)
    seeds = parse_range(args.seeds, "--seeds", 0, 2**63 - 1)
    depths = parse_range(args.depths, "--depths", 1, 1000)
    if len(seeds) * len(depths) > 1_000_000:
        raise UsageError("catalog: at most 1,000,000 levels at a time")
    for line in entries(seeds, depths, args.game, args.plugins_dir):
        print(line)
    return 0
