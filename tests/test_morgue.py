"""The morgue: written whole or not at all, even when the log holds text UTF-8 cannot (a lone
surrogate), and the temporary files of writers killed mid-write are cleaned up by the next one."""

import os
import subprocess
import sys

from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.persist import files, keeper, morgue, profile


def dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_a_lone_surrogate_in_the_log_is_escaped_not_a_crash(home, registry):
    game = new_game(Setup(seed=3), registry)
    game.messages.append("broken \ud800 text")
    path = morgue.write(game, "killed by \ud800", files.data_dir())
    text = path.read_text(encoding="utf-8")
    assert "  broken \\ud800 text" in text and "Cause:   killed by \\ud800" in text
    assert [p.name for p in home.iterdir()] == [path.name]  # no stray .tmp


def test_a_death_with_a_lone_surrogate_in_the_log_counts_and_writes_its_morgue(home, registry, tmp_path, capsys):
    m = tmp_path / "m.txt"
    m.write_text("#######\n#@o...#\n#######\n")
    game = keeper.open_game(Setup(map_file=str(m), seed=1), registry)
    game.messages.append("a \udc80 b")  # as a hostile save or a plugin could leave it
    for _ in range(30):
        if not game.alive:
            break
        Session.of(game).press(".")
    assert not game.alive
    assert "Traceback" not in capsys.readouterr().err
    (written,) = home.glob("morgue-*.txt")
    assert "a \\udc80 b" in written.read_text(encoding="utf-8")
    assert not [p for p in home.iterdir() if files.TMP_TAG in p.name]
    assert profile.load()["deaths"] == 1


def test_stale_morgue_temporary_files_are_cleaned_by_the_next_morgue(home, registry):
    home.mkdir()
    dead, alive = dead_pid(), os.getppid()
    stale = home / f".morgue-20260101-000000-7.txt{files.TMP_TAG}{dead}"
    busy = home / f".morgue-20260101-000000-8.txt{files.TMP_TAG}{alive}"  # a writer still running
    other = home / f".notes.txt{files.TMP_TAG}{dead}"  # not a morgue's: left to its own writer
    for p in (stale, busy, other):
        p.write_text("half a morgue")
    morgue.write(new_game(Setup(seed=3), registry), "killed by a test", home)
    assert not stale.exists() and busy.exists() and other.exists()


def test_the_cause_names_the_creature_that_struck_not_the_first_one_beside_the_player(registry):
    from engine import testing
    from engine.core.model.components import Fighter, Monster

    game = testing.game_from_map(registry, """
        #####
        #r@g#
        #####
    """)
    rat, goblin = (e for e, _ in sorted(game.world.query(Monster)))
    assert game.world.get(rat, Monster).kind == "rat" and game.world.get(goblin, Monster).kind == "goblin"
    game.world.get(game.player, Fighter).hp = 1
    rat_mind = game.world.get(rat, Monster)
    rat_mind.awake, rat_mind.sight = False, 0  # the rat sleeps on: only the goblin strikes
    Session.of(game).press(".")
    assert not game.alive
    assert morgue.cause_of_death(game) == "killed by a goblin on depth 1"


def test_a_death_no_creature_dealt_is_told_by_the_last_message(registry):
    game = new_game(Setup(seed=3), registry)
    game.log("The poison takes you.")
    game.kill(game.player)
    assert morgue.cause_of_death(game) == "The poison takes you on depth 1"
