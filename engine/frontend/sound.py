"""Sound: Kenney's CC0 effects that ship with Arcade, played when something happened.

What happened is heard from the game's typed events (``Game.emit``, :mod:`engine.core.model.events`) by
:meth:`Sounds.listener`: a creature hurt (``hurt`` when it is the player, ``hit`` otherwise), gold
found (``gold``), a level gained (``level_up``), the player's death (``death``, also in presets
that start a new dungeon at once, where no frame ever shows the player dead), an escape or a win
(``victory``). The cues heard are played once each when the next frame is drawn
(:meth:`Sounds.observe`); :meth:`Sounds.cue` plays a cue by name.

No sound device, a library without audio, a file that will not load: silence, never an error. A
failed load or play turns sound off for the window's life, quietly. ``m`` mutes (remembered in the
settings); a muted window loads nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core.model.events import Escaped, Event, GoldFound, Hurt, LevelledUp, PlayerDied, Victory

if TYPE_CHECKING:
    from engine.core.turn.game import Game

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
        self.pending: list[str] = []  # the cues heard since the last frame

    @property
    def muted(self) -> bool:
        return bool(self.settings["muted"])

    def toggle_mute(self) -> None:
        self.settings["muted"] = not self.muted

    # -- deciding -----------------------------------------------------------------------------
    def listener(self, event: Event, game: Game) -> None:
        """A ``Game.emit`` listener: the cue an event calls for, played with the next frame."""
        match event:
            case Hurt(entity=entity):
                self.pending.append("hurt" if entity == game.player else "hit")
            case GoldFound():
                self.pending.append("gold")
            case LevelledUp(entity=entity) if entity == game.player:
                self.pending.append("level_up")
            case PlayerDied():
                self.pending.append("death")
            case Escaped() | Victory():
                self.pending.append("victory")

    def observe(self, game: Game) -> list[str]:
        """A frame is drawn: play the cues heard since the last one, once each, in order (a death
        silences the hurt that caused it). Returns the cues played."""
        cues, self.pending = list(dict.fromkeys(self.pending)), []
        if "death" in cues:
            cues = [c for c in cues if c != "hurt"]
        for cue in cues:
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
