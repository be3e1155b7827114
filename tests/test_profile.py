"""The profile: it counts runs, deaths, escapes, depth and gold, keeps the best ten, survives all."""

import json

import pytest

from engine.cli.main import main
from engine.core.model.events import RunStarted
from engine.core.play.session import Session
from engine.persist import profile


def end(score_gold: int, depth: int = 1, escaped: bool = False, seed: int = 1):
    return profile.run_ended(escaped=escaped, seed=seed, preset="undercroft", depth=depth, turns=10,
                             gold=score_gold, cause="killed by a rat", date="2026-01-01 00:00")


def test_counts_and_the_best_ten(home):
    profile.run_started()
    for i in range(12):
        end(i * 10, seed=i)
    end(0, depth=3, escaped=True, seed=99)
    p = profile.load()
    assert (p["runs"], p["deaths"], p["escapes"], p["deepest"]) == (1, 12, 1, 3)
    assert p["gold"] == sum(i * 10 for i in range(12))
    assert len(p["top"]) == 10
    assert [e["score"] for e in p["top"]] == [700, 110, 100, 90, 80, 70, 60, 50, 40, 30]
    assert p["top"][0]["seed"] == 99


def test_scores_command_text_and_json(home, capsys):
    end(42, depth=2, seed=5)
    assert main(["scores"]) == 0
    text = capsys.readouterr().out
    assert "Deaths 1" in text and "killed by a rat" in text and " 142 " in text
    assert main(["scores", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["top"][0] == {"score": 142, "seed": 5, "preset": "undercroft", "depth": 2, "turns": 10,
                              "cause": "killed by a rat", "date": "2026-01-01 00:00"}


def test_a_fresh_profile_when_none_exists(home, capsys):
    assert main(["scores", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == profile.fresh()


def test_it_survives_a_bad_run_save_and_counts_the_runs(home, capsys):
    home.mkdir(parents=True)
    end(7)
    (home / "run.json").write_text("{not json")
    assert main(["--headless", "--keys", "l"]) == 0
    assert "run save" in capsys.readouterr().err
    p = profile.load()
    assert p["deaths"] == 1 and p["runs"] == 1 and p["top"][0]["score"] == 7


def test_a_start_whose_first_level_is_never_made_is_no_run(home, capsys, tmp_path):
    """A generator that fails at depth 1, or one that needs a --map given none: nothing was played,
    so the profile counts no run (it counted one each time, at depth 0)."""
    (tmp_path / "boom.py").write_text(
        "from engine import hookimpl\n\n"
        "@hookimpl\ndef register_generators(register):\n"
        "    def boom(ctx):\n        raise RuntimeError('no level today')\n    register('boom', boom)\n")
    assert main(["--headless", "--new", "--plugins-dir", str(tmp_path), "--plugin", "generator=boom",
                 "--keys", "l"]) == 2
    assert main(["--headless", "--new", "--plugin", "generator=ascii", "--keys", "l"]) == 2
    err = capsys.readouterr().err
    assert "--plugin generator=ascii: it builds levels from a map: give one with --map FILE" in err
    assert profile.load()["runs"] == 0
    assert main(["--headless", "--new", "--keys", "l"]) == 0
    assert (profile.load()["runs"], profile.load()["deepest"]) == (1, 1)


def test_a_new_run_over_a_saved_one_says_it_ends_and_counts_it_as_a_quit(home, capsys):
    """--seed (as --new, --map, --game...) starts a new run: the saved one vanished without a word,
    and from the profile's counts."""
    assert main(["--headless", "--new", "--seed", "9", "--keys", "l l"]) == 0
    capsys.readouterr()
    assert main(["--headless", "--seed", "9", "--keys", "l"]) == 0
    err = capsys.readouterr().err
    assert err == (f"undercroft: the run saved in {home / 'run.json'} (undercroft, depth 1, turn 2) ends here, "
                   "counted as a quit: a new run replaces it (--new, --seed, --map, --size, --game and --plugin each "
                   "start one)\n")
    p = profile.load()
    assert (p["runs"], p["quits"]) == (2, 1)
    assert main(["--headless", "--keys", "l"]) == 0  # resumed: nothing ends
    assert capsys.readouterr().err == "" and profile.load()["quits"] == 1


def test_deepest_depth_follows_the_player_down(home, capsys, tmp_path):
    m = tmp_path / "m.txt"
    m.write_text("#####\n#@.>#\n#####\n")
    assert main(["--headless", "--map", str(m), "--keys", "l l >"]) == 0
    assert profile.load()["deepest"] == 2


def test_an_escape_is_counted_and_scored(home, registry):
    from engine.core.model.components import Position
    from engine.core.play.setup import Setup
    from engine.persist import keeper

    g = keeper.open_game(Setup(seed=4), registry)
    me = g.world.get(g.player, Position)
    step = next((dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if g.passable(me.x + dx, me.y + dy))
    g.level.exit = (me.x + step[0], me.y + step[1])  # as a preset's exit would be
    Session.of(g).press({(1, 0): "l", (-1, 0): "h", (0, 1): "j", (0, -1): "k"}[step])
    p = profile.load()
    assert (p["escapes"], p["deaths"], p["runs"]) == (1, 0, 2)  # the escape, and the next run begun
    assert p["top"][0]["cause"] == "escaped from depth 1" and p["top"][0]["score"] == 500


def write_raw(home, data: dict) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "profile.json").write_text(json.dumps(data))


SCHEMA_1 = {"kind": "profile", "schema": 1, "runs": 9, "deaths": 7, "escapes": 1, "deepest": 4, "gold": 300,
            "top": [{"score": 800, "seed": 2**63 - 1, "preset": "bunyip", "depth": 4, "turns": 10**17,
                     "cause": "escaped from depth 4", "date": "2025-12-31 23:59"},
                    {"score": 120, "seed": 1, "preset": "undercroft", "depth": 2, "turns": 50,
                     "cause": "killed by a rat", "date": "2025-12-30 10:00"}]}


def test_a_schema_1_profile_is_upgraded_not_moved_aside(home, capsys):
    write_raw(home, SCHEMA_1)
    original = (home / "profile.json").read_bytes()
    p = profile.load()
    err = capsys.readouterr().err  # one line, and the original kept for an older Undercroft
    assert err.count("\n") == 1 and "schema 1 is older" in err and "kept as profile.v1.json" in err
    assert (home / "profile.v1.json").read_bytes() == original
    assert (p["runs"], p["deaths"], p["escapes"], p["gold"]) == (9, 7, 1, 300)  # the totals are kept
    assert p["presets"]["bunyip"]["top"][0]["score"] == 800 and p["presets"]["bunyip"]["runs"] == 0
    assert p["presets"]["bunyip"]["top"][0]["turns"] == 10**15  # schema 1 allowed more: bounded now
    assert [e["preset"] for e in p["presets"]["undercroft"]["top"]] == ["undercroft"]
    assert p["settings"] == {}
    profile.run_started("bunyip")
    on_disk = json.loads((home / "profile.json").read_text())
    assert on_disk["schema"] == profile.SCHEMA and on_disk["runs"] == 10 and on_disk["presets"]["bunyip"]["runs"] == 1
    assert not list(home.glob("*.corrupt-*"))


@pytest.mark.parametrize("counter", ["runs", "deaths", "quits", "gold", "deepest"])
def test_a_counter_at_its_limit_saturates_and_the_profile_still_loads(home, capsys, counter):
    from engine.kit.limits import MAX_COUNT

    full = {**profile.fresh(), counter: MAX_COUNT, "kind": "profile", "schema": profile.SCHEMA}
    full["presets"] = {"undercroft": {**profile.table(), counter: MAX_COUNT}}
    write_raw(home, full)
    profile.run_started("undercroft")
    profile.reached(MAX_COUNT + 5, "undercroft")
    end(10**16)
    p = profile.load()
    assert p[counter] == MAX_COUNT and p["presets"]["undercroft"][counter] == MAX_COUNT
    assert p["top"][0]["score"] == MAX_COUNT
    assert capsys.readouterr().err == "" and not list(home.glob("*.corrupt-*"))  # nothing refused


def test_each_preset_has_its_own_table(home):
    for _ in range(3):
        profile.run_started("lesson28")
    profile.run_started("undercroft")
    profile.reached(3, "undercroft")
    profile.run_ended(escaped=True, seed=4, preset="lesson28", depth=1, turns=9, gold=0, cause="escaped",
                      date="2026-01-02 00:00")
    end(50, depth=3, seed=7)
    profile.run_started()  # a caller that does not say the preset: the totals only
    p = profile.load()
    assert (p["runs"], p["deaths"], p["escapes"], p["deepest"]) == (5, 1, 1, 3)
    lesson, under = p["presets"]["lesson28"], p["presets"]["undercroft"]
    assert (lesson["runs"], lesson["deaths"], lesson["escapes"], lesson["deepest"]) == (3, 0, 1, 1)
    assert (under["runs"], under["deaths"], under["escapes"], under["deepest"]) == (1, 1, 0, 3)
    assert [e["preset"] for e in lesson["top"]] == ["lesson28"] and [e["score"] for e in p["top"]] == [500, 250]


def test_the_lesson28_run_counter_is_its_runs(home, registry):
    """lesson28 starts a new run at each capture or escape: its profile table counts every one, as
    the keeper reports them (the ``start`` event, with the preset)."""
    from engine.core.play.setup import Setup, new_game

    game = new_game(Setup(game="lesson28", seed=5), registry)
    game.listeners.append(lambda event, g: isinstance(event, RunStarted) and profile.run_started(g.rules.name))
    profile.run_started("lesson28")  # the first run began before the listener was attached
    for token in "left up right down".split() * 25:
        Session.of(game).press(token)
    assert game.run_number > 1  # caught or escaped at least once
    assert profile.load()["presets"]["lesson28"]["runs"] == game.run_number


def test_scores_for_one_game_and_for_all(home, capsys):
    for _ in range(3):
        profile.run_started("lesson28")
    end(42, depth=2, seed=5)
    assert main(["scores", "--game", "lesson28"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == "Runs 3   Deaths 0   Quits 0   Wins 0   Deepest 0   Gold 0   (lesson28)"
    assert "killed by a rat" not in text
    assert main(["scores", "--game", "lesson28", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {**profile.table(), "runs": 3}
    assert main(["scores"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("Runs 3   Deaths 1") and text[0].endswith("(all presets)")
    assert "Runs 3   Deaths 0   Quits 0   Wins 0   Deepest 0   Gold 0   (lesson28)" in text
    assert any(line.endswith("(undercroft)") and "Deaths 1" in line for line in text)
    assert main(["scores", "--game", "bunyip"]) == 0  # installed, never played: an empty table
    assert capsys.readouterr().out.startswith("Runs 0   Deaths 0")


def test_scores_for_an_unknown_game_is_one_line(home, capsys):
    assert main(["scores", "--game", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "scores --game 'chess': no such preset (valid: " in err and "lesson28" in err


def test_settings_are_remembered_validated_and_forgotten(home):
    assert profile.settings() == {}
    assert profile.update_settings(window_width=1152, zoom=1.5, mute=True, tileset="dejavu") == {
        "window_width": 1152, "zoom": 1.5, "mute": True, "tileset": "dejavu"}
    profile.run_started("undercroft")  # other updates keep them
    assert profile.update_settings(mute=None)["tileset"] == "dejavu"
    assert profile.settings() == {"window_width": 1152, "zoom": 1.5, "tileset": "dejavu"}
    before = (home / "profile.json").read_bytes()
    for bad in ({"Zoom": 2}, {"zoom": float("nan")}, {"zoom": [1, 2]}, {"tileset": "x" * 201},
                {"tileset": "\ud800"}, {"zoom": 10**16}):
        with pytest.raises(ValueError, match="^settings"):
            profile.update_settings(**bad)
    with pytest.raises(ValueError, match="at most 64 settings"):
        profile.update_settings(**{f"s{i}": i for i in range(62)})
    assert (home / "profile.json").read_bytes() == before  # a refused change writes nothing


def test_a_bad_settings_table_is_refused_on_load(home, capsys):
    write_raw(home, {**profile.fresh(), "settings": {"zoom": {"nested": 1}}, "kind": "profile", "schema": 2})
    assert profile.settings() == {}
    assert "settings.zoom: expected" in capsys.readouterr().err


def test_the_windows_settings_live_in_the_profile(home):
    from engine.frontend.launch import window_settings

    first = window_settings()
    first["zoom"] = 3
    first["window_size"] = [900, 600]
    first["muted"] = True
    again = window_settings()  # as the next start reads them
    assert (again["zoom"], again["window_size"], again["muted"]) == (3, [900, 600], True)
    assert profile.settings()["window_width"] == 900  # kept as scalars, as the profile holds


def test_play_counts_each_presets_runs_and_depths(home, capsys):
    from engine.cli.main import main

    assert main(["--headless", "--game", "lesson28", "--seed", "2", "--keys", "up up left"]) == 0
    assert main(["--headless", "--new", "--seed", "2", "--keys", "l l"]) == 0
    p = profile.load()
    assert p["presets"]["lesson28"]["runs"] >= 1 and p["presets"]["undercroft"]["runs"] == 1
    assert p["presets"]["undercroft"]["deepest"] == 1 and p["runs"] == p["presets"]["lesson28"]["runs"] + 1
