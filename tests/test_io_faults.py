"""I/O errors at every step: fail the Nth mkdir, open, write, fsync, rename or unlink (or cut the Nth
write short) along one profile update, one morgue, one ``files.write_json``, one run save point and
one whole death (the save removed, the profile, the morgue, the replay), for every N (the harness is
``tests/faults.py``). Each time the file on disk must be the old or the new version, parseable and
never a mix; no temporary file may survive the next successful write; and the next start must play
on, saying at most one line."""

import errno
import io
import json
import shutil
from contextlib import redirect_stderr

import pytest
from faults import fresh_process, lines, sweep, temporary_files

from engine.cli.main import main
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.persist import files, keeper, morgue, profile, runsave, runspec

DEATH_MAP = "#######\n#@o...#\n#######\n"  # the orc kills the player in a few waits


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = tmp_path / "a" / "home"  # two folders to make on a fresh start: two mkdirs to fail
    monkeypatch.setenv("UNDERCROFT_HOME", str(folder))
    fresh_process()
    yield folder
    fresh_process()


def next_start_plays_on() -> None:
    """A new process starts a game, plays a key and quits: exit 0 and at most one line."""
    fresh_process()
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout_null():
        assert main(["--headless", "--seed", "3", "--keys", "l esc"]) == 0
    assert lines(err.getvalue()) <= 1, err.getvalue()
    assert "Traceback" not in err.getvalue()


def redirect_stdout_null():
    from contextlib import redirect_stdout

    return redirect_stdout(io.StringIO())  # "as out": what was printed


def old_profile(folder) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    fresh_process()
    profile.run_started("undercroft")
    for _ in range(4):
        profile.run_started("undercroft")  # runs = 5 on disk
    fresh_process()


def profile_runs(folder) -> int | None:
    path = folder / profile.NAME
    if not path.exists():
        return None
    data = profile.check(files.read_json(path, profile.KIND, profile.SCHEMA, profile.MIGRATIONS))
    assert data["presets"]["undercroft"]["runs"] == data["runs"]  # one update, never half of one
    return data["runs"]


@pytest.mark.parametrize("code", [errno.EIO, errno.ENOSPC, errno.EACCES], ids=errno.errorcode.get)
def test_a_profile_update_under_every_fault(home, code):
    def judge(case):
        assert case.error is None, f"{case.op} #{case.n}: the update raised {case.error!r}"
        assert lines(case.err) <= 1 and "Traceback" not in case.err, case.err
        assert profile_runs(home) in (5, 6), f"{case.op} #{case.n}: neither the old profile nor the new"
        fresh_process()
        after = profile.run_started("undercroft")["runs"]  # the next update succeeds...
        assert profile_runs(home) == after in (6, 7)
        assert temporary_files(home) == []  # ...and leaves no temporary file
        if code == errno.EIO:
            next_start_plays_on()

    cases = sweep(lambda: profile.run_started("undercroft"), judge, before=lambda: old_profile(home), error=code)
    assert {c.op for c in cases} >= {"open", "write", "fsync", "replace", "short_write"}


def test_the_first_profile_in_a_folder_not_yet_made_under_every_fault(home):
    def start_fresh():
        shutil.rmtree(home.parent, ignore_errors=True)
        fresh_process()

    def judge(case):
        assert case.error is None and lines(case.err) <= 1, (case.op, case.n, case.err)
        assert profile_runs(home) in (None, 1)  # no profile, or the new one
        next_start_plays_on()
        assert temporary_files(home) == []

    cases = sweep(lambda: profile.run_started("undercroft"), judge, before=start_fresh)
    assert sum(c.op == "mkdir" for c in cases) == 2  # both folders were made, and each failure was seen


OLD = {"v": 1, "text": "old"}
NEW = {"v": 2, "text": "new " * 50_000}  # 200 kB: a short write leaves most of it to write


def test_write_json_under_every_fault(home):
    path = home / "thing.json"

    def put_old():
        fresh_process()
        files.write_json(path, "thing", 1, OLD)

    def judge(case):
        on_disk = {k: v for k, v in files.read_json(path, "thing", 1).items() if k not in ("kind", "schema")}
        if case.error is None:
            assert on_disk == NEW, f"{case.op} #{case.n}: no error, yet not the new version"
        else:
            assert on_disk in (OLD, NEW), f"{case.op} #{case.n}: neither the old version nor the new"
        assert temporary_files(home) == []  # a failed write removes its own temporary file at once
        files.write_json(path, "thing", 1, NEW)
        assert temporary_files(home) == []

    cases = sweep(lambda: files.write_json(path, "thing", 1, NEW), judge, before=put_old)
    assert {c.op for c in cases} == {"open", "write", "fsync", "replace", "short_write"}
    assert all(c.error is None for c in cases if c.op == "short_write")  # a short write is carried on


def test_a_morgue_under_every_fault(home, registry):
    game = new_game(Setup(seed=3), registry)
    game.messages.append("a lone surrogate \ud800 in a message")

    def clear():
        fresh_process()
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)

    def body(path) -> list[str]:
        return path.read_text(encoding="utf-8").splitlines()[1:]  # all but the dated first line

    clear()
    reference = body(morgue.write(game, "killed by a test", home))
    assert "  a lone surrogate \\ud800 in a message" in reference

    def judge(case):
        written = sorted(home.glob("morgue-*.txt"))
        assert len(written) <= 1
        for path in written:
            assert body(path) == reference, f"{case.op} #{case.n}: a torn morgue"
        if case.result is not None:
            assert written == [case.result]  # it says it wrote it: it is there, whole
        elif case.error is None:  # the folder check failed: saving is off, said in one line
            assert not written and lines(case.err) == 1 and "nothing will be saved" in case.err
        fresh_process()
        assert morgue.write(game, "killed by a test", home) is not None
        assert temporary_files(home) == []

    cases = sweep(lambda: morgue.write(game, "killed by a test", home), judge, before=clear)
    assert {c.op for c in cases} == {"open", "write", "fsync", "replace", "unlink", "short_write"}


def test_the_harness_fails_what_it_says(home):
    from faults import injected

    with injected("replace", 1) as fake, pytest.raises(OSError, match="injected: replace #1"):
        files.write_json(home / "x.json", "x", 1, {})
    assert fake.fired and fake.calls["replace"] == 1 and not (home / "x.json").exists()
    assert json.loads(json.dumps(dict(fake.calls)))["open"] >= 1


def test_remove_under_every_fault(home):
    """Permadeath's delete: the file is there (the failure said, by an OSError) or it is gone."""
    path = home / "run.json"

    def put():
        fresh_process()
        files.write_json(path, "run", 1, OLD)

    def judge(case):
        if case.error is not None:
            assert path.exists() and case.op == "unlink"  # not deleted, and the caller is told
        else:
            assert case.result is True and not path.exists()

    cases = sweep(lambda: files.remove(path), judge, before=put)
    assert {c.op for c in cases} == {"unlink", "open", "fsync"}  # the folder's fsync failing is not an error


# -- the run save and the death path ----------------------------------------------------

def keeper_of(game) -> keeper.Keeper:
    return next(listener for listener in game.listeners if isinstance(listener, keeper.Keeper))


def payload(path) -> dict:
    return files.payload(files.read_json(path, runspec.KIND, runspec.SCHEMA))


def test_a_run_save_under_every_fault(home, registry):
    """One save point: the file on disk is the old save or the new, and the next start resumes it."""
    fresh_process()
    game = keeper.open_game(Setup(seed=3), registry)
    for token in "l l j".split():
        Session.of(game).press(token)
    keeper_of(game).save(game)
    old_bytes, old_turn = (home / "run.json").read_bytes(), game.turn
    for token in "j h .".split():
        Session.of(game).press(token)
    new = json.loads(json.dumps(runsave.capture(game, keeper_of(game).keys)))
    versions = {old_turn: files.payload(json.loads(old_bytes)), game.turn: new}

    def restore():
        fresh_process()
        (home / "run.json").write_bytes(old_bytes)
        keeper_of(game).slot = keeper.claim()  # the last case's next start took the slot

    def judge(case):
        assert case.error is None, f"{case.op} #{case.n}: the save raised {case.error!r}"
        assert lines(case.err) <= 1 and "Traceback" not in case.err, case.err
        on_disk = payload(home / "run.json")
        assert on_disk in versions.values(), f"{case.op} #{case.n}: neither the old save nor the new"
        if on_disk == versions[old_turn]:
            assert "cannot write it" in case.err  # a save point that was not written is said
        fresh_process()
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout_null() as out:
            assert main(["--headless", "--keys", ".", "--dump", "json"]) == 0
        assert err.getvalue() == ""  # resumed as it is, old or new
        assert json.loads(out.getvalue())["turn"] == on_disk["turn"] + 1
        assert temporary_files(home) == []

    cases = sweep(lambda: keeper_of(game).save(game), judge, before=restore)
    assert {c.op for c in cases} == {"open", "write", "fsync", "replace", "short_write"}


def dying(home, tmp_path, registry):
    """A saved run about to die (an orc beside the player), and the two steps of a death sweep:
    put the files back as they were and resume the run (which writes nothing); then wait to die."""
    death_map = tmp_path / "death.txt"
    death_map.write_text(DEATH_MAP)
    old_profile(home)
    keeper.close(keeper.open_game(Setup(map_file=str(death_map), seed=1), registry))  # a saved run, about to die
    before = {path.name: path.read_bytes() for path in home.iterdir() if path.is_file()}
    games = []

    def about_to_die():  # the same files each time, and the run resumed from them (which writes nothing)
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        for name, data in before.items():
            (home / name).write_bytes(data)
        fresh_process()
        games[:] = [keeper.open_game(Setup(), registry, choice="continue")]

    def die():
        game = games[0]
        while game.alive:
            Session.of(game).press(".")
        keeper.close(game)

    return about_to_die, die


def the_dead_run_never_comes_back(case) -> None:
    """The next start plays a new run (not the dead one), saying at most one line."""
    fresh_process()
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout_null() as out:
        assert main(["--headless", "--keys", "l esc", "--dump", "json"]) == 0
    assert lines(err.getvalue()) <= 1, err.getvalue()
    state = json.loads(out.getvalue())
    assert state["alive"] and state["map"][1] != "#@o...#", f"{case.op} #{case.n}: the dead run came back"


def test_a_death_under_every_fault(home, tmp_path, registry):
    """The death path (remove the save, count the death in the profile, write the morgue and the
    replay): whatever call fails, the profile is the old or the new one, the morgue is whole or
    absent, the dead run is never resumed, and the next start plays a new run with at most one line."""
    about_to_die, die = dying(home, tmp_path, registry)

    def judge(case):
        assert case.error is None, f"{case.op} #{case.n}: the death raised {case.error!r}"
        assert "Traceback" not in case.err
        runs = profile_runs(home)
        deaths = profile.check(files.read_json(home / profile.NAME, profile.KIND, profile.SCHEMA,
                                               profile.MIGRATIONS))["deaths"]
        assert (runs, deaths) in ((6, 0), (6, 1)), f"{case.op} #{case.n}: neither the old profile nor the new"
        for path in home.glob("morgue-*.txt"):
            assert path.read_text().endswith("  The orc kills you.\n  You die.\n"), f"{case.op} #{case.n}: torn"
        if (home / "run.json").exists():  # its removal failed: it is marked ended
            assert case.op == "unlink" and "marked ended" in case.err, (case.op, case.n, case.err)
        the_dead_run_never_comes_back(case)
        assert temporary_files(home) == []

    cases = sweep(die, judge, before=about_to_die)
    assert {c.op for c in cases} >= {"open", "write", "fsync", "replace", "unlink", "short_write"}


def test_a_death_is_final_when_the_disk_fails_twice(home, tmp_path, registry):
    """The issue's double fault: the save could not be removed and the profile could not be written;
    the death said "will not be resumed", and the next start resumed the dead run. Here the save's
    removal fails at every death, and then each other call of the death fails in turn (the ended
    mark written over the save, the profile's mark, the counts, the morgue, the replay): the dead
    run is never resumed, the save's own mark and the profile's agree on its bytes, and the death
    says it is marked ended only when it is."""
    about_to_die, die = dying(home, tmp_path, registry)
    from engine.persist import saveslot

    def judge(case):
        assert case.error is None, f"{case.op} #{case.n}: the death raised {case.error!r}"
        assert "Traceback" not in case.err and "run.json: cannot remove it (" in case.err, case.err
        save = home / "run.json"
        assert save.exists()
        own_mark = b'"ended":true' in save.read_bytes()
        ended = profile.check(files.read_json(home / profile.NAME, profile.KIND, profile.SCHEMA,
                                              profile.MIGRATIONS))["ended_save"]
        assert ended in (None, saveslot.digest(save)), f"{case.op} #{case.n}: the profile marks other bytes"
        assert own_mark or ended is not None, f"{case.op} #{case.n}: neither mark was made"
        assert "it is marked ended, and will not be resumed" in case.err
        the_dead_run_never_comes_back(case)

    cases = sweep(die, judge, before=about_to_die, also=(("unlink", 1),))
    assert {c.op for c in cases} >= {"open", "write", "fsync", "replace", "short_write"}


def test_a_save_that_carries_its_end_is_neither_offered_nor_resumed(home, registry, capsys):
    from engine.persist import saveslot

    home.mkdir(parents=True)
    files.write_json(home / "run.json", runspec.KIND, runspec.SCHEMA, runspec.ended_mark("killed by an orc"))
    slot = keeper.claim()
    assert keeper.saved_run(slot, registry) is None  # the title screen offers no Continue
    assert capsys.readouterr().err == "" and (home / "run.json").exists()  # looking changes nothing
    game = keeper.open_game(Setup(seed=3), registry, choice="continue", slot=slot)
    assert game.turn == 0 and game.alive  # a new run
    err = capsys.readouterr().err
    assert err == (f"undercroft: run save {home / 'run.json'}: its run had ended (killed by an orc; the save "
                   "could not be removed then); removed it now; starting a new run\n")
    keeper.close(game)
    # marked in the profile alone (its own mark could not be written): not offered either
    saved = (home / "run.json").read_bytes()
    profile.update(lambda p: p.__setitem__("ended_save", saveslot.digest(home / "run.json")))
    assert keeper.saved_run(keeper.claim(), registry) is None and (home / "run.json").read_bytes() == saved


def test_the_file_layer_changes_the_disk_only_through_the_seam():
    """The sweeps above fail calls of ``engine.persist.disk``'s ``os``: a call that changes the disk
    made anywhere else in the file layer would escape them, so there is none."""
    import ast
    from pathlib import Path

    from faults import OPS

    from engine.persist import datadir, disk, jsonfile

    for module in (files, datadir, jsonfile, disk):
        tree = ast.parse(Path(module.__file__).read_text())
        calls = {f"{node.func.value.id}.{node.func.attr}" for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                 and isinstance(node.func.value, ast.Name) and node.func.attr in OPS}
        imports = {alias.asname or alias.name for node in ast.walk(tree) for alias in getattr(node, "names", ())
                   if (isinstance(node, ast.Import) and alias.name == "os")
                   or (isinstance(node, ast.ImportFrom) and node.module == "os")}  # names bound to os or its parts
        if module is disk:
            assert calls >= {"os.mkdir", "os.open", "os.write", "os.fsync", "os.replace", "os.unlink"}
            assert imports == {"os"}, imports  # no second name for os, and nothing taken from it
        else:
            assert not {c for c in calls if c.startswith("os.")}, (module.__name__, calls)
            assert imports <= {"os"}, (module.__name__, imports)
