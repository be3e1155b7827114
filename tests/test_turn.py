"""The turn loop owns level and run changes; a game is inert until started; loading generates
nothing; rulesets, systems and components come from plugins like everything else."""

import textwrap

from engine import ChangeLevel, load_registry, testing
from engine.core.model.components import Fighter, Monster, Position
from engine.core.model.events import Escaped, KeyPlayed, LevelEntered, PlayerDied, QuitAsked, RunStarted, Victory
from engine.core.model.requests import NewRun
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game, prepare
from engine.core.turn.actions import Descend
from engine.persist import keeper

LIFECYCLE = {RunStarted: "start", LevelEntered: "level", KeyPlayed: "key", PlayerDied: "death", Escaped: "escape",
             Victory: "victory", QuitAsked: "quit"}


def events_of(game):
    """The run's lifecycle events as the game tells them, by short name (hurts and gold left out)."""
    seen = []
    game.listeners.append(lambda event, g: type(event) in LIFECYCLE and seen.append(LIFECYCLE[type(event)]))
    return seen


def test_a_prepared_game_is_inert_until_started(registry):
    game = prepare(Setup(seed=3), registry)
    assert game.state is None  # no world, no level yet
    seen = events_of(game)
    game.start()
    assert seen == ["start", "level"]  # a listener attached before the start hears both
    assert game.depth == 1 and game.turn == 0


def test_an_action_asks_for_the_stairs_and_the_loop_takes_them(registry):
    g = testing.game_from_map(registry, """
        #####
        #@>.#
        #####
    """)
    testing.press(g, "l")
    result = Descend().perform(g.api, g.player)
    assert result.request == ChangeLevel(2) and g.depth == 1  # asking changes nothing yet
    seen = events_of(g)
    s = testing.press(g, ">")
    assert s["depth"] == 2 and s["turn"] == 2 and seen == ["level", "key"]
    # nobody on the new level moved before the player's first turn there, and the player may act
    assert all(not g.world.get(e, Monster).awake or e not in g.scheduler or g.scheduler.energy[e] < 100
               for e, _ in g.world.query(Monster))
    assert g.scheduler.energy[g.player] >= 100


def test_monsters_on_a_new_level_do_not_move_before_the_player(registry):
    g = new_game(Setup(seed=21), registry)
    g.apply(ChangeLevel(3))
    before = sorted((p.x, p.y) for _, (_, p) in g.world.query(Monster, Position))
    assert g.scheduler.next_ready() == g.player
    after = sorted((p.x, p.y) for _, (_, p) in g.world.query(Monster, Position))
    assert before == after


def test_the_exit_ends_the_run_at_the_end_of_the_turn(registry):
    g = testing.game_from_map(registry, """
        #####
        #@..#
        ##>##
    """, game="lesson28")
    seen = events_of(g)
    testing.press(g, "right down")
    assert g.run_number == 2 and g.turn == 0 and g.depth == 1  # a new run, its own counters
    assert seen == ["key", "escape", "start", "level", "key"]


def test_lesson28s_death_is_a_new_run_and_the_default_games_is_a_death_screen(registry):
    caught = testing.game_from_map(registry, """
        #####
        #@e.#
        #####
    """, game="lesson28")
    seen = events_of(caught)
    testing.press(caught, "right")
    assert caught.alive and caught.run_number == 2 and seen[:3] == ["death", "start", "level"]
    dead = testing.game_from_map(registry, """
        #######
        #@o...#
        #######
    """)
    dead.world.get(dead.player, Fighter).hp = 1
    seen = events_of(dead)
    testing.press(dead, ".")
    assert not dead.alive and dead.run_number == 1 and seen == ["death", "key"]
    assert dead.messages[-2:] == ["The orc kills you.", "You die."]  # the ruleset's words come last
    testing.press(dead, "R")
    assert dead.alive and dead.run_number == 2


def test_the_quit_key_is_the_rulesets_to_answer(registry):
    g = testing.game_from_map(registry, """
        ####
        #@.#
        ####
    """)
    saves = []
    g.listeners.append(lambda event, game: isinstance(event, QuitAsked) and saves.append(event.save))
    testing.press(g, "esc")
    assert g.quit_requested and saves == [True]


def test_loading_a_save_generates_nothing_and_fires_no_hook(tmp_path, monkeypatch):
    monkeypatch.setenv("UNDERCROFT_HOME", str(tmp_path / "home"))
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "spy.py").write_text(textwrap.dedent("""
        from engine import hookimpl
        CALLS = []

        @hookimpl
        def on_level_generated(game, level):
            CALLS.append("level")

        @hookimpl
        def on_turn_end(game):
            CALLS.append("turn")
    """))
    registry = load_registry(plugins_dirs=[tmp_path / "plugins"], entry_points=False)
    spy = registry.manager.get_plugin("spy")
    made = []
    for name, info in list(registry.generators.items()):
        def counting(ctx, fn=info.fn):
            made.append(ctx.depth)
            return fn(ctx)
        registry.generators[name] = type(info)(info.name, counting, info.summary, info.params, info.min_size,
                                               info.reads_maps)
    game = keeper.open_game(Setup(seed=5), registry)
    for key in "l l j esc".split():
        Session.of(game).press(key)
    assert made and spy.CALLS
    made.clear()
    spy.CALLS.clear()
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    assert resumed.seed == 5 and resumed.turn == game.turn
    assert made == [] and spy.CALLS == []  # nothing generated, no hook fired, no game thrown away


def test_a_plugin_ruleset_system_and_component(tmp_path, monkeypatch):
    """A third-party preset that makes a wall bump cost the turn, and a regeneration system with
    its own component, which survives a save."""
    monkeypatch.setenv("UNDERCROFT_HOME", str(tmp_path / "home"))
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "hardy.py").write_text(textwrap.dedent("""
        import dataclasses
        from engine import ActionResult, Fighter, GameRules, Phase, Ruleset, System, hookimpl

        @dataclasses.dataclass
        class Regen:
            every: int
            count: int = 0

        class Hardy(Ruleset):
            name = "hardy"
            def bump_wall(self, game, player):
                return ActionResult.success()

        class Regenerate(System):
            name = "regenerate"
            phases = (Phase.END_OF_TURN,)
            def run(self, game):
                for entity, (regen, fighter) in game.query(Regen, Fighter):
                    regen.count += 1
                    if regen.count % regen.every == 0:
                        fighter.hp = min(fighter.max_hp, fighter.hp + 1)

        @hookimpl
        def register_rulesets(register):
            register(Hardy())

        @hookimpl
        def register_systems(register):
            register(Regenerate())

        @hookimpl
        def register_components(register):
            register(Regen)

        @hookimpl
        def register_games(register):
            register(GameRules(name="hardy", generators=((1, "bsp"),), fov="symmetric", ruleset="hardy",
                               monster_count=(0, 0, 0, 0)))

        @hookimpl
        def on_level_generated(game, level):
            game.add_component(game.player, Regen(every=2))
    """))
    registry = load_registry(plugins_dirs=[tmp_path / "plugins"], entry_points=False)
    (tmp_path / "map.txt").write_text("####\n#@.#\n####\n")
    game = keeper.open_game(Setup(game="hardy", seed=1, map_file=str(tmp_path / "map.txt")), registry)
    fighter = game.world.get(game.player, Fighter)
    fighter.hp = 10
    for _ in range(4):
        Session.of(game).press("h")  # a bump, which this ruleset charges a turn for
    assert game.turn == 4 and game.position(game.player) == (1, 1) and fighter.hp == 12
    Session.of(game).press("esc")
    resumed = keeper.open_game(Setup(), registry, choice="continue")
    regen = next(c for c in resumed.world.components(resumed.player) if type(c).__name__ == "Regen")
    assert (regen.every, regen.count) == (2, 4)
    Session.of(resumed).press("h")
    Session.of(resumed).press("h")
    assert resumed.world.get(resumed.player, Fighter).hp == 13


def test_the_engine_does_not_run_a_dead_actors_request(registry):
    """A new run replaces the world: nothing of the old run acts in the new one."""
    g = testing.game_from_map(registry, """
        #####
        #@..#
        ##>##
    """, game="lesson28")
    old_world = g.world
    g.apply(NewRun("again"))
    assert g.world is not old_world and g.messages[-1] == "again"
