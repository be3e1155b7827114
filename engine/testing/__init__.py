"""The test kit: the contracts every plugin is held to, as functions a test calls.

Undercroft's own tests and a third-party plugin's tests use these same functions, so a plugin is
judged exactly as a built-in one, and by what it claims (an FOV registered with
``symmetric=True`` is checked for symmetry; a generator's ``min_size`` is built at that size), never
by comparison with a list of built-in names. Each ``check_*`` raises :class:`ContractError` (an
``AssertionError``, so pytest shows it as a failed assertion) with one line naming the plugin's
registered name, the contract and the case, and no other exception type (a result the engine
refuses, ``BadResult``, or a chosen plugin's failure in a game the check plays, ``PluginFailure``,
becomes a ContractError with the same line); it returns None when everything holds.

A plugin nobody chose that raises while a check or :func:`press` plays a game (another plugin's
``on_turn_end``, say) is switched off in play with one stderr line; here it fails the test, naming
the plugin and where it failed. ``allow_plugin_errors=True`` (of ``press``, ``check_preset``,
``check_behaviour`` and ``check_effect``) lets the game go on, for a test of that isolation itself.

A plugin's own test, for a plugin module that is not installed (``my_plugin``: the hooks'
examples, together)::

    import my_plugin
    from engine import testing

    registry = testing.load_plugin(my_plugin)          # the built-ins, then my_plugin
    testing.check_plugin(registry, "my_plugin")         # it loaded, and every hook is a known one
    testing.check_fov(registry.fov["xray"])
    testing.check_generator(registry.generators["hall"])
    testing.check_behaviour(registry, "skitter")

Everything is deterministic (seeded) and bounded: each check takes a budget (``cases``,
``seeds``...) whose default keeps it to a second or two.
"""

from __future__ import annotations

from engine.testing.errors import ContractError, contract
from engine.testing.fov import (
    check_fov,
    check_fov_case,
    check_fov_one_cell,
    check_fov_open_room,
    check_fov_reference,
    check_fov_symmetry_case,
    check_fov_symmetry_claim,
    check_fov_turns_case,
    check_fov_walls,
    fov_cases,
    fov_map,
    fov_picture,
)
from engine.testing.generators import (
    check_generator,
    check_generator_determinism,
    check_generator_errors,
    check_generator_rooms,
    check_generator_seeds,
    check_generator_sizes,
    check_generator_variety,
    check_level,
    golden_text,
    level_problems,
    make_level,
)
from engine.testing.path import (
    check_astar,
    check_bellman,
    check_pathfinder,
    check_pathfinder_reference,
    check_symmetric_distances,
    random_cells,
    random_costs,
)
from engine.testing.play import (
    arena,
    check_behaviour,
    check_effect,
    check_invariants,
    check_preset,
    receives,
)
from engine.testing.plugins import check_plugin, load_plugin
from engine.testing.scenes import (
    check_palette,
    colour_distance,
    game_from_map,
    palette_colours,
    palette_problems,
    press,
)
from engine.testing.tiles import check_tileset, tileset_gaps

# Every check raises ContractError only (errors.contract): one exception type for test authors.
for _name in [n for n in dir() if n.startswith("check_")]:
    globals()[_name] = contract(globals()[_name])
del _name

__all__ = [
    "ContractError",
    "arena",
    "check_astar",
    "check_behaviour",
    "check_bellman",
    "check_effect",
    "check_fov",
    "check_fov_case",
    "check_fov_one_cell",
    "check_fov_open_room",
    "check_fov_reference",
    "check_fov_symmetry_case",
    "check_fov_symmetry_claim",
    "check_fov_turns_case",
    "check_fov_walls",
    "check_generator",
    "check_generator_determinism",
    "check_generator_errors",
    "check_generator_rooms",
    "check_generator_seeds",
    "check_generator_sizes",
    "check_generator_variety",
    "check_invariants",
    "check_palette",
    "check_level",
    "check_pathfinder",
    "check_pathfinder_reference",
    "check_plugin",
    "check_preset",
    "check_symmetric_distances",
    "check_tileset",
    "tileset_gaps",
    "colour_distance",
    "fov_cases",
    "fov_map",
    "fov_picture",
    "game_from_map",
    "golden_text",
    "level_problems",
    "load_plugin",
    "make_level",
    "palette_colours",
    "palette_problems",
    "press",
    "random_cells",
    "random_costs",
    "receives",
    "tileset_gaps",
]
