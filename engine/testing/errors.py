"""What a broken contract raises."""

from __future__ import annotations


class ContractError(AssertionError):
    """A plugin broke a contract: one line naming the plugin's registered name, the contract and
    the case. An ``AssertionError``, so pytest reports it as a failed assertion."""


def fail(subject: str, contract: str, case: str = "") -> ContractError:
    """``fov 'lantern': neighbours are visible: (3, 0) of (2, 1) is dark (map 4x3, radius 5)``."""
    return ContractError(f"{subject}: {contract}" + (f" ({case})" if case else ""))
