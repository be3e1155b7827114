"""Hostile presets and content: what used to load and then crash mid-game is refused before the
first turn, with one line naming the file, the field and what would be valid, and exit status 2."""

import shutil

import pytest

from engine.cli.main import main
from engine.plugins.rules.content import content_dir


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


UNDERCROFT = "games/undercroft.toml"
CASES = [
    # the preset's own counts left as a comment: "monster_count = [3, 1, 5, 2]  #5, 1, 0, 3]"
    ("extra_min over extra_max", UNDERCROFT, "monster_count = [", "monster_count = [3, 1, 5, 2]  #",
     "monster_count: expected [base, per_depth, extra_min, extra_max] with extra_min <= extra_max"),
    ("a million monsters", UNDERCROFT, "monster_count = [", "monster_count = [1000000, 0, 0, 0]  #",
     "monster_count: expected [base, per_depth, extra_min, extra_max]"),
    ("an unknown monster_table kind", "games/rogue-sdl.toml", '[4, 85, "orc"]', '[4, 85, "dragon"]',
     "monster_table: no monster named 'dragon'"),
    ("an empty player", UNDERCROFT, "player = { hp = 20, attack = 4, defense = 0 }", "player = {}",
     "player.hp: missing"),
    ("hp as text", UNDERCROFT, "player = { hp = 20,", 'player = { hp = "x",', "player.hp: expected an integer"),
    ("a player who never acts", UNDERCROFT, "player = { hp = 20,", "player = { speed = 0, hp = 20,",
     "player.speed: expected an integer in 1..10000, got 0"),
    ("a player born dead", UNDERCROFT, "player = { hp = 20,", "player = { hp = 0,",
     "player.hp: expected an integer in 1.."),
    ("a message with an unknown field", UNDERCROFT, "[messages]\n",
     '[messages]\ndescend = "Down to {floor}."\n',
     "messages.descend: expected a message using only {depth}, got 'Down to {floor}.'"),
    ("a field in a message that has none", UNDERCROFT, "[messages]\n",
     '[messages]\nexit = "You escape in {turn} turns."\n',
     "messages.exit: expected a message with no {fields}, got 'You escape in {turn} turns.'"),
    ("a broken message template", UNDERCROFT, "welcome = \"Welcome to the Undercroft.", 'welcome = "Hi { ',
     "messages.welcome: expected a message template"),
    ("a deeper generator's wrongly typed param", UNDERCROFT, "default = true",
     'default = true\n[generator_params.caves]\nfill = "lots"', "generator 'caves': param 'fill': expected a number"),
    ("a deeper generator's unknown param", UNDERCROFT, "default = true",
     "default = true\n[generator_params.caves]\nfil = 0.4", "generator 'caves': unknown param 'fil'"),
    ("a generator params table of the wrong type", UNDERCROFT, "default = true",
     "default = true\ngenerator_params = { caves = 3 }", "generator_params.caves: expected a table"),
    ("a map too wide", UNDERCROFT, "width = 80", "width = 1001", "width: expected an integer in 1..1000, got 1001"),
    ("a seed beyond 2^63", "games/bunyip.toml", "seed = 7 ", "seed = 18446744073709551616 ",
     "seed: expected"),
    ("an unregistered behaviour", "games/bunyip.toml", 'behaviour = "chase"', 'behaviour = "dance"',
     "game 'bunyip': monster 'goblin' names behaviour 'dance', which no plugin registers (valid: "),
    ("an unregistered effect", "items.toml", 'effect = "heal"', 'effect = "explode"',
     "item 'potion' names effect 'explode', which no plugin registers (valid: "),
    ("a monster that never acts", "monsters.toml", "[rat]\n", "[rat]\nspeed = 0\n",
     "monsters.toml: [rat] speed: expected an integer in 1..10000, got 0"),
    ("monster hp as text", "monsters.toml", "hp = 4", 'hp = "x"',
     "monsters.toml: [rat] hp: expected an integer, got 'x'"),
]


@pytest.mark.parametrize(("label", "file", "old", "new", "reason"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_preset_is_one_line_before_play(tmp_path, monkeypatch, capsys, label, file, old, new, reason):
    content = tmp_path / "content"
    shutil.copytree(content_dir(), content)
    path = content / file
    path.write_text(edit(path.read_text(), old, new))
    monkeypatch.setenv("UNDERCROFT_CONTENT", str(content))
    game = {"games/rogue-sdl.toml": "rogue-sdl", "games/bunyip.toml": "bunyip"}.get(file, "undercroft")
    assert main(["--headless", "--new", "--game", game]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert reason in err, err


@pytest.mark.parametrize("size", ["²x²", "-1x5", "0x5", "1001x5", "5x"])
def test_impossible_sizes_are_one_line(capsys, size):
    assert main(["--headless", "--new", "--size", size]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--size" in err and "expected one argument" not in err, err
