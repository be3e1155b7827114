"""The game API a plugin is given: statuses that last and are saved, the action hook ("frozen" is a
status plus a few lines), a plugin's own saved state, and isolation when plugin code fails."""

import json
import textwrap

import pytest

from engine import load_registry
from engine.cli.main import main
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.persist import keeper

FROST = """
    from engine import VETO, ItemKind, StatusKind, hookimpl

    def freeze(game, entity, kind, amount):
        frozen = game.visible_monsters()
        for monster in frozen:
            game.add_status(monster, "frozen", kind.params["turns"])
        data = game.data("frost")
        data["casts"] = data.get("casts", 0) + 1
        return f"{len(frozen)} monsters freeze."

    @hookimpl
    def register_items(register):
        register(ItemKind(name="frost potion", glyph="~", color=(120, 200, 255), effect="freeze",
                          params={"turns": 3}, use="quaff", weight=1))

    @hookimpl
    def register_effects(register):
        register("freeze", freeze)

    @hookimpl
    def register_statuses(register):
        register(StatusKind(name="frozen", label="Frozen", color=(120, 200, 255)))

    @hookimpl
    def on_action(game, entity, action):
        if game.has_status(entity, "frozen"):
            return VETO
"""

ARENA = "#########\n#@.....r#\n#########\n"


def plugin_dir(tmp_path, name: str, body: str):
    folder = tmp_path / f"plugins-{name}"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(textwrap.dedent(body))
    return folder


def arena(tmp_path, text=ARENA):
    path = tmp_path / "arena.txt"
    path.write_text(text)
    return str(path)


def rat_x(game) -> int:
    return next(game.position(e)[0] for e in game.api.monsters())


def test_a_status_plus_an_action_hook_freezes_and_a_save_keeps_both(tmp_path, home):
    registry = load_registry(plugins_dirs=[plugin_dir(tmp_path, "frost", FROST)], entry_points=False)
    game = keeper.open_game(Setup(seed=1, map_file=arena(tmp_path)), registry)
    rat = game.api.monsters()[0]
    Session.of(game).press(".")  # the rat notices the player and comes one step
    assert rat_x(game) == 6
    game.api.give("frost potion")
    Session.of(game).press("q")
    # the default game's potions are unknown until drunk (plugins/depths/identify.py): said after it
    assert game.messages[-2:] == ["1 monsters freeze.", "It was a frost potion."]
    assert game.api.statuses(rat)["frozen"].turns == 2
    Session.of(game).press(".")
    assert rat_x(game) == 6  # vetoed: the frozen rat lost its turn
    Session.of(game).press("esc")  # saved with one turn of frost left
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    rat = resumed.api.monsters()[0]
    assert resumed.api.statuses(rat)["frozen"].turns == 1 and resumed.api.data("frost") == {"casts": 1}
    Session.of(resumed).press(".")
    assert rat_x(resumed) == 6 and "The rat is no longer frozen." in resumed.messages
    Session.of(resumed).press(".")
    assert rat_x(resumed) == 5  # thawed: it moves again


def test_the_api_reads_and_changes_the_run(tmp_path):
    game = new_game(Setup(seed=1, map_file=arena(tmp_path, "#######\n#@.$.r#\n#######\n")))
    api = game.api
    (rat,), (gold,) = api.monsters(), api.items()
    assert api.entities_at(*api.position(gold)) == [gold] and api.name_of(gold) == "gold"
    assert api.kind_of(rat).name == "rat" and api.hp(rat) == (4, 4) and api.distance(api.player, rat) == 4
    assert api.damage(rat, 1) == 1 and api.heal(rat, 5) == 1 and api.hp(rat) == (4, 4)
    assert api.move(rat, 4, 1) and not api.move(rat, 0, 0) and api.position(rat) == (4, 1)
    bat = api.spawn("goblin", 2, 1)
    assert bat is not None and api.spawn("goblin", 2, 1) is None  # the cell is taken now
    assert api.teleport(bat) is not None and api.passable(2, 1)
    api.add_status(api.player, "hasted", None, speed=200)
    assert api.has_status(api.player, "hasted") and api.statuses(api.player)["hasted"].params == {"speed": 200}
    api.remove_status(api.player, "hasted")
    assert not api.has_status(api.player, "hasted")
    assert api.damage(rat, 99) == 4 and api.position(rat) is None  # dead, off the map at once


def test_a_plugin_nobody_chose_that_fails_is_switched_off_and_play_goes_on(tmp_path, capsys):
    folder = plugin_dir(tmp_path, "flaky", """
        from engine import hookimpl

        @hookimpl
        def on_turn_end(game):
            raise SystemExit(3)
    """)
    assert main(["--headless", "--new", "--seed", "2", "--plugins-dir", str(folder), "--keys", ". . . .",
                 "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["turn"] == 4  # every key played
    assert err.count("\n") == 1 and "plugin 'flaky' failed in hook on_turn_end (SystemExit: 3)" in err
    assert "switched off" in err and "Traceback" not in err


def test_a_behaviour_returning_garbage_is_its_plugins_failure(tmp_path, capsys):
    folder = plugin_dir(tmp_path, "bad_ai", """
        from engine import MonsterKind, hookimpl

        @hookimpl
        def register_monsters(register):
            register(MonsterKind(name="imp", glyph="i", color=(200, 0, 200), hp=2, attack=1, behaviour="lurch"))

        @hookimpl
        def register_behaviours(register):
            register("lurch", lambda game, entity: "left")
    """)
    path = arena(tmp_path, "#######\n#@..i.#\n#######\n")
    assert main(["--headless", "--new", "--map", path, "--plugins-dir", str(folder), "--keys", ". .",
                 "--dump", "json"]) == 0
    out, err = capsys.readouterr()
    assert "plugin 'bad_ai' failed in behaviour 'lurch' (TypeError: returned 'left'" in err and err.count("\n") == 1
    assert json.loads(out)["turn"] == 2


@pytest.mark.parametrize(("result", "reason"), [("None", "returned None"), ("'dark'", "str"),
                                                ("np.zeros((3, 3), dtype=bool)", "(3, 3)")])
def test_a_chosen_fov_that_answers_nonsense_stops_the_game_in_one_line(tmp_path, home, capsys, result, reason):
    folder = plugin_dir(tmp_path, "blind", f"""
        import numpy as np
        from engine import hookimpl

        @hookimpl
        def register_fov_algorithms(register):
            register("blind", lambda transparent, origin, radius: {result})
    """)
    assert main(["--headless", "--new", "--plugins-dir", str(folder), "--plugin", "fov=blind", "--keys", "."]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "plugin 'blind' failed in fov 'blind'" in err and reason in err
    assert "Traceback" not in err
    assert err.rstrip().endswith("; the game stopped. Fix or update plugin 'blind' and play again: the run resumes "
                                 "from its last save point (if it reached one); or start a new run without it (--new, "
                                 "with another --game or --plugin)")


def test_a_save_that_needs_several_missing_plugins_names_them_all_and_where_they_were(tmp_path, home, capsys):
    """One try names every plugin the run needs that is not here, and how to bring back one a
    --plugins-dir loaded (its folder), not "install it"."""
    folder = plugin_dir(tmp_path, "frost", FROST)
    (folder / "tally.py").write_text(textwrap.dedent("""
        from engine import hookimpl

        @hookimpl
        def on_turn_end(game):
            game.data("tally")["turns"] = game.data("tally").get("turns", 0) + 1
    """))
    path = arena(tmp_path, "########\n#@~...r#\n########\n")
    assert main(["--headless", "--new", "--map", path, "--plugins-dir", str(folder), "--keys", "l g q esc"]) == 0
    assert main(["--headless", "--keys", "l"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "this run needs plugins 'frost' (" in err and ", 'tally' (" in err, err
    assert f"; pass --plugins-dir {folder} to play on, or start a new run with --new" in err and "install" not in err


def test_a_save_that_needs_a_missing_plugin_is_kept_and_resumes_when_it_is_back(tmp_path, home, capsys):
    folder = plugin_dir(tmp_path, "frost", FROST)
    path = arena(tmp_path, "########\n#@~...r#\n########\n")
    assert main(["--headless", "--new", "--map", path, "--plugins-dir", str(folder), "--keys", "l g q esc"]) == 0
    assert json.loads((home / "run.json").read_text())["plugins"]["frost"]["source"].endswith("frost.py")
    before = (home / "run.json").read_bytes()
    assert main(["--headless", "--keys", "l"]) == 2  # without the plugin
    err = capsys.readouterr().err
    assert "this run needs plugin 'frost'" in err and err.count("\n") == 1
    assert (home / "run.json").read_bytes() == before and not list(home.glob("*.corrupt-*"))
    assert main(["--headless", "--plugins-dir", str(folder), "--keys", "l", "--dump", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["turn"] == 4  # resumed where it was


AFTER = """
    from engine import hookimpl

    @hookimpl
    def on_action(action):  # fewer arguments than the hook passes, as pluggy allows
        return None

    @hookimpl
    def after_action(game, entity, action, result):
        seen = game.data("after").setdefault("seen", [])
        seen.append([game.turn, "player" if game.is_player(entity) else game.name_of(entity),
                     type(action).__name__, result.done, game.hp(game.player)[0]])
"""


def test_after_action_hears_each_action_once_it_has_resolved(tmp_path):
    folder = plugin_dir(tmp_path, "after", AFTER)
    game = new_game(Setup(plugins_dirs=[str(folder)], map_file=arena(tmp_path, "#####\n#@r.#\n#####\n"), seed=1))
    hp = game.api.hp(game.player)[0]
    Session.of(game).press("k")  # a wall bump: resolved, not done (no time passes, so nobody else acts)
    Session.of(game).press(".")  # the player waits, then the rat (awake: it sees the player) attacks
    seen = game.api.data("after")["seen"]
    assert seen[0] == [0, "player", "Move", False, hp]
    assert seen[1] == [0, "player", "Wait", True, hp]  # heard before the turn counter moves on, before the rat
    assert seen[2][1:4] == ["rat", "Attack", True]
    assert seen[2][4] == game.api.hp(game.player)[0] < hp  # heard once the blow has landed
    assert len(seen) == 3


@pytest.mark.parametrize("size,kept", [((80, 43), 64), ((500, 400), 20)])
def test_remembered_distance_maps_are_bounded_by_count_and_by_cells(size, kept):
    """One-goal maps are remembered for the level, the oldest forgotten first: at most 64 of them and
    at most MAX_PATH_CACHE_CELLS cells (4,000,000: 20 maps of 500x400, where 64 would be 100 MB)."""
    from engine.kit import limits

    g = new_game(Setup(seed=4, size=size))
    api = g.api
    floor = [(int(x), int(y)) for y, x in zip(*(g.level.terrain != 0).nonzero(), strict=True)]
    goals = floor[:: max(1, len(floor) // 100)][:100]
    first = [api.distance_map(goal) for goal in goals]
    maps = api._paths._maps
    assert len(maps) == kept and sum(m.size for m in maps.values()) <= limits.MAX_PATH_CACHE_CELLS
    assert api.distance_map(goals[-1]) is first[-1]  # the newest is remembered
    assert api.distance_map(goals[0]) is not first[0]  # the oldest was forgotten: made again
    assert (api.distance_map(goals[0]) == first[0]).all()


@pytest.mark.parametrize("generator,size", [("caves", (120, 70)), ("rooms_and_mazes", (90, 60)), ("bsp", (70, 40))])
def test_a_step_toward_searches_near_the_goal_and_takes_the_whole_maps_step(generator, size):
    """step_toward searches a box around the goal that grows until it reaches the walker: the step
    is the one the whole level's distance map gives, from near and far, blocked or not."""
    import random

    from engine.kit.path import downhill

    g = new_game(Setup(seed=7, size=size, plugins=[f"generator={generator}"]))
    api, rng = g.api, random.Random(3)
    floor = [(int(x), int(y)) for y, x in zip(*(g.level.terrain != 0).nonzero(), strict=True)]
    walker = api.player
    blockers = set(g.state.spatial.blockers())
    compared = 0
    for _ in range(300):
        goal, here = rng.choice(floor), rng.choice(floor)
        if here in blockers and here != api.position(walker):
            continue
        g.move_entity(walker, *here)
        whole = api.distance_map(goal)
        occupied = {c for c in g.state.spatial.blockers() if c != goal}
        expected = downhill(whole, here, api.walk_cost(), api.moves, blocked=occupied) if here != goal else None
        expected = None if expected is None else (expected[0] - here[0], expected[1] - here[1])
        assert api.step_toward(walker, goal) == expected, (goal, here)
        compared += expected is not None
    assert compared > 100


def test_names_version_changes_when_a_plugin_says_its_names_changed_and_with_a_new_run():
    """``names_version`` stays while nothing says a name changed, changes at ``names_changed()``,
    and never takes a value another run had (what a bot keeps of one run never matches another)."""
    registry = load_registry(entry_points=False)
    game = new_game(Setup(game="rogue-sdl", seed=1), registry)
    api = game.api
    first = api.names_version
    Session.of(game).press(".")
    assert api.names_version == first
    api.names_changed()
    second = api.names_version
    assert second != first
    other = new_game(Setup(game="rogue-sdl", seed=1), registry)
    assert other.api.names_version not in (first, second)
    game.begin_run(2, 2)  # a new run in the same game (a preset that goes straight on)
    assert api.names_version not in (first, second, other.api.names_version)
