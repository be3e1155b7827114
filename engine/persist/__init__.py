"""What the game keeps on disk: the file layer, the run save, the profile, replays and morgue files."""
