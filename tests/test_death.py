"""One death path: however the player's last HP goes (a monster's blow, an effect, a system, any
event hook, a monster's behaviour), the death is applied once, at the end of the turn: the ``die``
message, the morgue, the save removed, the profile counted, and the cause is what did the damage."""

import textwrap

import pytest

from engine import load_registry
from engine.core.play.session import Session
from engine.core.play.setup import Setup
from engine.persist import keeper, profile

PLUGIN = '''
from engine import Attack, GameRules, ItemKind, MonsterKind, Phase, System, hookimpl

WHERE = {where!r}


def doom(game):
    game.damage(game.player, 10**6, by=WHERE)


class Doom(System):
    name = "doom"
    phases = (Phase.AFTER_PLAYER,) if WHERE == "an AFTER_PLAYER system" else (Phase.END_OF_TURN,)

    def run(self, game):
        if WHERE.endswith(" system") and game.turn >= 1:
            doom(game)


@hookimpl
def register_systems(register):
    register(Doom())


@hookimpl
def register_effects(register):
    register("doom", lambda game, entity, kind, amount: doom(game))


@hookimpl
def register_items(register):
    register(ItemKind(name="doom", glyph="%", color=(200, 0, 200), effect="doom"))


def smash(game, entity):
    if game.distance(entity, game.player) <= 1:
        return Attack(game.player)
    return None


@hookimpl
def register_monsters(register):
    register(MonsterKind(name="smasher", glyph="S", color=(0, 200, 200), hp=1, attack=10**5, defense=0,
                         behaviour="smash" if WHERE == "a monster's blow" else "idle"))
    register(MonsterKind(name="husk", glyph="H", color=(200, 200, 0), hp=1, attack=0, defense=0,
                         behaviour="idle"))


def idle(game, entity):
    return None


@hookimpl
def register_behaviours(register):
    register("smash", smash)
    register("idle", idle)


@hookimpl
def on_level_generated(game, level):
    if WHERE == "on_level_generated" and game.depth == 2:
        doom(game)
    if WHERE == "on_answer":
        game.ask("doom", "Doom?", ["yes"])


@hookimpl
def on_answer(game, question, choice):
    if WHERE == "on_answer":
        doom(game)


@hookimpl
def on_action(game, entity, action):
    if WHERE == "on_action" and entity == game.player:
        doom(game)


@hookimpl
def after_action(game, entity, action, result):
    if WHERE == "after_action" and entity == game.player:
        doom(game)


@hookimpl
def on_turn_end(game):
    if WHERE == "on_turn_end":
        doom(game)


@hookimpl
def on_death(game, entity):
    if WHERE == "on_death" and not game.is_player(entity):
        doom(game)
'''

# where the blow comes from: the map, the keys, and the cause the morgue gives
SOURCES = {
    "on_turn_end": ("#@..#", ".", "killed by on_turn_end"),
    "on_action": ("#@..#", ".", "killed by on_action"),
    "after_action": ("#@..#", ".", "killed by after_action"),
    "on_level_generated": ("#@>.#", "l >", "killed by on_level_generated"),
    "on_answer": ("#@..#", ". a", "killed by on_answer"),
    "on_death": ("#@H.#", "l", "killed by on_death"),
    "an AFTER_PLAYER system": ("#@..#", ".", "killed by an AFTER_PLAYER system"),
    "an END_OF_TURN system": ("#@..#", ".", "killed by an END_OF_TURN system"),
    "an effect": ("#@%.#", "l g", "killed by an effect"),
    "a monster's blow": ("#@S.#", ".", "killed by a smasher"),
}


@pytest.mark.parametrize("where", SOURCES)
def test_every_damage_source_ends_in_the_same_death(where, home, tmp_path, capsys):
    picture, keys, cause = SOURCES[where]
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "doom.py").write_text(textwrap.dedent(PLUGIN.format(where=where)))
    (tmp_path / "map.txt").write_text(f"#####\n{picture}\n#####\n")
    registry = load_registry(plugins_dirs=[tmp_path / "plugins"], entry_points=False)
    game = keeper.open_game(Setup(seed=1, map_file=str(tmp_path / "map.txt")), registry)
    assert game.alive and (home / "run.json").exists()
    heard = []
    game.listeners.append(lambda event, game: heard.append(type(event).__name__))
    for key in keys.split():
        Session.of(game).press(key)
    assert capsys.readouterr().err == ""  # no plugin failed
    assert not game.alive
    assert heard.count("PlayerDied") == 1
    assert game.messages.count(game.rules.message("die")) == 1
    assert not (home / "run.json").exists()  # permadeath: the save is gone
    (morgue,) = home.glob("morgue-*.txt")
    assert f"Cause:   {cause} on depth {game.depth}" in morgue.read_text()
    ended = profile.load()
    assert ended["deaths"] == 1 and ended["runs"] == 1
    Session.of(game).press(".")  # the dead do not die again
    assert heard.count("PlayerDied") == 1 and profile.load()["deaths"] == 1
