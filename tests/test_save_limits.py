"""The writer writes only what the loader accepts.

The largest legal run (every limit of engine/kit/limits.py at its maximum at once) is written by
the keeper and read back whole, within MAX_FILE_BYTES; a run past a limit is never written as a
save the next start would move aside; and the issue's three reproductions are refused before play
or resume as the same run."""

import json
import time

import numpy as np
import pytest

from engine.cli.main import main
from engine.core.model.components import Actor, Carried, Equipped, Fighter, Inventory, Item, Monster, Sighted
from engine.core.model.requests import ChangeLevel
from engine.core.model.scheduler import TURN_COST
from engine.core.model.state import KeptLevel
from engine.core.play.session import Session
from engine.core.play.setup import Setup
from engine.core.turn import inventory
from engine.core.turn.inventory import LETTERS
from engine.core.turn.looks import item_look
from engine.kit import limits
from engine.kit.mapgen import FLOOR, STAIRS, UPSTAIRS, Level, Rect
from engine.persist import keeper, runsave


def the_keeper(game) -> keeper.Keeper:
    return next(listener for listener in game.listeners if isinstance(listener, keeper.Keeper))


def largest_legal_run(tmp_path, registry):
    """A game with every limit at its maximum at once: a MAX_MAP_SIDE² map played from a --map file
    (so the save holds it twice: the level and its source), MAX_ENTITIES entities carrying every
    saved component with the largest values, MAX_ROOMS rooms and MAX_ENTITIES spawns on both levels,
    MAX_REMEMBERED items remembered, MAX_STREAMS random streams, plugins' data of
    MAX_PLUGIN_DATA_BYTES, MAX_MESSAGES messages of
    MAX_MESSAGE_CHARS characters that each take 12 bytes of JSON, MAX_KEYS keys of 23 bytes each (the
    longest travel token), and the largest counters."""
    side = limits.MAX_MAP_SIDE
    rows = ["#" * side, "#@" + "." * (side - 3) + "#", *(["#" + "." * (side - 2) + "#"] * (side - 3)), "#" * side]
    (tmp_path / "big.txt").write_text("\n".join(rows) + "\n")
    game = keeper.open_game(Setup(map_file=str(tmp_path / "big.txt"), seed=limits.MAX_SEED), registry)
    state, world = game.state, game.world
    cells = ((x, y) for y in range(2, side - 1) for x in range(1, side - 1))
    kinds = sorted(registry.monsters)
    for i in range(limits.MAX_ENTITIES - 1 - limits.MAX_PACK):  # and the pack and the player: MAX_ENTITIES
        x, y = next(cells)
        if i % 2:
            entity = game.spawn_item("potion" if i % 4 == 1 else "gold", x, y, limits.MAX_STAT)
        else:
            kind = kinds[i // 2 % len(kinds)]
            entity = game.spawn_monster(kind, x, y)
            world.get(entity, Monster).sight = limits.MAX_MAP_SIDE
            world.get(entity, Actor).speed = limits.MAX_SPEED
            world.add(entity, Fighter(*[limits.MAX_STAT] * 4))
            world.get(entity, Monster).awake = True
            world.add(entity, Sighted())  # said once: "You see a goblin."
            game.declared[entity] = (world, "x" * limits.MAX_DECLARED_CHARS)  # what its behaviour said
            energy = -limits.MAX_ENERGY_DEBT if i % 4 else TURN_COST + limits.MAX_SPEED
            state.scheduler.add(entity, limits.MAX_SPEED, energy)
    world.add(game.player, Fighter(*[limits.MAX_STAT] * 4))
    world.add(game.player, Inventory(gold=limits.MAX_STAT))
    items = sorted(registry.items.values(), key=lambda k: k.name)
    for letter, kind in zip(LETTERS, (items * limits.MAX_PACK)[: limits.MAX_PACK], strict=True):
        item = world.create(Item(kind.name, limits.MAX_STAT), Carried(letter), item_look(kind))
        if kind.use == "wear" and not inventory.worn(game, kind.slot):
            world.add(item, Equipped(kind.slot))
    for level in (state.level, game.level_source):
        level.rooms = [Rect(side - 1, side - 1, side, side)] * limits.MAX_ROOMS
        level.spawns = [("goblin", side - 1, side - 1)] * limits.MAX_ENTITIES
        level.generator = "g" * 100
    state.view.seen[:] = True
    # kept levels at their limits: MAX_KEPT_LEVELS levels of MAX_KEPT_CELLS cells in all, all seen
    # (the entities are all in play above: a kept thing costs the save what a thing in play does)
    shapes = [(side - 1, side)] * 2
    shapes += [(2, (limits.MAX_KEPT_CELLS - 2 * side * (side - 1)) // (2 * (limits.MAX_KEPT_LEVELS - 2)))] * (
        limits.MAX_KEPT_LEVELS - 2)
    for depth, (h, w) in enumerate(shapes, start=2):
        terrain = np.full((h, w), FLOOR, dtype=np.uint8)
        terrain[0, 0], terrain[0, 1] = UPSTAIRS, STAIRS
        kept = Level(terrain, (0, 0), (1, 0), upstairs=(0, 0), generator="g" * 100)
        state.kept[depth] = KeptLevel(kept, np.ones((h, w), dtype=bool))
    assert sum(k.cells for k in state.kept.values()) <= limits.MAX_KEPT_CELLS
    # MAX_REMEMBERED items remembered, half on the level, half on a kept one: three-digit cells,
    # under the longest name of a kind
    longest = max(registry.items, key=len)
    far = [(x, y) for y in range(100, side - 1) for x in range(100, side - 1)][: limits.MAX_REMEMBERED]
    state.view.items = dict.fromkeys(far[: limits.MAX_REMEMBERED // 2], longest)
    state.kept[2].items = dict.fromkeys(far[limits.MAX_REMEMBERED // 2:], longest)
    assert sum(k.cells for k in state.kept.values()) > limits.MAX_KEPT_CELLS * 0.99
    for i in range(limits.MAX_STREAMS):
        game.rng(f"stream:{i:0{limits.MAX_LABEL_CHARS - 7}d}").gauss(0, 1)  # a float in the state too
    # the plugins' data at its budget, in characters that each take 12 bytes of JSON
    state.plugin_data["p" * 100] = {"log": "\U0001f600" * ((limits.MAX_PLUGIN_DATA_BYTES - 200) // 12)}
    state.log.clear()
    for _ in range(limits.MAX_MESSAGES):
        game.log("\U0001f600" * limits.MAX_MESSAGE_CHARS)  # 12 bytes each as JSON: \ud83d\ude00
    state.turn, state.run_number, state.depth = limits.MAX_STAT, limits.MAX_STAT, limits.MAX_DEPTH
    the_keeper(game).keys = ["travel:999,999:10000"] * limits.MAX_KEYS  # the longest key: 23 bytes each
    return game


def test_the_largest_legal_run_is_written_and_read_back_whole(home, tmp_path, registry, capsys):
    t0 = time.perf_counter()
    game = largest_legal_run(tmp_path, registry)
    built = time.perf_counter() - t0
    capsys.readouterr()
    the_keeper(game).save(game)
    assert capsys.readouterr().err == ""  # written, not refused
    size = (home / "run.json").stat().st_size
    assert size <= limits.MAX_FILE_BYTES
    # it is the largest: the limits are what fill the file (most of it: the rest is headroom for
    # what plugins keep on their own components and statuses)
    assert size > limits.MAX_FILE_BYTES * 0.8
    before = runsave.capture(game, the_keeper(game).keys)
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert capsys.readouterr().err == ""
    assert resumed.turn == limits.MAX_STAT and len(resumed.world.entities()) == limits.MAX_ENTITIES
    assert runsave.capture(resumed, the_keeper(resumed).keys) == before
    assert len(json.dumps(resumed.state.plugin_data)) > limits.MAX_PLUGIN_DATA_BYTES * 0.99  # kept whole
    remembered = {**resumed.api.remembered(), **resumed.state.kept[2].items}
    assert len(remembered) == limits.MAX_REMEMBERED
    assert remembered == {**game.api.remembered(), **game.state.kept[2].items}
    print(f"largest legal save: {size:,} bytes of {limits.MAX_FILE_BYTES:,} (built in {built:.1f} s)")


def test_a_run_past_a_limit_is_not_written_and_its_last_save_point_stands(home, registry, capsys):
    game = keeper.open_game(Setup(seed=3), registry)
    Session.of(game).press("l")
    Session.of(game).press("esc")
    saved = (home / "run.json").read_bytes()
    game = keeper.open_game(Setup(), registry, choice="continue")
    game.state.turn = limits.MAX_COUNT + 1  # past what a save holds (no run plays this long)
    capsys.readouterr()
    the_keeper(game).save(game)  # a save point
    Session.of(game).press("esc")  # and the quit's: each one not written says so
    err = capsys.readouterr().err
    line = (f"this run cannot be saved (turn: expected a whole number in 0..{limits.MAX_COUNT}, got "
            f"{limits.MAX_COUNT + 1}); it would resume from its last save point (depth 1, turn 1)")
    assert err.count("\n") == 2 and err.count(line) == 2, err
    assert (home / "run.json").read_bytes() == saved  # never a save the next start would move aside


def test_ten_thousand_and_one_messages_then_escape_resume(home, capsys):
    """Defect 1: ``--seed 3`` with 10,001 presses of ``q`` then Escape, then start again."""
    assert main(["--headless", "--seed", "3", "--keys", " ".join(["q"] * 10_001) + " esc"]) == 0
    capsys.readouterr()
    assert main(["--headless", "--keys", "l", "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and not list(home.glob("*.corrupt-*"))  # resumed, not moved aside
    state = json.loads(out)
    assert state["seed"] == 3 and len(state["messages"]) <= limits.MAX_MESSAGES
    assert json.loads((home / "run.json").read_text())["keys"][:2] == ["q", "q"]


def test_a_map_wider_than_a_save_holds_is_refused_before_play(home, tmp_path, capsys):
    """Defect 1: a 1001-wide ``--map`` was played, saved, and moved aside at the next start."""
    side = limits.MAX_MAP_SIDE + 1
    path = tmp_path / "wide.txt"
    path.write_text("#" * side + "\n#@" + "." * (side - 3) + "#\n" + "#" * side + "\n")
    assert main(["--headless", "--map", str(path), "--keys", "l"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the map is 1001x3 characters: each side must be 1..1000" in err, err
    assert not (home / "run.json").exists()


@pytest.mark.parametrize("seed", [str(2**64), str(2**63), "-1"])
def test_a_seed_beyond_what_a_save_holds_is_refused_before_play(home, capsys, seed):
    """Defect 1: a seed of 2^64 (the preset's case is tests/test_presets_hostile.py)."""
    assert main(["--headless", "--seed", seed, "--keys", "l"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"expected 0..{limits.MAX_SEED}" in err, err
    assert not home.exists() or not (home / "run.json").exists()


def test_a_plugins_lone_surrogate_in_a_message_is_saved_and_resumed(home, registry, capsys):
    game = keeper.open_game(Setup(seed=3), registry)
    game.log("a \ud800 from a plugin")
    Session.of(game).press("esc")
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert capsys.readouterr().err == ""
    assert resumed.messages[-1] == "a \\ud800 from a plugin"


def test_the_run_keeps_no_stream_per_depth(home, registry):
    game = keeper.open_game(Setup(seed=2), registry)
    for depth in range(2, 8):
        game.apply(ChangeLevel(depth))  # as the stairs would
        Session.of(game).press(".")
    assert game.depth == 7 and any(game.world.query(Monster))
    assert not [label for label, _ in game.state.streams.items() if label.startswith("spawn:")]


def test_an_action_costing_a_billion_leaves_a_debt_a_save_holds(home, registry, capsys):
    game = keeper.open_game(Setup(seed=3), registry)
    game.state.scheduler.spend(game.player, 10**9)  # a plugin's absurd action
    assert game.scheduler.energy[game.player] == -limits.MAX_ENERGY_DEBT
    Session.of(game).press("esc")
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert capsys.readouterr().err == "" and resumed.scheduler.energy[resumed.player] == -limits.MAX_ENERGY_DEBT


def test_placing_stops_at_the_most_entities_a_save_holds(home, registry, capsys):
    import dataclasses

    from engine.core.turn.game import Game

    rules = dataclasses.replace(registry.games["undercroft"], width=250, height=250, monster_count=(10_000, 0, 0, 0),
                                item_counts={"potion": (10_000, 10_000), "gold": (10_000, 10_000)})
    game = Game(registry, rules, 5)
    game.listeners.append(keeper.Keeper(game, keeper.claim()))
    game.start()
    assert len(game.world.entities()) == limits.MAX_ENTITIES
    Session.of(game).press("esc")
    assert capsys.readouterr().err == ""  # saved
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert len(resumed.world.entities()) == limits.MAX_ENTITIES


def test_a_run_longer_than_a_replay_holds_stops_recording_with_one_line(home, registry, capsys):
    game = keeper.open_game(Setup(seed=3), registry)
    the_keeper(game).keys = ["."] * (limits.MAX_KEYS - 1)
    for token in "l l j".split():
        Session.of(game).press(token)
    assert len(the_keeper(game).keys) == limits.MAX_KEYS and the_keeper(game).keys[-1] == "l"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"longer than a replay holds ({limits.MAX_KEYS} keys)" in err, err
    Session.of(game).press("esc")
    assert capsys.readouterr().err == ""  # said once; and the run is saved
    assert len(json.loads((home / "run.json").read_text())["keys"]) == limits.MAX_KEYS


def test_the_file_layer_never_writes_what_it_would_not_read(home):
    from engine.persist import files

    path = home / "big.json"
    with pytest.raises(files.BadFile, match="too big to be read back"):
        files.write_json(path, "x", 1, {"text": "x" * limits.MAX_FILE_BYTES})
    assert not path.exists()
    files.write_json(path, "x", 1, {"text": "x" * (limits.MAX_FILE_BYTES - 100)})
    assert len(files.read_json(path, "x", 1)["text"]) == limits.MAX_FILE_BYTES - 100
