"""What the player sees, and who notices the player: the FOV from the player's cell, the view and
its memory (the items remembered are :mod:`engine.core.model.memory`'s), the monsters in view, waking
and sleeping, and the cells a blast reaches.

:class:`Sight` is mixed into :class:`engine.core.turn.run.Run` and works on the run's state through
``self`` (``state``, ``world``, ``level``, ``player``, ``fov``, ``rules``, ``registry``,
``isolation``, ``position``); it imports nothing that imports it.
"""

from __future__ import annotations

import numpy as np

from engine.core.model import memory
from engine.core.model.components import Actor, Monster, Position


class Sight:
    """The run's view of the level and the monsters' noticing (see the module doc)."""

    def compute_visible(self) -> np.ndarray:
        """The FOV from the player's cell (no memory, nobody woken). The FOV is a chosen plugin: a
        result that is not a bool array of the map's shape stops the game (see isolation)."""
        x, y = self.position(self.player)
        terrain = self.level.terrain
        where = f"fov {self.fov.name!r}"
        plugin = self.registry.owners.get(("fov", self.fov.name))
        visible = self.isolation.call(plugin, where, self.fov, self.ground.transparent, (x, y), self.rules.fov_radius)
        ok = isinstance(visible, np.ndarray) and visible.shape == terrain.shape and visible.dtype == bool
        if not ok:  # the message only when it is said: made every turn, it was a tenth of the view's cost
            self.isolation.check(plugin, where, ok, f"returned {type(visible).__name__} "
                                 f"{getattr(visible, 'shape', '')} {getattr(visible, 'dtype', '')}, not a bool array "
                                 f"of shape {terrain.shape}")
        return visible

    def update_view(self) -> None:
        """Recompute the view and memory (the cells seen, and the items on the cells that were in
        view or are now: :mod:`engine.core.model.memory`), and wake the monsters that notice the player.
        ``new_in_view`` is set when a monster comes into view or one in view notices the player:
        news that stops a held key in the window."""
        view = self.state.view
        in_view = set(self.visible_monsters())
        before = [(view.visible, view.origin)] if view.origin is not None else []
        view.visible, view.origin = self.compute_visible(), self.position(self.player)
        view.seen |= view.visible
        view.dirty = False
        memory.remember(self.state, [*before, (view.visible, view.origin)], self.rules.fov_radius)
        now = self.visible_monsters()
        if not in_view.issuperset(now):
            self.new_in_view = True
        self.notice_player(now)

    def remember_in_view(self) -> None:
        """Remember the items in view as they lie now (before the level is left)."""
        view = self.state.view
        if view.origin is not None:
            memory.remember(self.state, [(view.visible, view.origin)], self.rules.fov_radius)

    def notices(self, entity: int) -> bool:
        """A monster notices the player when it stands where the player can see and the player is
        within its sight (a round radius)."""
        pos = self.world.get(entity, Position)
        if not self.state.view.visible[pos.y, pos.x]:
            return False
        me = self.world.get(self.player, Position)
        sight = self.world.get(entity, Monster).sight
        return (pos.x - me.x) ** 2 + (pos.y - me.y) ** 2 <= sight * sight

    def visible_monsters(self) -> list[int]:
        """The monsters standing where the player sees, by entity id. Only the light's square is
        looked at when it holds fewer cells than there are monsters (a crowd of 500 on a big map)."""
        visible, blockers, player = self.state.view.visible, self.state.spatial.blockers(), self.player
        radius = self.rules.fov_radius
        if radius is not None and (2 * radius + 1) ** 2 < len(blockers):
            px, py = self.position(player)
            ys, xs = visible[max(0, py - radius):py + radius + 1, max(0, px - radius):px + radius + 1].nonzero()
            cells = zip((xs + max(0, px - radius)).tolist(), (ys + max(0, py - radius)).tolist(), strict=True)
            found = [blockers.get(cell) for cell in cells]
            return sorted(e for e in found if e is not None and e != player)
        return sorted(e for (x, y), e in blockers.items() if e != player and visible[y, x])

    def notice_player(self, in_view: list[int] | None = None) -> None:
        """Wake the monsters that notice the player: only awake monsters are scheduled. ``in_view``:
        :meth:`visible_monsters` when the caller has it already (waking moves nobody)."""
        for entity in self.visible_monsters() if in_view is None else in_view:
            monster = self.world.get(entity, Monster)
            if not monster.awake and self.notices(entity):
                monster.awake = True
                self.new_in_view = True
                self.state.scheduler.add(entity, self.world.get(entity, Actor).speed)

    def sleep(self, monster: int) -> None:
        """A monster stops acting until it notices the player again (it leaves the scheduler)."""
        m = self.world.try_get(monster, Monster)
        if m is not None and m.awake:
            m.awake = False
            self.state.scheduler.remove(monster)

    def area(self, center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
        """The cells a blast of ``radius`` around ``center`` reaches: what the FOV in use sees
        from there within the radius, walls excepted (a wall shelters what is behind it; what
        cannot be walked on is not reached)."""
        x, y = center
        ground = self.ground
        if radius <= 0 or not ground.walkable[y, x]:
            return [center]
        reach = self.fov(ground.transparent, center, radius) & ground.walkable
        ys, xs = reach.nonzero()
        return sorted(zip(xs.tolist(), ys.tolist(), strict=True), key=lambda c: (c[1], c[0]))
