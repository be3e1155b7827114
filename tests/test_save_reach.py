"""Every run can always be saved: what play can reach and what a save holds agree.

A run's things (in play and on kept levels) stay within MAX_ENTITIES, kept levels forgetting the
farthest first; a value past a limit is refused where it enters (the game API, content), in one
line naming the value and the limit, and the run is saved; the largest run play makes (levels of
the largest legal size, each populated to the limit, kept levels, a full pack, a full log, every
random stream, the plugins' data at its budget) is saved and read back whole."""

from __future__ import annotations

import dataclasses
import json
import textwrap

import pytest

from engine import load_registry
from engine.cli.main import main
from engine.core.model.components import Carried, Inventory, Item
from engine.core.model.requests import ChangeLevel
from engine.core.play.session import Session
from engine.core.play.setup import Setup
from engine.core.turn.game import Game
from engine.kit import limits
from engine.persist import keeper, runsave
from engine.plugins.depths import identify


def things(state) -> int:
    """The run's entities: in play (the player and the pack included) and on kept levels."""
    return len(state.world.entities()) + sum(len(kept.things) for kept in state.kept.values())


def the_keeper(game) -> keeper.Keeper:
    return next(listener for listener in game.listeners if isinstance(listener, keeper.Keeper))


def kept_game(registry, width: int, height: int, **changes) -> Game:
    """The default game (which keeps its levels) at a size, with the preset's fields changed, played
    with a keeper as the command line plays it."""
    rules = dataclasses.replace(registry.games["undercroft"], width=width, height=height, **changes)
    game = Game(registry, rules, 5)
    game.listeners.append(keeper.Keeper(game, keeper.claim()))
    game.start()
    return game


def renumbered(data: dict) -> dict:
    """A captured run with its entity ids as a resume makes them: 1, 2, ... in the same order."""
    new = {row["id"]: i for i, row in enumerate(data["entities"], start=1)}
    return {**data, "entities": [{**row, "id": new[row["id"]]} for row in data["entities"]],
            "scheduler": {"player": [new[data["scheduler"]["player"][0]], *data["scheduler"]["player"][1:]],
                          "actors": sorted([new[e], *rest] for e, *rest in data["scheduler"]["actors"])},
            "last_target": new.get(data["last_target"]),
            "declared": sorted([new[e], word] for e, word in data["declared"])}


def resumed_whole(game, registry, capsys) -> Game:
    """Save ``game`` (nothing said), resume it, and check the resumed run is the saved one."""
    capsys.readouterr()
    the_keeper(game).save(game)
    assert capsys.readouterr().err == ""  # written, not refused
    before = renumbered(runsave.capture(game, the_keeper(game).keys))
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert capsys.readouterr().err == ""
    assert renumbered(runsave.capture(resumed, the_keeper(resumed).keys)) == before
    return resumed


def test_kept_levels_make_room_for_a_new_levels_things(home, registry, capsys):
    """The issue's run with many items per level: depth 4 was 'this run cannot be saved', and the
    resume went back to depth 1. Now the farthest kept level is forgotten to make room."""
    game = kept_game(registry, 120, 80, item_counts={"potion": (3000, 3000)})
    for depth in range(2, 7):
        game.apply(ChangeLevel(depth))  # as the stairs would
        Session.of(game).press(".")
        assert things(game.state) <= limits.MAX_ENTITIES
    # the deepest levels are kept, the first ones forgotten (made anew on return)
    assert sorted(game.state.kept) == [4, 5] and len(game.world.entities()) > 3000
    resumed = resumed_whole(game, registry, capsys)
    assert resumed.depth == 6 and sorted(resumed.state.kept) == [4, 5]
    resumed.apply(ChangeLevel(5, up=True))  # a kept level is found as it was left
    Session.of(resumed).press(".")
    assert things(resumed.state) <= limits.MAX_ENTITIES and 5 not in resumed.state.kept


def test_the_largest_run_play_makes_is_saved_and_read_back_whole(home, registry, capsys):
    """Levels of the largest legal size, populated (3000 potions and the monsters each), left and
    found again (kept within MAX_KEPT_CELLS), the run then filled to MAX_ENTITIES things with
    stacks of MAX_STAT, a pack of MAX_PACK letters, a log of MAX_MESSAGES messages of
    MAX_MESSAGE_CHARS, MAX_STREAMS random streams and the plugins' data at MAX_PLUGIN_DATA_BYTES:
    all through play and the game API."""
    side = limits.MAX_MAP_SIDE
    game = kept_game(registry, side, side, item_counts={"potion": (3000, 3000)})
    for depth, up in ((2, False), (3, False), (2, True), (1, True)):  # level 2 found again, level 1 made anew
        game.apply(ChangeLevel(depth, up=up))
        Session.of(game).press(".")
    assert sorted(game.state.kept) == [2, 3]  # two levels of a million cells: MAX_KEPT_CELLS
    api = game.api
    wearables = sorted(k.name for k in registry.items.values() if not k.stacks)
    api.give("potion", limits.MAX_STAT - 1)
    api.give("potion", limits.MAX_STAT)  # onto that stack: it saturates
    for i in range(limits.MAX_PACK + 3):  # one letter each; three more than the pack holds: refused
        api.give(wearables[i % len(wearables)], 1)
    for _ in range(limits.MAX_MESSAGES + 5):
        api.log("\U0001f600" * (limits.MAX_MESSAGE_CHARS + 5))  # cut to what the log keeps
    while game.state.streams.count() < limits.MAX_STREAMS:
        api.rng(f"{game.state.streams.count():0{limits.MAX_LABEL_CHARS}d}")
    with pytest.raises(ValueError, match="the most a run save holds"):
        api.rng("one stream too many")
    identify.learn_all(api)  # the default game's names, drawn before the rest of the data is filled
    used = len(json.dumps(game.state.plugin_data))
    api.data("big")["log"] = "x" * (limits.MAX_PLUGIN_DATA_BYTES - 40 - used)
    state = game.state
    x, y = game.level.start
    near = [(x + dx, y + dy) for dy in range(-50, 50) for dx in range(-50, 50)]
    cells = iter([cell for cell in near if not api.is_wall(*cell)])
    while things(state) < limits.MAX_ENTITIES:  # the rest of the room, under the player's eyes
        assert api.spawn("potion", *next(cells), limits.MAX_STAT) is not None
    assert len(list(game.world.query(Carried))) == limits.MAX_PACK
    assert things(state) == limits.MAX_ENTITIES and len(state.kept) == 2
    assert sum(k.cells for k in state.kept.values()) == limits.MAX_KEPT_CELLS
    assert len(state.log) == limits.MAX_MESSAGES
    resumed = resumed_whole(game, registry, capsys)
    size = (home / "run.json").stat().st_size
    assert size <= limits.MAX_FILE_BYTES
    assert resumed.depth == 1 and sorted(resumed.state.kept) == [2, 3]
    assert max(resumed.world.get(e, Item).amount for e, _ in resumed.world.query(Carried)) == limits.MAX_STAT
    print(f"largest run play makes: {size:,} bytes of {limits.MAX_FILE_BYTES:,}")


GREEDY = '''
from engine import hookimpl

WHAT = {what!r}


@hookimpl
def on_turn_end(game):
    if game.turn != 2:
        return
    x, y = game.position(game.player)
    if WHAT == "give":
        game.give("potion", 10**15)
    elif WHAT == "spawn":
        game.spawn("potion", x, y, 0)
    elif WHAT == "status":
        game.add_status(game.player, "hasted", 10**15)
    elif WHAT == "status params":
        game.add_status(game.player, "hasted", 5, source=object())
    elif WHAT == "streams":
        for i in range(200):
            game.rng(f"greedy:{{i}}")
    elif WHAT == "spawns":
        for cy in range(game.rules.height):
            for cx in range(game.rules.width):
                game.spawn("potion", cx, cy)
'''

REFUSED = {
    "give": "give: amount 1000000000000000: expected a whole number in 1..1000000000 (what a run save holds)",
    "spawn": "spawn: amount 0: expected a whole number in 1..1000000000 (what a run save holds)",
    "status": "add_status: turns 1000000000000000: expected a whole number in 1..1000000000 (what a run save holds)",
    "status params": "add_status: params.source: expected a JSON value",
    "streams": "rng: a new label 'greedy:",
    "spawns": "spawn 'potion': the run holds 10000 things, the most a run save holds; nothing more is made",
}


@pytest.mark.parametrize("what", REFUSED)
def test_a_value_past_a_limit_is_refused_where_it_enters_and_the_run_is_saved(home, tmp_path, capsys, what):
    """The issue's give(..., 10**15), add_status(..., 10**15) and more than 10,000 spawns: once in, the
    run could no longer be saved, silently after the first line, and resumed from its start."""
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "greedy.py").write_text(textwrap.dedent(GREEDY.format(what=what)))
    argv = ["--headless", "--plugins-dir", str(tmp_path / "plugins")]
    assert main([*argv, "--new", "--seed", "3", "--size", "200x200", "--keys", ". . . . esc"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and REFUSED[what] in err and "Traceback" not in err, err
    assert main([*argv, "--keys", ".", "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["turn"] == 5  # resumed where the quit saved it


def test_a_kinds_number_past_what_a_save_holds_is_refused_when_it_loads(tmp_path):
    """The issue's item with ``turns = 10**14``: its haste made every later save fail. Now the kind
    alone is refused as its plugin loads, naming the value and the limit; the plugin's others stay."""
    (tmp_path / "brew.py").write_text(textwrap.dedent('''
        from engine import ItemKind, hookimpl

        @hookimpl
        def register_items(register):
            register(ItemKind(name="elixir", glyph="!", color=(10, 200, 90), effect="haste", use="quaff",
                              params={"turns": 10**14}))
            register(ItemKind(name="tonic", glyph="!", color=(10, 90, 200), effect="heal", use="quaff",
                              params={"amount": 3, "brewed": [3, {"deep": -10**9}]}))  # within: kept
    '''))
    registry = load_registry(plugins_dirs=[tmp_path], entry_points=False)
    assert "tonic" in registry.items and "elixir" not in registry.items
    (brew,) = [info for info in registry.plugins if info.name == "brew"]
    (skipped,) = [str(s) for s in brew.skipped]
    assert "params.turns: expected a number within -1000000000..1000000000 (what a run save holds), got " \
           "100000000000000" in skipped, skipped


def test_stacks_gold_and_stacked_turns_saturate_at_what_a_save_holds(home, registry, capsys, monkeypatch):
    monkeypatch.setitem(registry.statuses, "hasted", dataclasses.replace(registry.statuses["hasted"], stacking="add"))
    game = keeper.open_game(Setup(seed=3), registry)
    api = game.api
    first = api.give("potion", limits.MAX_STAT)
    assert api.give("potion", 5) == first and game.world.get(first, Item).amount == limits.MAX_STAT
    for _ in range(2):
        api.add_status(game.player, "hasted", limits.MAX_STAT - 1)
    assert api.statuses(game.player)["hasted"].turns == limits.MAX_STAT
    registry.effects["gold"](api, game.player, registry.items["gold"], limits.MAX_STAT)
    registry.effects["gold"](api, game.player, registry.items["gold"], 7)
    assert api.component(game.player, Inventory).gold == limits.MAX_STAT
    resumed_whole(game, registry, capsys)


def test_stairs_past_the_deepest_level_a_save_holds_lead_nowhere(home, registry, capsys):
    game = keeper.open_game(Setup(seed=3), registry)
    game.state.depth = limits.MAX_DEPTH
    game.apply(ChangeLevel(limits.MAX_DEPTH + 1))
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"level {limits.MAX_DEPTH + 1}: a run's levels are 1..{limits.MAX_DEPTH}" in err
    assert game.depth == limits.MAX_DEPTH and game.messages[-1] == "The way leads no further."
    resumed_whole(game, registry, capsys)


def test_plugin_data_past_its_budget_is_left_out_in_one_line_and_the_run_saved(home, registry, capsys):
    game = keeper.open_game(Setup(seed=3), registry)
    game.api.data("a-small")["n"] = 1
    game.api.data("b-huge")["log"] = ["x" * 1000] * (limits.MAX_PLUGIN_DATA_BYTES // 1000)
    capsys.readouterr()
    Session.of(game).press("esc")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "plugin 'b-huge': its data cannot be saved (" in err, err
    assert "all plugins' data may take in a save); the run is saved without it" in err
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert resumed.state.plugin_data == {"a-small": {"n": 1}} and capsys.readouterr().err == ""
