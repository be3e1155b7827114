"""The window's remembered settings: window size, zoom, fullscreen, mute, tileset, animations.

:class:`Settings` is a dict-like over :data:`DEFAULTS`. Whoever opens the window injects where the
values live: ``load()`` returns a dict of saved values, ``save(**values)`` stores the changed ones.
Without them the settings live in memory for the window's life. The profile is meant to hold them
(``Settings(load=profile.settings, save=profile.update_settings)``): that wiring is one line in
:func:`engine.frontend.launch.window_settings`.

A saved value of the wrong type or out of range is ignored (the default is used): a hand-edited or
older profile never stops the window from opening. A save that fails is not worth a crash: the
value still holds for this session.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from engine.kit import limits

MAX_ZOOM = limits.MAX_ZOOM  # the one limit, shared with what the profile reads back
DEFAULTS: dict[str, Any] = {
    "window_size": None,  # [width, height] in window units; None: fit the screen
    "zoom": 1,  # integer, 1..MAX_ZOOM
    "fullscreen": False,
    "muted": False,
    "tileset": "glyphs",  # a registered tileset name
    "animations": True,  # a key's shots, bolts, blasts, hits and deaths shown for a moment (False: none)
}


def _valid(key: str, value: Any) -> bool:
    if key == "window_size":
        return value is None or (
            isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 64 <= v <= 16384 for v in value)
        )
    if key == "zoom":
        return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ZOOM
    if key in ("fullscreen", "muted", "animations"):
        return isinstance(value, bool)
    if key == "tileset":
        return isinstance(value, str) and 0 < len(value) <= 100
    return False


class Settings(MutableMapping):
    """The window's settings; ``load`` and ``save`` are injected (default: memory only)."""

    def __init__(self, values: dict[str, Any] | None = None, *,
                 load: Callable[[], dict[str, Any]] | None = None,
                 save: Callable[..., Any] | None = None) -> None:
        self._values = dict(DEFAULTS)
        self._save = save
        loaded: dict[str, Any] = {}
        if load is not None:
            try:
                loaded = dict(load() or {})
            except Exception as e:  # a profile that cannot be read: defaults, said once
                print(f"undercroft: window settings: cannot read them ({e}); using the defaults", file=sys.stderr)
        for source in (loaded, values or {}):
            for key, value in source.items():
                if key in DEFAULTS and _valid(key, value):
                    self._values[key] = list(value) if isinstance(value, tuple) else value

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.update(**{key: value})

    def __delitem__(self, key: str) -> None:
        self.update(**{key: DEFAULTS[key]})

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def update(self, *args: Any, **values: Any) -> None:  # type: ignore[override]
        """Set values and save the ones that changed, in one call to ``save``."""
        values = dict(*args, **values)
        changed = {}
        for key, value in values.items():
            if key not in DEFAULTS:
                raise KeyError(f"settings: unknown key {key!r} (valid: {', '.join(DEFAULTS)})")
            if not _valid(key, value):
                raise ValueError(f"settings: {key}={value!r} is not valid")
            value = list(value) if isinstance(value, tuple) else value
            if self._values[key] != value:
                self._values[key] = changed[key] = value
        if changed and self._save is not None:
            try:
                self._save(**changed)
            except Exception as e:  # the setting holds for this session all the same
                print(f"undercroft: window settings: cannot save them ({e})", file=sys.stderr)
