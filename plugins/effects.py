"""The default item effects: healing and gold."""

from engine import Fighter, Inventory, hookimpl


def heal(game, entity, kind, amount):
    """Heal ``params.amount`` HP per item, never above max."""
    fighter = game.world.get(entity, Fighter)
    fighter.hp = min(fighter.max_hp, fighter.hp + int(kind.params.get("amount", 8)) * amount)
    return game.rules.message("drink", item=kind.name)


def gold(game, entity, kind, amount):
    game.world.get(entity, Inventory).gold += amount
    return game.rules.message("pickup_gold", amount=amount)


@hookimpl
def register_effects(register):
    register("heal", heal)
    register("gold", gold)
