"""The default preset: the core game's rules, with the catalogue's generators mixed by depth."""

from engine.core.play.setup import Setup, new_game
from engine.core.play.snapshot import snapshot


def test_generators_are_mixed_by_depth(registry):
    rules = registry.games["undercroft"]
    assert [rules.generator_for(d) for d in range(1, 8)] == ["bsp", "bsp", "rooms_and_mazes", "rooms_and_mazes",
                                                              "caves", "caves", "caves"]
    g = new_game(Setup(seed=4))
    for depth, expected in ((1, "bsp"), (3, "rooms_and_mazes"), (5, "caves")):
        g.enter_level(depth)
        s = snapshot(g)
        assert s["plugins"]["generator"] == expected
        base, per_depth, lo, hi = g.rules.monster_count
        # the set pieces' monsters come on top (plugins/depths/vaults.py): a vault's guards, an
        # ambush, a captive (of the depth below: left out of the kinds)
        features = [f.split() for f in g.api.features()]
        extra = sum({"vault": 2, "ambush": 3, "captive": 1}.get(f[0], 0) for f in features)
        assert base + per_depth * depth + lo <= len(s["monsters"]) <= base + per_depth * depth + hi + extra
        captives = {tuple(int(v) for v in f[1].split(",")) for f in features if f[0] == "captive"}
        kinds = {m["kind"] for m in s["monsters"] if (m["x"], m["y"]) not in captives}
        assert kinds <= {k.name for k in g.api.monster_kinds(depth)}
        first = {"rat", "jackal", "goblin"}
        second = first | {"kobold", "goblin archer", "cave spider", "cutpurse", "goblin spearthrower"}
        assert kinds <= (first if depth < 2 else second if depth < 3 else
                         second | {"eel", "orc"} if depth < 4 else
                         second | {"eel", "orc", "ogre", "goblin shaman"})
        potions = sum(i["kind"] == "potion" for i in s["items"])
        piles = [i["amount"] for i in s["items"] if i["kind"] == "gold"]
        assert g.rules.item_counts["potion"][0] <= potions and 2 <= len(piles) <= 5 and all(5 <= a <= 15 for a in piles)
        cells = [(t["x"], t["y"]) for t in s["monsters"] + s["items"]]
        assert len(cells) == len(set(cells)) and g.level.start not in cells and g.level.stairs not in cells
    g.close()


def test_no_monster_in_the_start_room():
    for seed in range(1, 30):
        g = new_game(Setup(seed=seed))
        room = next(r for r in g.level.rooms if r.contains(*g.level.start))
        assert not any(room.contains(m["x"], m["y"]) for m in snapshot(g)["monsters"])
        g.close()


def test_the_player_matches_the_core_rules(registry):
    g = new_game(Setup(seed=1))
    p = snapshot(g)["player"]
    assert (p["hp"], p["max_hp"], p["attack"]) == (20, 20, 4) and g.rules.fov_radius == 8
    assert {k: (m.glyph, m.hp, m.attack, m.sight) for k, m in registry.monsters.items()
            if k in ("rat", "goblin", "orc")} == {"rat": ("r", 4, 2, 6), "goblin": ("g", 8, 3, 7),
                                                  "orc": ("o", 14, 5, 8)}
    g.close()
