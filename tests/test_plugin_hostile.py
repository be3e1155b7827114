"""Plugins that try to end the session: a KeyboardInterrupt or SystemExit of their own, an
exception whose ``__str__`` raises, data that holds itself or nests without end. Each is one line
naming the plugin, and play (and the save) goes on; a real Ctrl-C from the player still stops it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from engine.cli.main import main
from engine.core.play.session import Session
from engine.core.plugin.isolation import Isolation, PlayerInterrupt, one_line, players


def plugin_dir(tmp_path, source: str, name: str = "hostile"):
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(source)
    return str(folder)


def play(capsys, *argv: str) -> tuple[int, str]:
    status = main(["--headless", *argv])
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return status, err


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "SystemExit(0)"])
def test_a_plugin_raising_at_import_is_skipped_and_the_game_starts(home, tmp_path, capsys, raised):
    folder = plugin_dir(tmp_path, f"raise {raised}\n")
    status, err = play(capsys, "--new", "--seed", "1", "--plugins-dir", folder, "--keys", "l")
    assert status == 0
    assert err.count("\n") == 1 and "plugin 'hostile'" in err and raised.split("(")[0] in err, err


HOOK = """
from engine import hookimpl

class Unspeakable(Exception):
    def __str__(self):
        raise RuntimeError("no words")

@hookimpl
def on_turn_end(game):
    raise {raised}
"""


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "SystemExit(3)", "Unspeakable()",
                                    "__import__('engine.core.plugin.isolation').core.isolation.PlayerInterrupt()"])
def test_a_hook_raising_anything_is_switched_off_and_the_run_is_saved(home, tmp_path, capsys, raised):
    folder = plugin_dir(tmp_path, HOOK.format(raised=raised))
    status, err = play(capsys, "--new", "--seed", "1", "--plugins-dir", folder, "--keys", "l l")
    assert status == 0
    assert err.count("\n") == 1 and "plugin 'hostile' failed in hook on_turn_end" in err, err
    assert "switched off" in err
    assert main(["--headless", "--dump", "json", "--plugins-dir", folder]) == 0  # resumed: it was saved
    assert json.loads(capsys.readouterr().out)["turn"] == 2


def test_one_line_never_raises_and_the_players_interrupt_is_told_apart(monkeypatch):
    from engine.core.plugin import isolation as module

    class Bad(Exception):
        def __str__(self):
            raise ValueError

    assert "cannot be shown" in one_line(Bad())
    assert one_line(KeyboardInterrupt()) == "KeyboardInterrupt"
    monkeypatch.setattr(module, "_sigints", [0])
    assert not players(PlayerInterrupt()) and not players(KeyboardInterrupt())  # no Ctrl-C came: a plugin's
    with pytest.raises(PlayerInterrupt) as caught:
        module.interrupt()  # what the SIGINT handler does
    assert players(caught.value) and not players(KeyboardInterrupt())
    try:
        try:
            module.interrupt()
        except KeyboardInterrupt:
            raise RuntimeError("a plugin's cleanup") from None
    except RuntimeError as e:
        assert players(e)  # raised while the player's Ctrl-C was being handled: still the player's

    isolation = Isolation(chosen=set())
    with pytest.raises(PlayerInterrupt):
        isolation.call("someone", "hook on_turn_end", module.interrupt)
    assert isolation.call("someone", "hook on_turn_end", lambda: (_ for _ in ()).throw(KeyboardInterrupt()),
                          fallback="off") == "off"
    assert isolation.off == {"someone"}


DATA = """
from engine import hookimpl

@hookimpl
def on_turn_end(game):
    data = game.data("hostile")
    data["turn"] = game.turn
    nest = game.data("nested")
    value = []
    for _ in range({depth}):
        value = [value]
    nest["v"] = value
    if {selfish}:
        mine = game.data("selfish")
        mine["me"] = mine
        game.data("x" * 101)["long"] = "a name longer than a save keys"
        game.data("huge")["n"] = 10 ** 5000
"""


@pytest.mark.parametrize(("depth", "selfish"), [(100_000, False), (10, True), (60, False), (61, False)])
def test_plugin_data_a_save_cannot_hold_is_left_out_in_one_line(home, tmp_path, capsys, depth, selfish):
    """The save holds plugin data as deep as the reader reads back (60 lists in a list in the plugin's table),
    and no deeper; data that holds itself is left out too. The rest of the run is saved."""
    folder = plugin_dir(tmp_path, DATA.format(depth=depth, selfish=selfish))
    status, err = play(capsys, "--new", "--seed", "1", "--plugins-dir", folder, "--keys", "l l")
    assert status == 0
    names = ("nested", "selfish", "x" * 40, "huge")  # a name is said in its first 40 characters
    left_out = {name for name in names if f"plugin '{name}': its data cannot be saved" in err}
    expected = ({"nested"} if depth > 60 else set()) | ({"selfish", "x" * 40, "huge"} if selfish else set())
    assert left_out == expected, err
    assert err.count("\n") == len(left_out)
    assert main(["--headless", "--dump", "json", "--plugins-dir", folder]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["turn"] == 2 and "Traceback" not in err and "corrupt" not in err, err


SLOW = """
import os, time
from engine import hookimpl

@hookimpl
def on_turn_end(game):
    if game.turn == 1:
        open(os.environ["MARK"], "w").close()
        time.sleep(float(os.environ["NAP"]))
"""


def interrupted(tmp_path, nap: float, presses: int) -> tuple[subprocess.Popen, str, dict]:
    """A session Ctrl-C'd ``presses`` times while a plugin naps in its first turn's end."""
    folder = plugin_dir(tmp_path, SLOW, "slow")
    mark = tmp_path / "mark"
    env = {**os.environ, "UNDERCROFT_HOME": str(tmp_path / "home"), "MARK": str(mark), "NAP": str(nap)}
    process = subprocess.Popen([sys.executable, "-m", "engine", "--headless", "--new", "--seed", "1",
                                "--plugins-dir", folder, "--keys", " ".join(["l"] * 20)], env=env,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not mark.exists():
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        for _ in range(presses):
            process.send_signal(signal.SIGINT)
            time.sleep(0.2)
        err = process.communicate(timeout=30)[1]
    finally:
        if process.poll() is None:
            process.kill()
    return process, err, env


def resumed_turn(env: dict, folder: str) -> int:
    done = subprocess.run([sys.executable, "-m", "engine", "--headless", "--dump", "json", "--plugins-dir", folder],
                          env={**env, "NAP": "0"}, capture_output=True, text=True, timeout=60)
    return json.loads(done.stdout)["turn"]


def test_a_real_ctrl_c_stops_the_game_after_the_key_in_progress_with_a_save(tmp_path):
    """The player's Ctrl-C is not the plugin's failure: the key in progress is played out, the
    run saved, and the session ends with exit status 130."""
    process, err, env = interrupted(tmp_path, nap=2, presses=1)
    assert process.returncode == 130, err
    assert "failed" not in err and "Traceback" not in err, err
    assert resumed_turn(env, str(tmp_path / "plugins")) == 1


def test_a_second_ctrl_c_stops_at_once_and_blames_no_plugin(tmp_path):
    process, err, env = interrupted(tmp_path, nap=60, presses=2)
    assert process.returncode == 130, err
    assert "failed" not in err and "Traceback" not in err, err
    assert resumed_turn(env, str(tmp_path / "plugins")) == 0  # stopped mid-turn: the last save point


def test_a_path_into_a_labelled_table_has_one_dot():
    from engine.core.kinds.specs import sub

    assert sub("monster_kinds.blob.", "hp") == "monster_kinds.blob.hp"
    assert sub("monster_kinds.blob", "hp") == "monster_kinds.blob.hp"
    assert sub("monsters.toml: [rat] ", "hp") == "monsters.toml: [rat] hp"


def test_a_ctrl_c_to_the_window_saves_and_ends_the_session(tmp_path):
    from test_stop_signals import _wait_until_idle

    env = {**os.environ, "ARCADE_HEADLESS": "1", "UNDERCROFT_HOME": str(tmp_path), "UNDERCROFT_LOAD_PLUGINS": ""}
    command = [sys.executable, "-m", "engine", "--new", "--seed", "3", "--keys", "l l j", "--seconds", "300"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until_idle(process, tmp_path)
        process.send_signal(signal.SIGINT)
        err = process.communicate(timeout=60)[1]
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130 and "Traceback" not in err, err
    resumed = subprocess.run([sys.executable, "-m", "engine", "--headless", "--dump", "json"], env=env,
                             capture_output=True, text=True, timeout=120)
    assert json.loads(resumed.stdout)["turn"] == 3  # the three keys' turns were saved


PATHFINDER = """
from engine import hookimpl


def broken(*args, **kwargs):
    raise {raised}


@hookimpl
def register_pathfinders(register):
    register("broken", dijkstra=broken, astar=broken)
"""


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "ValueError('no way')"])
def test_a_chosen_pathfinder_that_raises_stops_the_game_in_one_line(home, tmp_path, capsys, raised):
    folder = plugin_dir(tmp_path, PATHFINDER.format(raised=raised))
    status, err = play(capsys, "--new", "--seed", "1", "--plugins-dir", folder, "--plugin", "path=broken",
                       "--keys", "o o l")
    assert status == 2 and err.count("\n") == 1, err
    assert "plugin 'hostile' failed in pathfinder 'broken'" in err and raised.split("(")[0] in err, err


BEHAVIOUR = """
from engine import Action, MonsterKind, hookimpl


class Unshowable:
    def __repr__(self):
        raise RuntimeError("no repr")


class Boom(Unshowable, Action):
    def perform(self, game, entity):
        raise KeyboardInterrupt


@hookimpl
def register_behaviours(register):
    register("boom", lambda game, entity: {answer})


@hookimpl
def register_monsters(register):
    register(MonsterKind(name="boomer", glyph="B", color=(255, 0, 0), hp=5, attack=1, defense=0, sight=8,
                         speed=100, behaviour="boom"))
"""


@pytest.mark.parametrize(("answer", "words"), [("Boom()", "(KeyboardInterrupt)"),
                                               ("Unshowable()", "returned a Unshowable (its repr raised")])
def test_a_behaviours_action_that_raises_or_cannot_be_shown_switches_it_off(tmp_path, capsys, answer, words):
    from engine.core.play.setup import Setup, new_game

    folder = plugin_dir(tmp_path, BEHAVIOUR.format(answer=answer))
    (tmp_path / "map.txt").write_text("#######\n#@B...#\n#######\n")
    game = new_game(Setup(None, 1, [], [folder], str(tmp_path / "map.txt")))
    for _ in range(3):
        Session.of(game).press(".")
    assert game.turn == 3 and [f.plugin for f in game.isolation.failures] == ["hostile"]
    err = capsys.readouterr().err
    assert "plugin 'hostile' failed in behaviour 'boom'" in err and words in err, err


def test_the_test_kit_names_a_behaviours_unprintable_exception():
    import types

    from engine import hookimpl, testing
    from engine.testing import ContractError

    class Unspeakable(Exception):
        def __str__(self):
            raise RuntimeError("no words")

    def mute(game, entity):
        raise Unspeakable

    module = types.ModuleType("mute")
    module.register_behaviours = hookimpl(lambda register: register("mute", mute))
    registry = testing.load_plugin(module)
    with pytest.raises(ContractError, match=r"never raises: Unspeakable: \(its message cannot be shown"):
        testing.check_behaviour(registry, "mute", situations=1)


def test_a_registration_hook_raising_keyboardinterrupt_is_skipped_alone(home, tmp_path, capsys):
    folder = plugin_dir(tmp_path, "from engine import hookimpl\n\n@hookimpl\ndef register_monsters(register):\n"
                                  "    raise KeyboardInterrupt\n\n@hookimpl\ndef register_effects(register):\n"
                                  "    register('zap', lambda *args, **kwargs: None)\n")
    status, err = play(capsys, "--new", "--seed", "1", "--plugins-dir", folder, "--keys", "l")
    assert status == 0 and err.count("\n") == 1, err
    assert "skipped hook register_monsters: raised KeyboardInterrupt while loading" in err, err


COMPONENT = """
import dataclasses
from engine import hookimpl


class Trap:
    def __deepcopy__(self, memo):
        raise SystemExit(4)


@dataclasses.dataclass
class Cursed:
    what: int = 0


@hookimpl
def register_components(register):
    register(Cursed)


@hookimpl
def on_turn_end(game):
    if game.turn == 2:
        game.add_component(game.player, Cursed(Trap()))
"""


def test_a_component_whose_copy_raises_systemexit_does_not_end_the_session(home, tmp_path, capsys):
    folder = plugin_dir(tmp_path, COMPONENT)
    status, err = play(capsys, "--new", "--seed", "1", "--plugins-dir", folder, "--keys", "l l l")
    assert status == 0, err
    assert err.count("\n") == 1 and "this run cannot be saved (SystemExit: 4)" in err, err
    assert main(["--headless", "--dump", "json", "--plugins-dir", folder]) == 0  # the last save point stands
    assert json.loads(capsys.readouterr().out)["turn"] == 0


def test_a_plugin_failure_line_cut_to_its_length_is_cut_between_words_and_says_so():
    from engine.core.plugin.isolation import PluginFailure

    words = "no plugin's register_statuses registers a status named 'blesed' (did you mean 'blessed'? valid: " + \
        ", ".join(f"status{i}" for i in range(60)) + ")"
    line = str(PluginFailure("typo", "hook on_turn_end", ValueError(words)))
    reason = line[line.index("(ValueError: ") + len("(ValueError: "):line.index("); the game stopped")]
    assert reason.startswith("no plugin's register_statuses registers a status named 'blesed' (did you mean 'blessed'?")
    assert reason.endswith(",...") and len(reason) <= 200 and words.startswith(reason[:-3])
    assert reason[:-3].split(" ")[-1] in words.split(" ")  # its last word whole


def test_a_plugin_failure_line_carries_no_control_character_to_the_terminal():
    """A plugin's message with an escape sequence coloured the terminal red: shown escaped."""
    from engine.core.plugin.isolation import PluginFailure

    line = str(PluginFailure("weird", "hook on_turn_end", RuntimeError("bad \x1b[31mred\x07 news")))
    assert "\x1b" not in line and "\x07" not in line and "(RuntimeError: bad \\x1b[31mred\\x07 news)" in line
