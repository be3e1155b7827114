"""The seed catalog against its golden copy: any change to generation shows up here."""

import os
from pathlib import Path

import pytest

from engine.cli.main import main
from engine.cli.tools.catalog import entries

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN = GOLDEN_DIR / "catalog_undercroft.txt"
SEEDS, DEPTHS = range(1, 21), range(1, 4)
# Each preset's first levels: bunyip is one level and lesson28 one board, so depth 1 only.
PRESETS = {
    "undercroft": (SEEDS, DEPTHS),
    "bunyip": (range(1, 4), range(1, 2)),
    "rogue-sdl": (range(1, 4), range(1, 4)),
    "lesson28": (range(1, 4), range(1, 2)),
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_presets_catalog_matches_its_golden_copy(preset):
    seeds, depths = PRESETS[preset]
    text = "\n".join(entries(seeds, depths, game=preset)) + "\n"
    golden_file = GOLDEN_DIR / f"catalog_{preset}.txt"
    if os.environ.get("UNDERCROFT_UPDATE_GOLDEN"):
        golden_file.write_text(text)
    assert golden_file.exists(), f"no golden catalog: make it with UNDERCROFT_UPDATE_GOLDEN=1 pytest {__file__}"
    golden = golden_file.read_text()
    if text != golden:
        new, old = text.splitlines() + ["<end>"], golden.splitlines() + ["<end>"]
        first = next(i for i in range(max(len(new), len(old))) if new[i:i + 1] != old[i:i + 1])
        raise AssertionError(
            f"generation changed (first difference at line {first + 1}: {old[first:first + 1]} is now "
            f"{new[first:first + 1]}). If that is intended, regenerate the golden copy with "
            f"UNDERCROFT_UPDATE_GOLDEN=1 python -m pytest tests/test_catalog.py and commit {golden_file.name}."
        )


def test_catalog_command_prints_the_same(capsys):
    assert main(["catalog", "--seeds", "1-2", "--depths", "1-2"]) == 0
    assert capsys.readouterr().out == "\n".join(entries(range(1, 3), range(1, 3))) + "\n"


def test_a_depth_is_the_same_whether_or_not_the_ones_above_were_made():
    deep_only = [line for line in entries([5], [3]) if not line.startswith("loot ")]  # rows plugins add: said once
    all_three = list(entries([5], DEPTHS))
    start = next(i for i, line in enumerate(all_three) if line.startswith("seed 5 depth 3"))
    # the plugins' loot rows come first in both
    first = next(i for i, line in enumerate(deep_only) if line.startswith("seed 5 depth 3"))
    assert all_three[start:] == deep_only[first:]


def test_catalog_mistakes_are_one_line(capsys):
    assert main(["catalog", "--seeds", "5-1"]) == 2
    assert "--seeds '5-1': expected" in capsys.readouterr().err
    assert main(["catalog", "--game", "chess"]) == 2
    assert "no game named 'chess'" in capsys.readouterr().err
