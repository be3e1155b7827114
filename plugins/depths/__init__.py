"""The default game's deeper dungeon, built as plugins through the public registration hooks only
(terrain, statuses, verbs, loot rows, commands, events), so that it is the proof a third party
could have written it. Each module is one feature; a feature acts in a preset only when the preset
gives it its numbers (``[params.NAME]`` in the preset's TOML): the default game does, the classic
presets do not, so their games are unchanged.
"""
