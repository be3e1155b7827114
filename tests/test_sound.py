"""Sound: cues chosen from what changed, mute remembered, and silence (never an error) without a device."""

from __future__ import annotations

import pytest

from engine import GoldFound, LevelledUp, NewRun, testing
from engine.core.model.components import Inventory, Monster
from engine.core.play.session import Session
from engine.frontend.settings import Settings
from engine.frontend.sound import CUES, Sounds

ARENA = """
    #########
    #@r..$..#
    #########
"""


class Recorder:
    def __init__(self) -> None:
        self.played: list[object] = []

    def __call__(self, sound, volume) -> None:
        self.played.append(sound)


def sounds(player=None, muted=False) -> Sounds:
    return Sounds(Settings({"muted": muted}), player=player or Recorder())


def test_hit_hurt_gold_and_death_come_from_the_games_events(registry):
    game = testing.game_from_map(registry, ARENA)
    s = sounds()
    game.listeners.append(s.listener)
    assert s.observe(game) == []  # the first frame: nothing heard yet
    rat = next(e for e, _ in game.world.query(Monster))
    game.api.damage(rat, 1, by=game.player)
    assert s.observe(game) == ["hit"]
    game.api.damage(game.player, 3, by=rat)
    assert s.observe(game) == ["hurt"]
    game.world.get(game.player, Inventory).gold += 10  # a change no event told: no sound
    assert s.observe(game) == []
    game.api.announce(GoldFound(10))
    assert s.observe(game) == ["gold"]
    game.api.announce(LevelledUp(game.player, 2))
    assert s.observe(game) == ["level_up"]
    game.api.damage(game.player, 99, by=rat)
    game.apply_death()  # the turn's end: the death event says it, and silences the hurt that caused it
    assert s.observe(game) == ["death"]
    assert s.played == ["hit", "hurt", "gold", "level_up", "death"]


def test_the_player_killing_a_monster_in_play_sounds_a_hit(registry):
    game = testing.game_from_map(registry, ARENA)
    s = sounds()
    game.listeners.append(s.listener)
    Session.of(game).press("l")  # into the rat
    assert "hit" in s.observe(game)


def test_a_new_level_or_run_is_not_a_hit(registry):
    game = testing.game_from_map(registry, ARENA)
    s = sounds()
    game.listeners.append(s.listener)
    s.observe(game)
    game.apply(NewRun())  # every monster gone at once: a new world, not a kill
    assert s.observe(game) == []


def test_every_cue_names_a_file_that_ships_with_arcade():
    arcade = pytest.importorskip("arcade")
    from pathlib import Path

    for cue, name in CUES.items():
        assert Path(arcade.resources.resolve(name)).is_file(), cue
    assert {"hit", "hurt", "gold", "level_up", "death", "victory"} <= set(CUES)


def test_muted_plays_nothing_and_m_toggles_it_in_the_window(registry):
    pytest.importorskip("arcade")
    from engine.frontend.launch import open_window

    recorder = Recorder()
    settings = Settings()
    window = open_window(testing.game_from_map(registry, ARENA), headless=True, settings=settings,
                         sound_player=recorder)
    try:
        window.frames.draw()
        window.sounds.cue("level_up")  # the hook for later events
        assert window.sounds.played == ["level_up"] and len(recorder.played) == 1
        window.press("m")
        assert settings["muted"] is True and window.game.turn == 0  # m is the window's, not a turn
        window.sounds.cue("level_up")
        assert len(recorder.played) == 1
        window.press("m")
        assert settings["muted"] is False
    finally:
        window.close()


def test_no_device_means_silence_not_an_error(registry, monkeypatch):
    """The audio library failing in every way a machine without sound can make it fail."""
    arcade = pytest.importorskip("arcade")
    game = testing.game_from_map(registry, ARENA)

    def no_device(*args, **kwargs):
        raise OSError("no audio device")

    monkeypatch.setattr(arcade, "load_sound", no_device)
    s = Sounds(Settings())
    game.listeners.append(s.listener)
    s.observe(game)
    game.api.damage(game.player, 1)
    assert s.observe(game) == ["hurt"]  # decided, and failed quietly
    assert s.enabled is False
    game.api.damage(game.player, 1)
    s.observe(game)  # and from then on, silence
    monkeypatch.undo()

    def play_fails(*args, **kwargs):
        raise RuntimeError("driver gone")

    monkeypatch.setattr(arcade, "play_sound", play_fails)
    s2 = Sounds(Settings())
    s2.cue("gold")
    assert s2.enabled is False


def test_the_real_library_without_a_sound_card_is_silent(tmp_path):
    """pyglet's 'silent' driver is what a machine with no device gets: the real load-and-play path."""
    pytest.importorskip("arcade")
    from pyglet.media import drivers

    s = Sounds(Settings())
    s.cue("hit")
    s.cue("gold")
    assert s.enabled, f"playing failed under {type(drivers.get_audio_driver()).__name__}"
    assert set(s.loaded) == {"hit", "gold"}
