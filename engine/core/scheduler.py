"""The energy scheduler: fast actors act more often.

Every actor has a speed (energy gained per tick; 100 is normal) and an energy pool; an action costs
:data:`TURN_COST`. When nobody is ready, every scheduled actor gains its speed in a pass of its
own. (Granting energy inside the loop that looks for a ready actor would starve every actor after
the first: with two speed-100 actors, only the first would ever act.)

Only scheduled actors cost work: the game schedules a monster when it notices the player, so a
level of 500 sleeping monsters is as cheap as one of 10. A removed actor never acts again.

Order matters: ready monsters are served in entity order (the order they were spawned, as a
classic game's monster list), and the player is kept last, so a speed-200 bat noticed this turn
gets both its moves before the player's next one.
"""

from __future__ import annotations

import bisect

TURN_COST = 100


class Scheduler:
    def __init__(self) -> None:
        self._order: list[int] = []  # scheduled monsters, sorted by entity id
        self._player: int | None = None
        self._speed: dict[int, int] = {}
        self.energy: dict[int, int] = {}

    def add(self, entity: int, speed: int, energy: int = 0, *, player: bool = False) -> None:
        if entity in self._speed:
            return
        if speed <= 0:
            raise ValueError(f"speed must be positive, got {speed}")
        self._speed[entity] = speed
        self.energy[entity] = energy
        if player:
            self._player = entity
        else:
            bisect.insort(self._order, entity)

    def remove(self, entity: int) -> None:
        if self._speed.pop(entity, None) is None:
            return
        self.energy.pop(entity, None)
        if entity == self._player:
            self._player = None
        else:
            self._order.remove(entity)

    def __contains__(self, entity: int) -> bool:
        return entity in self._speed

    def __len__(self) -> int:
        return len(self._speed)

    def actors(self) -> list[int]:
        return [*self._order, *([self._player] if self._player is not None else [])]

    def spend(self, entity: int, cost: int = TURN_COST) -> None:
        self.energy[entity] -= cost

    def next_ready(self) -> int | None:
        """The next actor with a full turn of energy, granting ticks until there is one.

        Returns None when nobody is scheduled.
        """
        if not self._speed:
            return None
        while True:
            for entity in self._order:
                if self.energy[entity] >= TURN_COST:
                    return entity
            if self._player is not None and self.energy[self._player] >= TURN_COST:
                return self._player
            for entity, speed in self._speed.items():  # a pass of its own: see the module doc
                self.energy[entity] += speed

    def state(self) -> dict:
        return {"order": list(self._order), "player": self._player, "speed": dict(self._speed),
                "energy": dict(self.energy)}
