"""Permadeath with a save that stays on disk: the save is kept while its
run is played and claimed by the run lock; save points at each level, every SAVE_EVERY turns and at
the session's end; death, an escape and a quit that ends the run remove it first; one player per
save (a second process is refused in one line, exit 2); a SIGKILL resumes from the last save point;
an unwritable folder resumes nothing; a save of another version is kept aside by its version."""

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from faults import Refusing, fresh_process, injected

from engine.cli.main import main
from engine.core.errors import UsageError
from engine.core.model.components import Fighter, Monster, Position
from engine.core.model.requests import ChangeLevel, Quit
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import dumps, snapshot
from engine.kit import limits
from engine.persist import disk, keeper, lock, morgue, profile, runsave, runspec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPEN = "#" * 30 + "\n" + ("#@" + "." * 27 + "#\n") + ("#" + "." * 28 + "#\n") * 10 + "#" * 30 + "\n"  # no monster
DEATH = "#######\n#@o...#\n#######\n"  # the orc kills the player in a few waits


def a_map(tmp_path, text: str) -> str:
    path = tmp_path / ("open.txt" if text == OPEN else "death.txt")
    path.write_text(text)
    return str(path)


def saved(home) -> dict:
    return json.loads((home / "run.json").read_text())


def headless(*argv: str, env_home=None, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "UNDERCROFT_HOME": str(env_home)} if env_home else None
    return subprocess.run([sys.executable, "-m", "engine", "--headless", *argv], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)


# -- one player per save ---------------------------------------------------------------------------

PLAYER = """
    import sys
    from engine.core.play.session import Session
    from engine.core.play.setup import Setup
    from engine.persist import keeper
    game = keeper.open_game(Setup(), choice=sys.argv[1])
    session = Session(game)
    print("playing", game.seed, game.turn, flush=True)
    for line in sys.stdin:
        if session.press(line.strip()).quit:
            break
    keeper.close(game)
    print("done", game.turn, flush=True)
"""


def player(home, choice: str = "continue") -> subprocess.Popen:
    env = {**os.environ, "UNDERCROFT_HOME": str(home)}
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(PLAYER), choice], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    return p


def test_a_second_process_is_refused_in_one_line_and_a_new_run_there_is_not_saved(home, capsys):
    assert main(["--headless", "--seed", "3", "--keys", "l l esc"]) == 0
    first = player(home)
    try:
        assert first.stdout.readline() == "playing 3 2\n", first.stderr.read()
        before = (home / "run.json").read_bytes()
        second = headless("--keys", "l", env_home=home)  # resuming it too: refused
        assert second.returncode == 2, second.stderr
        assert second.stderr == (f"undercroft: another Undercroft (pid {first.pid}) is playing the run saved in "
                                 f"{home / 'run.json'}; close it first, or start a new run with --new\n")
        other = headless("--new", "--seed", "5", "--keys", "l l", "--dump", "json", env_home=home)
        assert other.returncode == 0 and json.loads(other.stdout)["seed"] == 5
        assert other.stderr.count("\n") == 1 and "this new run will not be saved" in other.stderr, other.stderr
        bunyip = headless("--game", "bunyip", "--keys", "right", env_home=home)  # a preset that never saves
        assert bunyip.returncode == 0 and bunyip.stderr == "", bunyip.stderr  # loses nothing: nothing to say
        assert (home / "run.json").read_bytes() == before  # the first player's save, untouched
        out, err = first.communicate("l\nesc\n", timeout=60)
        assert out == "done 3\n" and err == "", err
    finally:
        first.kill()
        first.wait()
    assert saved(home)["turn"] == 3 and saved(home)["seed"] == 3
    capsys.readouterr()
    assert main(["--headless", "--keys", ".", "--dump", "json"]) == 0  # free again: resumed
    assert json.loads(capsys.readouterr().out)["turn"] == 4


def test_a_window_offers_only_a_new_run_while_another_plays_the_save(home, monkeypatch):
    """The title screen: the saved run, the line saying who plays it, and N for a new run (not saved)."""
    pytest.importorskip("arcade")
    from engine.frontend.title import Title, TitleScreen, lines

    assert main(["--headless", "--seed", "3", "--keys", "l esc"]) == 0
    first = player(home)
    try:
        assert first.stdout.readline().startswith("playing"), first.stderr.read()
        slot = keeper.claim()
        assert slot.busy and slot.hold is None
        info = keeper.saved_run(slot)
        assert info["seed"] == 3 and f"(pid {first.pid}) is playing" in info["blocked"]
        text = [line for line, _ in lines(Title(saved=info))]
        assert any("is playing the run saved" in line for line in text)
        assert any(line.startswith("n  New run") and line.endswith("(not saved)") for line in text)
        assert not any(line.startswith("c  Continue") for line in text)
        screen = TitleScreen.__new__(TitleScreen)  # its choices need no GL
        screen.title = Title(saved=info)
        assert screen.choice("c") is None  # no Continue offered
        assert screen.choice("enter") == "new"  # Enter takes the first line offered: a new run
        assert screen.choice("n") == "new" and screen.choice("esc") == "quit"
        game = keeper.open_game(Setup(seed=9), choice=screen.choice("n"), slot=slot)
        assert game.seed == 9 and saved(home)["seed"] == 3  # played, not saved over the other's
        with pytest.raises(UsageError, match="is playing the run saved"):
            keeper.open_game(Setup(), choice="continue", slot=slot)
    finally:
        first.communicate("esc\n", timeout=60)


def test_a_window_opened_on_a_busy_save_plays_a_new_run_not_saved(home):
    """The whole window path (headless EGL, the real event loop): the title screen ignores C, and N
    plays a new run that leaves the other window's save alone."""
    pytest.importorskip("arcade")
    assert main(["--headless", "--seed", "3", "--keys", "l esc"]) == 0
    before = (home / "run.json").read_bytes()
    first = player(home)
    try:
        assert first.stdout.readline().startswith("playing"), first.stderr.read()
        env = {**os.environ, "UNDERCROFT_HOME": str(home), "ARCADE_HEADLESS": "1"}
        window = subprocess.run([sys.executable, "-m", "engine", "--seconds", "0.2", "--keys", "c enter n l",
                                 "--dump", "json"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
        assert window.returncode == 0, window.stderr
        assert window.stderr.count("\n") == 1 and "this new run will not be saved" in window.stderr, window.stderr
        assert json.loads(window.stdout)["seed"] != 3 and (home / "run.json").read_bytes() == before
    finally:
        first.communicate("esc\n", timeout=60)


def test_one_claim_per_process_a_second_takes_the_slot_over(home, registry):
    game = keeper.open_game(Setup(seed=3), registry)
    Session.of(game).press("l")
    Session.of(game).press("esc")
    first = keeper.open_game(Setup(), registry, choice="continue")
    second = keeper.open_game(Setup(), registry, choice="continue")  # the same process: no refusal
    assert first.turn == second.turn == 1
    Session.of(first).press("l")
    keeper.close(first)  # its slot was taken over: it writes nothing
    assert saved(home)["turn"] == 1
    Session.of(second).press("j")
    keeper.close(second)
    assert saved(home)["turn"] == 2


# -- save points -------------------------------------------------------------------------------------

def test_save_points_at_levels_every_hundred_turns_and_the_sessions_end(home, tmp_path, registry):
    game = keeper.open_game(Setup(map_file=a_map(tmp_path, OPEN), seed=1), registry)
    assert saved(home)["turn"] == 0  # the first level
    dice = random.Random(1)
    turns = []
    while game.turn < 2 * keeper.SAVE_EVERY + 30:
        Session.of(game).press(dice.choice("h j k l .".split()))
        turns.append(saved(home)["turn"])
    assert sorted(set(turns)) == [0, keeper.SAVE_EVERY, 2 * keeper.SAVE_EVERY]
    game.apply(ChangeLevel(2))
    Session.of(game).press(".")
    assert (saved(home)["depth"], saved(home)["turn"]) == (2, game.turn)  # a new level
    Session.of(game).press(".")
    keeper.close(game)  # the keys ran out, the window closed: the run goes on from here
    assert saved(home)["turn"] == game.turn


def test_a_session_ending_in_an_exception_leaves_the_last_save_point(home, registry):
    game = keeper.open_game(Setup(seed=3), registry)
    Session.of(game).press("l")
    keeper.close(game)
    game = keeper.open_game(Setup(), registry, choice="continue")
    Session.of(game).press("j")
    keeper.close(game, failed=True)  # perhaps mid-turn: nothing is written
    assert saved(home)["turn"] == 1 and lock.holder(home / "run.json") is None


def test_a_sigkill_mid_play_resumes_from_the_last_save_point(home, tmp_path, registry):
    """Killed at random moments past two save points; each time the save resumes, and is a state the
    game really passed through: replaying its own keys from its seed gives the same state."""
    script = textwrap.dedent(f"""
        import random
        from engine.core.play.session import Session
        from engine.core.play.setup import Setup
        from engine.persist import keeper
        game = keeper.open_game(Setup(map_file={a_map(tmp_path, OPEN)!r}, seed=2), choice=CHOICE)
        dice = random.Random(SEED)
        start = game.turn
        while True:
            Session.of(game).press(dice.choice("h j k l .".split()))
            if game.turn - start == 2 * keeper.SAVE_EVERY + 10:
                print("past", game.turn, flush=True)
    """)
    env = {**os.environ, "UNDERCROFT_HOME": str(home)}
    last = 0
    for kill in range(3):
        code = script.replace("CHOICE", repr("new" if kill == 0 else "continue")).replace("SEED", str(kill))
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT, env=env)
        try:
            assert p.stdout.readline().startswith("past"), p.stderr.read()
            time.sleep(random.Random(kill).uniform(0, 0.05))
            os.kill(p.pid, signal.SIGKILL)
            p.wait(timeout=30)
        finally:
            p.kill()
            p.wait()
        data = saved(home)
        assert data["turn"] >= last + 2 * keeper.SAVE_EVERY  # two save points at least were written
        last = data["turn"]
        fresh_process()
        resumed = keeper.open_game(Setup(), registry, choice="continue")  # the dead player's lock is gone
        assert resumed.turn == last
        again = new_game(Setup(map_file=a_map(tmp_path, OPEN), seed=2), registry)
        for token in data["keys"]:
            Session.of(again).press(token)
        assert dumps(again) == dumps(resumed)
        keeper.close(resumed, failed=True)  # leave the save as the kill left it


# -- the end of a run ----------------------------------------------------------------------------

def test_death_removes_the_save_before_the_profile_and_the_morgue_see_it(home, tmp_path, registry, monkeypatch):
    seen = []
    run_ended, write = profile.run_ended, morgue.write
    monkeypatch.setattr(profile, "run_ended", lambda **kw: (seen.append(("profile", (home / "run.json").exists())),
                                                          run_ended(**kw))[1])
    monkeypatch.setattr(morgue, "write", lambda *a: (seen.append(("morgue", (home / "run.json").exists())),
                                                    write(*a))[1])
    game = keeper.open_game(Setup(map_file=a_map(tmp_path, DEATH), seed=1), registry)
    assert (home / "run.json").exists()
    while game.alive:
        Session.of(game).press(".")
    assert seen == [("profile", False), ("morgue", False)] and not (home / "run.json").exists()
    keeper.close(game)
    assert not (home / "run.json").exists()  # the session's end saves no dead run


def test_an_escape_removes_the_save_and_the_next_run_is_saved_at_its_first_level(home, registry, monkeypatch):
    seen = []
    run_ended = profile.run_ended
    monkeypatch.setattr(profile, "run_ended", lambda **kw: (seen.append((home / "run.json").exists()),
                                                          run_ended(**kw))[1])
    game = keeper.open_game(Setup(seed=4), registry)
    me = game.world.get(game.player, Position)
    step = next((dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if game.passable(me.x + dx, me.y + dy))
    game.level.exit = (me.x + step[0], me.y + step[1])  # as a preset's exit would be
    Session.of(game).press({(1, 0): "l", (-1, 0): "h", (0, 1): "j", (0, -1): "k"}[step])
    assert seen == [False]  # gone when the win was counted
    assert (saved(home)["run"], saved(home)["turn"]) == (2, 0)  # the next run, at its first level


def test_a_quit_that_ends_the_run_removes_the_save(home, registry):
    game = keeper.open_game(Setup(seed=3), registry)
    Session.of(game).press("l")
    assert (home / "run.json").exists()
    game.apply(Quit(save=False))  # as a classic preset's quit would ask
    assert not (home / "run.json").exists()
    keeper.close(game)
    assert not (home / "run.json").exists()


def test_a_save_that_cannot_be_removed_at_a_death_is_never_resumed(home, tmp_path, registry, capsys):
    game = keeper.open_game(Setup(map_file=a_map(tmp_path, DEATH), seed=1), registry)
    with injected("unlink", 1):  # the save's removal fails (EIO)
        while game.alive:
            Session.of(game).press(".")
    keeper.close(game)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot remove it" in err and "marked ended" in err, err
    assert (home / "run.json").exists()
    fresh_process()
    assert main(["--headless", "--keys", "l", "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "its run had ended" in err and "removed it now" in err, err
    state = json.loads(out)
    assert state["alive"] and state["turn"] == 1 and state["seed"] != 1  # a new run, not the dead one
    assert profile.load()["ended_save"] is None


# -- an unwritable folder ----------------------------------------------------------------------------

def test_a_save_in_a_folder_that_cannot_be_written_is_not_resumed(home, monkeypatch, capsys):
    assert main(["--headless", "--seed", "3", "--keys", "l esc"]) == 0
    before = (home / "run.json").read_bytes()
    monkeypatch.setattr(disk, "os", Refusing())
    for _ in range(2):  # refused every time, not resumed once and then lost
        fresh_process()
        capsys.readouterr()
        assert main(["--headless", "--keys", "l"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert "cannot resume the run saved in" in err and "(Permission denied)" in err and "--new" in err, err
    fresh_process()
    assert main(["--headless", "--new", "--seed", "4", "--keys", "l", "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["seed"] == 4
    assert err.count("\n") == 1 and "nothing will be saved" in err, err
    assert (home / "run.json").read_bytes() == before


# -- versions and odd but legal saves -------------------------------------------------------------------

@pytest.mark.parametrize(("schema", "word"), [(1, "older"), (99, "newer")])
def test_a_save_of_another_version_is_kept_by_its_version(home, capsys, schema, word):
    assert main(["--headless", "--seed", "3", "--keys", "l esc"]) == 0
    data = saved(home)
    data["schema"] = schema
    (home / "run.json").write_text(json.dumps(data))
    before = (home / "run.json").read_bytes()
    capsys.readouterr()
    assert main(["--headless", "--keys", "l", "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["turn"] == 1  # a new run
    assert err.count("\n") == 1 and f"schema {schema} is {word} than this Undercroft reads" in err, err
    assert f"kept as run.v{schema}.json; starting a new run" in err
    assert (home / f"run.v{schema}.json").read_bytes() == before and not list(home.glob("*.corrupt-*"))


def test_a_new_schema_upgrades_old_saves_through_migrations(home, registry, monkeypatch):
    """Room for new top-level fields: the next schema adds one, and a save of this one is upgraded,
    not refused."""
    game = keeper.open_game(Setup(seed=3), registry)
    Session.of(game).press("l")
    Session.of(game).press("esc")
    spec, now = runspec.run_spec, runspec.SCHEMA

    def spec_next(reg):
        s = spec(reg)
        s.fields["notes"] = runspec.List(runspec.Str(100))
        return s

    monkeypatch.setattr(runspec, "SCHEMA", now + 1)
    monkeypatch.setattr(runspec, "MIGRATIONS", {**runspec.MIGRATIONS, now: lambda d: {**d, "notes": []}})
    monkeypatch.setattr(runsave, "run_spec", spec_next)
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert resumed.turn == 1


def test_a_schema_2_pack_of_counts_becomes_items_under_letters(home, registry, capsys):
    """Schema 2 kept the pack as counts on the player's Inventory; such a save resumes with the same
    potions, each kind a stack under a letter in name order (what 2's drink key took first)."""
    game = keeper.open_game(Setup(seed=3), registry)
    Session.of(game).press("esc")
    data = saved(home)
    data["schema"] = 2
    player = next(row for row in data["entities"] if "Player" in row)
    player["Inventory"]["pack"] = {"potion": 3}
    (home / "run.json").write_text(json.dumps(data))
    original = (home / "run.json").read_bytes()
    capsys.readouterr()
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    # one line says so, and the save of the older version is kept as it was, never deleted
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"schema 2 is older than this Undercroft's ({runspec.SCHEMA}): upgraded; the " \
        "original is kept as run.v2.json" in err
    assert (home / "run.v2.json").read_bytes() == original
    pack = snapshot(resumed)["player"]["inventory"]
    assert pack[-1] == {"letter": chr(ord("a") + len(pack) - 1), "kind": "potion", "count": 3, "equipped": False}
    assert [p["letter"] for p in pack] == list("abcdefghijklmnopqrstuvwxyz"[: len(pack)])
    Session.of(resumed).press("q")
    assert snapshot(resumed)["player"]["potions"] == 2


def test_a_slow_player_owing_the_most_energy_resumes_and_plays_at_once(home, registry):
    """Speed 1 and -MAX_ENERGY_DEBT energy is legal (the engine saturates there): it loads, and the
    awake monsters play out the debt quickly; below the debt is refused (tests/test_badfiles.py)."""
    game = keeper.open_game(Setup(seed=3), registry)
    rng = random.Random(1)
    while len(game.scheduler) < 2 or not game.alive:  # until a monster is awake
        game = game if game.alive else keeper.open_game(Setup(seed=rng.randrange(100)), registry)
        Session.of(game).press(rng.choice("h j k l y u b n".split()))
    Session.of(game).press("esc")
    data = saved(home)
    data["scheduler"]["player"][1:] = [1, -limits.MAX_ENERGY_DEBT]
    for row in data["entities"]:
        if "Player" in row:
            row["Fighter"]["hp"] = row["Fighter"]["max_hp"] = limits.MAX_STAT  # survives the monsters' turns
    (home / "run.json").write_text(json.dumps(data))
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    t0 = time.perf_counter()
    Session.of(resumed).press(".")
    assert time.perf_counter() - t0 < 30 and resumed.alive  # a bound against a hang, not a speed test
    assert resumed.scheduler.energy[resumed.player] >= -limits.MAX_ENERGY_DEBT
    assert any(resumed.world.get(e, Monster).awake for e, _ in resumed.world.query(Monster, Fighter))
