"""``sim --markdown`` and ``sim --from-json``: the README's balance table, made from a run's
``--json`` without playing again, each of the default game's balance targets met or missed (#25)."""

import json

import pytest

from engine.cli.main import main
from engine.cli.tools.sim import report as simreport


def runs(outcomes):
    """Runs of (outcome, depth, turns, cause)."""
    return [{"seed": i, "outcome": o, "won": o == "won", "depth": d, "turns": t, "keys": t, "cause": c}
            for i, (o, d, t, c) in enumerate(outcomes)]


def saved(tmp_path, played):
    report = {"game": "undercroft", "bot": "delver", "seeds": [0, len(played) - 1], "max_turns": 20000,
              "summary": simreport.summarise(played), "runs": played}
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(report))
    return path


def markdown(capsys, path):
    assert main(["sim", "--from-json", str(path), "--markdown"]) == 0
    return capsys.readouterr().out


def test_a_balanced_run_meets_every_target(tmp_path, capsys):
    played = runs([("won", 10, 5000, None)] * 3 + [("died", 2, 900, "killed by a jackal")]
                  + [("died", d, 3000, f"killed by kind {d}") for d in range(5, 11)])
    out = markdown(capsys, saved(tmp_path, played))
    assert "| won | 3 (30.0%) |" in out and "| died | 7 (70.0%) |" in out
    assert "- met: won 30.0% (target 10-35%)" in out
    assert "- met: runs ended on depths 1-4: 10.0% (target at least 8%)" in out
    assert "MISSED" not in out


def test_each_missed_target_is_named(tmp_path, capsys):
    played = runs([("won", 10, 1500, None)] * 8 + [("died", 7, 1000, "killed by a troll")] * 2)
    out = markdown(capsys, saved(tmp_path, played))
    missed = [line for line in out.splitlines() if line.startswith("- MISSED")]
    assert [m.split(":")[1].split()[0] for m in missed] == ["won", "the", "runs", "median"]
    assert "- met: the deadliest kind" not in out and "(a troll; target at most 35%)" in out


def test_from_json_prints_the_same_table_as_the_run(tmp_path, capsys):
    played = runs([("won", 10, 5000, None), ("died", 3, 800, "killed by a rat")])
    path = saved(tmp_path, played)
    assert main(["sim", "--from-json", str(path)]) == 0
    assert capsys.readouterr().out == simreport.table(json.loads(path.read_text()))


BAD_RUN = ('{"game": "g", "bot": "b", "seeds": [0, 0], "max_turns": 9, "runs": [{"seed": 0, "outcome": "died", '
           '"won": false, "depth": "deep", "turns": 5, "cause": null}]}')


BAD_SEEDS = BAD_RUN.replace('"deep"', "3").replace("[0, 0]", "7")


@pytest.mark.parametrize("text", ["not json", "{}", '{"runs": 3}', "[1, 2]", BAD_RUN, BAD_SEEDS])
def test_a_file_that_is_not_a_sim_json_is_one_line(tmp_path, capsys, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert main(["sim", "--from-json", str(path), "--markdown"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "not the output of sim --json" in err


def test_no_bot_and_no_file_says_what_to_give(capsys):
    assert main(["sim", "--runs", "3"]) == 2
    assert "--bot NAME" in capsys.readouterr().err


def test_the_readme_balance_table_is_the_kept_runs_table(capsys):
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    table = markdown(capsys, root / "docs" / "balance.json")
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert table in readme  # regenerate: python -m engine sim --from-json docs/balance.json --markdown
    assert "MISSED" not in table  # the default game meets its balance targets
