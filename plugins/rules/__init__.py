"""The default game's rules: content kinds, monster behaviours, item effects, statuses, growth and loot."""
