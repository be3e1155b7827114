"""What a broken contract raises."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from engine.core.plugin.isolation import PluginFailure, described, players, safe_repr
from engine.core.plugin.registry import PluginError
from engine.kit.fov import FovAlgorithm, ReachError
from engine.kit.mapgen import GenContext, GenerationError, GeneratorInfo
from engine.kit.path import Pathfinder

F = TypeVar("F", bound=Callable[..., Any])


class ContractError(AssertionError):
    """A plugin broke a contract: one line naming the plugin's registered name, the contract and
    the case. An ``AssertionError``, so pytest reports it as a failed assertion."""


def fail(subject: str, contract: str, case: str = "") -> ContractError:
    """``fov 'lantern': neighbours are visible: (3, 0) of (2, 1) is dark (map 4x3, radius 5)``."""
    return ContractError(f"{subject}: {contract}" + (f" ({case})" if case else ""))


ALLOW = "allow_plugin_errors=True lets a test of isolation itself go on"


def plugin_failures(game: Any, during: str, *, allow: bool = False) -> None:
    """Fail when a plugin nobody chose failed in ``game`` (during ``during``) and the engine's
    isolation switched it off (:attr:`engine.core.plugin.isolation.Isolation.failures`): in play that is
    one stderr line and the game goes on; in a test it is a bug to see. ``allow``: not a failure
    (a test of isolation itself)."""
    isolation = getattr(game, "isolation", None)
    if allow or isolation is None or not isolation.failures:
        return
    first = isolation.failures[0]
    reason = " ".join(str(first.error).split())[:200] or type(first.error).__name__
    also = "".join(f"; plugin {f.plugin!r} fails too, in {f.where}" for f in isolation.failures[1:])
    raise fail(f"plugin {first.plugin!r}", f"fails in {first.where}: {type(first.error).__name__}: {reason}",
               f"{during}{also}; {ALLOW}")


def _shown(arg: Any) -> str:
    if isinstance(arg, np.ndarray):
        return f"a {arg.shape[1]}x{arg.shape[0]} map" if arg.ndim == 2 else f"an array of shape {arg.shape}"
    if isinstance(arg, GenContext):
        return f"a {arg.width}x{arg.height} level at depth {arg.depth}"
    return safe_repr(arg, 60)


def _guard(subject: str, role: str, fn: Any) -> Any:
    """``fn`` (a plugin's own function) with what it raises, but a refusal, said as the contract
    it breaks, with what it was called with."""
    if fn is None or getattr(fn, "_guarded", False):
        return fn

    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        # a broken contract said already, or what a plugin's function may raise by its contract: a
        # refusal (a generator's params or size refused, an FOV's reference asked beyond its reach)
        except (ContractError, PluginError, GenerationError, ReachError):
            raise
        except BaseException as e:  # noqa: BLE001 - the plugin's function failed: its contract's failure
            if players(e):
                raise
            raise fail(subject, f"its {role} raises no exception, but raised {described(e)}",
                       "called with " + ", ".join(_shown(a) for a in args)) from e

    call._guarded = True  # type: ignore[attr-defined]
    call.__wrapped__ = fn  # type: ignore[attr-defined]
    return call


def guarded(subject: Any) -> Any:
    """A registered FOV, pathfinder or generator whose functions, when they raise, raise
    :class:`ContractError` naming it, the function and the case (anything else as it is)."""
    if isinstance(subject, FovAlgorithm):
        name = f"fov {subject.name!r}"
        return dataclasses.replace(subject, fn=_guard(name, "fn", subject.fn),
                                   python=_guard(name, "python reference", subject.python))
    if isinstance(subject, Pathfinder):
        name = f"pathfinder {subject.name!r}"
        return dataclasses.replace(subject, dijkstra_fn=_guard(name, "dijkstra", subject.dijkstra_fn),
                                   astar_fn=_guard(name, "astar", subject.astar_fn),
                                   python_dijkstra=_guard(name, "python dijkstra", subject.python_dijkstra),
                                   python_astar=_guard(name, "python astar", subject.python_astar))
    if isinstance(subject, GeneratorInfo):
        return dataclasses.replace(subject, fn=_guard(f"generator {subject.name!r}", "fn", subject.fn))
    return subject


def contract(check: F) -> F:
    """``check`` raising only :class:`ContractError`: what the engine raises when a plugin's result
    is refused (``BadResult``, a ``PluginError``), a chosen plugin fails in a game the check plays
    (``PluginFailure``), or the FOV, pathfinder or generator checked raises (:func:`guarded`)
    becomes a ContractError with one line, so a test author catches one type. (The original is its
    ``__cause__``.)"""

    @functools.wraps(check)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if args:
            args = (guarded(args[0]), *args[1:])
        try:
            return check(*args, **kwargs)
        except PluginFailure as e:
            reason = " ".join(str(e.error).split()) or type(e.error).__name__
            raise ContractError(f"plugin {e.plugin!r}: fails in {e.where}: {type(e.error).__name__}: {reason}") \
                from e
        except PluginError as e:
            raise ContractError(str(e)) from e

    return checked  # type: ignore[return-value]
