"""What a broken contract raises."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from engine.core.plugin.isolation import PluginFailure
from engine.core.plugin.registry import PluginError

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


def contract(check: F) -> F:
    """``check`` raising only :class:`ContractError`: what the engine raises when a plugin's result
    is refused (``BadResult``, a ``PluginError``) or a chosen plugin fails in a game the check plays
    (``PluginFailure``) becomes a ContractError with the same one line, so a test author catches one
    type. (The original is its ``__cause__``.)"""

    @functools.wraps(check)
    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            return check(*args, **kwargs)
        except PluginFailure as e:
            reason = " ".join(str(e.error).split()) or type(e.error).__name__
            raise ContractError(f"plugin {e.plugin!r}: fails in {e.where}: {type(e.error).__name__}: {reason}") \
                from e
        except PluginError as e:
            raise ContractError(str(e)) from e

    return checked  # type: ignore[return-value]
