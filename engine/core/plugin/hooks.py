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

An implementation marked :func:`engine.hears` (or :func:`engine.player_only`: an ``on_action`` or
``after_action`` that says whose actions it cares about) carries its mark (a
:class:`~engine.core.plugin.registry.Hearing`) in the lists :meth:`Hooks.first` and
:meth:`Hooks.tell` walk; the caller gives them a judge (``heard``) that says, when the marked one's
turn comes, whether it hears this action, and one that does not is passed by without a call. What
the marks mean is the turn's (:mod:`engine.core.turn.hearing`), which knows the run; this module
only calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from engine.core.plugin.isolation import PluginFailure, players
from engine.core.plugin.registry import HEARS

if TYPE_CHECKING:
    from engine.core.plugin.isolation import Isolation
    from engine.core.plugin.registry import Hearing, Registry

# (plugin name, how a failure names it ("hook on_death"), the function, the argument names it takes)
Implementation = tuple[str, str, Any, tuple[str, ...]]
# as first and tell call them: (plugin name, how a failure names it, the function, the places of the
# arguments it takes, None for all of them in the spec's order, its engine.hears mark or None)
Ordered = tuple[str, str, Any, "tuple[int, ...] | None", "Hearing | None"]
# first's and tell's judge of a marked implementation: heard(mark, *the hook's arguments)
Judge = Callable[..., bool]


class Hooks:
    """The hook caller of one game: the registry's plugin manager, under the game's isolation."""

    def __init__(self, registry: Registry, isolation: Isolation) -> None:
        self.registry, self.isolation = registry, isolation
        self._found: dict[str, list[Implementation]] = {}
        self._in_order: dict[str, list[Ordered]] = {}
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

    def in_order(self, name: str) -> list[Ordered]:
        """Hook ``name``'s implementations as :meth:`first` and :meth:`tell` call them, with the
        arguments given positionally in the hook's spec's order: ``(plugin, where, function,
        picks, mark)``, picks None for one that takes them all in that order (its parameters are
        the spec's: a plain call), else the places of those it takes; mark its
        :func:`engine.hears` (None: it hears every call)."""
        found = self._in_order.get(name)
        if found is None:
            manager = self.registry.manager
            spec = tuple(getattr(manager.hook, name).spec.argnames) if manager is not None else ()
            found = self._in_order[name] = [
                (plugin, where, function, None if argnames == spec else tuple(spec.index(a) for a in argnames),
                 getattr(function, HEARS, None))
                for plugin, where, function, argnames in self.implementations(name)]
        return found

    def first(self, name: str, accept: Callable[[str, str, Any], bool], *args: Any, heard: Judge | None = None) -> Any:
        """The first answer of hook ``name``'s implementations, called in order (given ``args``, the
        hook's arguments in its spec's order) until one answers (not None) and ``accept(plugin,
        where, answer)`` takes it (a judge that may fail the plugin for a bad answer, and the next is
        asked); None when none does. :meth:`answers`' walk without a generator, nor a dict of
        arguments: ``on_action`` asks it for every action (a crowd's every step). An implementation
        marked :func:`engine.hears` is called only when ``heard(mark, *args)`` says it hears them,
        asked when its turn comes (``heard`` None: every one is called)."""
        found = self._in_order.get(name)
        if found is None:
            found = self.in_order(name)
        isolation = self.isolation
        for plugin, where, function, picks, mark in found:
            if plugin in isolation.off or (mark is not None and heard is not None and not heard(mark, *args)):
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

    def tell(self, name: str, *args: Any, heard: Judge | None = None) -> None:
        """:meth:`call`, given the hook's arguments in its spec's order (``after_action``: every
        action's path): :meth:`first` with a judge that takes no answer, so every implementation
        is called (a marked one when ``heard`` says it hears them, as :meth:`first`)."""
        self.first(name, _heard, *args, heard=heard)

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
