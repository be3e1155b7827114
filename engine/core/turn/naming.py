"""An item as the player knows it: the one place that names and describes an item for the player.

An item's kind (``Item.kind``, an ``ItemKind``'s ``name``) is what it is; what the player is told it
is may differ (the default game's unknown potions: "murky potion"). Every place that shows the
player an item (the pack and its menus, look, the sidebar, the messages, ``--dump json``'s
``name``, the morgue) asks here, and here asks the plugins' ``item_name`` and
``item_description`` hooks (the first answer wins); with no plugin answering, the kind's own
``name`` and ``description``, as before. The window draws an item the same way: in the colour
``item_color`` answers for its kind (else the kind's ``color``), and on a tileset as the kind the
player knows it by (:func:`shown_kind`): an unknown potion never shows its kind by its colour.
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


def item_color(run: Run, kind: ItemKind) -> tuple[int, int, int]:
    """The colour the player sees items of ``kind`` in: the first ``item_color`` answer, else the
    kind's ``color``. The answers are kept while ``names_version`` stays the same (a frame draws
    every item in view and every one remembered): at most one a kind."""
    colors = _kept(run, "item_color")
    if colors is None:
        return kind.color[:3]
    got: tuple[int, int, int] | None = colors.get(kind.name)
    if got is None:
        hooks = run.hooks
        answer = hooks.first("item_color", partial(_a_color, hooks.isolation), run.api, kind)  # type: ignore[union-attr]
        got = colors[kind.name] = tuple(answer) if answer is not None else kind.color[:3]
    return got


def shown_kind(run: Run, kind: ItemKind) -> str:
    """The name a tileset draws items of ``kind`` by: the kind's own name, or, for a kind the player
    knows by another (an unknown potion), that name (``item_name`` for the kind alone), so that its
    shape does not give it away either. Kept as :func:`item_color`'s answers are."""
    names = _kept(run, "item_name")
    if names is None:
        return kind.name
    got: str | None = names.get(kind.name)
    if got is None:
        got = names[kind.name] = item_name(run, None, kind)
    return got


def _kept(run: Run, hook: str) -> dict[str, Any] | None:
    """The answers of ``hook`` for the kinds, kept while the run's ``names_version`` stays the
    same; None when no plugin implements it (the classic presets: nothing asked, nothing kept)."""
    hooks = run.hooks
    if hooks is None or not hooks.implementations(hook):
        return None
    kept = hooks.kept.get(("kinds", hook))
    if kept is None or kept[0] != run.names_version:
        kept = hooks.kept[("kinds", hook)] = (run.names_version, {})
    return kept[1]  # type: ignore[no-any-return]


def _a_color(isolation: Isolation, plugin: str, where: str, answer: Any) -> bool:
    """Whether a plugin's answer is a colour (r, g, b ints 0-255); if not, the plugin fails for it."""
    if isinstance(answer, tuple | list) and len(answer) == 3 and all(
            type(c) is int and 0 <= c <= 255 for c in answer):
        return True
    isolation.check(plugin, where, False, f"returned {safe_repr(answer)}, not a colour (r, g, b ints 0-255) or None")
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
