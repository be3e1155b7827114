"""A window's new run puts its first writes off until its first frame (``open_game(settle_later=True)``):
the slot is claimed at once, the profile's count and the first save point come at ``settle``, or
before the first event of a key, or at the session's end, whichever is first, and in their order."""

import json

from engine.core.play.session import Session
from engine.core.play.setup import Setup
from engine.persist import keeper, lock


def profile(home) -> dict:
    return json.loads((home / "profile.json").read_text())


def test_settle_writes_the_count_then_the_first_save_point(home, registry):
    game = keeper.open_game(Setup(seed=3), registry, settle_later=True)
    assert not (home / "run.json").exists() and not (home / "profile.json").exists()
    keeper.settle(game)
    assert (home / "run.json").exists()
    assert profile(home)["runs"] == 1 and profile(home)["deepest"] == 1
    keeper.settle(game)  # once only
    assert profile(home)["runs"] == 1
    keeper.close(game)


def test_the_slot_is_claimed_before_anything_is_written(home, registry):
    game = keeper.open_game(Setup(seed=3), registry, settle_later=True)
    try:
        lock.acquire_run(home / "run.json")
    except lock.RunBusy:
        pass
    else:
        raise AssertionError("a second player took the slot of a run not yet settled")
    keeper.close(game)


def test_a_key_before_settle_counts_the_run_first_and_saves_at_its_end(home, registry):
    game = keeper.open_game(Setup(seed=3), registry, settle_later=True)
    Session.of(game).press(".")
    assert profile(home)["runs"] == 1
    saved = json.loads((home / "run.json").read_text())
    assert saved["turn"] == game.turn >= 1  # the key's own save point, not the start's
    keeper.settle(game)  # nothing left to write: the key saved its new level
    assert json.loads((home / "run.json").read_text())["turn"] == saved["turn"]
    keeper.close(game)


def test_a_session_that_ends_unsettled_still_counts_and_saves(home, registry):
    game = keeper.open_game(Setup(seed=3), registry, settle_later=True)
    keeper.close(game)
    assert profile(home)["runs"] == 1 and (home / "run.json").exists()


def test_a_failed_session_counts_the_run_but_writes_no_save(home, registry):
    game = keeper.open_game(Setup(seed=3), registry, settle_later=True)
    keeper.close(game, failed=True)
    assert profile(home)["runs"] == 1 and not (home / "run.json").exists()


def test_the_window_settles_after_its_first_frame(home, tmp_path):
    from engine.cli.main import main

    assert main(["--headless", "--new", "--seed", "3", "--shot", str(tmp_path / "x.png")]) == 0
    assert (home / "run.json").exists() and profile(home)["runs"] == 1


def test_a_plugin_failing_in_the_first_key_leaves_no_save_of_the_new_run(home, tmp_path, monkeypatch, capsys):
    """Mid-key (a chosen plugin failed): the window's settle writes no save point of that state."""
    from engine.cli.main import main
    from engine.core.plugin.isolation import PluginFailure

    def fail(self, token, *args, **kwargs):
        raise PluginFailure("odd", "a test's key", RuntimeError("broken"))

    monkeypatch.setattr(Session, "press", fail)
    assert main(["--headless", "--new", "--seed", "3", "--keys", "l", "--shot", str(tmp_path / "x.png")]) != 0
    assert "plugin 'odd' failed" in capsys.readouterr().err
    assert not (home / "run.json").exists() and profile(home)["runs"] == 1
