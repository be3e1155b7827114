"""Games in a plugin's tests: a level drawn as a picture, keys pressed, and the colours checked.

A test builds a game on a small map it draws (what ``--map`` reads), presses keys as a player
would, and reads the result as ``--dump json`` prints it::

    from engine import testing

    def test_the_draught_mends(registry):  # registry = testing.load_plugin(my_plugin): the hooks' examples
        game = testing.game_from_map(registry, '''
            #######
            #@~..r#
            #######
        ''', game="frost")
        state = testing.press(game, "l g q")          # step onto it, pick it up, drink it
        assert "You feel mended." in state["messages"]

In a picture, ``#`` is wall, ``.`` floor, ``>`` stairs down, ``@`` the player's start (``<``: the
start on the stairs up), a kind's glyph is one of that kind (a monster, asleep, or an item; the
glyph the items of a class share, ``!``, is its first kind), a character the picture's own legend
lines give a kind is one of it (after a blank line under the picture: ``1: potion of haste``), and
the glyphs the preset draws its terrain with are that terrain, as the preset's ``--map`` legend
reads it: the reference's table of glyphs says which glyphs are taken, and by whom. Keys are the tokens
``--keys`` takes (``h j k l y u b n`` to move, ``.`` to wait, ``g`` to pick up, ``q`` to drink,
``esc``, ``enter``, a letter to answer a menu...), separated by spaces.

The palette rule: every two things a player must tell apart in a preset (the player, its monsters
and the items it places, and the terrain) are apart in colour as the window draws them, lit and
remembered, and each reads on the background it stands on. Distances are CIEDE2000 (about 1: barely
noticed side by side; 10 and more: another colour; :func:`colour_distance`). :func:`check_palette`
holds a preset to it.
"""

from __future__ import annotations

import itertools
import tempfile
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.core.play.session import Session
from engine.core.play.setup import Setup, default_game, prepare
from engine.core.play.snapshot import snapshot
from engine.core.plugin.registry import Registry
from engine.core.turn.game import Game
from engine.testing.errors import fail, plugin_failures

LIT_APART = 20.0  # lit: two kinds side by side in the light
CREATURES_APART = 18.0  # lit: two creatures of different letters (the sidebar names them too)
ACROSS_APART = 14.5  # lit: two other things of different glyphs (their shapes tell them apart too)
REMEMBERED_APART = 10.0  # remembered terrain and items: dimmer, so a smaller bar
ON_BACKGROUND = 10.0  # a glyph against the background it is drawn on
LIT_FROM_REMEMBERED = 10.0  # a remembered thing never looks like a lit one


def game_from_map(registry: Registry, picture: str, *, game: str | None = None, seed: int = 0,
                  plugins: tuple[str, ...] = ()) -> Game:
    """A started game of preset ``game`` (default: the registry's default game) whose first level
    is ``picture`` (indentation removed), read as ``--map`` reads a file; ``plugins`` are
    ``--plugin`` choices (``"fov=frost-diamond"``). Deeper levels come from the preset's generators."""
    with tempfile.TemporaryDirectory(prefix="undercroft-map-") as folder:
        path = Path(folder) / "map.txt"
        path.write_text(textwrap.dedent(picture).strip("\n") + "\n")
        made = prepare(Setup(game=game, seed=seed, plugins=list(plugins), map_file=str(path)), registry)
    return made.start()


def press(game: Game, keys: str, *, allow_plugin_errors: bool = False) -> dict[str, Any]:
    """Press ``keys`` (key tokens separated by spaces, as ``--keys`` takes them) in ``game``, one
    after another as a player would, and return the game as ``--dump json`` prints it (a dict:
    ``turn``, ``depth``, ``player``, ``monsters``, ``messages``, ``map``, ``prompt``...).

    A plugin that raises while the game is played (any plugin's ``on_turn_end``, a monster's
    behaviour...), which in play the engine switches off with one stderr line, fails the test: a
    :class:`ContractError` naming the plugin, where it failed and the key (a failure while the game
    started is named at the first key). ``allow_plugin_errors=True`` lets the game go on, as in
    play: for a test of that isolation itself (``game.isolation.failures`` lists what failed)."""
    plugin_failures(game, "before the first key", allow=allow_plugin_errors)
    tokens = keys.split()
    session = Session.of(game)
    for number, token in enumerate(tokens, 1):
        session.press(token)
        plugin_failures(game, f"key {number} of {len(tokens)}, {token!r}", allow=allow_plugin_errors)
    return snapshot(game)


def colour_distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """How far apart two sRGB colours ``(r, g, b)`` (0..255) look: their CIEDE2000 difference (D65),
    the distance the palette rule is measured in. About 1 is the smallest difference a person
    notices side by side; 10 and more reads as another colour. Symmetric; 0 for the same colour.

    Example::

        assert testing.colour_distance((165, 160, 175), (150, 140, 130)) < 20  # a wall and a rat, lit: too close"""
    from engine.frontend import palette

    return palette.delta_e(_rgb(a), _rgb(b))


def _rgb(colour: Sequence[int]) -> tuple[int, int, int]:
    """An ``(r, g, b)`` triple of a colour given as any sequence (an RGBA's alpha left out)."""
    return colour[0], colour[1], colour[2]


def palette_colours(registry: Registry, game: str | None = None) -> dict[str, dict[str, Any]]:
    """The colours of preset ``game`` (default: the default game) as the window draws them, by
    thing (``"monster rat"``, ``"item potion"``, ``"wall"``...): ``lit``, ``remembered`` (items
    and terrain; creatures are not remembered) and the ``backgrounds`` it is drawn on (lit,
    remembered). Its things: the player, the monsters its tables may place (its ``monsters``, or
    every registered kind when it lists none, and its own kinds), the items of its ``item_counts``
    and the terrain: the built-in kinds as the preset draws them, and every plugin's kind
    (``register_terrain``; not a hidden one, drawn as what it hides in) as it is registered
    (remembered only where the player's memory keeps it)."""
    from engine.core.turn.looks import player_look
    from engine.frontend import palette
    from engine.frontend.compose import LIT, TILE_CODES, Names, Tables

    rules = registry.choose("game", game) if game else default_game(registry)
    tables = Tables(rules, LIT, Names())
    kinds = {**registry.monsters, **rules.monster_kinds}
    names = rules.monsters or tuple(kinds)
    out: dict[str, dict[str, Any]] = {"player": {"lit": tuple(player_look(rules).color), "glyph": "@"}}
    for name in names:
        if name in kinds:
            out[f"monster {name}"] = {"lit": tuple(kinds[name].color), "glyph": kinds[name].glyph}
    for name in rules.item_counts:
        color = _rgb(registry.items[name].color)
        out[f"item {name}"] = {"lit": color, "remembered": palette.remembered(color),
                               "glyph": registry.items[name].glyph}
    # a hidden kind (one with ``found``: a secret door, a hidden trap) is drawn as what it hides in,
    # on purpose: it is left out
    plugins = [name for name, kind in registry.terrain.items() if name not in TILE_CODES and not kind.found]
    tables.fit([*TILE_CODES, *plugins], registry.terrain)
    codes = {**TILE_CODES, **{name: len(TILE_CODES) + i for i, name in enumerate(plugins)}}
    for name, code in codes.items():
        tile = rules.tiles.get(name) or {}
        glyph = tile.get("glyph") or (registry.terrain[name].glyph if name in registry.terrain else name)
        out[name] = {"lit": tuple(tables.color[code].tolist()), "glyph": glyph}
        if not tables.forget[code]:
            out[name]["remembered"] = tuple(tables.memory[code].tolist())
    for name, colours in out.items():
        code = codes.get(name, TILE_CODES["floor"])  # things stand on the floor
        colours["backgrounds"] = (tuple(tables.bg_lit[code].tolist()), tuple(tables.bg_memory[code].tolist()))
    return out


def palette_problems(registry: Registry, game: str | None = None) -> list[str]:
    """Every breach of the palette rule in preset ``game``, one readable line each: two lit things
    closer than ``LIT_APART`` when they share a glyph (two creatures of different letters:
    ``CREATURES_APART``; any other two of different glyphs: ``ACROSS_APART``, as the glyphs'
    shapes tell those apart too), two remembered ones closer than ``REMEMBERED_APART``, a glyph closer
    than ``ON_BACKGROUND`` to its background (a creature's also to the green under a friend, as
    an ally or a captive is drawn), a remembered colour closer than ``LIT_FROM_REMEMBERED``
    to its lit one; two items of one glyph (a class: potions) that the preset places closer than
    those bars; in a preset with the log under the map, two kinds of message whose colours are
    closer than ``LIT_APART`` (fresh or older) or a message colour closer than ``ON_BACKGROUND`` to
    its background; and a terrain's ``remembered`` colour that the preset sets but the window does
    not draw (the lit look makes remembered colours from the lit ones, so it replaces the preset's
    with its own: the line says which to write)."""
    from engine.frontend import palette
    from engine.frontend.compose import look_for

    colours = palette_colours(registry, game)
    rules = registry.choose("game", game) if game else default_game(registry)
    out = []
    if look_for(rules).lit:
        for name, tile in sorted(rules.tiles.items()):
            declared = tile.get("remembered")
            drawn = colours.get(name, {}).get("remembered")
            if declared is not None and drawn is not None and tuple(declared) != drawn:
                out.append(f"{name}: its remembered colour {tuple(declared)} is drawn as {drawn} (the lit look "
                           f"dims and greys the lit {colours[name]['lit']}): write {list(drawn)}, or leave it out")
    def creature(name: str) -> bool:
        return name == "player" or name.startswith("monster ")

    for (bar, which) in ((LIT_APART, "lit"), (REMEMBERED_APART, "remembered")):
        seen = [(name, c[which]) for name, c in colours.items() if which in c]
        for (a, ca), (b, cb) in itertools.combinations(seen, 2):
            glyphs = colours[a]["glyph"] == colours[b]["glyph"]
            least = (bar if which != "lit" or glyphs
                     else CREATURES_APART if creature(a) and creature(b) else ACROSS_APART)
            if (apart := palette.delta_e(ca, cb)) < least:
                out.append(f"{which}: {a} {ca} and {b} {cb} are {apart:.1f} apart (at least {least:g})")
    out += _class_problems(registry, rules) + (_log_problems() if look_for(rules).sidebar else [])
    for name, c in colours.items():
        for which, background in zip(("lit", "remembered"), c["backgrounds"], strict=True):
            if which in c and palette.delta_e(c[which], background) < ON_BACKGROUND:
                out.append(f"{which}: {name} {c[which]} on its background {background} is "
                           f"{palette.delta_e(c[which], background):.1f} apart (at least {ON_BACKGROUND:g})")
        if creature(name) and palette.delta_e(c["lit"], palette.FRIEND_BG) < ON_BACKGROUND:  # an ally, a captive
            out.append(f"lit: {name} {c['lit']} on the background of a friend {palette.FRIEND_BG} is "
                       f"{palette.delta_e(c['lit'], palette.FRIEND_BG):.1f} apart (at least {ON_BACKGROUND:g})")
        if "remembered" in c and palette.delta_e(c["remembered"], c["lit"]) < LIT_FROM_REMEMBERED:
            out.append(f"{name}: remembered {c['remembered']} looks like lit {c['lit']} (at least "
                       f"{LIT_FROM_REMEMBERED:g} apart)")
    return out


def _class_problems(registry: Registry, rules: Any) -> list[str]:
    """Items of one class (one glyph: ``!`` potions) that the preset places, told apart by colour
    alone: lit at least ``LIT_APART``, remembered ``REMEMBERED_APART``."""
    from engine.frontend import palette

    placed = dict.fromkeys([*rules.item_counts, *(row.item for table in rules.loot.values() for row in table.items)])
    kinds = [registry.items[name] for name in placed if name in registry.items]
    out = []
    for a, b in itertools.combinations(kinds, 2):
        if a.glyph != b.glyph:
            continue
        for which, bar, ca, cb in (("lit", LIT_APART, _rgb(a.color), _rgb(b.color)),
                                   ("remembered", REMEMBERED_APART, palette.remembered(a.color),
                                    palette.remembered(b.color))):
            if palette.delta_e(ca, cb) < bar:
                out.append(f"{which}: items sharing {a.glyph!r}: {a.name} {ca} and {b.name} {cb} are "
                           f"{palette.delta_e(ca, cb):.1f} apart (at least {bar:g})")
    return out


def _log_problems() -> list[str]:
    """The log's colours by kind of message: apart from each other, fresh and older, and each on
    the log's background and the history panel's."""
    from engine.frontend import palette
    from engine.frontend.panel import BOX

    out = []
    for fresh in (True, False):
        seen = [(kind or "plain", palette.message_colour(kind, fresh)) for kind in palette.MESSAGE_COLOURS]
        age = "" if fresh else " (older)"
        out += [f"log{age}: {a} {ca} and {b} {cb} are {palette.delta_e(ca, cb):.1f} apart (at least {LIT_APART:g})"
                for (a, ca), (b, cb) in itertools.combinations(seen, 2) if palette.delta_e(ca, cb) < LIT_APART]
        out += [f"log{age}: {a} {ca} on {bg} is {palette.delta_e(ca, bg):.1f} apart (at least {ON_BACKGROUND:g})"
                for a, ca in seen for bg in (palette.LOG_BG, _rgb(BOX))
                if palette.delta_e(ca, bg) < ON_BACKGROUND]
    return out


def check_palette(registry: Registry, game: str | None = None) -> None:
    """Preset ``game`` (default: the default game, which a plugin's monsters join) keeps the
    palette rule (:func:`palette_problems`): a plugin whose kinds a player could not tell from
    another's, lit or remembered, fails naming each pair and their distance: every problem, in one
    line, separated by ``"; "`` (the first after a count when there are several)."""
    found = palette_problems(registry, game)
    if found:
        rules = registry.choose("game", game) if game else default_game(registry)
        count = f"{len(found)} problems: " if len(found) > 1 else ""
        raise fail(f"game {rules.name!r}", f"its colours are apart: {count}{'; '.join(found)}")
