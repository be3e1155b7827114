"""The one way a game calls its plugins' hooks: every implementation, in pluggy's order, each under
isolation (:mod:`engine.core.plugin.isolation`), given the arguments it names.

A hook's implementations are found once per game, the first time the hook is called (the action
hooks are called for every action, ``on_turn_end`` every turn): the plugins are all registered
before a game is made, and a plugin that fails is switched off by isolation, not unregistered. An
implementation may take fewer arguments than its hook passes, as pluggy allows; it is given only
those it names.

:meth:`Hooks.call` calls them all (the event hooks: ``on_death``, ``on_turn_end``...);
:meth:`Hooks.answers` calls them one at a time, for a caller that judges each answer and may stop
(``on_action``'s first answer wins).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from engine.core.plugin.isolation import PluginFailure, players

if TYPE_CHECKING:
    from engine.core.plugin.isolation import Isolation
    from engine.core.plugin.registry import Registry

# (plugin name, how a failure names it ("hook on_death"), the function, the argument names it takes)
Implementation = tuple[str, str, Any, tuple[str, ...]]


class Hooks:
    """The hook caller of one game: the registry's plugin manager, under the game's isolation."""

    def __init__(self, registry: Registry, isolation: Isolation) -> None:
        self.registry, self.isolation = registry, isolation
        self._found: dict[str, list[Implementation]] = {}

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
        isolation, count = self.isolation, len(kwargs)
        for plugin, where, function, argnames in found:
            if plugin in isolation.off:
                continue
            try:  # isolation.call's guard, inline: on_turn_end and after_action are every turn's
                if len(argnames) == count:  # it takes them all
                    function(**kwargs)
                else:
                    function(**{arg: kwargs[arg] for arg in argnames})
            except BaseException as e:  # noqa: BLE001 - a plugin's bug, SystemExit and KeyboardInterrupt included
                if plugin is None or isinstance(e, PluginFailure) or players(e):
                    raise
                isolation.fail(plugin, where, e)

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

    def first(self, name: str, accept: Callable[[Isolation, str, str, Any], Any], **kwargs: Any) -> Any:
        """What :meth:`answers` gives, without a generator (a hook asked hundreds of thousands of
        times a bot run: ``item_name``): each implementation's answer that is not None goes to
        ``accept(isolation, plugin, where, answer)``, and the first it does not turn into None is
        returned (None when there is none). The same calls, in the same order, under the same guard."""
        found = self._found.get(name)
        if found is None:
            found = self.implementations(name)
        isolation = self.isolation
        count = len(kwargs)
        for plugin, where, function, argnames in found:
            if plugin in isolation.off:
                continue
            try:
                answer = (function(**kwargs) if len(argnames) == count
                          else function(**{arg: kwargs[arg] for arg in argnames}))
            except BaseException as e:  # noqa: BLE001 - a plugin's bug, SystemExit and KeyboardInterrupt included
                if plugin is None or isinstance(e, PluginFailure) or players(e):
                    raise
                isolation.fail(plugin, where, e)
                continue
            if answer is not None:
                accepted = accept(isolation, plugin, where, answer)
                if accepted is not None:
                    return accepted
        return None
