"""What the player sees, and who notices the player: the FOV from the player's cell, the view and
its memory (the items remembered are :mod:`engine.core.model.memory`'s), the monsters in view, waking
and sleeping, and the cells a blast reaches.

A :class:`Sight` belongs to a :class:`engine.core.turn.run.Run` (``run.sight``) and reads the run
it is given (``state``, ``world``, ``level``, ``player``, ``fov``, ``rules``, ``registry``,
``isolation``); it sets the run's ``new_in_view`` and imports nothing that imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.core.kinds.messages import DEFAULT_MESSAGES, listed, with_article
from engine.core.model import memory
from engine.core.model.components import Actor, Monster, Position, Sighted

if TYPE_CHECKING:
    from engine.core.turn.run import Run


class Sight:
    """The run's view of the level and the monsters' noticing (see the module doc)."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self._veils: dict[str, int] | None = None  # the kinds seen only near: name -> unseen_beyond
        self._watched: tuple[object, set[int]] = (None, set())  # the run's world, and its monsters in view

    @property
    def veils(self) -> dict[str, int]:
        """The monster kinds the player sees only near them (``MonsterKind.unseen_beyond``), by
        name: worked out once (the kinds of a run do not change)."""
        if self._veils is None:
            run = self.run
            kinds = {**run.registry.monsters, **run.rules.monster_kinds}
            self._veils = {name: kind.unseen_beyond for name, kind in kinds.items() if kind.unseen_beyond}
        return self._veils

    def veiled(self, entity: int) -> bool:
        """Whether the player cannot see a creature though its cell may be in view: its kind is seen
        only within ``unseen_beyond`` cells (king moves) of the player, and it stands farther. The
        one rule every view of creatures keeps (the monsters in view, the map drawn, the sidebar,
        look, aiming, the bots)."""
        veils = self.veils
        if not veils:
            return False
        monster = self.run.world.try_get(entity, Monster)
        beyond = veils.get(monster.kind, 0) if monster is not None else 0
        if not beyond:
            return False
        pos = self.run.world.get(entity, Position)
        x, y = self._player_cell()
        return max(abs(pos.x - x), abs(pos.y - y)) > beyond

    def _player_cell(self) -> tuple[int, int]:
        pos = self.run.world.get(self.run.player, Position)
        return pos.x, pos.y

    def compute_visible(self) -> np.ndarray:
        """The FOV from the player's cell (no memory, nobody woken). The FOV is a chosen plugin: a
        result that is not a bool array of the map's shape stops the game (see isolation)."""
        run = self.run
        x, y = self._player_cell()
        terrain = run.level.terrain
        where = f"fov {run.fov.name!r}"
        plugin = run.registry.owners.get(("fov", run.fov.name))
        visible = run.isolation.call(plugin, where, run.fov, run.ground.transparent, (x, y), run.rules.fov_radius)
        ok = isinstance(visible, np.ndarray) and visible.shape == terrain.shape and visible.dtype == bool
        if not ok:  # the message only when it is said: made every turn, it was a tenth of the view's cost
            run.isolation.check(plugin, where, ok, f"returned {type(visible).__name__} "
                                f"{getattr(visible, 'shape', '')} {getattr(visible, 'dtype', '')}, not a bool array "
                                f"of shape {terrain.shape}")
        return visible

    def look(self) -> None:
        """The view's ``visible`` made again from the player's cell, and its ``origin`` that cell:
        the two always go together (what is in view is read around where it was seen from)."""
        view = self.run.state.view
        view.visible, view.origin = self.compute_visible(), self._player_cell()

    def update_view(self) -> None:
        """Recompute the view and memory (the cells seen, and the items on the cells that were in
        view or are now: :mod:`engine.core.model.memory`), and wake the monsters that notice the player.
        ``new_in_view`` is set when a monster comes into view (one not in view at the last look:
        :meth:`watch`) or one in view notices the player: news that stops a held key in the window."""
        run = self.run
        view = run.state.view
        before = [(view.visible, view.origin)] if view.origin is not None else []
        self.look()
        view.seen |= view.visible
        view.dirty = False
        memory.remember(run.state, [*before, (view.visible, view.origin)], run.rules.fov_radius)
        standing = self.standing_in_view()
        self._news(self._unveiled(standing))
        self.notice_player(standing)

    def watch(self, news: bool = True) -> None:
        """Look at the monsters in view now (the view as it is): one that was not at the last look
        came into view, news (``new_in_view``) that stops a walk, a rest or a held key. Every turn
        ends with a look (the ``watch`` system), for a monster that walked into view while the
        player stood still, or after the player's view was made; ``news=False`` only notes them (a
        resumed run: what was in view when it was saved)."""
        now = self.visible_monsters()
        if news:
            self._news(now)
        else:
            self.watched = set(now)

    @property
    def watched(self) -> set[int]:
        """The monsters in view at the last look: none when the run's world is another (a new
        run numbers its entities anew, so an id seen in the last run is not this one's)."""
        world, seen = self._watched
        return seen if world is self.run.state.world else set()

    @watched.setter
    def watched(self, seen: set[int]) -> None:
        self._watched = (self.run.state.world, seen)

    def _news(self, now: list[int]) -> None:
        watched = self.watched
        if not watched.issuperset(now):
            self.run.new_in_view = True
            self._say([e for e in now if e not in watched])
        self.watched = set(now)

    def _say(self, newcomers: list[int]) -> None:
        """Say the monsters that came into view for the first time, nearest first (the preset's
        ``in_view``, "You see {monsters}.": the default game's; nothing by default, as the classic
        games say nothing). Each is marked :class:`Sighted` (saved): said once."""
        run = self.run
        world = run.world
        newcomers = [e for e in newcomers if not world.has(e, Sighted)]
        if not newcomers or not run.rules.messages.get("in_view", DEFAULT_MESSAGES["in_view"]):
            return
        for entity in newcomers:
            world.add(entity, Sighted())
        x, y = self._player_cell()

        def away(entity: int) -> tuple[int, int]:
            pos = world.get(entity, Position)
            return max(abs(pos.x - x), abs(pos.y - y)), entity

        names = [with_article(run.api.name_of(e)) for e in sorted(newcomers, key=away)]
        run.log(run.rules.message("in_view", monsters=listed(names)))

    def remember_in_view(self) -> None:
        """Remember the items in view as they lie now (before the level is left)."""
        run = self.run
        view = run.state.view
        if view.origin is not None:
            memory.remember(run.state, [(view.visible, view.origin)], run.rules.fov_radius)

    def notices(self, entity: int) -> bool:
        """A monster notices the player when it stands where the player can see and the player is
        within its sight (a round radius)."""
        run = self.run
        pos = run.world.get(entity, Position)
        if not run.state.view.visible[pos.y, pos.x]:
            return False
        me = run.world.get(run.player, Position)
        sight = run.world.get(entity, Monster).sight
        return (pos.x - me.x) ** 2 + (pos.y - me.y) ** 2 <= sight * sight

    def visible_monsters(self) -> list[int]:
        """The monsters the player sees, by entity id: standing where the player sees, and not
        :meth:`veiled`."""
        return self._unveiled(self.standing_in_view())

    def _unveiled(self, standing: list[int]) -> list[int]:
        """Those of ``standing`` (:meth:`standing_in_view`) the player sees: not :meth:`veiled`."""
        return [e for e in standing if not self.veiled(e)] if self.veils else standing

    def standing_in_view(self) -> list[int]:
        """The monsters standing where the player sees (seen or :meth:`veiled`), by entity id. With
        a light's radius only its square around the view's origin can be in view: the monsters
        outside it are passed by on their cells' numbers, without reading the view (most of a
        level's), and when the square holds fewer cells than there are monsters (a crowd of 500 on
        a big map) only its cells are looked up."""
        run = self.run
        view = run.state.view
        visible, blockers, player = view.visible, run.state.spatial.blockers(), run.player
        radius = run.rules.fov_radius
        if radius is None:
            return sorted(e for (x, y), e in blockers.items() if e != player and visible[y, x])
        ox, oy = view.origin if view.origin is not None else self._player_cell()  # where the view was seen from
        if (2 * radius + 1) ** 2 < len(blockers):
            x0, y0 = max(0, ox - radius), max(0, oy - radius)
            ys, xs = visible[y0:oy + radius + 1, x0:ox + radius + 1].nonzero()
            cells = zip((xs + x0).tolist(), (ys + y0).tolist(), strict=True)
            found = [blockers.get(cell) for cell in cells]
            return sorted(e for e in found if e is not None and e != player)
        x0, x1, y0, y1 = ox - radius, ox + radius, oy - radius, oy + radius
        return sorted(e for (x, y), e in blockers.items()
                      if x0 <= x <= x1 and y0 <= y <= y1 and e != player and visible[y, x])

    def notice_player(self, in_view: list[int] | None = None) -> None:
        """Wake the monsters that notice the player: only awake monsters are scheduled. ``in_view``:
        :meth:`standing_in_view` when the caller has it already (waking moves nobody). One the
        player cannot see (:meth:`veiled`) wakes unsaid."""
        run = self.run
        for entity in self.standing_in_view() if in_view is None else in_view:
            monster = run.world.get(entity, Monster)
            if not monster.awake and self.notices(entity):
                self.wake(entity)
                if not self.veiled(entity):
                    run.new_in_view = True

    def wake(self, monster: int) -> None:
        """A sleeping monster wakes: it is scheduled, and acts from its next turn."""
        run = self.run
        m = run.world.try_get(monster, Monster)
        if m is not None and not m.awake and run.world.has(monster, Position):
            m.awake = True
            run.state.scheduler.add(monster, run.world.get(monster, Actor).speed)

    def sleep(self, monster: int) -> None:
        """A monster stops acting until it notices the player again (it leaves the scheduler)."""
        run = self.run
        m = run.world.try_get(monster, Monster)
        if m is not None and m.awake:
            m.awake = False
            run.state.scheduler.remove(monster)

    def area(self, center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
        """The cells a blast of ``radius`` around ``center`` reaches: what the FOV in use sees
        from there within the radius, walls excepted (a wall shelters what is behind it; what
        cannot be walked on is not reached)."""
        run = self.run
        x, y = center
        ground = run.ground
        if radius <= 0 or not ground.walkable[y, x]:
            return [center]
        reach = run.fov(ground.transparent, center, radius) & ground.walkable
        ys, xs = reach.nonzero()
        return sorted(zip(xs.tolist(), ys.tolist(), strict=True), key=lambda c: (c[1], c[0]))
