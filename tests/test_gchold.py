"""engine.core.gchold: the program holds Python's garbage collector while it starts, and only the program."""

import gc
import sys

import pytest

from engine.cli.main import main
from engine.core import gchold
from engine.persist import keeper


@pytest.fixture
def collector():
    was = gc.isenabled()
    gc.enable()
    yield
    gchold.release()
    if not was:
        gc.disable()


def test_hold_and_release(collector):
    gchold.release()  # no hold in force: nothing happens
    assert gc.isenabled()
    gchold.hold()
    assert not gc.isenabled()
    gchold.release()
    assert gc.isenabled() and gc.get_freeze_count() > 0
    gc.unfreeze()


def test_a_collector_turned_off_by_the_caller_stays_off(collector):
    gc.disable()
    gchold.hold()
    gchold.release()
    assert not gc.isenabled()


def _watch_open_game(monkeypatch) -> list[bool]:
    seen: list[bool] = []
    open_game = keeper.open_game

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return open_game(*args, **kwargs)

    monkeypatch.setattr(keeper, "open_game", watched)
    return seen


def test_the_program_plays_its_start_held_and_ends_collecting(collector, home, monkeypatch, capsys):
    seen = _watch_open_game(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["undercroft", "--headless", "--new", "--keys", "l"])
    assert main() == 0
    assert seen == [False]  # the run was built with the collector held
    assert gc.isenabled()
    gc.unfreeze()


def test_a_callers_main_never_holds(collector, home, monkeypatch, capsys):
    seen = _watch_open_game(monkeypatch)
    assert main(["--headless", "--new", "--keys", "l"]) == 0
    assert seen == [True] and gc.isenabled() and gc.get_freeze_count() == 0
