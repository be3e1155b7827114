"""A data folder that is a symbolic link leading nowhere (a loop, a missing target), or a FIFO,
is said as what it is, not as "a file": one line, and play goes on without saving."""

from __future__ import annotations

import os

import pytest

from engine.cli.main import main

needs_links = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="needs symbolic links")


@needs_links
@pytest.mark.parametrize(("make", "words"), [
    (lambda d: os.symlink(d / "home", d / "home"), "home is a symbolic link in a loop, not a folder"),
    (lambda d: (os.symlink(d / "b", d / "a"), os.symlink(d / "a", d / "b")), "a is a symbolic link in a loop"),
    (lambda d: os.symlink(d / "nowhere" / "x", d / "home"), "home is a symbolic link to nothing, not a folder"),
    (lambda d: (d / "home").write_text("x"), "home is a file, not a folder"),
    (lambda d: os.mkfifo(d / "home"), "home is a named pipe (FIFO), not a folder"),
])
def test_a_data_folder_that_is_no_folder_is_named_for_what_it_is(tmp_path, monkeypatch, capsys, make, words):
    from faults import fresh_process

    make(tmp_path)
    home = tmp_path / "home"
    if not (home.is_symlink() or home.exists()):
        home = tmp_path / "a" / "sub"  # a folder inside a loop of two links
    monkeypatch.setenv("UNDERCROFT_HOME", str(home))
    fresh_process()
    try:
        assert main(["--headless", "--new", "--seed", "1", "--keys", "l"]) == 0
    finally:
        fresh_process()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "nothing will be saved" in err, err
