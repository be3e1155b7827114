"""Game presets and their rulesets (``register_games`` with the TOML under ``content/games``)."""
