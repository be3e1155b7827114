"""Persistent levels and the win: levels kept when left and found as they were,
stairs up on each, the Amulet on the deepest level, carried out of the first to win; a save keeps
every level; the presets make each level anew as their sources do."""

import json

import numpy as np
import pytest

from engine import load_registry
from engine.cli.main import main
from engine.core.model.components import Monster, Position
from engine.core.model.requests import ChangeLevel, NewRun
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import dumps, snapshot
from engine.core.turn import levels
from engine.core.turn.actions import Descend
from engine.kit import limits
from engine.kit.mapgen import STAIRS, UPSTAIRS
from engine.persist import keeper, runsave

AMULET = "Amulet of the Undercroft"


@pytest.fixture(scope="module")
def registry():
    return load_registry(entry_points=False)


def to(game, cell):
    """Put the player on a cell at once (a test's shortcut, not a move)."""
    game.move_entity(game.player, *cell)


def down(game):
    to(game, game.level.stairs)
    assert Session.of(game).press(">").changed


def up(game):
    to(game, game.level.upstairs)
    assert Session.of(game).press("<").changed


def things(game):
    """The level's things as plain data, to compare a level before and after."""
    s = snapshot(game)
    return s["monsters"], s["items"], int(game.floor.seen.sum()), game.level.rows()


def test_every_level_has_stairs_up_on_its_start(registry):
    g = new_game(Setup(seed=5), registry)
    for depth in (1, 2, 3):
        assert g.depth == depth and g.level.upstairs == g.level.start
        x, y = g.level.upstairs
        assert g.level.terrain[y, x] == UPSTAIRS and g.position(g.player) == (x, y)
        assert "<" in "".join(g.level.rows())
        down(g)


def test_a_level_left_is_found_as_it_was_and_time_stood_still(registry):
    g = new_game(Setup(seed=7), registry)
    for _ in range(3):
        Session.of(g).press(".")
    before = things(g)
    awake_before = sorted(g.world.get(e, Monster).awake for e, _ in g.world.query(Monster))
    down(g)
    assert g.depth == 2 and snapshot(g)["levels"] == [1, 2]
    # kept without what only populating reads: a kept level's save is bounded by its cells and things
    assert g.state.kept[1].level.rooms == [] and g.state.kept[1].level.spawns == []
    for _ in range(5):
        Session.of(g).press(".")
    up(g)
    assert g.depth == 1 and g.messages[-1].startswith("You climb to depth 1")
    assert g.position(g.player) == g.level.stairs  # arrived on the stairs down
    monsters, items, seen, rows = things(g)
    assert (monsters, items, rows) == (before[0], before[1], before[3]) and seen >= before[2]
    assert sorted(g.world.get(e, Monster).awake for e, _ in g.world.query(Monster)) == awake_before
    down(g)
    assert g.depth == 2 and g.position(g.player) == g.level.upstairs


def test_what_the_player_drops_stays_on_the_level(registry):
    g = new_game(Setup(seed=7), registry)
    g.give("potion")
    free = next((x, y) for y in range(g.level.height) for x in range(g.level.width)
                if g.level.terrain[y, x] == 1 and not g.api.entities_at(x, y))
    to(g, free)
    Session.of(g).press("d")
    down(g)
    up(g)
    assert {"kind": "potion", "x": free[0], "y": free[1], "amount": 1} in snapshot(g)["items"]


def test_a_save_keeps_every_level_and_resumes_the_same(registry):
    g = new_game(Setup(seed=11), registry)
    down(g)
    down(g)
    data = json.loads(json.dumps(runsave.capture(g)))
    assert [k["depth"] for k in data["kept"]] == [1, 2]
    h, _ = runsave.load(data, registry)
    assert dumps(h) == dumps(g)
    for game in (g, h):
        up(game)
        up(game)
    assert dumps(h) == dumps(g) and h.depth == 1


def test_climbing_out_without_the_amulet_is_refused_and_takes_no_time(registry):
    g = new_game(Setup(seed=3), registry)
    s = snapshot(g)
    Session.of(g).press("<")
    after = snapshot(g)
    assert after["messages"][-1] == "You cannot leave without the Amulet of the Undercroft."
    assert after["turn"] == s["turn"] and not after["won"]


def test_the_deepest_level_has_the_amulet_guarded_and_no_stairs_down(registry):
    g = new_game(Setup(seed=3), registry)
    g.apply(ChangeLevel(10))
    assert g.level.stairs is None and not (g.level.terrain == STAIRS).any()
    amulet = [i for i in snapshot(g)["items"] if i["kind"] == AMULET]
    assert len(amulet) == 1
    ax, ay = amulet[0]["x"], amulet[0]["y"]
    guards = [m for m in snapshot(g)["monsters"] if max(abs(m["x"] - ax), abs(m["y"] - ay)) == 1]
    assert len(guards) >= 2
    toughest = max(k.hp for k in g.api.monster_kinds())
    assert any(g.monster_kind(m["kind"]).hp == toughest for m in guards)


def test_the_amulet_lies_under_a_creature_standing_on_the_farthest_cell(registry):
    # seed 219's depth 10 has a monster where the Amulet goes: placing it stopped the game (sim found it)
    g = new_game(Setup(seed=219), registry)
    g.apply(ChangeLevel(10))
    amulet = next(i for i in snapshot(g)["items"] if i["kind"] == AMULET)
    assert [(m["x"], m["y"]) for m in snapshot(g)["monsters"]].count((amulet["x"], amulet["y"])) == 1
    assert [i for i in snapshot(g)["items"] if (i["x"], i["y"]) == (amulet["x"], amulet["y"])] == [amulet]


def test_carrying_the_amulet_out_wins_and_the_run_is_over(registry, home):
    g = keeper.open_game(Setup(seed=3), registry)
    assert (home / "run.json").exists()
    g.give(AMULET)
    Session.of(g).press("<")
    s = snapshot(g)
    assert s["won"] and s["alive"] and s["messages"][-1].endswith("You have won!")
    assert not (home / "run.json").exists()  # a won run is over: nothing to resume
    turn = s["turn"]
    for key in ("l", ".", ">", "o", "g"):
        Session.of(g).press(key)
    assert snapshot(g)["turn"] == turn  # nothing more happens but a new run
    assert main(["scores", "--json"]) == 0
    morgues = list((home / "morgue").glob("*.txt")) if (home / "morgue").exists() else list(home.glob("morgue*"))
    assert morgues and "won on turn" in morgues[0].read_text()


def test_a_win_is_counted_in_the_profile_and_the_replay_ends_there(home, capsys):
    assert main(["--headless", "--new", "--seed", "3", "--keys", "l"]) == 0
    capsys.readouterr()
    data = json.loads((home / "run.json").read_text())
    player = next(row for row in data["entities"] if "Player" in row)
    next_id = max(row["id"] for row in data["entities"]) + 1
    data["entities"].append({"id": next_id, "Item": {"kind": AMULET, "amount": 1}, "Carried": {"letter": "a"}})
    (home / "run.json").write_text(json.dumps(data))
    x, y = data["level"]["upstairs"]
    px, py = player["Position"]["x"], player["Position"]["y"]
    back = {(-1, 0): "h", (1, 0): "l", (0, -1): "k", (0, 1): "j"}[(x - px, y - py)]
    assert main(["--headless", "--keys", f"{back} <", "--dump", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["won"]
    assert main(["scores", "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["escapes"] == 1 and scores["deaths"] == 0
    assert main(["scores"]) == 0
    assert "Wins 1" in capsys.readouterr().out
    replay = json.loads((home / "last-run.replay.json").read_text())
    assert replay["keys"][-1] == "<"


def test_the_presets_make_each_level_anew(registry):
    for name in ("rogue-sdl", "bunyip"):
        g = new_game(Setup(game=name, seed=3), registry)
        if g.level.stairs is None:
            continue
        assert g.level.upstairs is None
        to(g, g.level.stairs)
        g.take_turn(Descend())
        assert g.state.kept == {} and g.level.upstairs is None and snapshot(g)["levels"] == [2]


def test_kept_levels_past_the_limit_forget_the_farthest(registry, monkeypatch):
    monkeypatch.setattr(limits, "MAX_KEPT_LEVELS", 2)
    g = new_game(Setup(seed=5), registry)
    for _ in range(4):
        down(g)
    assert g.depth == 5 and sorted(g.state.kept) == [3, 4]
    up(g)
    up(g)
    up(g)  # depth 2 was forgotten: made anew, the same level from its stream
    assert g.depth == 2 and sorted(g.state.kept) == [3, 4]


def test_a_creature_on_the_arrival_stairs_steps_aside(registry):
    g = new_game(Setup(seed=7), registry)
    stairs = g.level.stairs
    down(g)
    kept = g.state.kept[1]
    first = next(c for c, _ in kept.things if any(isinstance(x, Monster) for x in c))
    pos = next(x for x in first if isinstance(x, Position))
    pos.x, pos.y = stairs  # a monster of depth 1 stands on its stairs down
    up(g)
    assert g.position(g.player) == stairs
    cells = [(m["x"], m["y"]) for m in snapshot(g)["monsters"]]
    assert stairs not in cells and len(cells) == len(set(cells)) == sum(
        1 for c, _ in kept.things if any(isinstance(x, Monster) for x in c))


def test_a_kept_monster_where_the_player_stands_on_the_level_left_comes_back_where_it_was(registry):
    """A monster of the kept level stood on the cell whose coordinates the player stood on, on the
    level being left (an ally on depth 4 at (76, 35), the player on depth 5's stairs up there): the
    player was still on the map at that cell while the kept level's things came back, and the game
    crashed ("entity 341 cannot stand on (76, 35): entity 1 is there", sim seed 476 once the
    delver read teleports)."""
    g = new_game(Setup(seed=7), registry)
    down(g)
    kept = g.state.kept[1]
    first = next(c for c, _ in kept.things if any(isinstance(x, Monster) for x in c))
    pos = next(x for x in first if isinstance(x, Position))
    # a cell that is floor on both levels, free on depth 2, and not depth 1's stairs down
    here = g.level.terrain
    free = [(x, y) for y, x in zip(*np.nonzero((here == 1) & (kept.level.terrain == 1)), strict=True)
            if g.state.spatial.blocker_at(x, y) is None and (x, y) != kept.level.stairs]
    where = (int(free[0][0]), int(free[0][1]))
    pos.x, pos.y = where
    to(g, where)  # the player stands there on depth 2 as it goes (a test's shortcut: the level changes)
    g.enter_level(1, up=True)
    assert g.depth == 1 and g.position(g.player) == kept.level.stairs
    cells = {(m["x"], m["y"]) for m in snapshot(g)["monsters"]}
    assert where in cells  # it is back where it stood, and nobody else is there


@pytest.mark.parametrize(("label", "change", "reason"), [
    ("a kept thing in a wall", lambda d: d["kept"][0]["things"][0]["Position"].update(x=0, y=0), "not wall"),
    ("the current depth kept", lambda d: d["kept"][0].update(depth=d["depth"]), "is the current level"),
    ("a player left behind", lambda d: d["kept"][0]["things"][0].update(Player={}), "the player's own things"),
    ("energy for a sleeper", lambda d: next(t for t in d["kept"][0]["things"] if "Monster" in t).update(
        energy=50, Monster={**next(t for t in d["kept"][0]["things"] if "Monster" in t)["Monster"], "awake": False}),
     "an awake monster has energy"),
    ("a depth kept twice", lambda d: d["kept"].append(d["kept"][0]), "listed twice"),
])
def test_a_hostile_kept_level_is_refused_in_one_line(registry, label, change, reason):
    g = new_game(Setup(seed=7), registry)
    down(g)
    data = json.loads(json.dumps(runsave.capture(g)))
    change(data)
    with pytest.raises(ValueError, match=reason) as e:
        runsave.load(data, registry)
    assert "\n" not in str(e.value)


def test_levels_module_stash_and_restore_are_inverse(registry):
    g = new_game(Setup(seed=9), registry)
    before = things(g)
    levels.stash(g.state)
    assert not any(True for _ in g.world.query(Monster))
    levels.restore(g.state, g.state.kept.pop(1))
    assert things(g)[:2] == before[:2]


def _same_ground(game, registry):
    """The game's ground for its level holds what one made afresh for that level holds."""
    from engine.core.model.ground import Ground

    ground, fresh = game.ground, Ground(game.level, registry.terrain)
    assert ground.level is game.level and ground.names == fresh.names
    for name in ("walkable", "transparent", "cost", "walk_lut", "clear_lut", "cost_lut"):
        assert np.array_equal(getattr(ground, name), getattr(fresh, name)), name
    assert (ground.transparent is ground.walkable) == (fresh.transparent is fresh.walkable)
    assert (ground.weighted, ground.hooked, ground.standing, ground.barring) == (
        fresh.weighted, fresh.hooked, fresh.standing, fresh.barring)


def test_a_level_found_again_finds_its_ground_as_a_new_one_would_be(registry):
    """The ground of a level left is kept for the player's return (stairs up and down again): found
    again, it is what a ground made afresh would be, the cells changed while the level was in play
    included; its revision moves on, so that the maps worked out on it before are made again."""
    g = new_game(Setup(seed=7), registry)
    first = g.ground
    x, y = next((x, y) for y in range(1, g.level.height - 1) for x in range(1, g.level.width - 1)
                if g.level.terrain[y, x] == 1 and not g.api.entities_at(x, y) and (x, y) != g.level.start)
    g.api.set_terrain(x, y, "wall")
    changed = first.revision
    down(g)
    second = g.ground
    assert second is not first
    _same_ground(g, registry)
    up(g)
    assert g.ground is first and first.revision > changed  # found again, one revision on
    _same_ground(g, registry)
    assert g.api.terrain(x, y).name != "floor"
    g.api.set_terrain(x, y, "floor")  # changed while in play again: its ground follows
    down(g)
    up(g)
    assert g.ground is first and g.api.terrain(x, y).name == "floor"
    _same_ground(g, registry)
    cost = g.api.walk_cost()
    down(g)
    up(g)
    assert g.api.walk_cost() is g.ground.cost and np.array_equal(cost, g.api.walk_cost())


def test_a_ground_is_never_found_again_for_another_run_or_a_loaded_level(registry):
    g = new_game(Setup(seed=11), registry)
    down(g)
    data = json.loads(json.dumps(runsave.capture(g)))
    h, _ = runsave.load(data, registry)
    up(h)
    _same_ground(h, registry)  # a loaded level's terrain is its own array: a ground of its own
    old = g.ground
    g.apply(NewRun())
    assert g.state.run_number == 2 and g.ground is not old
    _same_ground(g, registry)
    for _ in range(5):
        down(g)
    assert len(g._grounds) <= 4 and all(ground.level.terrain is not old.level.terrain for ground in g._grounds)
    _same_ground(g, registry)

