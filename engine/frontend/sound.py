"""Sound: Kenney's CC0 effects that ship with Arcade, played when something happened.

What happened is read two ways. Between two frames, :meth:`Sounds.observe` compares what it saw
last frame with the game now: the player's HP dropped (hurt), a monster's HP dropped or a monster
in view vanished (a hit), gold went up (gold), the player's level went up (level_up: the HUD's
``level`` value, in games that have one). The game's events (``Game.emit``) are heard by
:meth:`Sounds.listener`: ``death`` (also in presets that start a new dungeon at once, where no
frame ever shows the player dead), ``escape`` and ``victory`` (the win). :meth:`Sounds.cue` plays
a cue by name.

No sound device, a library without audio, a file that will not load: silence, never an error. A
failed load or play turns sound off for the window's life, quietly. ``m`` mutes (remembered in the
settings); a muted window loads nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core.components import Fighter, Inventory, Monster
from engine.frontend.sidebar import experience

if TYPE_CHECKING:
    from engine.core.game import Game

CUES = {
    "hit": ":resources:/sounds/hit2.wav",
    "hurt": ":resources:/sounds/hurt3.wav",
    "gold": ":resources:/sounds/coin1.wav",
    "level_up": ":resources:/sounds/upgrade1.wav",
    "death": ":resources:/sounds/gameover2.wav",
    "victory": ":resources:/sounds/upgrade4.wav",
}
VOLUME = 0.5


class Sounds:
    """Decides and plays the window's sounds. ``muted`` reads the settings; ``player`` plays a
    loaded sound (injectable for tests: the default is ``arcade.play_sound``)."""

    def __init__(self, settings: Any, *, player: Callable[[Any, float], Any] | None = None) -> None:
        self.settings = settings
        self.player = player
        self.enabled = True  # False once the audio library failed: silence from then on
        self.loaded: dict[str, Any] = {}
        self.played: list[str] = []  # every cue played (or that would have been, muted: no), in order
        self.pending: list[str] = []
        self._seen: tuple | None = None

    @property
    def muted(self) -> bool:
        return bool(self.settings["muted"])

    def toggle_mute(self) -> None:
        self.settings["muted"] = not self.muted

    # -- deciding -----------------------------------------------------------------------------
    def listener(self, event: str, game: Game, **data: Any) -> None:
        """A ``Game.emit`` listener: the events a frame cannot see."""
        if event == "death":
            self.pending.append("death")
        elif event in ("escape", "victory"):
            self.pending.append("victory")

    @staticmethod
    def snapshot(game: Game) -> tuple:
        fighter = game.world.get(game.player, Fighter)
        inv = game.world.try_get(game.player, Inventory)
        foes = {e: f.hp for e, (_, f) in game.world.query(Monster, Fighter)}
        level = experience(game)[0] or 0
        return (id(game), game.run, game.depth, fighter.hp, inv.gold if inv else 0, foes, level)

    def observe(self, game: Game) -> list[str]:
        """Compare the game with the last frame's; play what changed. Returns the cues played."""
        now = self.snapshot(game)
        cues, self.pending = self.pending, []
        last, self._seen = self._seen, now
        if last is not None and last[:3] == now[:3]:  # same game, run and level
            _, _, _, hp, gold, foes, level = last
            if any(now[5].get(e, 0) < h for e, h in foes.items()):
                cues.append("hit")
            if now[3] < hp and "death" not in cues:
                cues.append("hurt")
            if now[4] > gold:
                cues.append("gold")
            if now[6] > level:
                cues.append("level_up")
        for cue in dict.fromkeys(cues):  # once each per frame, in order
            self.cue(cue)
        return cues

    # -- playing ------------------------------------------------------------------------------
    def cue(self, name: str) -> None:
        """Play a cue by name (unknown names and muted windows play nothing)."""
        if self.muted or not self.enabled or name not in CUES:
            return
        self.played.append(name)
        try:
            sound = self.loaded.get(name)
            if sound is None:
                import arcade

                sound = self.loaded[name] = arcade.load_sound(CUES[name])
            if self.player is not None:
                self.player(sound, VOLUME)
            else:
                import arcade

                arcade.play_sound(sound, VOLUME)
        except Exception:  # no device, no driver, no decoder: the game goes on in silence
            self.enabled = False
