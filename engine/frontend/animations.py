"""Animations: a key's events shown for a moment over the map, then the loop sleeps again.

A key the player pressed hands back its typed events (:class:`~engine.core.play.session.Outcome`),
the same ones the sounds hear; :meth:`Animations.start` turns them into a short run of frames:

- :class:`~engine.core.model.events.Shot`: the missile flies from the shooter to its target, a
  frame a cell (at most :data:`SHOT_FRAMES` frames: a long flight skips cells);
- :class:`~engine.core.model.events.Bolt`, :class:`~engine.core.model.events.Blast`: the bolt's
  line or the blast's cells light up and fade;
- :class:`~engine.core.model.events.Hurt`: the creature's cell flashes; a death fades out, longer.

They play in the order they happened: a missile flies, then what it hit flashes; the hits of
one blast flash together. A frame lasts :data:`FRAME_SECONDS`, a key's animations at most
:data:`KEY_FRAMES` frames (what would come later is dropped: the map already shows the outcome).
Only cells the player sees are drawn, so an animation never tells what the map does not.

Animations are presentation, never state: the game has moved on before the first frame, and nothing
here reads a clock for the game (the frames keep to the pyglet clock's time: a frame drawn late is
followed by the one due, so an animation never outlasts its frames' time). The frames are numbered,
so a test or a picture (``tests/pictures.py``) draws a chosen one headless
(:meth:`Animations.show`). The on-demand loop stays on demand: a frame is asked for only while an
animation plays (one ``schedule_once`` per frame), none when idle. Any key or click skips what is
playing (:meth:`Animations.skip`); the ``animations`` setting off plays none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import arcade
import pyglet

from engine.core.model.events import Blast, Bolt, Event, Hurt, LevelEntered, Shot
from engine.kit.lines import line

Cell = tuple[int, int]
RGBA = tuple[int, int, int, int]

FRAME_SECONDS = 0.03  # one animation frame: about 33 frames a second
KEY_FRAMES = 16  # a key's animations, all of them: 0.48 s at most
SHOT_FRAMES = 8  # a missile's flight, at most (a frame a cell, cells skipped beyond)
LIT_FRAMES = 6  # a bolt's line or a blast lit, fading
HIT_FRAMES = 4  # a hurt creature's cell flashing
DEATH_FRAMES = 8  # a dying creature's cell fading out
MISSILE = (255, 245, 200, 255)
LIGHT = (255, 200, 120)  # a bolt's or a blast's colour when its event names none
HIT = (255, 255, 255)
DEATH = (200, 30, 30)


@dataclass(frozen=True)
class Square:
    """One thing drawn in a frame: ``cell`` filled in ``color``, the fraction ``size`` of the cell
    (a missile is small, a lit cell whole)."""

    cell: Cell
    color: RGBA
    size: float = 1.0


def _fading(cells: Iterable[Cell], rgb: tuple[int, int, int], frames: int, alpha: int) -> list[list[Square]]:
    """``cells`` lit in ``rgb``, fading from ``alpha`` to nothing over ``frames`` frames."""
    cells = list(cells)
    return [[Square(c, (*rgb, alpha * (frames - i) // frames)) for c in cells] for i in range(frames)]


def frames_for(events: Iterable[Event], sees: Callable[[int, int], bool]) -> list[list[Square]]:
    """What each frame draws for a key's ``events`` (see the module doc); ``sees(x, y)``: whether
    the player sees the cell now. Empty when nothing is worth showing."""
    timeline: list[list[Square]] = []
    cursor = 0  # where the next sequenced animation starts: a flight or a blast waits for the last

    def put(start: int, frames: list[list[Square]]) -> int:
        for i, squares in enumerate(frames):
            if start + i >= KEY_FRAMES:
                break
            while len(timeline) <= start + i:
                timeline.append([])
            timeline[start + i].extend(s for s in squares if sees(*s.cell))
        return start + len(frames)

    hits_from = None  # the frame the current group of hits started at
    for event in events:
        match event:
            case Shot(start=start, end=end):
                path = line(start, end)[1:] or [end]
                n = min(len(path), SHOT_FRAMES)  # a long flight skips cells evenly, and ends on the target
                cells = [path[(i + 1) * len(path) // n - 1] for i in range(n)]
                cursor = put(cursor, [[Square(c, MISSILE, 0.3)] for c in cells])
                hits_from = None
            case Bolt(start=start, end=end, color=color):
                cursor = put(cursor, _fading(line(start, end)[1:], color or LIGHT, LIT_FRAMES, 200))
                hits_from = None
            case Blast(cells=cells, color=color):
                cursor = put(cursor, _fading(cells, color or LIGHT, LIT_FRAMES, 170))
                hits_from = None
            case LevelEntered():  # what came before happened on the level left: not shown on this one
                timeline.clear()
                cursor, hits_from = 0, None
            case Hurt(at=at, killed=killed) if at is not None:
                if hits_from is None:
                    hits_from = cursor
                frames = _fading([at], DEATH, DEATH_FRAMES, 230) if killed else _fading([at], HIT, HIT_FRAMES, 160)
                cursor = max(cursor, put(hits_from, frames))
    while timeline and not timeline[-1]:
        timeline.pop()
    return timeline if any(timeline) else []


class Animations:
    """The window's animations: ``request`` asks the window for a frame; ``enabled`` reads the
    ``animations`` setting. ``frames`` is what plays (a list of frames, see :func:`frames_for`),
    ``at`` the frame shown."""

    def __init__(self, request: Callable[[], None], enabled: Callable[[], bool]) -> None:
        self.request = request
        self.enabled = enabled
        self.frames: list[list[Square]] = []
        self.at = 0
        self.started = 0.0  # the pyglet clock's time when what plays started

    @property
    def playing(self) -> bool:
        return self.at < len(self.frames)

    def start(self, events: Iterable[Event], sees: Callable[[int, int], bool]) -> bool:
        """Play a key's events (after what was playing, which is skipped); returns whether
        anything plays."""
        self.skip(redraw=False)
        if not self.enabled():
            return False
        self.frames, self.at = frames_for(events, sees), 0
        if self.frames:
            self.started = pyglet.clock.get_default().time()
            pyglet.clock.schedule_once(self._next, FRAME_SECONDS)
        return bool(self.frames)

    def show(self, frames: list[list[Square]], at: int = 0) -> None:
        """Hold frame ``at`` of ``frames`` on the map until skipped (a test's or a picture's chosen
        frame: nothing is scheduled)."""
        self.skip(redraw=False)
        self.frames, self.at = frames, at

    def _next(self, _dt: float) -> None:
        # on time, whatever a frame costs to draw: a late frame is skipped, never the end delayed
        elapsed = pyglet.clock.get_default().time() - self.started
        self.at = max(self.at + 1, int(elapsed / FRAME_SECONDS))
        if self.playing:
            pyglet.clock.schedule_once(self._next, max(0.0, (self.at + 1) * FRAME_SECONDS - elapsed))
        else:
            self.frames, self.at = [], 0  # the last frame drawn clean: the loop sleeps after it
        self.request()

    def skip(self, *, redraw: bool = True) -> None:
        """Stop what is playing (a key or a click): the next frame shows the map alone."""
        if not self.frames:
            return
        pyglet.clock.unschedule(self._next)
        self.frames, self.at = [], 0
        if redraw:
            self.request()

    def draw(self, cell_rect: Callable[[int, int], tuple[int, int, int, int] | None]) -> None:
        """The frame playing, over the map (``cell_rect``: a cell's rectangle in framebuffer
        pixels, or None when it is not shown)."""
        if not self.playing:
            return
        for square in self.frames[self.at]:
            rect = cell_rect(*square.cell)
            if rect is None:
                continue
            left, bottom, width, height = rect
            w, h = max(1, round(width * square.size)), max(1, round(height * square.size))
            arcade.draw_lbwh_rectangle_filled(left + (width - w) // 2, bottom + (height - h) // 2, w, h, square.color)
