"""Replays: a recorded run plays back to the very same bytes of ``--dump json``."""

import json
import random

import pytest

from engine.cli.main import main
from engine.core.turn.keys import DEFAULT_KEYS, TRAVELS

TOKENS = sorted(t for t in DEFAULT_KEYS if t not in ("esc", "click"))  # click means nothing without a cell
STEPS = [t for t in TOKENS if DEFAULT_KEYS[t] not in TRAVELS]  # one turn a key


def out_of(capsys, *args) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def keys(seed: int, n: int = 400, tokens=TOKENS) -> str:
    dice = random.Random(seed)
    return " ".join(dice.choice(tokens) for _ in range(n))


@pytest.mark.parametrize("seed", [1, 7, 23])
def test_a_recorded_run_replays_to_identical_bytes(home, tmp_path, capsys, seed):
    rec = tmp_path / "run.replay.json"
    original = out_of(capsys, "--headless", "--seed", str(seed), "--keys", keys(seed), "--record", str(rec),
                      "--dump", "json")
    assert out_of(capsys, "replay", str(rec), "--dump", "json") == original
    last = home / "last-run.replay.json"
    assert json.loads(last.read_text()) == json.loads(rec.read_text())
    assert out_of(capsys, "replay", str(last), "--dump", "json") == original


def test_a_resumed_run_replays_whole(home, capsys):
    # single steps: a run that explores into monsters may die before its save is resumed
    out_of(capsys, "--headless", "--seed", "12", "--keys", keys(1, 150, STEPS) + " esc")
    resumed = out_of(capsys, "--headless", "--keys", keys(2, 150, STEPS), "--dump", "json")
    assert out_of(capsys, "replay", str(home / "last-run.replay.json"), "--dump", "json") == resumed
    data = json.loads((home / "last-run.replay.json").read_text())
    # the quit that saved the run is not part of the game: the replay goes straight on
    assert data["seed"] == 12 and len(data["keys"]) == 300 and "esc" not in data["keys"]


def test_the_quit_key_ends_the_replay_where_it_ended_the_run(home, tmp_path, capsys):
    rec = tmp_path / "r.json"
    original = out_of(capsys, "--headless", "--seed", "3", "--keys", "l l esc j j", "--record", str(rec),
                      "--dump", "json")
    assert json.loads(rec.read_text())["keys"] == ["l", "l", "esc"]
    assert out_of(capsys, "replay", str(rec), "--dump", "json") == original


def test_a_map_run_keeps_its_map(home, tmp_path, capsys):
    m = tmp_path / "m.txt"
    m.write_text("#########\n#@..r..>#\n#########\n")
    rec = tmp_path / "r.json"
    original = out_of(capsys, "--headless", "--map", str(m), "--keys", "l l l l l l . R l", "--record", str(rec),
                      "--dump", "json")
    m.unlink()
    assert out_of(capsys, "replay", str(rec), "--dump", "json") == original


def test_other_versions_say_so_before_playing(home, tmp_path, capsys):
    rec = tmp_path / "r.json"
    out_of(capsys, "--headless", "--seed", "3", "--keys", "l l", "--record", str(rec))
    data = json.loads(rec.read_text())
    data["engine"], data["content"] = "0.0.1", "feedfacefeedface"
    data["end"] = sealed_as_recorded(data)  # as that version recorded it, its end sealing its versions
    rec.write_text(json.dumps(data))
    assert main(["replay", str(rec), "--dump", "json"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "recorded with other versions: engine 0.0.1 (this is " in err and "content feedfacefeedface" in err
    assert "a plugin or a content file it was played with is missing, added or changed here" in err


def test_a_replay_played_with_a_plugin_not_here_says_so_and_how_to_load_it(home, tmp_path, capsys):
    """Recorded with --plugins-dir and --plugin fov=NAME, played without the folder: it said
    "--plugin fov=xray: no fov named 'xray'" of a --plugin the player never typed."""
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "xray.py").write_text("import numpy as np\nfrom engine import hookimpl\n\n@hookimpl\n"
                                     "def register_fov_algorithms(register):\n"
                                     "    register('xray', lambda t, o, r: np.ones(t.shape, bool),\n"
                                     "             through_walls=True)\n")
    rec = tmp_path / "r.json"
    out_of(capsys, "--headless", "--seed", "3", "--plugins-dir", str(plugins), "--plugin", "fov=xray", "--keys", "l",
           "--record", str(rec))
    assert main(["replay", str(rec), "--dump", "json"]) == 2
    said, err = capsys.readouterr().err.splitlines()
    assert err.startswith("undercroft: replay: it was played with fov=xray: no fov named 'xray' (valid: ")
    assert err.endswith("; load the plugin it was played with (--plugins-dir DIR, or install it)")
    # the replay names the plugins it was played with: the one missing, and where it came from
    assert f"plugin 'xray' ({plugins / 'xray.py'}), not here (pass --plugins-dir {plugins} to play it as it was)" \
        in said
    assert main(["replay", str(rec), "--plugins-dir", str(plugins), "--dump", "json"]) == 0


def sealed_as_recorded(data: dict) -> str:
    """The end a replay of ``data``'s fields records, played here (as its own version played it)."""
    from engine.core.play.setup import load
    from engine.persist import replay

    checked = replay.SPEC.check({k: v for k, v in data.items() if k not in ("kind", "schema")}, "")
    return replay.end_of(checked, replay.play(checked, load()))


def test_replay_mistakes_are_one_line(home, tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    for speed in ("0", "inf", "nan"):  # inf played one key of 11 in 4 s; nan, at no speed at all
        assert main(["replay", str(tmp_path), "--speed", speed]) == 2
        assert f"--speed {float(speed)}: expected keys per second, a number > 0" in capsys.readouterr().err


def test_a_replay_plays_in_the_window_at_its_speed(tmp_path):
    """The real event loop (headless EGL window): 20 keys a second for 1.5 s presses them all."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "UNDERCROFT_HOME": str(tmp_path), "ARCADE_HEADLESS": "1", "UNDERCROFT_LOAD_PLUGINS": ""}
    record = tmp_path / "r.json"
    keys = "l l j j k h"
    subprocess.run([sys.executable, "-m", "engine", "--headless", "--new", "--seed", "5", "--keys", keys,
                    "--record", str(record)], env=env, check=True)
    expected = subprocess.run([sys.executable, "-m", "engine", "replay", str(record), "--dump", "json"],
                              env=env, capture_output=True, text=True, check=True).stdout
    shown = subprocess.run([sys.executable, "-m", "engine", "replay", str(record), "--speed", "20",
                            "--seconds", "1.5", "--dump", "json"], env=env, capture_output=True, text=True,
                           timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == expected and '"turn":' in expected


def recorded(capsys, tmp_path, *argv) -> tuple:
    rec = tmp_path / "r.json"
    out_of(capsys, "--headless", *argv, "--record", str(rec))
    return rec, json.loads(rec.read_text())


def other_fov(data) -> str:
    from engine.core.play.setup import load

    chosen = data["choices"].get("fov") or load().games[data["game"]].fov
    return "diamond" if chosen != "diamond" else "symmetric"


EDITS = {
    "a key": lambda d: d["keys"].__setitem__(-1, "q"),  # the last wait becomes a drink of nothing
    "the seed": lambda d: d.__setitem__("seed", d["seed"] + 1),
    "the fov choice": lambda d: d["choices"].__setitem__("fov", other_fov(d)),
    "the source level": lambda d: d["source_level"]["rows"].__setitem__(1, d["source_level"]["rows"][1][:-2] + "##"),
}


@pytest.mark.parametrize("what", EDITS)
def test_an_edited_replay_says_in_one_line_it_does_not_reproduce_its_end_and_still_plays(home, tmp_path, capsys,
                                                                                          what):
    m = tmp_path / "m.txt"
    m.write_text("##########\n#@.......#\n#........#\n##########\n")
    rec, data = recorded(capsys, tmp_path, "--map", str(m), "--seed", "3", "--keys", "l l j .")
    out_of(capsys, "replay", str(rec), "--dump", "json")
    assert capsys.readouterr().err == ""  # as recorded: nothing to say
    EDITS[what](data)
    rec.write_text(json.dumps(data))
    edited = rec.read_bytes()
    assert main(["replay", str(rec), "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["turn"] >= 3  # played as it is
    assert err.count("\n") == 1 and f"replay {rec} does not reproduce its recorded end" in err, err
    assert ("source level was edited" in err) == (what == "the source level")
    assert rec.read_bytes() == edited and sorted(p.name for p in tmp_path.iterdir()) == ["home", "m.txt", "r.json"]


def test_a_replay_whose_level_needs_a_reach_its_fov_refuses_is_one_line(home, tmp_path, capsys):
    (tmp_path / "fovs").mkdir()
    (tmp_path / "fovs" / "short.py").write_text(
        "from engine import hookimpl\n"
        "@hookimpl\n"
        "def register_fov_algorithms(register):\n"
        "    register('short', lambda t, origin, radius: t | True, max_reach=8)\n")
    m = tmp_path / "m.txt"
    m.write_text("######\n#@...#\n######\n")
    rec, data = recorded(capsys, tmp_path, "--game", "lesson28", "--plugins-dir", str(tmp_path / "fovs"),
                         "--plugin", "fov=short", "--map", str(m), "--keys", "right right")
    data["source_level"]["rows"] = [row + "#" * 100 for row in data["source_level"]["rows"]]  # 106 wide
    rec.write_text(json.dumps(data))
    assert main(["replay", str(rec), "--plugins-dir", str(tmp_path / "fovs"), "--dump", "json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "replay: fov 'short' lights at most 8 cells away" in err and "reaches 105 on a 106x3 map" in err, err


# fields that shape play whose edit the final state alone may not show: each is sealed in the end
SEALED_EDITS = {
    "the engine version": lambda d: d.__setitem__("engine", "0.0.1"),
    "the content version": lambda d: d.__setitem__("content", "feedfacefeedface"),
    "the size": lambda d: d["size"].__setitem__("width", d["size"]["width"] + 1),
    "a key after the quit": lambda d: d["keys"].extend(["j", "j"]),
}


@pytest.mark.parametrize("what", SEALED_EDITS)
def test_every_field_that_shapes_play_is_sealed_in_the_recorded_end(home, tmp_path, capsys, what):
    """The issue: the end was the digest of the final state alone, so an edit that leaves it as it
    was (a key after the quit, the versions, a --map run's size) played on silently."""
    m = tmp_path / "m.txt"
    m.write_text("##########\n#@.......#\n#........#\n##########\n")
    rec, data = recorded(capsys, tmp_path, "--map", str(m), "--seed", "3", "--keys", "l l j . esc")
    SEALED_EDITS[what](data)
    rec.write_text(json.dumps(data))
    assert main(["replay", str(rec), "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["turn"] == 4  # played as it is, to the quit
    versions = what.endswith("version")  # said as other versions too
    assert err.count("\n") == 1 + versions and "Traceback" not in err, err
    assert f"replay {rec} does not reproduce its recorded end (edited, or other content); played as it is" in err


@pytest.mark.parametrize("edit", ["none", "a key"])
def test_a_replay_without_its_end_is_a_mismatch_said_in_one_line(home, tmp_path, capsys, edit):
    """The issue: a replay with its ``end`` removed played edited keys, seed or level silently."""
    rec, data = recorded(capsys, tmp_path, "--seed", "3", "--keys", "l l j .")
    del data["end"]
    if edit == "a key":
        data["keys"][-1] = "q"
    rec.write_text(json.dumps(data))
    assert main(["replay", str(rec), "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["turn"] >= 3
    assert err == f"undercroft: replay {rec} records no end (cut short, or its end removed): it cannot be " \
                  "checked; played as it is\n"


def test_a_replay_of_the_previous_schema_is_checked_by_the_state_it_recorded(home, tmp_path, capsys):
    """Schema 2 sealed the final state alone: such a replay still plays, checked by what it recorded;
    a replay of this schema may not claim that lesser end for itself."""
    from engine.core.play.setup import load
    from engine.core.play.snapshot import dumps
    from engine.persist import replay

    rec, data = recorded(capsys, tmp_path, "--seed", "3", "--keys", "l l j .")
    payload = {k: v for k, v in data.items() if k not in ("kind", "schema", "end")}
    state = replay.digest(dumps(replay.play(replay.SPEC.check(payload, ""), load())))
    rec.write_text(json.dumps({**payload, "kind": "replay", "schema": 2, "end": state}))
    assert main(["replay", str(rec), "--dump", "json"]) == 0
    assert capsys.readouterr().err == ""  # as recorded
    rec.write_text(json.dumps({**payload, "kind": "replay", "schema": 2, "end": state, "keys": ["l"]}))
    assert main(["replay", str(rec), "--dump", "json"]) == 0
    assert "does not reproduce its recorded end" in capsys.readouterr().err
    rec.write_text(json.dumps({**payload, "kind": "replay", "schema": replay.SCHEMA, "end_state": state}))
    assert main(["replay", str(rec), "--dump", "json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "end_state: unknown key" in err, err


def test_a_replay_that_ends_with_the_quit_key_shoots_its_last_frame(home, tmp_path, capsys):
    """The issue: ``replay FILE --shot X.png`` wrote nothing after a replay that ended in Escape, and
    exited 0. The shot is the frame the quit closes on: the one play's own --shot draws."""
    rec, _ = recorded(capsys, tmp_path, "--new", "--seed", "3", "--keys", "l l esc")
    played, replayed = tmp_path / "played.png", tmp_path / "replayed.png"
    assert main(["--headless", "--new", "--seed", "3", "--keys", "l l esc", "--shot", str(played)]) == 0
    assert main(["replay", str(rec), "--shot", str(replayed)]) == 0
    assert capsys.readouterr().err == ""
    assert replayed.read_bytes() == played.read_bytes() and replayed.stat().st_size > 1000
