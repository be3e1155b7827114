"""The golden pictures' scenes: each builds a game (from an ASCII map, so generators and loot
tables can change without moving a pixel), opens a headless window at a fixed size and brings it
to the moment to photograph. ``tests/test_pictures.py`` compares them with ``tests/golden/pictures``.

Regenerate the pictures (after a rendering change you mean):

    UNDERCROFT_UPDATE_GOLDEN=1 ARCADE_HEADLESS=1 python -m pytest tests/test_pictures.py

The items the default game's scenes carry are this module's own plugin (:data:`KIT`: a burning
scroll that aims at a cell, a sword, a jerkin; named apart from the built-ins), so the pictures
hold whatever the loot tables become.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from engine.core.model.components import Fighter
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game, prepare
from engine.plugins.depths import identify

WINDOW = (1120, 640)  # the sidebar look's window, in window units: small pictures, all of it shown

KIT = """
    from engine import Blast, ItemKind, hookimpl

    def blast(game, entity, kind, amount, target):
        cells = game.area(target, kind.radius)
        game.announce(Blast(tuple(cells), color=(255, 140, 40)))
        for x, y in cells:
            for monster in [e for e in game.entities_at(x, y) if e in game.monsters()]:
                game.damage(monster, kind.params["damage"], by=entity)
        return "The scroll bursts into flame."

    def nothing(game, entity, kind, amount):
        return None

    @hookimpl
    def register_items(register):
        register(ItemKind(name="scroll of burning", glyph="&", color=(230, 120, 60), effect="blast",
                          use="read", target="cell", radius=2, params={"damage": 8},
                          description="Burns everything within 2 cells of where you aim it."))
        register(ItemKind(name="short sword", glyph="(", color=(190, 200, 215), effect="nothing",
                          use="wear", slot="hand", attack=2, description="A plain short sword."))
        register(ItemKind(name="leather jerkin", glyph="[", color=(170, 120, 80), effect="nothing",
                          use="wear", slot="body", defense=1))

    @hookimpl
    def register_effects(register):
        register("blast", blast)
        register("nothing", nothing)
"""

MAPS = Path(__file__).parent / "golden" / "pictures"  # levels as text: first levels the generators
# once made (undercroft seed 3, bunyip seed 7, rogue-sdl seed 5), kept as they were then


def _map(name: str) -> str:
    return str(MAPS / f"{name}.txt")


def _kit_registry(tmp: Path):
    from engine import load_registry

    folder = tmp / "kit"
    folder.mkdir(exist_ok=True)
    (folder / "kit.py").write_text(textwrap.dedent(KIT))
    return load_registry(plugins_dirs=[folder], entry_points=False)


def _settings():
    from engine.frontend.settings import Settings

    return Settings({"window_size": list(WINDOW)})


def _default_game(tmp: Path):
    """The default game on ``undercroft.txt`` (a room with a rat, a potion and gold; a goblin
    down the passage; an orc in the hall west), with a pack, a few messages in."""
    game = new_game(Setup(seed=1, map_file=_map("undercroft")), _kit_registry(tmp))
    identify.learn_all(game.api)  # named as they always were (the unknown pack: docs/pack.png)
    for kind, amount in (("scroll of burning", 2), ("short sword", 1), ("leather jerkin", 1)):
        game.give(kind, amount)
    for key in "w b j h".split():  # wear the sword: "(in use)" in the pack
        Session.of(game).press(key)
    return game


def play(tmp: Path, open_window: Callable):
    """The default game: lit room, remembered corridor, monsters in the sidebar, the log."""
    game = _default_game(tmp)
    for key in "l l k".split():
        Session.of(game).press(key)
    return open_window(game, settings=_settings())


def mapped(tmp: Path, open_window: Callable):
    """The whole level known, as a map shows it: built walls joined into lines, the two parallel
    corridors apart, rock deep between rooms dark and bare (engine.frontend.walls)."""
    game = _default_game(tmp)
    game.floor.seen[:] = True
    return open_window(game, settings=_settings())


def kenney(tmp: Path, open_window: Callable):
    """The play scene in the Kenney sprites: the goblin, the potion, the gold and the stairs up on
    the floor's picture, no black square behind them."""
    game = _default_game(tmp)
    for key in "l l k".split():
        Session.of(game).press(key)
    return open_window(game, settings=_settings(), tileset="kenney")


def hover(tmp: Path, open_window: Callable):
    """The mouse on the rat: its cell outlined, its sidebar row lit, the sidebar saying what it is."""
    game = _default_game(tmp)
    window = open_window(game, settings=_settings())
    x, y = next(game.position(e) for e in game.visible_monsters() if game.name_of(e) == "rat")
    left, bottom, width, height = window.map_view.cell_rect(x, y)
    window.on_mouse_motion((left + width // 2) / window.ratio, (bottom + height // 2) / window.ratio, 0, 0)
    return window


def inventory(tmp: Path, open_window: Callable):
    game = _default_game(tmp)
    Session.of(game).press("i")
    return open_window(game, settings=_settings())


def targeting(tmp: Path, open_window: Callable):
    """A burning scroll aimed: Tab past the goblin in the doorway to the rat in the room, the
    cells the blast would burn tinted (the player's among them)."""
    game = _default_game(tmp)
    for key in "j j".split():
        Session.of(game).press(key)
    for key in "r a tab tab".split():
        Session.of(game).press(key)
    return open_window(game, settings=_settings())


def animation(tmp: Path, open_window: Callable):
    """The burning scroll read at the rat (the targeting scene, then Enter): the second frame of
    its animation, the blast's cells lit over the map."""
    from engine.frontend.animations import frames_for

    game = _default_game(tmp)
    for key in "j j r a tab tab".split():
        Session.of(game).press(key)
    outcome = Session.of(game).press("enter")
    window = open_window(game, settings=_settings())
    window.animations.show(frames_for(outcome.events, game.api.sees), at=1)
    return window


def look(tmp: Path, open_window: Callable):
    game = _default_game(tmp)
    Session.of(game).press("x")
    for key in "l l l k k k k".split():  # onto the potion
        Session.of(game).press(key)
    return open_window(game, settings=_settings())


def history(tmp: Path, open_window: Callable):
    game = _default_game(tmp)
    for key in "b b . . . .".split():  # gold, then the rat comes to fight
        Session.of(game).press(key)
    Session.of(game).press("ctrlp")
    return open_window(game, settings=_settings())


def death(tmp: Path, open_window: Callable):
    """Killed by the orc in the hall west (the player put beside it, at 1 HP)."""
    game = _default_game(tmp)
    game.move_entity(game.player, 45, 19)
    game.world.get(game.player, Fighter).hp = 1
    for _ in range(20):
        if not game.alive:
            break
        Session.of(game).press(".")
    assert not game.alive, "the death scene's player lived"
    return open_window(game, settings=_settings())


def victory(tmp: Path, open_window: Callable):
    """The Amulet carried up the stairs of depth 1 (the level's start)."""
    game = _default_game(tmp)
    game.give("Amulet of the Undercroft")
    game.move_entity(game.player, *game.level.upstairs)
    Session.of(game).press("<")
    assert game.won, "the victory scene did not win"
    return open_window(game, settings=_settings())


def help_screen(tmp: Path, open_window: Callable):
    """The keys, in a player's words, on a panel over the map."""
    game = _default_game(tmp)
    window = open_window(game, settings=_settings())
    window.press("?")
    return window


SMALL_ROOM = """
#########
#@r.....#
#.......#
#########
"""


def question(tmp: Path, open_window: Callable):
    """The level-up question on a small map: beside the board, not over it (the rat killed with
    the player one point short of level 2)."""
    path = tmp / "small.txt"
    path.write_text(SMALL_ROOM.lstrip("\n"))
    game = new_game(Setup(seed=1, map_file=str(path)))
    growth = next(c for c in game.world.components(game.player) if hasattr(c, "xp") and hasattr(c, "next"))
    growth.xp = growth.next - 1
    session = Session.of(game)
    for _ in range(20):
        if session.prompt is not None:
            break
        session.press("l")
    assert session.prompt is not None and session.prompt.kind == "question", "the question scene asked nothing"
    return open_window(game, settings=_settings())


def title(tmp: Path, open_window: Callable):
    """The title screen: a saved run to continue, a new run, the presets."""
    from engine.frontend.launch import presets
    from engine.frontend.title import Title

    inert = prepare(Setup())
    registry = inert.registry
    saved = {"game": "undercroft", "depth": 4, "turn": 1234, "seed": 42}
    screen = Title(saved=saved, presets=presets(registry), default=inert.rules.name)
    return open_window(inert, settings=_settings(), title_screen=screen, choose=lambda choice: inert)


def _preset(name: str, keys: str, seed: int = 1, ascii_map: bool = True):
    def scene(tmp: Path, open_window: Callable):
        setup = Setup(game=name, seed=seed, map_file=_map(name) if ascii_map else None)
        game = new_game(setup)
        for key in keys.split():
            Session.of(game).press(key)
        return open_window(game)

    scene.__doc__ = f"The {name} preset in its own look."
    return scene


SCENES: dict[str, Callable] = {
    "title": title,
    "play": play,
    "mapped": mapped,
    "kenney": kenney,
    "hover": hover,
    "inventory": inventory,
    "targeting": targeting,
    "animation": animation,
    "look": look,
    "history": history,
    "death": death,
    "victory": victory,
    "help": help_screen,
    "question": question,
    "bunyip": _preset("bunyip", "h h h h h h h"),
    "rogue-sdl": _preset("rogue-sdl", "a a a a a a s"),
    "lesson28": _preset("lesson28", "right right", seed=2, ascii_map=False),
}
