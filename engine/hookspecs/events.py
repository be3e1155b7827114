"""Event hooks: what a plugin hears during play, and how it may answer.

Called for every plugin, the one registered last first (a third-party plugin before the
built-ins: see :mod:`engine.hookspecs`), with ``game``, the game API (``engine.GameAPI``).
The order within a turn: ``on_action`` before an action (it may replace or veto it),
``after_action`` after it, ``on_death`` when one dies, ``on_turn_end`` once the monsters have acted;
``on_level_generated`` when a new level is ready and ``on_answer`` when the player answers a
plugin's question. ``item_name``, ``item_description`` and ``item_color`` are asked, not told: how
the player knows an item, wherever one is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

# The types the hooks pass, for type checkers only: engine's public names are made of the core, which
# loads these hooks (the import contracts let this package name them for typing alone: pyproject.toml).
if TYPE_CHECKING:
    from engine import Action, ActionResult, GameAPI, ItemKind, Level

# pluggy's marker for the "undercroft" project's hooks: every module of engine.hookspecs marks its
# hooks with one of the same name (a marker holds nothing but the name).
hookspec = pluggy.HookspecMarker("undercroft")


@hookspec
def on_level_generated(game: GameAPI, level: Level) -> None:
    """Called after a level is generated and populated, before the player's first turn on it
    (not when a saved run is loaded: loading fires no hook). ``game`` is the game API
    (``engine.GameAPI``); ``level`` the new ``engine.Level``.

    Example::

        @hookimpl
        def on_level_generated(game, level):
            game.log(f"A chill rises from depth {game.depth}.")
    """


@hookspec(firstresult=True)
def on_action(game: GameAPI, entity: int, action: Action) -> Action | object | None:
    """Called before an entity's action is performed (the player's and every monster's, and each
    alternate: a bump, then the attack it becomes). Return None to let it be, another
    ``engine.Action`` to perform instead, or ``engine.VETO`` to stop it: it does not happen, and
    the turn is spent all the same (a frozen monster loses its turn). The first plugin to answer
    decides. ``game`` is the game API (``engine.GameAPI``).

    An implementation that only cares about some actions says whose with ``@engine.hears(...)``
    (under ``@hookimpl``): the player's (``player=True``; ``@engine.player_only`` is that alone),
    those of an entity with a component of some type (``having``) or some status (``statuses``),
    anyone's while some entity of the level has a component of some type (``present``), a step from
    or onto some kinds of terrain (``steps``). It is called for those, and every other action passes
    it by without a call (a crowd of hunters stepping across the floor calls none of the default
    game's). Mark only one that returns None and does nothing for every action its mark leaves out;
    an unmarked one hears every action.

    Example::

        from engine import VETO, hears

        @hookimpl
        @hears(statuses=["frozen"])  # the frozen's actions only
        def on_action(game, entity, action):
            return VETO if game.has_status(entity, "frozen") else None
    """


@hookspec
def after_action(game: GameAPI, entity: int, action: Action, result: ActionResult) -> None:
    """Called after an entity's action has been performed (the player's and every monster's), as
    soon as it resolves: its effects are done (a blow has hurt, a step has moved) and, for a
    monster, before the next monster acts; for the player, before the monsters act. ``action`` is
    the action performed (for a bump that became an attack, the attack; after an ``on_action``
    hook replaced it, the replacement); ``result`` its ``engine.ActionResult`` (``result.done``:
    whether it happened; a wall bump is not done). Not called for an action an ``on_action`` hook
    vetoed. The return value is ignored. ``game`` is the game API (``engine.GameAPI``). Marked
    ``@engine.hears(...)`` or ``@engine.player_only`` (see ``on_action``; ``steps`` is
    ``on_action``'s alone), an implementation hears only the actions its mark names.

    Example::

        from engine import Attack

        @hookimpl
        def after_action(game, entity, action, result):
            if isinstance(action, Attack) and result.done and action.target == game.player:
                game.add_status(game.player, "chilled", 2)
    """


@hookspec
def on_turn_end(game: GameAPI) -> None:
    """Called after every monster has acted and the turn's systems have run, when the player is
    alive and about to act again (not after a key that took no time). ``game`` is the game API
    (``engine.GameAPI``).

    Example::

        @hookimpl
        def on_turn_end(game):
            if game.turn % 100 == 0:
                game.log("Time passes.")
    """


@hookspec
def on_death(game: GameAPI, entity: int, killer: int | None, cause: str) -> None:
    """Called when an entity dies (the player included), before it is removed. ``killer`` is the
    entity whose blow or spell killed it, or None (a trap, a status); ``cause`` says what killed it
    in a word: the killer's kind, the named cause a plugin gave ``damage`` or ``kill``
    (``"poison"``), or ``""`` when nothing was said. ``game`` is the game API (``engine.GameAPI``).
    A hook may take only the arguments it needs. However the player dies, the death is applied
    once, at the end of the turn: the ``die`` message, the morgue, the save removed, the profile.

    Example::

        @hookimpl
        def on_death(game, entity):
            if entity != game.player:
                game.log(f"The {game.name_of(entity)} crumbles to frost.")
    """


@hookspec
def on_answer(game: GameAPI, question: str, choice: int) -> None:
    """Called when the player answers a question a plugin asked with ``game.ask(question, title,
    options)``: ``choice`` is the index of the option chosen. Every plugin hears every answer;
    check ``question``, the name you asked it under. ``game`` is the game API (``engine.GameAPI``).

    Example::

        @hookimpl
        def on_turn_end(game):
            if game.turn == 10:
                game.ask("myplugin.gift", "A gift: which?", ["a sword", "a shield"])

        @hookimpl
        def on_answer(game, question, choice):
            if question == "myplugin.gift":
                game.log(["You take the sword.", "You take the shield."][choice])
    """


@hookspec(firstresult=True)
def item_name(game: GameAPI, item: int | None, kind: ItemKind) -> str | None:
    """Name an item as the player knows it: return the name to show, or None to leave it to the
    next plugin (none answering: the kind's ``name``). ``item`` is the item entity, or None where
    only its kind is at hand (an item remembered on the map, an effect's message); ``kind`` its
    ``engine.ItemKind``. Called wherever the player is shown an item, through
    ``game.item_name``: the pack and its menus, look and the window's pointer, the sidebar, the
    messages (picked up, dropped, drunk), ``--dump json``'s ``name`` and the morgue; the first
    plugin to answer decides. ``kind.name`` stays the item's true kind (saves, loot tables, the
    ``kind`` of ``--dump json``). ``game`` is the game API (``engine.GameAPI``). When your answers
    change (an item kind learned), call ``game.names_changed()``: what keeps names (a bot's view of
    its pack) keeps them while ``game.names_version`` stays the same.

    The default game's unknown potions and scrolls are ``plugins/depths/identify.py``'s answers.

    Example::

        @hookimpl
        def item_name(game, item, kind):
            if kind.use == "quaff" and kind.name not in game.data("myplugin").get("known", []):
                return "murky potion"
            return None
    """


@hookspec(firstresult=True)
def item_color(game: GameAPI, kind: ItemKind) -> tuple[int, int, int] | None:
    """Colour the items of ``kind`` as the player knows them: return an ``(r, g, b)`` of ints 0-255,
    or None to leave it to the next plugin (none answering: the kind's ``color``). Called when the
    window draws an item: on the map, remembered on the map, at the player's feet in the sidebar;
    once per kind while ``game.names_version`` stays the same, so call ``game.names_changed()`` when
    your answers change, as for ``item_name``. On a tileset an item is drawn as the name the player
    knows it by (``item_name``), so a disguised kind is not given away by its shape either. An
    answer that is not a colour switches the plugin off, and the kind keeps its own.

    The default game's unknown potions (each kind has a colour of its own, which would name it at
    a glance) and scrolls are ``plugins/depths/identify.py``'s answers.

    Example::

        @hookimpl
        def item_color(game, kind):
            if kind.use == "quaff" and kind.name not in game.data("myplugin").get("known", []):
                return (120, 100, 70)  # every unknown potion looks murky
            return None
    """


@hookspec(firstresult=True)
def item_description(game: GameAPI, item: int | None, kind: ItemKind) -> str | None:
    """Describe an item as the player knows it, in one line: return it, or None to leave it to the
    next plugin (none answering: the kind's ``description``). Called where ``item_name`` is, by look
    and the pack's menus; ``item`` may be None as there. ``game`` is the game API (``engine.GameAPI``).

    Example::

        @hookimpl
        def item_description(game, item, kind):
            return "You do not know what it does." if kind.use == "quaff" else None
    """
