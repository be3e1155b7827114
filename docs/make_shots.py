"""Regenerate the README's screenshots: ``python docs/make_shots.py`` (headless, EGL).

For each preset it plays seeded random walks headless, keeps the one that explored most of the
first level and stayed alive, then renders that run with ``--headless --shot``. Deterministic:
the same code gives the same pictures.
"""

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from engine.core.setup import Setup, new_game
from engine.core.snapshot import snapshot

os.environ["UNDERCROFT_LOAD_PLUGINS"] = ""  # the built-in game only
os.environ["UNDERCROFT_HOME"] = tempfile.mkdtemp()  # never touch the player's saves
HERE = Path(__file__).parent
SHOTS = [("undercroft", 3, "hjklyubn", 400), ("bunyip", 7, "hjklyubn", 400),
         ("rogue-sdl", 5, "wasd", 400), ("lesson28", 2, None, 0)]


def explore(game: str, seed: int, moves: str, n: int) -> list[str]:
    best, seen = [], -1
    for attempt in range(30):
        rng = random.Random(attempt)
        keys = [rng.choice(moves) for _ in range(n)]
        g = new_game(Setup(game=game, seed=seed))
        for k in keys:
            g.press(k)
        s = snapshot(g)
        if s["alive"] and s["depth"] == 1 and s["seen"] > seen:
            best, seen = keys, s["seen"]
        g.close()
    return best


for game, seed, moves, n in SHOTS:
    keys = explore(game, seed, moves, n) if moves else ["right", "right"]
    subprocess.run([sys.executable, "-m", "engine", "--headless", "--game", game, "--seed", str(seed),
                    "--keys", " ".join(keys), "--shot", str(HERE / f"{game}.png")], check=True)
    print(f"docs/{game}.png")
