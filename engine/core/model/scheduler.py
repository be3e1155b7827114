"""The energy scheduler: fast actors act more often.

Every actor has a speed (energy gained per tick; 100 is normal) and an energy pool; an action costs
:data:`TURN_COST`. When nobody is ready, every scheduled actor gains its speed in a pass of its
own. (Granting energy inside the loop that looks for a ready actor would starve every actor after
the first: with two speed-100 actors, only the first would ever act.)

Only scheduled actors cost work: the game schedules a monster when it notices the player and
unschedules it when it goes back to sleep, so a level of 500 sleeping monsters is as cheap as one
of 10. A removed actor never acts again.

Order matters: ready monsters are served in entity order (the order they were spawned, as a
classic game's monster list), and the player is kept last, so a speed-200 bat noticed this turn
gets both its moves before the player's next one.

Cost: a turn with n awake actors costs O(n), not O(n²). Between two grants energies only go down
(actions spend, new actors join with less than a turn), so an actor passed over as not ready stays
not ready until the next grant: a cursor walks the order once per grant instead of rescanning from
the head for every action. And a grant gives every actor as many ticks as the nearest actor needs
at once, since no one could act in the ticks between.
"""

from __future__ import annotations

import bisect

from engine.kit.limits import MAX_ENERGY_DEBT

TURN_COST = 100


class Scheduler:
    def __init__(self) -> None:
        self._order: list[int] = []  # scheduled monsters, sorted by entity id
        self._player: int | None = None
        self._speed: dict[int, int] = {}
        self.energy: dict[int, int] = {}
        self._cursor = 0  # index into _order: every monster before it is not ready (see the doc)

    def add(self, entity: int, speed: int, energy: int = 0, *, player: bool = False) -> None:
        if entity in self._speed:
            return
        if speed <= 0:
            raise ValueError(f"speed must be positive, got {speed}")
        self._speed[entity] = speed
        self.energy[entity] = energy
        if player:
            self._player = entity
            return
        at = bisect.bisect_left(self._order, entity)
        self._order.insert(at, entity)
        if at < self._cursor:
            # joining behind the cursor: if it is ready it must be served first, as a rescan would
            self._cursor = at if energy >= TURN_COST else self._cursor + 1

    def remove(self, entity: int) -> None:
        if self._speed.pop(entity, None) is None:
            return
        self.energy.pop(entity, None)
        if entity == self._player:
            self._player = None
            return
        at = bisect.bisect_left(self._order, entity)
        del self._order[at]
        if at < self._cursor:
            self._cursor -= 1

    def __contains__(self, entity: int) -> bool:
        return entity in self._speed

    def __len__(self) -> int:
        return len(self._speed)

    def speed(self, entity: int) -> int:
        return self._speed[entity]

    def set_speed(self, entity: int, speed: int) -> None:
        """A scheduled actor's speed from the next grant on (unscheduled ones: nothing to do)."""
        if entity in self._speed:
            if speed <= 0:
                raise ValueError(f"speed must be positive, got {speed}")
            self._speed[entity] = speed

    def spend(self, entity: int, cost: int = TURN_COST) -> None:
        # saturates at the debt a save may hold (engine.kit.limits): an action costing a million
        # would otherwise leave a slow actor owing turns the others play out for hours
        # (a comparison, not max(): every monster's every turn spends)
        left = self.energy[entity] - cost
        self.energy[entity] = left if left > -MAX_ENERGY_DEBT else -MAX_ENERGY_DEBT

    def spent(self, entity: int, cost: int = TURN_COST) -> None:
        """:meth:`spend`, for an actor that may have left the scheduler meanwhile (died on its own
        turn, fell asleep): nothing then. One call where a monster's every turn ends."""
        left = self.energy.get(entity)
        if left is not None:
            left -= cost
            self.energy[entity] = left if left > -MAX_ENERGY_DEBT else -MAX_ENERGY_DEBT

    def next_ready(self) -> int | None:
        """The next actor with a full turn of energy, granting ticks until there is one.

        Returns None when nobody is scheduled.
        """
        if not self._speed:
            return None
        order, energy = self._order, self.energy
        while True:
            i, n = self._cursor, len(order)
            while i < n:  # a while, not a range: a crowd's every turn starts here
                entity = order[i]
                if energy[entity] >= TURN_COST:
                    self._cursor = i
                    return entity
                i += 1
            self._cursor = n
            if self._player is not None and energy[self._player] >= TURN_COST:
                return self._player
            self._grant()

    def _grant(self) -> None:
        """Every actor gains its speed for as many ticks as the nearest one needs to be ready
        (at least one): the passes in between would find nobody ready."""
        energy = self.energy  # a list, not a generator, to min() (a crowd's every turn grants once)
        ticks = max(1, min([-(-(TURN_COST - energy[e]) // s) for e, s in self._speed.items()]))
        for entity, speed in self._speed.items():
            energy[entity] += speed * ticks
        self._cursor = 0

    def state(self) -> dict:
        return {"order": list(self._order), "player": self._player, "speed": dict(self._speed),
                "energy": dict(self.energy)}
