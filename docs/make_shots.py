"""Regenerate the README's screenshots: ``python docs/make_shots.py`` (headless, EGL).

For each preset, two pictures, both rendered with ``--headless --shot`` from the keys found here:

- ``docs/NAME.png``, play: of seeded random walks, the one that explored most of the first level
  and stayed alive;
- ``docs/NAME-death.png``, the death screen: a simple player (walk to the nearest monster seen and
  hit it, else to the stairs and down, else to the nearest unexplored edge) until it dies; in
  lesson28, where a capture starts a new board at once, random walks until the first capture;

the default game's screens, ``docs/undercroft-SCENE.png`` (title, inventory, targeting,
victory, help), rendered from the golden pictures' scenes (``tests/pictures.py``); and
``docs/undercroft-pack.png``, a ``--shot`` of the built-in items: a level drawn here (:data:`PACK`,
read with ``--map``, its legend lines naming the kinds a class's glyph does not) where the player
picks up arms, armour and a potion, wields and wears, kills a goblin and a kobold, grows a level
and opens the pack: each item with what it adds against what is worn and what it is, over a log
coloured by kind of event. Every picture is stored with a palette of at most 256 colours, so the
README's pictures stay small.

Deterministic: the same code gives the same pictures.
"""

import os
import random
import subprocess
import sys
import tempfile
from collections import deque
from pathlib import Path

from engine.core.model.components import Monster, Position
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import snapshot
from engine.kit.mapgen import WALL

os.environ["UNDERCROFT_LOAD_PLUGINS"] = ""  # the built-in game only
HERE = Path(__file__).parent
# preset, seed, the walk's keys, walk length, the keys of the death hunter's 8 (or 4) steps, descend key
SHOTS = [("undercroft", 3, "hjklyubn", 400, "hjklyubn", ">"), ("bunyip", 7, "hjklyubn", 400, "hjklyubn", None),
         ("rogue-sdl", 5, "wasd", 400, "wasd", "."), ("lesson28", 2, None, 0, None, None)]
STEPS = {(-1, 0): 0, (1, 0): 1, (0, -1): 2, (0, 1): 3, (-1, -1): 4, (1, -1): 5, (-1, 1): 6, (1, 1): 7}
LETTERS = {"hjklyubn": "hlkjyubn", "wasd": "adws"}  # keys in STEPS's order: left right up down, diagonals


def explore(game: str, seed: int, moves: str, n: int) -> list[str]:
    best, seen = [], -1
    for attempt in range(30):
        rng = random.Random(attempt)
        keys = [rng.choice(moves) for _ in range(n)]
        g = new_game(Setup(game=game, seed=seed))
        for k in keys:
            Session.of(g).press(k)
        s = snapshot(g)
        if s["alive"] and s["depth"] == 1 and s["seen"] > seen:
            best, seen = keys, s["seen"]
        g.close()
    return best


def first_step(g, goals: set[tuple[int, int]], four: bool) -> tuple[int, int] | None:
    """The first step of a shortest walk over seen open cells to any goal (monsters block, except
    as a goal: walking into one attacks it)."""
    start = g.position(g.player)
    open_ = (g.level.terrain != WALL) & g.floor.seen
    blocked = {(p.x, p.y) for _, (_, p) in g.world.query(Monster, Position)} - goals
    steps = [s for s in STEPS if not four or 0 in s]
    came = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell in goals:
            while came[cell] != start:
                cell = came[cell]
            return cell[0] - start[0], cell[1] - start[1]
        for dx, dy in steps:
            nxt = (cell[0] + dx, cell[1] + dy)
            if (0 <= nxt[1] < open_.shape[0] and 0 <= nxt[0] < open_.shape[1] and open_[nxt[1], nxt[0]]
                    and nxt not in came and nxt not in blocked):
                came[nxt] = cell
                queue.append(nxt)
    return None


def hunt(game: str, seed: int, moves: str, descend: str | None, most: int = 4000) -> list[str]:
    """Keys that play until the player dies (see the module's docstring)."""
    g = new_game(Setup(game=game, seed=seed))
    rng, keys, four = random.Random(seed), [], len(moves) == 4
    while g.alive and len(keys) < most:
        monsters = {g.position(m) for m in g.visible_monsters()}
        stairs = g.level.stairs
        if Session.of(g).prompt is not None:  # a question (a level-up's choice): take its first answer
            key = "a"
        elif not monsters and descend and stairs and g.position(g.player) == stairs:
            key = descend
        else:
            seen, open_ = g.floor.seen, g.level.terrain != WALL
            frontier = {(x, y) for y, x in zip(*open_.nonzero(), strict=True) if seen[y, x]
                        and not seen[max(0, y - 1):y + 2, max(0, x - 1):x + 2].all()}
            step = None
            for goals in (monsters, {stairs} if descend and stairs and seen[stairs[1], stairs[0]] else set(), frontier):
                step = first_step(g, goals, four) if goals else None
                if step is not None:
                    break
            key = LETTERS[moves][STEPS[step]] if step is not None else rng.choice(moves)
        keys.append(key)
        Session.of(g).press(key)
    dead = not g.alive
    g.close()
    if not dead:
        raise SystemExit(f"{game}: no death in {most} keys; try another seed")
    return keys


def caught(seed: int) -> list[str]:
    """lesson28: random arrow keys until the first capture ("Caught!" on a new board)."""
    for attempt in range(100):
        rng, keys = random.Random(attempt), []
        g = new_game(Setup(game="lesson28", seed=seed))
        while g.state.run_number == 1 and len(keys) < 200:
            keys.append(rng.choice(["up", "down", "left", "right"]))
            Session.of(g).press(keys[-1])
        done = g.state.run_number == 2 and g.messages[-1].startswith("Caught")
        g.close()
        if done:
            return keys
    raise SystemExit("lesson28: no capture found")


# tests/pictures.py's scenes shown in the README
SCREENS = ["title", "inventory", "targeting", "animation", "victory", "help"]

# The pack's picture: a level with a potion, a dagger, a long sword, leather armour and chain mail
# (`!`, `)`, `[` read as their class's first kind; 2 and 4 name the others), and past the wall a
# goblin and a kobold asleep. The keys pick everything up, wield the dagger and wear the leather,
# walk to the monsters and kill them (a level-up: more attack), find nothing more to pick up, and
# open the pack.
PACK = """\
##############################
#............#...............#
#.@!)2[4.....................#
#............#...........g.k.#
##############################

2: long sword
4: chain mail
"""
PACK_KEYS = ("l g l g l g l g l g w b w d l l l l l l l l n l l l l l l l l l b g i")


def small(path: Path) -> None:
    """Store the picture with a palette of at most 256 colours (a glyph window has few)."""
    from PIL import Image

    with Image.open(path) as image:
        image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)


def shot(game: str, seed: int, keys: list[str], name: str, *options: str) -> None:
    env = {**os.environ, "UNDERCROFT_HOME": tempfile.mkdtemp()}  # never touch the player's saves
    subprocess.run([sys.executable, "-m", "engine", "--headless", "--game", game, "--seed", str(seed),
                    "--keys", " ".join(keys), "--shot", str(HERE / name), *options], check=True, env=env)
    small(HERE / name)
    print(f"docs/{name}")


def screens() -> None:
    """The default game's screens, from the golden pictures' scenes."""
    os.environ["ARCADE_HEADLESS"] = "1"
    sys.path.insert(0, str(HERE.parent / "tests"))
    import arcade
    import pictures

    from engine.frontend.launch import open_window

    for scene in SCREENS:
        window = pictures.SCENES[scene](Path(tempfile.mkdtemp()), lambda g, **o: open_window(g, headless=True, **o))
        images: list = []
        window.frames.after_draw.append(lambda shots=images: shots.append(arcade.get_image()))
        window.frames.draw()
        path = HERE / f"undercroft-{scene}.png"
        images[0].convert("RGB").save(path)
        small(path)
        window.close()
        print(f"docs/{path.name}")


if __name__ == "__main__":
    os.environ["UNDERCROFT_HOME"] = tempfile.mkdtemp()
    for game, seed, moves, n, hunter, descend in SHOTS:
        shot(game, seed, explore(game, seed, moves, n) if moves else ["right", "right"], f"{game}.png")
        shot(game, seed, hunt(game, seed, hunter, descend) if hunter else caught(seed), f"{game}-death.png")
    pack = Path(tempfile.mkdtemp()) / "pack.txt"
    pack.write_text(PACK)
    shot("undercroft", 1, PACK_KEYS.split(), "undercroft-pack.png", "--map", str(pack))
    screens()
