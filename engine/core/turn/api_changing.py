"""The game API's changing part: hurting, healing, spawning, moving and removing, and statuses.

A part of :class:`engine.core.turn.api.GameAPI` (which owns one and gives its members under their own
names): it changes the run it is given through the run's own operations
(:mod:`engine.core.turn.entities`), so the engine's invariants (one creature per cell, the
scheduler, the spatial index) hold; it asks the reading part for ``is_wall`` and ``passable``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np

from engine.core.model import bounds
from engine.core.model.components import Fighter, Item, Monster, Position, Status, Statuses
from engine.core.model.requests import ChangeLevel
from engine.core.turn import entities
from engine.core.turn import statuses as statusrun
from engine.core.turn import terrain as terrainrun
from engine.kit import limits
from engine.kit.regions import flood

if TYPE_CHECKING:
    import random

    from engine.core.kinds.content import ItemKind
    from engine.core.turn.api_reading import Reading
    from engine.core.turn.playing import Playing
    from engine.core.turn.run import Run


class Changing:
    """Changing the run.

    Hurting, healing and killing, spawning, moving and removing, and statuses. Every change goes
    through the engine's own operations: a death is heard by ``on_death``, a move keeps one
    creature per cell."""

    def __init__(self, run: Run, reading: Reading) -> None:
        self._run, self._reading = cast("Playing", run), reading  # changed only while the run plays

    def _rng(self, label: str) -> random.Random:
        return self._run.rng(bounds.stream_label(self._run.state, label))  # as GameAPI.rng gives it

    def damage(self, entity: int, amount: int, by: int | str | None = None) -> int:
        """Hurt an entity (never below 0 HP); at 0 it dies. ``by`` is what did it: an entity (a
        scroll's reader, a monster: ``on_death`` hears who, and the killer may grow) or a named cause
        (a status, a terrain kind, a trap: ``"poison"``), which the morgue, the profile and ``sim``
        give as the cause of the player's death. Returns the damage dealt."""
        dealt = entities.hurt(self._run, entity, amount, by)
        if dealt and self._run.world.get(entity, Fighter).hp == 0:
            entities.kill(self._run, entity, by)
        return dealt

    def heal(self, entity: int, amount: int) -> int:
        """Heal an entity (never above its max HP). Returns the HP gained."""
        fighter = self._run.world.try_get(entity, Fighter)
        if fighter is None or amount <= 0 or fighter.hp <= 0:
            return 0
        gained = min(fighter.max_hp - fighter.hp, int(amount))
        fighter.hp += gained
        return gained

    def kill(self, entity: int, by: int | str | None = None) -> None:
        """Kill a creature at once, ``by`` an entity or a named cause (see :meth:`damage`)."""
        fighter = self._run.world.try_get(entity, Fighter)
        if fighter is not None and fighter.hp > 0:
            fighter.hp = 0
            entities.kill(self._run, entity, by)

    def spawn(self, kind: str, x: int, y: int, amount: int = 1) -> int | None:
        """A monster (asleep) or an item of ``kind`` on a cell; None when a monster's cell is taken,
        the cell is a wall, or the run holds ``MAX_ENTITIES`` things (:mod:`engine.core.model.bounds`:
        kept levels are forgotten first to make room). An unknown kind is a KeyError, an amount
        outside 1..``MAX_STAT`` a ValueError (a bug in the plugin)."""
        is_item = kind in self._run.registry.items
        if is_item:
            amount = bounds.amount("spawn", amount)
        if self._reading.is_wall(x, y) or (not is_item and not self._reading.passable(x, y)):
            return None
        if not bounds.room_for_one(self._run, f"spawn {kind!r}"):
            return None
        if is_item:
            return entities.spawn_item(self._run, kind, x, y, amount)
        return entities.spawn_monster(self._run, kind, x, y)

    def loot(self, table: str, depth: int | None = None, label: str = "loot") -> list[tuple[str, int]]:
        """Roll the preset's loot table ``table`` (``GameRules.loot``) at ``depth`` (the current one
        when None), from the run's stream ``label``: the ``(item kind, amount)`` pairs it gives, the
        amount rolled from the kind's ``amount``; empty when it gives nothing or the preset has no
        such table. Place them with :meth:`spawn`."""
        loot = self._run.rules.loot.get(table)
        if loot is None:
            return []
        rng = self._rng(label)
        items = self._run.registry.items
        depth = self._run.state.depth if depth is None else depth
        return [(name, rng.randint(*items[name].amount)) for name in loot.roll(depth, rng)]

    def breaks(self, kind: ItemKind) -> bool:
        """Whether a thrown item of ``kind`` that hit a creature breaks: ``params.breaks`` percent of
        the time (default 0: never, and nothing rolled), on the run's ``"throw"`` stream. The
        player's throw (``engine.Throw``) asks it, and a plugin's thrower asks it too: one rule
        for every thrown thing."""
        chance = kind.params.get("breaks", 0)
        return bool(chance) and self._rng("throw").random() * 100 < float(chance)

    def give(self, kind: str, amount: int = 1) -> int | None:
        """Put ``amount`` of an item kind into the player's pack (onto its stack, or under the
        first free letter): the carried item, or None when the pack is full (or the run holds
        ``MAX_ENTITIES`` things, as for :meth:`spawn`). A stack holds at most ``MAX_STAT``; an amount
        outside 1..``MAX_STAT`` is a ValueError."""
        amount = bounds.amount("give", amount)
        if not bounds.room_for_one(self._run, f"give {kind!r}"):
            return None
        return entities.give(self._run, kind, amount)

    def remove(self, entity: int) -> None:
        """Take an item away: off the map, or out of the pack; or a monster off the level without
        dying (an ally following the player down the stairs: no ``on_death``, no loot, it never
        acts again). The player is not removed (a creature dies with ``kill``)."""
        run = self._run
        monster = run.world.has(entity, Monster)
        if not run.world.has(entity, Item) and not monster:
            raise ValueError(f"remove: entity {entity} is not an item or a monster (a creature dies with kill)")
        if run.world.has(entity, Position):
            run.state.spatial.remove(entity)
        if monster:
            run.state.scheduler.remove(entity)
            run.declared.pop(entity, None)
        run.world.delete(entity)

    def move(self, entity: int, x: int, y: int) -> bool:
        """Put a creature on another cell at once (not a step: no bump, no attack, no pickup);
        False when the cell is a wall or taken."""
        if not self._reading.passable(x, y):
            return False
        entities.move_entity(self._run, entity, x, y)
        return True

    def teleport(self, entity: int, label: str = "teleport") -> tuple[int, int] | None:
        """Move a creature to a random free floor cell of the level (from the stream ``label``)
        that is joined to its stairs by walkable cells: never into a sealed room (a vault behind
        its locked door, a room behind a secret door), where it would be shut in."""
        run = self._run
        walkable = run.ground.walkable
        anchors = [c for c in (run.level.stairs, run.level.upstairs, run.level.exit) if c is not None]
        anchor = next((c for c in anchors if walkable[c[1], c[0]]), None)
        joined = flood(walkable, anchor) if anchor is not None else walkable
        ys, xs = joined.nonzero()
        passable = self._reading.passable
        cells = [(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True) if passable(x, y)]
        if not cells:
            return None
        cell = cells[self._rng(label).randrange(len(cells))]
        self.move(entity, *cell)
        return cell

    def set_terrain(self, x: int, y: int, name: str) -> None:
        """Make cell (x, y) terrain kind ``name`` (a registered ``engine.TerrainKind``: a door opening, a
        wall dug, a trap revealed); sight, paths and the picture follow at once. Off the map, or a
        name no plugin registered, is a ValueError (a bug in the plugin)."""
        terrainrun.change(self._run, x, y, name)

    def set_speed(self, entity: int, speed: int) -> None:
        """Change how fast a creature acts (100 is normal), from now on."""
        entities.set_speed(self._run, entity, speed)

    def swap(self, a: int, b: int) -> bool:
        """Two creatures trade cells at once (the player walking into an ally): not a step (no
        bump, no attack, no pickup), though the kinds of terrain they leave and enter hear it;
        False when either is not on the map."""
        run = self._run
        pa, pb = self._reading.position(a), self._reading.position(b)
        if pa is None or pb is None or a == b:
            return False
        spatial = run.state.spatial
        spatial.remove(a)  # off the map for a moment, so that b may stand where a stood
        entities.move_entity(run, b, *pa)
        spatial.place(a, *pb)
        if run.ground.hooked:
            terrainrun.moved(run, a, pa, pb)
        if a == run.player:
            run.state.view.dirty = True
        return True

    def note_feature(self, feature: str) -> None:
        """Note a set piece a plugin built into the level (``"vault 34,12"``, ``"ambush 5,7"``): saved
        with the level, given back by :meth:`features`, listed by ``undercroft catalog``. One line of
        1..``MAX_LABEL_CHARS`` characters; a level keeps at most 100."""
        if not isinstance(feature, str) or not 0 < len(feature) <= limits.MAX_LABEL_CHARS or "\n" in feature:
            raise ValueError(f"note_feature: {str(feature)[:40]!r} is not one line of 1 to "
                             f"{limits.MAX_LABEL_CHARS} characters")
        features = self._run.level.features
        if len(features) < 100:
            features.append(feature)

    def sleep(self, monster: int) -> None:
        """A monster stops acting until it notices the player again: it costs nothing meanwhile."""
        self._run.sight.sleep(monster)

    def wake(self, monster: int) -> None:
        """A sleeping monster wakes and acts from its next turn, whether or not it notices the
        player (one called up by a summoner, an ambush sprung, an alarm); an awake one, or what is
        no monster, is left as it is."""
        self._run.sight.wake(monster)

    def reveal(self, cells: np.ndarray) -> None:
        """Mark cells as seen by the player (bool, ``[y, x]``, the level's shape): they join the
        player's memory of the level, as if seen and left (a map read from a scroll). The hidden
        terrain there (a kind with ``found``: a secret door, a hidden trap) is found: it becomes
        its ``found`` kind."""
        run = self._run
        seen = run.state.view.seen
        if not isinstance(cells, np.ndarray) or cells.shape != seen.shape:
            raise ValueError(f"reveal: expected a bool array of shape {seen.shape}")
        cells = cells.astype(bool)
        seen |= cells
        ground, terrain = run.ground, run.level.terrain
        hidden = [code for code, kind in enumerate(ground.kinds) if kind.found in run.registry.terrain]
        if hidden:
            ys, xs = (np.isin(terrain, hidden) & cells).nonzero()
            for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
                terrainrun.change(run, x, y, ground.kind(x, y).found)

    def fall(self) -> bool:
        """The player falls to the next level at the end of this turn (a trapdoor), landing on a
        random free floor cell there, as a fall into a chasm does (``ChangeLevel(fall=True)``).
        False (nothing happens) on the deepest level (the preset's ``max_depth``)."""
        run = self._run
        depth, deepest = run.state.depth, run.rules.max_depth
        if deepest is not None and depth >= deepest:
            return False
        run.falling = ChangeLevel(depth + 1, fall=True)
        return True

    def add_component(self, entity: int, component: Any) -> None:
        """Give an entity a component (a registered one is saved with the run)."""
        if isinstance(component, Position):
            raise TypeError("positions change only through move() and teleport()")
        self._run.world.add(entity, component)

    def declare(self, monster: int, state: str | None) -> None:
        """Say what a monster is doing, in a word the window shows on its sidebar row after its
        HP (``"a goblin 3/10 fleeing"``): a behaviour that runs calls ``game.declare(me,
        "fleeing")``. It holds until the monster's next turn (when its behaviour declares again, or
        says nothing and it is gone); None takes it off now. No rule reads it, but a walk does (a
        ``"fleeing"`` or ``"lurking"`` monster in view, one that will not come, does not keep one
        from starting), so a run save keeps it: a resumed run walks as the unbroken one. ``state``
        is 1..``MAX_DECLARED_CHARS`` (30) characters."""
        declared = self._run.declared
        if state is None:
            declared.pop(monster, None)
            return
        if not isinstance(state, str) or not 0 < len(state) <= limits.MAX_DECLARED_CHARS:
            raise ValueError(f"declare: state {state!r} is not a word of 1 to {limits.MAX_DECLARED_CHARS} "
                             "characters (or None)")
        declared[monster] = (self._run.world, state)

    def declared(self, monster: int) -> str | None:
        """What the monster's behaviour declared it is doing this turn (:meth:`declare`), or None."""
        world, state = self._run.declared.get(monster, (None, None))
        return state if world is self._run.world else None  # entity ids are a level's own
    def remove_component(self, entity: int, cls: type) -> None:
        """Take an entity's component of type ``cls`` away (nothing if it has none): a registered
        one of your plugin's, or an engine one a plugin may change (not ``engine.Position``: a
        creature leaves the map by dying, an item with :meth:`remove`)."""
        if cls is Position:
            raise TypeError("remove_component: positions change only through move(), teleport() and remove()")
        self._run.world.remove(entity, cls)

    # -- statuses ----------------------------------------------------------------------------
    def add_status(self, entity: int, name: str, turns: int | None, **params: Any) -> None:
        """Put the status ``name`` (a registered ``engine.StatusKind``: any other name is an error
        naming the registered ones) on an entity for ``turns`` turns (None: until removed). A second
        dose stacks as the kind says (by default the longer duration stays) and keeps the new params;
        a first one calls the kind's ``on_start``.

        When it counts down: at the end of every turn (after the monsters have acted, before the
        plugins' end-of-turn systems and before the ``on_turn_end`` hooks), each status ticks (its kind's
        ``on_tick``), loses one turn and goes at 0 (its ``on_end``), and the player reads "The rat is
        no longer frozen." when it was theirs or a monster they see. So a status of N turns ticks
        exactly N times: added during a turn (an effect, a behaviour, ``on_action``) it holds for the
        rest of this turn and N - 1 more; added in ``on_turn_end``, for the next N whole turns.

        ``turns`` is None or 1..``MAX_STAT``, ``params`` JSON values, and a creature has at most
        ``MAX_STATUSES`` at once: what a run save holds (a ValueError otherwise). Stacked turns
        saturate at ``MAX_STAT``."""
        turns = bounds.turns("add_status", turns)
        params = bounds.params("add_status", params)
        statusrun.add(self._run, entity, name, turns, params)

    def statuses(self, entity: int) -> dict[str, Status]:
        """The entity's statuses by name (a copy): each with ``turns`` left and ``params``."""
        statuses = self._run.world.try_get(entity, Statuses)
        return dict(statuses.active) if statuses is not None else {}

    def has_status(self, entity: int, name: str) -> bool:
        """Whether the entity has the status ``name`` now (it is removed the moment it runs out)."""
        statuses = self._run.state.world.try_get(entity, Statuses)  # every action's hooks ask
        return statuses is not None and name in statuses.active

    def is_friendly(self, entity: int) -> bool:
        """Whether the entity is on the player's side: it has a status of a ``friendly`` kind
        (``engine.StatusKind``: the default game's ally and captive), which the player's aim at the
        nearest monster passes by and the window draws on a green ground. A bot that spares the
        player's friends asks this rather than naming statuses."""
        return statusrun.friendly(self._run, entity)

    def remove_status(self, entity: int, name: str) -> None:
        """Take the status ``name`` off the entity at once (nothing if it has none), calling its
        kind's ``on_end``; unlike running out, this logs nothing."""
        statusrun.remove(self._run, entity, name)
