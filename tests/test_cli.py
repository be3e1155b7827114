"""The command line: headless play, determinism, and one clear line for every bad input."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import testing
from engine.cli.main import main
from engine.cli.parser import SUBCOMMANDS

ROOT = Path(__file__).resolve().parent.parent
KEYS = "l l j j h k y u b n . kp5 kp1 kp9 > q " * 5


def run_cli(*args, env=None):
    e = {**os.environ, "UNDERCROFT_LOAD_PLUGINS": "", **(env or {})}
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, env=e, cwd=ROOT)


def dump(capsys, *args) -> dict:
    assert main(["--headless", "--dump", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_dump_has_the_contract_keys(capsys):
    s = dump(capsys, "--seed", "7", "--keys", "l l j")
    for key in ("seed", "game", "run", "turn", "depth", "alive", "player", "monsters", "items",
                "messages", "map", "visible", "seen"):
        assert key in s
    assert set(s["player"]) >= {"x", "y", "hp", "max_hp", "attack", "gold", "potions"}
    assert s["seed"] == 7 and s["game"] == "undercroft" and s["depth"] == 1
    assert len(s["map"]) == 43 and all(len(row) == 80 for row in s["map"])
    terrain = {kind.glyph for kind in testing.load_plugin().terrain.values()}  # doors, water... (plugins/depths)
    assert set("".join(s["map"])) <= set("#.><") | terrain
    assert 0 < s["visible"] <= s["seen"]


def test_same_seed_and_keys_give_identical_bytes_across_processes():
    a = run_cli("--headless", "--seed", "42", "--keys", KEYS, "--dump", "json")
    b = run_cli("--headless", "--seed", "42", "--keys", KEYS, "--dump", "json",
                env={"PYTHONHASHSEED": "123"})
    assert a.returncode == 0 and a.stdout == b.stdout and a.stdout.strip()
    c = run_cli("--headless", "--seed", "43", "--keys", KEYS, "--dump", "json")
    assert c.stdout != a.stdout


def test_same_seed_twice_in_one_process(capsys):
    assert dump(capsys, "--seed", "5", "--keys", KEYS) == dump(capsys, "--seed", "5", "--keys", KEYS)


def test_map_file_and_named_keys(tmp_path, capsys):
    m = tmp_path / "m.txt"
    m.write_text("#####\n#@.>#\n#####\n")
    s = dump(capsys, "--map", str(m), "--keys", "right right")
    assert (s["player"]["x"], s["turn"]) == (3, 2)
    assert s["map"] == ["#####", "#<.>#", "#####"]  # the start is the stairs up
    s = dump(capsys, "--map", str(m), "--keys", "kp6 kp6 >")
    assert s["depth"] == 2


BAD = [
    (["--plugin", "fov=nope"], "no fov named 'nope' (valid: "),
    (["--plugin", "colour=red"], "unknown kind 'colour' (valid kinds: fov, generator, game, path)"),
    (["--plugin", "fov"], "expected KIND=NAME"),
    (["--game", "chess"], "no game named 'chess'"),
    (["--new", "--game", "BUNYIP"], "no game named 'BUNYIP' (did you mean 'bunyip'? valid: "),  # no hint before
    (["--seed", "abc"], "--seed: 'abc' is not an integer"),
    (["--seed", "-3"], "--seed: -3 is out of range"),
    (["--keys", "l zz"], "--keys: unknown key 'zz'"),
    (["--keys", "o:99999"], "--keys: unknown key 'o:99999' (use a printable character, travel:X,Y, or one of: "),
    (["--keys", "o:0"], "a travel may end in :STEPS, 1..10000)"),  # how many steps a travel may take
    (["--map", "/nonexistent/map.txt"], "--map /nonexistent/map.txt: cannot read"),
    (["--plugins-dir", "/nonexistent"], "--plugins-dir: /nonexistent is not a folder"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--head"], "unrecognized arguments: --head"),  # an option is its whole name, never a prefix of one
    # conflicting or empty choices: the last won, or an empty one was taken as none, without a word
    (["--new", "--plugin", "game=bunyip", "--game", "rogue-sdl"],
     "--plugin game=bunyip: --game rogue-sdl chose another game already: choose one"),
    (["--new", "--plugin", "fov=symmetric", "--plugin", "fov=raycast"],
     "--plugin fov=raycast: --plugin fov=symmetric chose another fov already: choose one"),
    (["--new", "--game", " "], "--game: expected a preset's name (python -m engine plugins lists them)"),
    (["--shot", ""], "--shot: empty (expected a PNG file to write)"),
    (["--tileset", ""], "--tileset: empty (expected a tileset's name or a PNG file)"),
    (["--tileset", "nosuch"], "--tileset: --headless draws nothing without --shot FILE.png"),
]


@pytest.mark.parametrize(("args", "expected"), BAD)
def test_bad_input_is_one_line_and_exit_2(args, expected, capsys):
    assert main(["--headless", *args]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert err.count("\n") == 1 and "Traceback" not in err


LONG = "a" * 300  # a name longer than a file system takes (255 bytes): every check of a path met it


@pytest.mark.parametrize("argv", [["--headless", "--new", "--keys", "l", "--shot", f"{LONG}.png"],
                                   ["--headless", "--new", "--keys", "l", "--record", f"{LONG}.json"],
                                   ["--headless", "--plugins-dir", LONG], ["replay", f"{LONG}.json"],
                                   ["sim", "--bot", "random", "--runs", "1", "--crash-dir", LONG],
                                   ["new-plugin", "zz", "--dir", LONG], ["plugins", "--plugins-dir", LONG]])
def test_a_path_too_long_for_the_file_system_is_one_line_naming_it(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("undercroft: ") and "aaa...aaa" in err and err.rstrip().endswith("File name too long")


@pytest.mark.parametrize("argv", [["sim", "--bot", "random", "--plugin", "fov=nope"],
                                   ["compare", "fov", "--plug", "fov=nope"],
                                   ["compare", "generators", "--plug", "generator=nope"]])
def test_no_subcommand_reads_an_option_as_a_longer_one_it_begins(argv, capsys):
    """argparse's abbreviations took sim's --plugin for --plugins-dir, and said the folder
    'fov=nope' was missing."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"unrecognized arguments: {argv[-2]} {argv[-1]}" in err and err.count("\n") == 1, err


def test_unknown_map_character_names_line_and_column(tmp_path, capsys):
    m = tmp_path / "m.txt"
    m.write_text("#####\n#@.Z#\n#####\n")
    assert main(["--headless", "--map", str(m)]) == 2
    err = capsys.readouterr().err
    assert f"{m}:2:4: unknown character 'Z'" in err and err.count("\n") == 1


def test_a_map_saved_by_a_windows_editor_plays(tmp_path, capsys):
    """Notepad writes a byte order mark first and ends its lines CR LF: the mark read as an
    unknown character at 1:1."""
    m = tmp_path / "m.txt"
    m.write_bytes(b"\xef\xbb\xbf#####\r\n#@.>#\r\n#####\r\n")
    s = dump(capsys, "--map", str(m), "--keys", "right")
    assert s["map"] == ["#####", "#<.>#", "#####"] and s["player"]["x"] == 2


def test_a_map_wider_than_a_level_is_said_of_the_file(tmp_path, capsys):
    m = tmp_path / "m.txt"
    m.write_text("#" * 1001 + "\n#@" + "." * 998 + "#\n" + "#" * 1001 + "\n")
    assert main(["--headless", "--map", str(m)]) == 2
    assert capsys.readouterr().err == f"undercroft: {m}: the map is 1001x3 characters: each side must be 1..1000\n"


def test_what_a_maps_level_lacks_is_said_of_the_map_file(tmp_path, capsys):
    """A map of two parts, or of more monsters than a level holds: it said "generator 'ascii' made a
    level ...", a plugin's bug to read, not the player's map."""
    apart, crowd = tmp_path / "apart.txt", tmp_path / "crowd.txt"
    apart.write_text("#####\n#@#.#\n#####\n")
    crowd.write_text("#" * 202 + "\n" + "".join("#" + ("@" if y == 0 else "g") + "g" * 199 + "#\n" for y in range(60))
                     + "#" * 202 + "\n")
    assert main(["--headless", "--new", "--map", str(apart)]) == 2
    assert capsys.readouterr().err == (f"undercroft: --map {apart}: the map made a level that is not connected: (3, 1) "
                                       "cannot be reached from the start (1, 1) by 4-way steps\n")
    assert main(["--headless", "--new", "--map", str(crowd)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"undercroft: --map {crowd}: the map made a level with [('goblin', 2, 1), ") and \
        err.endswith(" as spawns (expected a list of at most 10000)\n") and err.count("\n") == 1


@pytest.mark.parametrize("seconds", ["-1", "nan"])
def test_seconds_that_never_come_are_one_line(tmp_path, capsys, seconds):
    """nan passed the check (nan < 0 is False) and the window's timer never came due."""
    assert main(["--headless", "--new", "--seconds", seconds, "--shot", str(tmp_path / "s.png")]) == 2
    err = capsys.readouterr().err
    assert err == f"undercroft: --seconds {float(seconds)}: expected a number of seconds >= 0\n", err
    assert not (tmp_path / "s.png").exists()


def test_map_without_start(tmp_path, capsys):
    m = tmp_path / "m.txt"
    m.write_text("#####\n#..>#\n#####\n")
    assert main(["--headless", "--map", str(m)]) == 2
    assert "no '@'" in capsys.readouterr().err


@pytest.mark.parametrize(("file", "text", "expected"), [
    ("monsters.toml", "[rat]\nglyph = 'r'\ncolor = [1, 2, 3]\nhp = 'four'\nattack = 2\n",
     "monsters.toml: [rat] hp: expected an integer, got 'four'"),
    ("monsters.toml", "[rat\n", "monsters.toml: not valid TOML"),
    ("items.toml", "[gold]\nglyph = '$'\ncolor = [1, 2]\neffect = 'gold'\n",
     "items.toml: [gold] color: expected [r, g, b] with each 0..255, got [1, 2]"),
    ("monsters.toml", "[rat]\nglyph = 'r'\ncolor = [1, 2, 3]\nhp = 4\nattack = 2\nwings = 2\n",
     "monsters.toml: [rat] wings: unknown key"),
    ("monsters.toml", "[rat]\nglyph = 'r'\ncolor = [1, 2, 3]\nhp = 4\n", "monsters.toml: [rat] attack: missing"),
    # a kind never placed, and a glyph no one can draw or type (both were accepted)
    ("monsters.toml", "[rat]\nglyph = 'r'\ncolor = [1, 2, 3]\nhp = 4\nattack = 2\nmin_depth = 4\nmax_depth = 1\n",
     "monsters.toml: [rat] min_depth: expected at most max_depth (1), got 4"),
    ("monsters.toml", "[rat]\nglyph = \"\\u0000\"\ncolor = [1, 2, 3]\nhp = 4\nattack = 2\n",
     "monsters.toml: [rat] glyph: expected a single printable character, got '\\x00'"),
])
def test_malformed_content_names_file_key_and_reason(tmp_path, file, text, expected):
    import shutil

    from engine.plugins.rules.content import content_dir

    content = tmp_path / "content"
    shutil.copytree(content_dir(), content)
    (content / file).write_text(text)
    r = run_cli("--headless", env={"UNDERCROFT_CONTENT": str(content)})
    assert r.returncode == 2
    assert expected in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_an_empty_data_folder_setting_is_refused_not_read_as_the_usual_folder(monkeypatch, capsys):
    """UNDERCROFT_HOME="" (set to keep a session apart) used the real data folder: a --new replaced
    the player's own saved run without a word."""
    monkeypatch.setenv("UNDERCROFT_HOME", "")
    for argv in (["--headless", "--new", "--keys", "l"], ["scores"]):
        assert main(argv) == 2
        assert capsys.readouterr().err == ("undercroft: UNDERCROFT_HOME is set but empty: set it to a folder, or "
                                           "unset it for the usual data folder\n")


def test_two_preset_files_of_one_name_are_said_of_the_files(tmp_path):
    """It was 'plugin content: ValueError: registers games 'bunyip' twice': no file named."""
    import shutil

    from engine.plugins.rules.content import content_dir

    content = tmp_path / "content"
    shutil.copytree(content_dir(), content)
    shutil.copy(content / "games" / "bunyip.toml", content / "games" / "bunyip-copy.toml")
    r = run_cli("--headless", env={"UNDERCROFT_CONTENT": str(content), "UNDERCROFT_HOME": str(tmp_path / "home")})
    assert r.returncode == 2 and r.stderr == (
        f"undercroft: {content / 'games' / 'bunyip.toml'}: name 'bunyip' is the preset of bunyip-copy.toml already "
        "(each preset file names a preset of its own)\n"), r.stderr


def test_a_content_setting_that_is_no_folder_is_said_of_the_setting(tmp_path):
    """It was said of the first file missing from it: '/nonexistent/items.toml: cannot read'."""
    (tmp_path / "file").write_text("x")
    for where in (tmp_path / "nowhere", tmp_path / "file"):
        r = run_cli("--headless", env={"UNDERCROFT_CONTENT": str(where), "UNDERCROFT_HOME": str(tmp_path / "home")})
        assert r.returncode == 2
        assert r.stderr == (f"undercroft: UNDERCROFT_CONTENT={where}: not a folder (expected a copy of the content "
                            "folder: monsters.toml, items.toml and games/)\n"), r.stderr


def test_content_saved_with_a_byte_order_mark_loads(tmp_path, capsys):
    """A TOML file Notepad saved, its mark first, was 'not valid TOML: Invalid statement (at line 1,
    column 1)'."""
    import shutil

    from engine.plugins.rules.content import content_dir

    content = tmp_path / "content"
    shutil.copytree(content_dir(), content)
    monsters = content / "monsters.toml"
    monsters.write_bytes(b"\xef\xbb\xbf" + monsters.read_bytes().replace(b"\n", b"\r\n"))
    r = run_cli("--headless", "--new", "--seed", "1", "--dump", "json",
                env={"UNDERCROFT_CONTENT": str(content), "UNDERCROFT_HOME": str(tmp_path / "home")})
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert json.loads(r.stdout)["monsters"]  # its monsters are on the level


def test_a_broken_third_party_plugin_does_not_stop_the_game(tmp_path, capsys):
    (tmp_path / "broken.py").write_text("raise ImportError('needs the moon')\n")
    assert main(["--headless", "--plugins-dir", str(tmp_path), "--dump", "json"]) == 0
    assert main(["plugins", "--plugins-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "broken" in out and "BROKEN: ImportError: needs the moon" in out
    assert "hooks: register_fov_algorithms" in out and "[builtin]" in out


def test_plugins_lists_everything_as_json(capsys):
    assert main(["plugins", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = {p["name"] for p in data["plugins"]}
    assert {"content", "behaviours", "effects", "gen_ascii"} <= names
    assert data["active"] == {"game": "undercroft", "fov": "symmetric", "generator": "bsp", "path": "heap"}
    assert data["available"]["fov"]["symmetric"]["symmetric"] is True


def test_headless_does_not_import_arcade():
    r = subprocess.run(
        [sys.executable, "-c",
         "import sys; from engine.cli import main; main(['--headless', '--seed', '1', '--keys', 'l']);"
         "print('arcade' in sys.modules, 'pyglet' in sys.modules)"],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "UNDERCROFT_LOAD_PLUGINS": ""})
    assert r.stdout.strip() == "False False", r.stderr


@pytest.mark.parametrize(("size", "expected"), [
    ("10x", "--size '10x': expected WIDTHxHEIGHT"),
    ("0x5", "--size 0x5: each side must be 1..1000"),
    ("5000x40", "--size 5000x40: each side must be 1..1000"),
    ("5x5", "generator 'bsp': 5x5 is too small (minimum 8x7)"),
])
def test_impossible_map_sizes(size, expected, capsys):
    assert main(["--headless", "--size", size]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1


def test_a_bigger_map(capsys):
    s = dump(capsys, "--size", "120x60", "--keys", "l l")
    assert len(s["map"]) == 60 and len(s["map"][0]) == 120


def test_a_presets_bad_generator_params_are_caught_before_play(tmp_path, capsys):
    (tmp_path / "bad_preset.py").write_text(
        "from engine import GameRules, hookimpl\n"
        "@hookimpl\n"
        "def register_games(register):\n"
        "    register(GameRules(name='broken', generators=((1, 'bsp'), (5, 'caves')), fov='symmetric',\n"
        "                       generator_params={'caves': {'fil': 0.5}}))\n")
    assert main(["--headless", "--plugins-dir", str(tmp_path), "--game", "broken"]) == 2
    err = capsys.readouterr().err
    assert "generator 'caves': unknown param 'fil' (valid: " in err and err.count("\n") == 1


def test_asking_for_a_broken_plugins_algorithm_says_why(tmp_path, capsys):
    (tmp_path / "fancy_fov.py").write_text(
        "from engine import hookimpl\n"
        "@hookimpl\n"
        "def register_fov_algorithms(register):\n"
        "    raise RuntimeError('needs a GPU')\n")
    assert main(["--headless", "--plugins-dir", str(tmp_path), "--plugin", "fov=fancy"]) == 2
    announced, said = capsys.readouterr().err.splitlines()  # the broken plugin at start, then the error
    assert announced == (f"undercroft: plugin 'fancy_fov' ({tmp_path / 'fancy_fov.py'}) is broken and was skipped: "
                         "RuntimeError: needs a GPU")
    assert "no fov named 'fancy'" in said and "plugin 'fancy_fov' that may provide it is broken" in said
    assert "RuntimeError: needs a GPU" in said


@pytest.mark.parametrize("argv", [[name, "--help"] for name in sorted(SUBCOMMANDS)]
                         + [["compare", "fov", "--help"], ["compare", "generators", "--help"], ["compare", "-h"]])
def test_every_subcommand_says_its_usage_on_help(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's --help exits
        code = e.code
    assert code in (0, None)
    out, err = capsys.readouterr()
    assert out.startswith("usage: ") and err == "", (out, err)


def test_help_names_every_kind_plugin_chooses_and_plugins_lists_them_all(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "fov=NAME, generator=NAME, game=NAME, path=NAME (repeatable)" in out
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    available = out.split("Available:")[1].split("Active")[0]
    assert "  path       heap\n" in available and "  bot        delver, random (sim --bot NAME)\n" in available
    assert "  path       heap\n" in out.split("Active")[1]
    assert main(["plugins", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["available"]["bot"]) == ["delver", "random"] and list(data["available"]["path"]) == ["heap"]
