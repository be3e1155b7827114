"""The morgue: a text file per death, written beside the profile, for the player to read later.

It says how the run went (preset, seed, plugins, depth, turns, HP, gold, the cause of death), shows
the final map as the player knew it (only the cells they had seen; ``@`` where they fell), and the
last 20 messages. Text only: it is never read back by the game. It is written atomically by the
file layer (temporary files of a writer killed mid-write are cleaned up by the next morgue), and
text UTF-8 cannot hold (a lone surrogate in a message) is written as a backslash escape.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.kinds.messages import with_article
from engine.core.model.components import Equipped, Fighter, Inventory, Position
from engine.core.turn import inventory, naming
from engine.persist import files

if TYPE_CHECKING:
    from engine.core.turn.game import Game

LAST_MESSAGES = 20


def cause_of_death(game: Game) -> str:
    """What killed the player: the creature whose blow it was, or the cause a plugin named (a
    status, terrain, a trap), recorded when it struck; else the last message before the end."""
    kind = game.state.killed_by
    if kind and not game.state.killed_by_creature:
        return f"killed by {kind} on depth {game.depth}"
    if kind:
        return f"killed by {with_article(kind)} on depth {game.depth}"
    die = game.rules.message("die")
    last = next((m for m in reversed(game.messages) if m != die), "")
    return f"{last.rstrip('.')} on depth {game.depth}" if last else f"died on depth {game.depth}"


def known_map(game: Game) -> list[str]:
    """The terrain the player had seen, blanks elsewhere, ``@`` at the player; the rows above and
    below what was seen are left out."""
    rows = game.level.rows()
    seen = game.floor.seen
    me = game.world.get(game.player, Position)
    out = []
    for y, row in enumerate(rows):
        chars = [c if seen[y, x] else " " for x, c in enumerate(row)]
        if y == me.y:
            chars[me.x] = "@"
        out.append("".join(chars).rstrip())
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return out


def pack_lines(game: Game) -> list[str]:
    """The pack as a classic inventory lists it: ``a - 3 healing potion``, worn items marked."""
    out = []
    for item in inventory.pack(game):
        amount = inventory.count(game, item)
        worn = " (in use)" if game.world.has(item, Equipped) else ""
        out.append(f"  {inventory.letter_of(game, item)} - {str(amount) + ' ' if amount > 1 else ''}"
                   f"{naming.of_entity(game, item)}{worn}")
    return out


def text(game: Game, cause: str, when: datetime.datetime) -> str:
    fighter = game.world.get(game.player, Fighter)
    inv = game.world.get(game.player, Inventory)
    plugins = {"fov": game.fov.name, "generator": game.level.generator or "-", **game.choices.as_dict()}
    lines = [
        f"Undercroft morgue, {when.strftime('%Y-%m-%d %H:%M:%S')}",
        "",
        f"Preset:  {game.rules.name}",
        f"Seed:    {game.seed} (run {game.run_number} of first seed {game.first_seed})",
        f"Plugins: {', '.join(f'{k}={v}' for k, v in sorted(plugins.items()))}",
        f"Depth:   {game.depth}",
        f"Turns:   {game.turn}",
        f"HP:      {fighter.hp}/{fighter.max_hp}",
        f"Gold:    {inv.gold}",
        f"Cause:   {cause}",
        "",
        "Your pack:",
        *(pack_lines(game) or ["  (empty)"]),
        "",
        "The map as you knew it:",
        *known_map(game),
        "",
        f"The last {LAST_MESSAGES} messages:",
        *(f"  {m}" for m in game.messages[-LAST_MESSAGES:]),
    ]
    return "\n".join(lines) + "\n"


def write(game: Game, cause: str, folder: Path) -> Path | None:
    """Write the morgue file for this death; returns its path (``morgue-<date>-<seed>.txt``), or
    None when nothing can be saved in the data folder (said once already). Raises OSError when the
    write fails (a full disk): the caller says so in one line."""
    folder = Path(folder)
    if not files.saving_enabled() and files.is_data_dir(folder):
        return None
    when = datetime.datetime.now().astimezone()
    path = folder / f"morgue-{when.strftime('%Y%m%d-%H%M%S')}-{game.seed}.txt"
    n = 1
    while path.exists():  # two deaths in one second (tests, on_death = "new_run")
        n += 1
        path = folder / f"morgue-{when.strftime('%Y%m%d-%H%M%S')}-{game.seed}-{n}.txt"
    files.clean_stale_temps(folder, f".morgue-*{files.TMP_TAG}*")  # of any earlier morgue
    return path if files.write_text(path, text(game, cause, when)) else None
