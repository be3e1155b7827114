"""pyglet key events to the key tokens of :mod:`engine.core.turn.keys` (``h``, ``>``, ``R``, ``left``, ``kp5``).

pyglet reports a key three ways, and the order matters: ``on_key_press`` first (once per physical
press), then ``on_text`` for a printable character or ``on_text_motion`` for an arrow. The
operating system's auto-repeat sends only the last two. So:

- printable keys are read from ``on_text`` (the layout and Shift are already applied: ``R``, ``>``);
- arrows from ``on_text_motion``; both repeat at the OS rate while held;
- the window's own keys (ctrl +/-, F2, F11) from ``on_key_press``: they never become tokens;
- ``ctrl+p`` from ``on_key_press`` as the game's token ``ctrlp`` (the message history); the other
  ctrl combinations send no ``on_text`` and mean nothing;
- the numpad and the named keys (Escape, Enter, ...) from ``on_key_press``, since their text
  ("4", " ") would read as another key; that text is swallowed, and while a numpad key is held
  its repeated text means the numpad key again.

Every token comes back with ``repeat``: True when no new physical press preceded it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyglet.window import key

NAMED = {
    key.ESCAPE: ("esc", None), key.ENTER: ("enter", "\r"), key.RETURN: ("enter", "\r"),
    key.SPACE: ("space", " "), key.TAB: ("tab", "\t"), key.BACKSPACE: ("backspace", None),
    key.NUM_ENTER: ("enter", "\r"),
}
NUMPAD = {getattr(key, f"NUM_{i}"): (f"kp{i}", str(i)) for i in range(10)} | {
    # Num Lock off: the same keys arrive as keypad navigation symbols, without text
    key.NUM_INSERT: ("kp0", None), key.NUM_END: ("kp1", None), key.NUM_DOWN: ("kp2", None),
    key.NUM_PAGE_DOWN: ("kp3", None), key.NUM_LEFT: ("kp4", None), key.NUM_BEGIN: ("kp5", None),
    key.NUM_RIGHT: ("kp6", None), key.NUM_HOME: ("kp7", None), key.NUM_UP: ("kp8", None),
    key.NUM_PAGE_UP: ("kp9", None),
}
MOTIONS = {key.MOTION_LEFT: "left", key.MOTION_RIGHT: "right", key.MOTION_UP: "up", key.MOTION_DOWN: "down"}
ZOOM_IN = {key.PLUS, key.EQUAL, key.NUM_ADD}
ZOOM_OUT = {key.MINUS, key.NUM_SUBTRACT, key.UNDERSCORE}
CTRL_TOKENS = {key.P: "ctrlp"}  # ctrl combinations that are the game's keys (engine.core.turn.keys.NAMED)


@dataclass(frozen=True)
class Token:
    token: str
    repeat: bool = False


@dataclass(frozen=True)
class Zoom:
    step: int  # +1 in, -1 out


@dataclass(frozen=True)
class WindowKey:
    """A key that is about the window, not the game: never a token, never in a replay."""

    name: str  # "tileset" (F2), "fullscreen" (F11)


WINDOW_KEYS = {key.F2: "tileset", key.F11: "fullscreen"}


class KeyReader:
    """Turns the three pyglet key events into tokens; remembers just enough to spot repeats."""

    def __init__(self) -> None:
        self._fresh = False  # a physical press whose token has not been read yet
        self._swallow: str | None = None  # the text the last named/numpad press will also send
        self._held_numpad: tuple[int, str, str | None] | None = None  # symbol, token, text

    def key_press(self, symbol: int, modifiers: int) -> Token | Zoom | WindowKey | None:
        self._fresh = True
        self._swallow = None
        if symbol in WINDOW_KEYS:
            return WindowKey(WINDOW_KEYS[symbol])
        if modifiers & key.MOD_CTRL:
            # ctrl combinations send no on_text: they are the window's own keys
            if symbol in ZOOM_IN:
                return Zoom(+1)
            if symbol in ZOOM_OUT:
                return Zoom(-1)
            if symbol in CTRL_TOKENS:
                return self._take(CTRL_TOKENS[symbol], None)
            return None
        if symbol in NUMPAD:
            token, text = NUMPAD[symbol]
            self._held_numpad = (symbol, token, text)
            return self._take(token, text)
        if symbol in NAMED:
            token, text = NAMED[symbol]
            return self._take(token, text)
        return None  # a printable key: its token comes with on_text

    def _take(self, token: str, text: str | None) -> Token:
        self._swallow = text
        self._fresh = False
        return Token(token)

    def key_release(self, symbol: int, modifiers: int) -> None:
        if self._held_numpad and self._held_numpad[0] == symbol:
            self._held_numpad = None

    def text(self, text: str) -> Token | None:
        if self._swallow is not None and text == self._swallow:
            self._swallow = None
            return None
        held = self._held_numpad
        if held and held[2] == text and not self._fresh:
            return Token(held[1], repeat=True)
        if len(text) != 1 or not text.isprintable() or text.isspace():
            return None
        return self._token(text)

    def text_motion(self, motion: int) -> Token | None:
        token = MOTIONS.get(motion)
        return self._token(token) if token else None

    def _token(self, token: str) -> Token:
        repeat = not self._fresh
        self._fresh = False
        return Token(token, repeat)
