"""An item as the player knows it: the one place that names and describes an item for the player.

An item's kind (``Item.kind``, an ``ItemKind``'s ``name``) is what it is; what the player is told it
is may differ (the default game's unknown potions: "murky potion"). Every place that shows the
player an item (the pack and its menus, look, the sidebar, the messages, ``--dump json``'s
``name``, the morgue) asks here, and here asks the plugins' ``item_name`` and
``item_description`` hooks (the first answer wins); with no plugin answering, the kind's own
``name`` and ``description``, as before.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from engine.core.model.components import Item
from engine.core.plugin.isolation import safe_repr

if TYPE_CHECKING:
    from engine.core.kinds.content import ItemKind
    from engine.core.plugin.isolation import Isolation
    from engine.core.turn.run import Run


def _asked(run: Run, hook: str, item: int | None, kind: ItemKind) -> str | None:
    hooks = run.hooks
    if hooks is None or not hooks.implementations(hook):  # the classic presets' every frame: no call at all
        return None
    judge = hooks.kept.get(_a_name)
    if judge is None:  # one per game's hooks, not one per name asked
        judge = hooks.kept[_a_name] = partial(_a_name, hooks.isolation)
    return hooks.first(hook, judge, run.api, item, kind)  # type: ignore[no-any-return]


def _a_name(isolation: Isolation, plugin: str, where: str, answer: Any) -> bool:
    """Whether a plugin's answer is a name (a non-empty str); if not, the plugin fails for it."""
    if isinstance(answer, str) and answer.strip():
        return True
    isolation.check(plugin, where, False, f"returned {safe_repr(answer)}, not a name (a non-empty str) or None")
    return False


def item_name(run: Run, item: int | None, kind: ItemKind) -> str:
    """What the player calls ``item`` (of ``kind``; None: an item of it remembered, or a kind alone)."""
    return _asked(run, "item_name", item, kind) or kind.name


def item_description(run: Run, item: int | None, kind: ItemKind) -> str:
    """What the player is told ``item`` (of ``kind``) does: the kind's description, unless a plugin
    says otherwise (an unknown potion: "You do not know what it does.")."""
    return _asked(run, "item_description", item, kind) or kind.description


def of_entity(run: Run, item: int) -> str:
    """The name of a carried or lying item entity (its kind: ``inventory.kind``, inline on this hot path)."""
    return item_name(run, item, run.registry.items[run.world.get(item, Item).kind])


def dump_fields(run: Run, item: int, kind: ItemKind) -> dict[str, Any]:
    """``--dump json``'s ``name`` of an item: only where the player knows it by another name than
    its kind (so a game without such a plugin dumps what it always did)."""
    name = item_name(run, item, kind)
    return {"name": name} if name != kind.name else {}
