"""Entry points read without importlib.metadata (engine.core.loading.entrypoints) are the ones it
finds, in its order, with the same distribution names and versions; a case it alone reads is None."""

import importlib.metadata
import sys

import pytest

from engine.core.loading import entrypoints


def both(group: str) -> tuple[list | None, list]:
    ours = entrypoints.find(group)
    theirs = list(importlib.metadata.entry_points(group=group))
    as_tuples = lambda eps: [(e.name, e.value, e.group, e.dist.name, e.dist.version) for e in eps]  # noqa: E731
    return (None if ours is None else as_tuples(ours)), as_tuples(theirs)


def test_every_installed_group_is_found_as_importlib_metadata_finds_it():
    groups = sorted({ep.group for dist in importlib.metadata.distributions() for ep in dist.entry_points})
    assert groups
    for group in [*groups, "no-such-group"]:
        ours, theirs = both(group)
        assert ours == theirs, group


@pytest.fixture
def sites(tmp_path, monkeypatch):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    monkeypatch.setattr(sys, "path", [str(first), str(second), *sys.path])
    return first, second


def dist(site, folder: str, metadata: str, entry_points: str | None) -> None:
    info = site / folder
    info.mkdir()
    (info / "METADATA").write_text(metadata)
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)


def test_the_first_install_of_a_distribution_wins_and_odd_text_reads_alike(sites):
    first, second = sites
    dist(first, "Some_Plugin-1.0.dist-info", "Metadata-Version: 2.1\nName: Some-Plugin\nVersion: 1.0 \n"
         "License: MIT\n  folded on\n\nName: body\n",
         "# a comment\n[undercroft]\n  zeta = some_plugin:make \n\n[undercroft]\nalpha=some_plugin\n[other]\nx = y\n")
    dist(second, "some.plugin-2.0.dist-info", "Name: some.plugin\nVersion: 2.0\n", "[undercroft]\nold = old_plugin\n")
    dist(second, "other-3.dist-info", "name: Other\nversion: 3\nName: Later\n", "[undercroft]\nbeta = other.sub:a.b\n")
    dist(second, "nothing-1.dist-info", "Name: nothing\nVersion: 1\n", None)
    ours, theirs = both("undercroft")
    assert ours == theirs
    assert [name for name, *_ in ours][:3] == ["zeta", "alpha", "beta"]  # then the installed ones
    assert ours[0][3:] == ("Some-Plugin", "1.0 ")


@pytest.mark.parametrize("case", ["egg", "folded name", "no equals", "no version"])
def test_what_only_importlib_metadata_reads_is_left_to_it(sites, case):
    first, _ = sites
    if case == "egg":
        (first / "thing-1.0-py3.11.egg").mkdir()
    elif case == "folded name":
        dist(first, "x-1.dist-info", "Name: x\n  y\nVersion: 1\n", "[undercroft]\na = x\n")
    elif case == "no equals":
        dist(first, "x-1.dist-info", "Name: x\nVersion: 1\n", "[undercroft]\njust a module\n")
    else:
        dist(first, "x-1.dist-info", "Name: x\n", "[undercroft]\na = x\n")
    assert entrypoints.find("undercroft") is None


def test_load_imports_the_module_and_walks_to_the_object():
    ep = entrypoints.EntryPoint("x", "os.path : join", "g", entrypoints.Dist("d", "1"))
    import os.path

    assert ep.load() is os.path.join
    assert entrypoints.EntryPoint("x", "os.path", "g", entrypoints.Dist("d", "1")).load() is os.path
