"""The one way a game calls its plugins' hooks: every implementation, in pluggy's order, each under
isolation (:mod:`engine.core.plugin.isolation`), given the arguments it names.

A hook's implementations are found once per game, the first time the hook is called (the action
hooks are called for every action, ``on_turn_end`` every turn): the plugins are all registered
before a game is made, and a plugin that fails is switched off by isolation, not unregistered. An
implementation may take fewer arguments than its hook passes, as pluggy allows; it is given only
those it names.

:meth:`Hooks.call` calls them all (the event hooks: ``on_death``, ``on_turn_end``...);
:meth:`Hooks.answers` calls them one at a time, for a caller that judges each answer and may stop;
:meth:`Hooks.first`, the same walk to the first answer a judge takes (``on_action``'s first answer wins),
and :meth:`Hooks.tell`, :meth:`Hooks.call`'s, given the arguments in the hook's order (every action's
hooks: a call without a dict of arguments).

An implementation marked :func:`engine.player_only` (an ``on_action`` or ``after_action`` that only
cares about the player's actions) is left out of :meth:`Hooks.first` and :meth:`Hooks.tell` when
the caller says the action is not the player's (``by_player=False``): the caller keeps two lists of
each hook's implementations, made once, every one and those for anyone's action, so a monster's
action never calls a player-only one (nor asks whether it is one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from engine.core.plugin.isolation import PluginFailure, players
from engine.core.plugin.registry import PLAYER_ONLY

if TYPE_CHECKING:
    from engine.core.plugin.isolation import Isolation
    from engine.core.plugin.registry import Registry

# (plugin name, how a failure names it ("hook on_death"), the function, the argument names it takes)
Implementation = tuple[str, str, Any, tuple[str, ...]]
# as first and tell call them: (plugin name, how a failure names it, the function, the places of the
# arguments it takes, None for all of them in the spec's order)
Ordered = tuple[str, str, Any, tuple[int, ...] | None]


class Hooks:
    """The hook caller of one game: the registry's plugin manager, under the game's isolation."""

    def __init__(self, registry: Registry, isolation: Isolation) -> None:
        self.registry, self.isolation = registry, isolation
        self._found: dict[str, list[Implementation]] = {}
        self._in_order: dict[str, list[Ordered]] = {}
        self._for_anyone: dict[str, list[Ordered]] = {}  # the same, less those marked player_only
        # what a caller makes once per hook caller rather than at every call, by the caller's key
        # (naming's judge of an item's name, bound to this isolation: every item named asks for it)
        self.kept: dict[Any, Any] = {}

    def implementations(self, name: str) -> list[Implementation]:
        """Hook ``name``'s implementations, in the order pluggy calls them (the last registered first)."""
        found = self._found.get(name)
        if found is None:
            manager = self.registry.manager
            impls = getattr(manager.hook, name).get_hookimpls() if manager is not None else []
            where = f"hook {name}"
            found = self._found[name] = [(manager.get_name(impl.plugin), where, impl.function, tuple(impl.argnames))
                                         for impl in reversed(impls)]
        return found

    def call(self, name: str, **kwargs: Any) -> None:
        """Call every implementation of hook ``name`` (the answers are not read)."""
        found = self._found.get(name)
        if found is None:
            found = self.implementations(name)
        isolation = self.isolation
        for plugin, where, function, argnames in found:
            if plugin in isolation.off:
                continue
            try:  # isolation.call's guard, inline: after_action is every action's path (a crowd's every step)
                if len(argnames) == len(kwargs):  # it takes them all
                    function(**kwargs)
                else:
                    function(**{arg: kwargs[arg] for arg in argnames})
            except BaseException as e:  # noqa: BLE001 - a plugin's bug, SystemExit and KeyboardInterrupt included
                if plugin is None or isinstance(e, PluginFailure) or players(e):
                    raise
                isolation.fail(plugin, where, e)

    def in_order(self, name: str, by_player: bool = True) -> list[Ordered]:
        """Hook ``name``'s implementations as :meth:`first` and :meth:`tell` call them, with the
        arguments given positionally in the hook's spec's order: ``(plugin, where, function,
        picks)``, picks None for one that takes them all in that order (its parameters are the
        spec's: a plain call), else the places of those it takes. ``by_player`` False: without
        those marked :func:`engine.player_only` (the list a monster's action is heard by)."""
        found = (self._in_order if by_player else self._for_anyone).get(name)
        if found is None:
            manager = self.registry.manager
            spec = tuple(getattr(manager.hook, name).spec.argnames) if manager is not None else ()
            every = self._in_order[name] = [
                (plugin, where, function, None if argnames == spec else tuple(spec.index(a) for a in argnames))
                for plugin, where, function, argnames in self.implementations(name)]
            anyone = self._for_anyone[name] = [impl for impl in every if not getattr(impl[2], PLAYER_ONLY, False)]
            found = every if by_player else anyone
        return found

    def first(self, name: str, accept: Callable[[str, str, Any], bool], *args: Any, by_player: bool = True) -> Any:
        """The first answer of hook ``name``'s implementations, called in order (given ``args``, the
        hook's arguments in its spec's order) until one answers (not None) and ``accept(plugin,
        where, answer)`` takes it (a judge that may fail the plugin for a bad answer, and the next is
        asked); None when none does. :meth:`answers`' walk without a generator, nor a dict of
        arguments: ``on_action`` asks it for every action (a crowd's every step). ``by_player``
        False (a monster's action): those marked :func:`engine.player_only` are not asked."""
        found = (self._in_order if by_player else self._for_anyone).get(name)
        if found is None:
            found = self.in_order(name, by_player)
        isolation = self.isolation
        for plugin, where, function, picks in found:
            if plugin in isolation.off:
                continue
            try:  # isolation.call's guard, inline
                answer = function(*args) if picks is None else function(*[args[i] for i in picks])
            except BaseException as e:  # noqa: BLE001 - a plugin's bug, SystemExit and KeyboardInterrupt included
                if plugin is None or isinstance(e, PluginFailure) or players(e):
                    raise
                isolation.fail(plugin, where, e)
                continue
            if answer is not None and accept(plugin, where, answer):
                return answer
        return None

    def tell(self, name: str, *args: Any, by_player: bool = True) -> None:
        """:meth:`call`, given the hook's arguments in its spec's order (``after_action``: every
        action's path): :meth:`first` with a judge that takes no answer, so every implementation
        is called. ``by_player`` False (a monster's action): those marked
        :func:`engine.player_only` are not called."""
        self.first(name, _heard, *args, by_player=by_player)

    def answers(self, name: str, **kwargs: Any) -> Iterator[tuple[str, str, Any]]:
        """Call the implementations of hook ``name`` one at a time, as the caller asks for the next:
        ``(plugin, where, answer)`` each (``None`` from one switched off or that failed)."""
        found = self._found.get(name)
        if found is None:
            found = self.implementations(name)
        isolation = self.isolation
        for plugin, where, function, argnames in found:
            if plugin in isolation.off:
                yield plugin, where, None
                continue
            try:  # isolation.call's guard, inline: on_action is every action's path (a crowd's every step)
                answer = (function(**kwargs) if len(argnames) == len(kwargs)  # it takes them all
                          else function(**{arg: kwargs[arg] for arg in argnames}))
            except BaseException as e:  # noqa: BLE001 - a plugin's bug, SystemExit and KeyboardInterrupt included
                if plugin is None or isinstance(e, PluginFailure) or players(e):
                    raise
                isolation.fail(plugin, where, e)
                answer = None
            yield plugin, where, answer


def _heard(plugin: str, where: str, answer: Any) -> bool:
    """:meth:`Hooks.tell`'s judge: an answer is heard, never taken (the next is called)."""
    return False
