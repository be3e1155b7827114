"""Statuses are registered kinds: a poison that bites exactly N times for N turns, stacking as its
kind says, starting and ending with its hooks, shown with its label; an unregistered name is one
line naming the registered ones, and a broken kind is refused at load."""

import textwrap

import pytest

from engine import StatusKind, load_registry
from engine.core.model.components import Fighter
from engine.core.play.session import Session
from engine.core.play.setup import Setup, new_game
from engine.core.turn.statuses import UnknownStatus

VENOM = """
    from engine import StatusKind, hookimpl

    HEARD = []

    def start(game, entity, status):
        HEARD.append(("start", game.turn, status.turns))

    def bite(game, entity, status):
        HEARD.append(("tick", game.turn, status.turns))
        game.damage(entity, status.params.get("damage", 1), by="poison")

    def end(game, entity, status):
        HEARD.append(("end", game.turn, status.turns))

    @hookimpl
    def register_statuses(register):
        register(StatusKind(name="blighted", label="Blighted", color=(120, 220, 60), stacking={stacking!r},
                            on_start=start, on_tick=bite, on_end=end))
"""


def game_with(tmp_path, stacking="max", picture="#####\n#@..#\n#####\n"):
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    (folder / "venom.py").write_text(textwrap.dedent(VENOM.format(stacking=stacking)))
    (tmp_path / "map.txt").write_text(picture)
    registry = load_registry(plugins_dirs=[folder], entry_points=False)
    game = new_game(Setup(seed=1, map_file=str(tmp_path / "map.txt")), registry)
    heard = next(p for p in registry.manager.get_plugins() if hasattr(p, "HEARD")).HEARD
    return game, heard


@pytest.mark.parametrize("when", ["before a turn", "in on_turn_end"])
def test_a_status_of_n_turns_ticks_exactly_n_times(tmp_path, when):
    game, heard = game_with(tmp_path)
    fighter = game.world.get(game.player, Fighter)
    fighter.max_hp = fighter.hp = 100
    if when == "in on_turn_end":
        Session.of(game).press(".")
    game.api.add_status(game.player, "blighted", 3)
    start = game.turn
    for _ in range(6):
        Session.of(game).press(".")
    bites = [h for h in heard if h[0] == "tick"]
    assert len(bites) == 3 and fighter.hp == 97
    assert [t for _, t, _ in bites] == [start + 1, start + 2, start + 3]
    assert heard[0] == ("start", start, 3) and heard[-1] == ("end", start + 3, 0)
    assert not game.api.has_status(game.player, "blighted")
    assert "You are no longer blighted." in game.messages


@pytest.mark.parametrize(("stacking", "turns"), [("max", 5), ("refresh", 2), ("add", 7)])
def test_a_second_dose_stacks_as_the_kind_says(tmp_path, stacking, turns):
    game, heard = game_with(tmp_path, stacking)
    game.api.add_status(game.player, "blighted", 5, damage=0)
    game.api.add_status(game.player, "blighted", 2, damage=0)
    status = game.api.statuses(game.player)["blighted"]
    assert status.turns == turns and status.params == {"damage": 0}
    assert [h[0] for h in heard] == ["start"]  # a second dose is no new start


def test_removing_a_status_ends_it(tmp_path):
    game, heard = game_with(tmp_path)
    game.api.add_status(game.player, "blighted", None)
    game.api.remove_status(game.player, "blighted")
    assert [h[0] for h in heard] == ["start", "end"]


def test_a_poison_that_kills_is_the_cause_of_death_and_ticks_no_more(tmp_path):
    game, heard = game_with(tmp_path)
    game.world.get(game.player, Fighter).hp = 2
    game.api.add_status(game.player, "blighted", 10)
    for _ in range(4):
        Session.of(game).press(".")
    assert not game.alive and game.state.killed_by == "poison"
    assert len([h for h in heard if h[0] == "tick"]) == 2
    assert "You are no longer blighted." not in game.messages


def test_an_unregistered_status_is_an_error_naming_the_registered_ones(tmp_path):
    game, _ = game_with(tmp_path)
    with pytest.raises(UnknownStatus, match=r"no plugin's register_statuses registers a status named 'blighte' "
                                            r"\(did you mean 'blighted'\?.*valid: "
                                            r"(\w+, )*blighted, (\w+, )*confused, (\w+, )*hasted, poisoned"):
        game.api.add_status(game.player, "blighte", 3)



def test_the_sidebar_shows_the_kinds_label_and_colour(tmp_path):
    from engine.frontend.sidebar import statuses

    game, _ = game_with(tmp_path)
    game.api.add_status(game.player, "blighted", 4)
    (row,) = statuses(game)
    assert (row.text, row.color) == ("Blighted (4)", (120, 220, 60))


def test_a_broken_status_kind_is_refused_at_load_in_one_line(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "bad.py").write_text(textwrap.dedent("""
        from engine import StatusKind, hookimpl

        @hookimpl
        def register_statuses(register):
            register(StatusKind(name="dazed", stacking="forever", on_tick="not a function", friendly="yes"))
    """))
    registry = load_registry(plugins_dirs=[folder], entry_points=False)
    error = registry.broken["bad"]
    assert "register_statuses: 'dazed': stacking 'forever': expected one of max, refresh, add" in error
    assert "on_tick must be callable" in error and "friendly must be True or False, got 'yes'" in error
    assert "\n" not in error
    assert "dazed" not in registry.statuses


def test_the_built_in_statuses_are_registered_like_a_plugins():
    registry = load_registry(entry_points=False)
    assert {"hasted", "confused"} <= set(registry.statuses)
    assert registry.owners[("statuses", "hasted")] == "conditions"
    assert isinstance(registry.statuses["confused"], StatusKind)
