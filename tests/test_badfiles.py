"""Bad files: every truncated, corrupt, wrong-version, oversized or hostile save, profile or replay
gets one clear line on stderr. A save or profile is moved aside as NAME.corrupt-<n> with its bytes
intact and the game goes on (a new run, a fresh profile); a replay is the player's own file and is
left where it is."""

import json

import pytest

from engine.cli.main import main
from engine.kit import limits

_VALID: dict[str, bytes] = {}


def valid(name: str, tmp_path_factory=None) -> dict:
    """A sound file of each kind, made once by playing (seed 3, two steps, quit)."""
    if not _VALID:
        import os
        import tempfile

        old = os.environ["UNDERCROFT_HOME"]
        os.environ["UNDERCROFT_HOME"] = folder = tempfile.mkdtemp()
        try:
            assert main(["--headless", "--seed", "3", "--keys", "l l j esc"]) == 0
            for n in ("run.json", "profile.json", "last-run.replay.json"):
                _VALID[n] = open(os.path.join(folder, n), "rb").read()
        finally:
            os.environ["UNDERCROFT_HOME"] = old
    return json.loads(_VALID[name])


def edit(name: str, change) -> bytes:
    data = valid(name)
    change(data)
    return json.dumps(data).encode()


def entity(data: dict, kind: str) -> dict:
    return next(e for e in data["entities"] if kind in e)


def first_monster(data: dict) -> dict:
    return entity(data, "Monster")


def set_(path, value):
    def change(d):
        target = d
        for key in path[:-1]:
            target = target[key] if not callable(key) else key(target)
        target[path[-1]] = value
    return change


def items(data):
    return [row for row in data["entities"] if "Item" in row]


def carry(data, row, letter):
    """Make an item entity of a save carried under ``letter`` (off the map)."""
    row.pop("Position", None)
    row["Carried"] = {"letter": letter}
    return row


RUN = "run.json"
PROFILE = "profile.json"
REPLAY = "last-run.replay.json"
BAD = [
    ("empty", RUN, lambda: b"", "empty file"),
    ("truncated", RUN, lambda: valid(RUN) and _VALID[RUN][: len(_VALID[RUN]) // 2], "not valid JSON"),
    ("binary garbage", RUN, lambda: bytes(range(256)) * 8, "not UTF-8"),
    ("utf-16", RUN, lambda: json.dumps(valid(RUN)).encode("utf-16"), "not UTF-8"),
    ("a list, not an object", RUN, lambda: b"[1, 2, 3]", "expected a JSON object, got list"),
    ("another kind", RUN, lambda: edit(RUN, set_(["kind"], "profile")), "not a run file"),
    ("schema as text", RUN, lambda: edit(RUN, set_(["schema"], "1")), "no schema version"),
    ("deep nesting", RUN, lambda: b'{"kind": "run", "schema": 1, "x": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
     "nested too deeply"),
    ("moderate nesting", RUN, lambda: b'{"kind": "run", "schema": 1, "x": ' + b"[" * 500 + b"]" * 500 + b"}",
     "nested too deeply"),
    ("huge number", RUN, lambda: _VALID[RUN].replace(b'"turn":', b'"turn":' + b"9" * 5000 + b",\"t\":"),
     "not valid JSON"),
    ("NaN", RUN, lambda: _VALID[RUN].replace(b'"turn":', b'"turn":NaN,"t":'), "not a number JSON allows"),
    ("oversized", RUN, lambda: b" " * (limits.MAX_FILE_BYTES + 1) + b"{}", "too big"),
    ("negative HP", RUN, lambda: edit(RUN, set_([first_monster, "Fighter", "hp"], -5)), "Fighter.hp: expected"),
    ("HP over max", RUN, lambda: edit(RUN, set_([lambda d: entity(d, "Inventory"), "Fighter", "hp"], 99)),
     "0 <= hp <= max_hp"),
    ("off the map", RUN, lambda: edit(RUN, set_([first_monster, "Position", "x"], 500)), "on the 80x43 map"),
    ("inside a wall", RUN, lambda: edit(RUN, set_([first_monster, "Position", "y"], 0)), "that is not wall"),
    ("unknown monster", RUN, lambda: edit(RUN, set_([first_monster, "Monster", "kind"], "dragon")),
     "a known monster kind"),
    ("turn as text", RUN, lambda: edit(RUN, set_(["turn"], "many")), "turn: expected a whole number"),
    ("a bool for a number", RUN, lambda: edit(RUN, set_(["depth"], True)), "depth: expected a whole number"),
    ("unknown preset", RUN, lambda: edit(RUN, set_(["game"], "chess")), "game: expected a known preset"),
    ("ragged terrain", RUN, lambda: edit(RUN, lambda d: d["level"]["rows"].__setitem__(3, "#")), "rows of one width"),
    ("strange terrain", RUN, lambda: edit(RUN, lambda d: d["level"]["rows"].__setitem__(0, "|" * 80)), "only"),
    ("scheduler names nobody", RUN, lambda: edit(RUN, set_(["scheduler", "player"], 12345)), "scheduler.player"),
    ("bad random state", RUN, lambda: edit(RUN, lambda d: d["streams"].__setitem__("combat", [3, [0] * 624, None])),
     "Mersenne Twister"),
    ("a dead run", RUN, lambda: edit(RUN, set_(["alive"], False)), "a dead run is never saved"),
    ("messages not a list", RUN, lambda: edit(RUN, set_(["messages"], "hello")), "messages: expected a list"),
    ("seen map the wrong size", RUN, lambda: edit(RUN, lambda d: d["seen"].pop()), "seen: expected a list of 43"),
    # well-formed but inconsistent: refused as a whole, never half played
    ("the scheduler's player removed", RUN, lambda: edit(RUN, lambda d: d["scheduler"].pop("player")),
     "scheduler.player: missing"),
    ("the scheduler's player a monster", RUN, lambda: edit(RUN, set_(["scheduler", "player", 0],
                                                                      first_monster(valid(RUN))["id"])),
     "scheduler.player: expected the one entity with Player"),
    ("the player entity removed", RUN, lambda: edit(RUN, lambda d: d["entities"].remove(entity(d, "Player"))),
     "scheduler.player: expected the one entity with Player ([])"),
    ("speed 1 with energy -10^9", RUN, lambda: edit(RUN, set_(["scheduler", "player"], [1, 1, -10**9])),
     "scheduler.player: expected [id, speed, energy] with energy in -10000..10100"),
    ("an item id listed twice", RUN, lambda: edit(RUN, lambda d: d["entities"].append(entity(d, "Item"))),
     "is listed twice"),
    ("float coordinates", RUN, lambda: edit(RUN, set_([first_monster, "Position", "x"], 3.0)),
     "Position.x: expected a whole number, got 3.0"),
    ("an inventory on a monster", RUN, lambda: edit(RUN, set_([first_monster, "Inventory"], {"gold": 1})),
     "only the player has Player and Inventory"),
    # the pack: an item is on the map or carried, under a letter of its own
    ("an item both on the map and carried", RUN,
     lambda: edit(RUN, set_([lambda d: entity(d, "Item"), "Carried"], {"letter": "a"})), "either lying on the map"),
    ("two items under one letter", RUN, lambda: edit(RUN, lambda d: [carry(d, item, "c") for item in items(d)[:2]]),
     "letter 'c' is carried twice"),
    ("a potion worn", RUN, lambda: edit(RUN, lambda d: carry(d, items(d)[0], "a").update(Equipped={"slot": "hand"})),
     "to be worn"),
    ("a monster carried", RUN, lambda: edit(RUN, set_([first_monster, "Carried"], {"letter": "b"})),
     "only an item is carried"),
    ("a pack letter that is no letter", RUN, lambda: edit(RUN, lambda d: carry(d, items(d)[0], "A")),
     "Carried.letter: expected a letter a..z"),
    ("a lone surrogate in a message", RUN, lambda: edit(RUN, lambda d: d["messages"].append("a \ud800 b")),
     "lone surrogate"),
    ("profile: negative deaths", PROFILE, lambda: edit(PROFILE, set_(["deaths"], -1)), "deaths: expected"),
    ("profile: eleven best runs", PROFILE, lambda: edit(PROFILE, set_(["top"], [{}] * 11)), "top: expected"),
    ("profile: garbage", PROFILE, lambda: b"\x00\x01\x02 garbage", "not valid JSON"),
    ("profile: truncated", PROFILE, lambda: valid(PROFILE) and _VALID[PROFILE][:-3], "not valid JSON"),
    ("replay: unknown key", REPLAY, lambda: edit(REPLAY, set_(["keys"], ["l", "zz"])), "keys[1]"),
    ("replay: negative seed", REPLAY, lambda: edit(REPLAY, set_(["seed"], -1)), "seed: expected"),
    ("replay: truncated", REPLAY, lambda: valid(REPLAY) and _VALID[REPLAY][:40], "not valid JSON"),
]


@pytest.mark.parametrize(("label", "name", "make", "reason"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_is_one_line_moved_aside_and_the_game_goes_on(home, capsys, label, name, make, reason):
    bad = make()
    home.mkdir(parents=True, exist_ok=True)
    capsys.readouterr()
    path = home / name
    path.write_bytes(bad)
    if name == RUN:
        assert main(["--headless", "--keys", "l", "--dump", "json"]) == 0
        out, err = capsys.readouterr()
        state = json.loads(out)
        assert state["turn"] in (0, 1) and state["alive"]  # a new run, played
        then = "starting a new run"
    elif name == PROFILE:
        assert main(["scores", "--json"]) == 0
        out, err = capsys.readouterr()
        assert json.loads(out)["runs"] == 0  # a fresh profile
        then = "starting a fresh profile"
    else:  # a replay is the player's own file: refused in one line, never moved or renamed
        assert main(["replay", str(path), "--dump", "json"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and reason in err, err
        assert f"replay {path}:" in err and path.read_bytes() == bad and not list(home.glob("*.corrupt-*"))
        return
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert reason in err, err
    assert f"{path}:" in err and f"moved aside to {name}.corrupt-1; {then}" in err, err
    assert (home / f"{name}.corrupt-1").read_bytes() == bad  # nothing lost


def test_a_second_bad_file_gets_the_next_number(home, capsys):
    home.mkdir(parents=True)
    for n in (1, 2):
        (home / RUN).write_bytes(b"junk %d" % n)
        assert main(["--headless", "--keys", "l"]) == 0
        # the new run was saved at its first level: clear it so the next junk is what is loaded
        (home / RUN).unlink()
    assert (home / "run.json.corrupt-1").read_bytes() == b"junk 1"
    assert (home / "run.json.corrupt-2").read_bytes() == b"junk 2"
    assert capsys.readouterr().err.count("\n") == 2
