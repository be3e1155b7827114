"""Unknown potions and scrolls (#25): each run gives them appearances, and the player learns them.

In a preset with ``[params.identify]`` (the default game), every potion kind (``use = "quaff"``)
and scroll kind (``use = "read"``) is known at first only by an appearance shuffled from the run's
seed: "murky potion", "scroll labelled XOTH". The appearances are drawn once a run from its own
stream (``game.rng("identify")``) and kept in ``game.data("identify")``, so one seed names them
the same way, and a resumed run as it was. The player learns a kind

- by using it: drinking or reading one says "It was a potion of haste.", and every item of the
  kind is named so from then on;
- by reading a scroll of identify (this plugin's item, on the default game's floor from depth 2):
  it names one unknown kind in the pack, asked which when there are several.

The names are this plugin's answers to the engine's ``item_name`` and ``item_description`` hooks,
which every place that shows the player an item asks (the pack, look, the sidebar, the messages,
``--dump json``'s ``name``, the morgue): an unknown kind's true name is never shown. Nor its colour:
its answer to ``item_color`` draws an unknown potion in its adjective's colour and every unknown
scroll in parchment's (each kind's own colour would name it at a glance).
``\\`` lists the potions and scrolls known and the unknown appearances seen (a ``Page``).

Params (``[params.identify]``): ``known``, the kinds known from the start (the default game: its
healing potion, the common lifeline a player learns at the first drink anyway). Equipment and wands
are always known.
"""

from engine import Carried, Item, ItemKind, KeyCommand, LootRow, Page, UseItem, hookimpl, player_only
from engine.kit.words import article

PARAMS = "identify"
QUESTION = "identify.which"
NOUNS = {"quaff": "potion", "read": "scroll"}  # the uses whose kinds are unknown, and what they are
ADJECTIVES = ("murky", "fizzing", "bubbling", "cloudy", "smoky", "golden", "violet", "amber", "silver", "milky",
              "oily", "glowing", "inky", "rusty", "emerald", "crimson", "pearly", "speckled", "viscous", "azure")
# what each appearance looks like on the map: an unknown potion is drawn in its adjective's colour,
# not its kind's (each kind has its own, which would name it at a glance), every unknown scroll in
# the one colour of parchment
COLORS = {"murky": (140, 118, 76), "fizzing": (170, 230, 120), "bubbling": (110, 205, 225), "cloudy": (185, 190, 205),
          "smoky": (150, 150, 160), "golden": (240, 200, 60), "violet": (170, 100, 235), "amber": (230, 150, 40),
          "silver": (205, 212, 228), "milky": (236, 232, 216), "oily": (150, 160, 80), "glowing": (250, 250, 150),
          "inky": (95, 105, 215), "rusty": (185, 95, 55), "emerald": (60, 200, 110), "crimson": (215, 45, 65),
          "pearly": (228, 218, 238), "speckled": (205, 165, 145), "viscous": (160, 190, 70), "azure": (70, 160, 250)}
STRANGE = (180, 180, 180)  # a potion past the adjectives ("strange 20 potion")
PARCHMENT = (228, 214, 170)
SYLLABLES = ("xo", "th", "ka", "zu", "ri", "mon", "el", "pha", "gor", "ne", "qua", "vis", "dra", "ul", "ya",
             "bek", "sol", "ith", "ar", "nox")


def _params(game) -> dict | None:
    return game.rules.params.get(PARAMS)


def _unknowable(kind) -> bool:
    return kind is not None and kind.use in NOUNS


def _state(game) -> dict:
    """This run's appearances (kind name: appearance), the kinds known and the appearances seen:
    drawn the first time they are asked for (from the run's own stream: the same seed, the same
    names), then kept with the run."""
    data = game.data(PARAMS)
    if "names" not in data:
        rng = game.rng("identify")
        adjectives, labels, names = list(ADJECTIVES), set(), {}
        rng.shuffle(adjectives)
        known = [str(name) for name in _params(game).get("known", [])]
        for kind in game.item_kinds():
            name = kind.name
            if not _unknowable(kind) or name in known:
                continue
            if kind.use == "quaff":
                adjective = adjectives.pop() if adjectives else f"strange {len(names)}"
                names[name] = f"{adjective} potion"
            else:
                label = ""
                while not label or label in labels:
                    label = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).upper()
                labels.add(label)
                names[name] = f"scroll labelled {label}"
        data["names"] = names
        data["known"] = sorted(known)
        data["seen"] = []
    return data


def unknown(game, kind) -> str | None:
    """The appearance an unknown kind goes by in this run, or None when the player knows it (or
    the game has no unknown items)."""
    if not _unknowable(kind) or _params(game) is None:
        return None
    state = _state(game)
    return None if kind.name in state["known"] else state["names"].get(kind.name)


def learn(game, name: str, how: str = "It was {a} {name}.") -> bool:
    """The player knows kind ``name`` from now on; said (``how``) when it was unknown."""
    state = _state(game)
    appearance = state["names"].get(name)
    if appearance is None or name in state["known"]:
        return False
    state["known"] = sorted({*state["known"], name})
    game.names_changed()
    game.log(how.format(a=article(name), name=name, appearance=appearance))
    return True


def learn_all(game) -> None:
    """Every kind known from now on, unsaid (a test of something else, a wizard's view)."""
    state = _state(game)
    state["known"] = sorted({*state["known"], *state["names"]})
    game.names_changed()


# -- the engine's question: how does the player name this item? --------------------------------
@hookimpl
def item_name(game, item, kind):
    return unknown(game, kind)


@hookimpl
def item_color(game, kind):
    """An unknown kind is seen in its appearance's colour: a potion in its adjective's, a scroll in
    parchment's."""
    appearance = unknown(game, kind)
    if appearance is None:
        return None
    return COLORS.get(appearance.split()[0], STRANGE) if kind.use == "quaff" else PARCHMENT


@hookimpl
def item_description(game, item, kind):
    appearance = unknown(game, kind)
    if appearance is None:
        return None
    return f"{article(appearance).capitalize()} {appearance}. You do not know what it does."


# -- learning by use ---------------------------------------------------------------------------
@hookimpl
@player_only  # the player's use of an item: a monster's action is not asked
def on_action(game, entity, action):
    if isinstance(action, UseItem) and game.is_player(entity) and _params(game) is not None:
        kind = game.kind_of(action.item)
        if unknown(game, kind) is not None:  # the item may be used up: its kind is noted now
            game.data(PARAMS)["using"] = kind.name
    return None


@hookimpl
@player_only
def after_action(game, entity, action, result):
    if not isinstance(action, UseItem) or not game.is_player(entity) or _params(game) is None:
        return
    using = game.data(PARAMS).pop("using", None)
    if using is not None and result.done:
        learn(game, using)


# -- the scroll of identify ---------------------------------------------------------------------
@hookimpl
def register_items(register):
    register(ItemKind(name="scroll of identify", glyph="?", color=(90, 15, 225), effect="identify", use="read",
                      description="Names one unknown potion or scroll in your pack."))


@hookimpl
def register_loot(register):
    register("undercroft", "floor", LootRow(item="scroll of identify", weight=6, min_depth=1))


def _unknown_in_pack(game) -> list[str]:
    """The unknown kinds in the pack, by pack letter."""
    found = []
    for item in game.pack():
        kind = game.kind_of(item)
        if unknown(game, kind) is not None and kind.name not in found:
            found.append(kind.name)
    return found


def identify(game, entity, kind, amount):
    """Learn the scroll itself, then one unknown kind in the pack: at once when there is one, else
    the player is asked which (``game.ask``: answered through ``on_answer``)."""
    if _params(game) is None:
        return "You feel knowledgeable for a moment."
    learn(game, kind.name)
    todo = _unknown_in_pack(game)
    if not todo:
        return "You have nothing unknown to identify."
    if len(todo) == 1:
        learn(game, todo[0], "The {appearance} is {a} {name}.")
        return None
    game.data(PARAMS)["asked"] = todo
    game.ask(QUESTION, "Identify which?", [_state(game)["names"][name] for name in todo])
    return None


@hookimpl
def register_effects(register):
    register("identify", identify)


@hookimpl
def on_answer(game, question, choice):
    if question != QUESTION:
        return
    asked = game.data(PARAMS).pop("asked", [])
    if 0 <= choice < len(asked):
        learn(game, asked[choice], "The {appearance} is {a} {name}.")


# -- what is known: the \ key -----------------------------------------------------------------
def _see(game) -> None:
    """Note the unknown appearances in view or in the pack. Only the items of a kind still to note
    are looked at (a turn's every item on the level was, for nothing, once all were seen)."""
    state = _state(game)
    seen = set(state["seen"])
    known = state["known"]
    todo = {name for name in state["names"] if name not in known and name not in seen}
    if not todo:
        return
    for item, stack in game.query(Item):
        if stack.kind not in todo or not _unknowable(game.item_kind(stack.kind)):
            continue
        cell = game.position(item)
        if game.component(item, Carried) is not None or (cell is not None and game.sees(*cell)):
            seen.add(stack.kind)
    if len(seen) != len(state["seen"]):
        state["seen"] = sorted(seen)


@hookimpl
def on_turn_end(game):
    if _params(game) is not None:
        _see(game)


def known_page(game, player, step):
    """The potions and scrolls known (with what they looked like), then the unknown ones seen."""
    _see(game)
    state, lines = _state(game), []
    for use, noun in NOUNS.items():
        known = [name for name in state["known"] if getattr(game.item_kind(name), "use", None) == use]
        lines.append(f"{noun.capitalize()}s known:" if known else f"No {noun}s known.")
        lines += [f"  {name}" + (f" ({state['names'][name]})" if name in state["names"] else "") for name in known]
    unseen = [state["names"][name] for name in state["seen"] if name not in state["known"]]
    lines.append("Seen, not yet known:" if unseen else "Nothing unknown seen yet.")
    lines += [f"  {name}" for name in sorted(unseen)]
    return Page("What you know", lines)


@hookimpl
def register_commands(register):
    register(KeyCommand(name="known", key="\\", act=known_page, params=PARAMS,
                        summary="list the potions and scrolls you know"))
