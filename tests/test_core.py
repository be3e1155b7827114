"""Unit tests: the scheduler, tables, random streams, worlds."""

import random
from collections import Counter

import pytest

from engine.core.kinds import tables
from engine.core.model import rng
from engine.core.model.components import Position
from engine.core.model.scheduler import TURN_COST, Scheduler
from engine.core.model.world import World


def run_ticks(s: Scheduler, player: int, player_turns: int) -> Counter:
    acted = Counter()
    for _ in range(player_turns):
        s.spend(player)
        while (e := s.next_ready()) != player:
            acted[e] += 1
            s.spend(e)
    return acted


def test_speed_200_acts_twice_per_player_turn():
    s = Scheduler()
    s.add(1, 100, TURN_COST, player=True)
    s.add(2, 200)
    s.add(3, 100)
    s.add(4, 50)
    acted = run_ticks(s, 1, 100)
    assert acted[2] == 200 and acted[3] == 100 and acted[4] == 50


def test_equal_speeds_both_act():
    # granting energy inside the ready loop would starve the second actor
    s = Scheduler()
    s.add(1, 100, TURN_COST, player=True)
    s.add(2, 100)
    s.add(3, 100)
    assert run_ticks(s, 1, 10) == Counter({2: 10, 3: 10})


def test_removed_actor_never_acts_again():
    s = Scheduler()
    s.add(1, 100, TURN_COST, player=True)
    s.add(2, 300)
    s.spend(1)
    assert s.next_ready() == 2
    s.remove(2)
    assert 2 not in s
    assert run_ticks(s, 1, 5) == Counter()


def test_bad_speed_is_rejected():
    with pytest.raises(ValueError):
        Scheduler().add(1, 0)


def test_weighted_pick_follows_weights():
    r = random.Random(3)
    counts = Counter(tables.pick([("a", 1), ("b", 3)], r) for _ in range(4000))
    assert 0.7 < counts["b"] / 4000 < 0.8


def test_gated_table_respects_min_depth(registry):
    names = lambda d: {k.name for k, _ in tables.gated(registry.monsters.values(), d)}  # noqa: E731
    assert names(1) == {"rat", "jackal", "goblin"}
    second = {"rat", "jackal", "goblin", "kobold", "goblin archer", "cave spider", "cutpurse",
              "goblin spearthrower"}  # (plugins/depths)
    assert names(2) == second
    assert names(4) == second | {"orc", "goblin shaman"}
    assert names(10) == {"goblin archer", "orc", "ogre", "troll", "shade", "ghoul"}  # max_depth leaves the weak out


def test_empty_table_is_an_error():
    with pytest.raises(ValueError):
        tables.pick([], random.Random(0))


def test_streams_are_independent_and_stable():
    assert rng.stream(5, "a").random() == rng.stream(5, "a").random()
    assert rng.stream(5, "a").random() != rng.stream(5, "b").random()
    # blake2b, not hash(): the same value in every process (pinned)
    assert rng.derive(0, "x") == int.from_bytes(__import__("hashlib").blake2b(b"0:x", digest_size=8).digest(), "big")


@pytest.mark.parametrize("text", ["x", "1.5", "-1", str(2**64), ""])
def test_bad_seeds(text):
    with pytest.raises(ValueError, match="--seed"):
        rng.parse_seed(text)


def test_two_worlds_never_see_each_other():
    a, b = World(), World()
    ea = a.create(Position(1, 1))
    b.create(Position(2, 2))
    b.create(Position(3, 3))
    assert [p.x for _, p in a.query(Position)] == [1]
    assert sorted(p.x for _, p in b.query(Position)) == [2, 3]
    a.delete(ea)
    assert list(a.query(Position)) == [] and len(list(b.query(Position))) == 2
    a.close()
    b.close()


def test_a_world_s_reads_are_esper_s_whichever_world_is_current():
    """get, try_get, has and components read the world's own table without switching to it: the
    same answers (errors included) as esper's own calls made in that world, while another world
    is current and after components come and go."""
    import esper

    from engine.core.model.components import Fighter, Item

    a, b = World(), World()
    e = a.create(Position(1, 2), Item("potion", 3))
    other = b.create(Position(5, 5))  # b is current now

    def esper_says(call, *args):
        esper.switch_world(a.name)
        try:
            return call(*args)
        except KeyError as err:
            return KeyError, str(err)
        finally:
            esper.switch_world(b.name)

    def ours(call, *args):
        try:
            return call(*args)
        except KeyError as err:
            return KeyError, str(err)

    reads = [(a.try_get, esper.try_component), (a.has, esper.has_component), (a.get, esper.component_for_entity)]
    for step in range(3):
        esper.switch_world(b.name)
        # one of a's entities and one no world has
        cases = [(entity, kind) for entity in (e, other + 10) for kind in (Position, Item, Fighter)]
        got = [ours(read, *case) for read, _ in reads for case in cases] + [ours(a.components, e)]
        assert esper.current_world == b.name  # no read switched worlds
        want = [esper_says(call, *case) for _, call in reads for case in cases] + \
            [esper_says(esper.components_for_entity, e)]
        assert len(got) == len(want) and all(x is y or x == y for x, y in zip(got, want, strict=True))
        if step == 0:
            a.add(e, Fighter(3, 3, 1))
            a.remove(e, Item)
        elif step == 1:
            a.delete(e)
    assert a.entities() == [] and b.entities() == [other]
    a.close()
    b.close()


class _RescanScheduler:
    """The scheduler as first written: rescan from the head for every action, grant one tick at a
    time. The definition the cursor scheduler must agree with."""

    def __init__(self):
        self.order, self.player, self.speed, self.energy = [], None, {}, {}

    def add(self, e, speed, energy=0, player=False):
        self.speed[e], self.energy[e] = speed, energy
        if player:
            self.player = e
        else:
            self.order = sorted([*self.order, e])

    def remove(self, e):
        del self.speed[e], self.energy[e]
        if e == self.player:
            self.player = None
        else:
            self.order.remove(e)

    def next_ready(self):
        while True:
            for e in self.order:
                if self.energy[e] >= TURN_COST:
                    return e
            if self.player is not None and self.energy[self.player] >= TURN_COST:
                return self.player
            for e, s in self.speed.items():
                self.energy[e] += s


def test_the_cursor_scheduler_acts_in_the_same_order_as_a_full_rescan():
    r = random.Random(11)
    for trial in range(40):
        new, old = Scheduler(), _RescanScheduler()
        for s in (new, old):
            s.add(1, 100, TURN_COST, player=True)
        ids = list(range(2, 40))
        for e in r.sample(ids, 12):
            speed = r.choice([25, 50, 100, 150, 200, 300])
            new.add(e, speed)
            old.add(e, speed)
        trace_new, trace_old = [], []
        for step in range(400):
            a, b = new.next_ready(), old.next_ready()
            trace_new.append(a)
            trace_old.append(b)
            assert a == b, f"trial {trial} step {step}"
            new.spend(a)
            old.energy[a] -= TURN_COST
            roll = r.random()
            if roll < 0.05 and len(old.order) > 1:  # someone dies (never the player)
                gone = r.choice(old.order)
                new.remove(gone)
                old.remove(gone)
            elif roll < 0.10:  # someone wakes up, with some energy or none
                e = r.choice([i for i in ids if i not in old.speed] or [99])
                if e not in old.speed:
                    energy = r.choice([0, 0, 50, 150])
                    new.add(e, 100, energy)
                    old.add(e, 100, energy)
        assert trace_new == trace_old


def test_a_hugely_negative_energy_is_one_grant_not_a_billion():
    s = Scheduler()
    s.add(1, 100, TURN_COST, player=True)
    s.add(2, 1, -10**9)
    s.spend(1)
    assert s.next_ready() == 1  # the player is ready long before the slow one: no hang


def test_a_turn_costs_linear_work_in_the_awake_actors():
    # counted, not timed: how many energy checks one player turn makes with n awake monsters
    def checks(n: int) -> int:
        s = Scheduler()
        s.add(0, 100, TURN_COST, player=True)
        for e in range(1, n + 1):
            s.add(e, 100)
        count = 0

        class Counting(dict):
            def __getitem__(self, key):
                nonlocal count
                count += 1
                return super().__getitem__(key)

        s.energy = Counting(s.energy)
        for _ in range(3):
            s.spend(0)
            while (e := s.next_ready()) != 0:
                s.spend(e)
        return count

    assert checks(500) < 60 * checks(10)  # quadratic would be about 2500x


def test_a_world_s_ordered_query_is_esper_s_answer_in_entity_order_sorted_again_only_when_it_changed():
    """World.ordered: the pairs of query() sorted by entity, a new list each call, in either world
    while the other is current; esper's answer is sorted again only when esper made a new one (a
    component added or removed), and at most MAX_ORDERED_QUERIES queries are kept."""
    from engine.core.model.components import Fighter, Item
    from engine.kit import limits

    a, b = World(), World()
    made = [a.create(Position(i, 0), Item("potion", 1)) for i in range(30)]
    for e in made[::3]:
        a.add(e, Fighter(5, 5, 1, 0))
    b.create(Position(9, 9), Item("dart", 2))  # b is current now
    first = a.ordered(Item, Position)
    assert [e for e, _ in first] == sorted(made) == [e for e, _ in sorted(a.query(Item, Position))]
    assert [e for e, _ in a.ordered(Fighter)] == sorted(made[::3])
    first.clear()  # the caller's own list
    again = a.ordered(Item, Position)
    assert len(again) == 30 and again is not a.ordered(Item, Position)
    kept = a._ordered[(Item, Position)]
    a.ordered(Item, Position)
    assert a._ordered[(Item, Position)] is kept  # nothing added or removed: esper's same list, not sorted again
    a.remove(made[5], Item)
    assert made[5] not in [e for e, _ in a.ordered(Item, Position)] and a._ordered[(Item, Position)] is not kept
    a.add(made[5], Item("potion", 1))
    assert [e for e, _ in a.ordered(Item, Position)] == sorted(made)
    assert [e for e, _ in b.ordered(Item)] == [e for e, _ in b.query(Item)]
    types = [type(f"Kind{i}", (), {}) for i in range(limits.MAX_ORDERED_QUERIES + 10)]
    for t in types:
        a.ordered(t)
    assert len(a._ordered) == limits.MAX_ORDERED_QUERIES
    a.close()
    b.close()
