"""The default item effects: healing and gold. An effect is given the game API (``engine.GameAPI``)."""

from engine import Inventory, hookimpl


def heal(game, entity, kind, amount):
    """Heal ``params.amount`` HP per item, never above max."""
    game.heal(entity, int(kind.params.get("amount", 8)) * amount)
    return game.rules.message("drink", item=kind.name)


def gold(game, entity, kind, amount):
    game.component(entity, Inventory).gold += amount
    return game.rules.message("pickup_gold", amount=amount)


@hookimpl
def register_effects(register):
    register("heal", heal)
    register("gold", gold)
